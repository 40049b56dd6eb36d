//! The storage ceiling under `ilion stress -o insert` (bench/README.md): the same rows — keys
//! `000000`…, columns C0..C4 of 34 bytes — written in-process with no network, from as many
//! threads as the machine has cores, through `Db::apply`, exactly what the service calls, on a
//! store opened as the node opens it (`node::open_db` on the sample config, periodic sync),
//! once per engine. The ratio of ilion's rate over the wire to this one is what the network,
//! the protocol and the client sharing the cores cost. Prints one JSON object per line, for
//! bench/run.sh.
//!
//! `cargo bench --bench stress_ceiling [-- ROWS [THREADS]]` (defaults 200000, nproc)

use ilion::cf::Db;
use ilion::config::Config;
use ilion::model::{Change, Column, RowMutation};
use std::path::Path;
use std::time::Instant;

/// A failed benchmark run: any error ends it with a message (`main` returns it).
type BenchResult<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

const VALUE: [u8; 34] = [b'v'; 34];
const COLUMNS: usize = 5;
const ENGINES: [&str; 2] = ["sled", "fjall"];

/// Runs `write(row)` for rows 0..n spread over `threads` threads; rows per second.
fn timed(n: u64, threads: u64, write: impl Fn(u64) -> BenchResult<()> + Sync) -> BenchResult<f64> {
    let start = Instant::now();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let write = &write;
                s.spawn(move || (t..n).step_by(threads as usize).try_for_each(write))
            })
            .collect();
        for worker in workers {
            worker.join().map_err(|_| "a writer thread panicked")??;
        }
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    })?;
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

fn dir_kib(p: &Path) -> u64 {
    let entries = std::fs::read_dir(p).map(|d| d.flatten().collect::<Vec<_>>());
    entries
        .unwrap_or_default()
        .iter()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_kib(&e.path()),
            Ok(m) => m.len() / 1024,
            Err(_) => 0,
        })
        .sum()
}

/// The sample config with its data under `dir`, on `engine`, periodic sync (as bench/run.sh).
fn config(dir: &Path, engine: &str) -> BenchResult<Config> {
    let text = std::fs::read_to_string("conf/storage-conf.xml").expect("run from the repository");
    let data = dir.join("data");
    let text = text
        .replace("data/commitlog", &dir.join("commitlog").to_string_lossy())
        .replace("data/data", &data.to_string_lossy())
        .replace("data/saved_caches", &dir.join("caches").to_string_lossy())
        .replace(
            "<StorageEngine>sled</StorageEngine>",
            &format!("<StorageEngine>{engine}</StorageEngine>"),
        );
    let config = Config::from_xml(&text, dir, dir)?;
    // The sample must still have the lines edited here.
    if config.data_file_directories.first() != Some(&data)
        || !text.contains(&format!("<StorageEngine>{engine}</StorageEngine>"))
    {
        return Err("the sample config no longer names data/data or <StorageEngine>sled".into());
    }
    Ok(config)
}

fn mutation(i: u64) -> RowMutation {
    let changes = (0..COLUMNS)
        .map(|c| Change::Insert {
            super_column: None,
            column: Column {
                name: format!("C{c}").into_bytes(),
                value: VALUE.to_vec(),
                timestamp: 1,
                ttl: None,
            },
        })
        .collect();
    RowMutation {
        keyspace: "Keyspace1".into(),
        key: format!("{i:06}").into_bytes(),
        changes: vec![("Standard1".to_string(), changes)],
    }
}

fn ceiling(engine: &str, n: u64, threads: u64) -> BenchResult<()> {
    let dir = tempfile::tempdir()?;
    let db: std::sync::Arc<Db> = ilion::node::open_db(&config(dir.path(), engine)?)?;
    let rate = timed(n, threads, |i| Ok(db.apply(mutation(i)).map(drop)?))?;
    db.close()?;
    println!(
        "{{\"what\": \"cf Db::apply, {engine}\", \"engine\": \"{engine}\", \"rows_per_s\": {rate:.0}, \"disk_kib\": {}}}",
        dir_kib(dir.path())
    );
    Ok(())
}

fn main() -> BenchResult<()> {
    // `cargo bench` passes --bench; skip flags.
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let n = args.next().map_or(200_000, |s| s.parse().expect("ROWS"));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get() as u64);
    let threads = args.next().map_or(cores, |s| s.parse().expect("THREADS"));
    for engine in std::env::var("ENGINES")
        .as_deref()
        .unwrap_or("sled fjall")
        .split_whitespace()
    {
        if !ENGINES.contains(&engine) {
            return Err(format!("unknown engine {engine} (sled or fjall)").into());
        }
        ceiling(engine, n, threads)?;
    }
    Ok(())
}
