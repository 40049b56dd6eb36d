//! The storage ceiling under `ilion stress -o insert` (bench/README.md): the same rows — keys
//! `000000`…, columns C0..C4 of 34 bytes — written in-process with no network, from the same
//! number of threads as the server's tokio workers, by
//! * `cf`: `Db::apply`, exactly what the service calls (periodic mode), and
//! * `sled`: raw sled `apply_batch` of the very keys and values ilion stores, without the
//!   read-before-write and bookkeeping of `cf`;
//!
//! both with the node's 64 MiB sled cache. Prints one JSON object per line, for bench/run.sh.
//!
//! `cargo bench --bench stress_ceiling [-- ROWS [THREADS]]` (defaults 200000, nproc)

use ilion::cf::{Db, DbOptions};
use ilion::comparator::Comparator;
use ilion::config::Config;
use ilion::model::{Cell, Change, Column, RowMutation};
use ilion::partitioner::Partitioner;
use ilion::storage::{CfLayout, SledEngine, SyncPolicy};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A failed benchmark run: any error ends it with a message (`main` returns it).
type BenchResult<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// As `node::SLED_CACHE_BYTES`.
const CACHE: u64 = 64 << 20;
const VALUE: [u8; 34] = [b'v'; 34];
const COLUMNS: usize = 5;

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

fn report(what: &str, rows_per_s: f64, dir: &Path) {
    println!(
        "{{\"what\": \"{what}\", \"rows_per_s\": {rows_per_s:.0}, \"disk_kib\": {}}}",
        dir_kib(dir)
    );
}

fn cf(n: u64, threads: u64) -> BenchResult<()> {
    let dir = tempfile::tempdir()?;
    let text = std::fs::read_to_string("conf/storage-conf.xml").expect("run from the repository");
    let config = Config::from_xml(&text, dir.path(), dir.path())?;
    let engine = Arc::new(SledEngine::open(dir.path(), CACHE)?);
    let options = DbOptions {
        partitioner: Partitioner::Random,
        sync: SyncPolicy::Periodic(Duration::from_secs(10)),
        gc_grace_seconds: 864_000,
        initial_token: None,
        chunk_bytes: ilion::storage::MAX_CHUNK_BYTES,
        clock: ilion::cf::system_clock(),
    };
    let db = Db::open(engine, Arc::new(config.schema.clone()), options)?;
    let rate = timed(n, threads, |i| {
        let changes = (0..COLUMNS)
            .map(|c| {
                let column = Column {
                    name: format!("C{c}").into_bytes(),
                    value: VALUE.to_vec(),
                    timestamp: 1,
                };
                Change::Insert {
                    super_column: None,
                    column,
                }
            })
            .collect();
        let mutation = RowMutation {
            keyspace: "Keyspace1".into(),
            key: format!("{i:06}"),
            changes: vec![("Standard1".to_string(), changes)],
        };
        db.apply(&mutation)?;
        Ok(())
    })?;
    db.close()?;
    report("cf Db::apply", rate, dir.path());
    Ok(())
}

fn raw_sled(n: u64, threads: u64) -> BenchResult<()> {
    let dir = tempfile::tempdir()?;
    let db = sled::Config::new()
        .path(dir.path())
        .cache_capacity(CACHE)
        .flush_every_ms(None)
        .mode(sled::Mode::HighThroughput)
        .open()?;
    let layout = CfLayout {
        id: 1,
        partitioner: Partitioner::Random,
        comparator: Comparator::Bytes,
        subcomparator: None,
    };
    let cell = Cell::Live {
        value: VALUE.to_vec(),
        timestamp: 1,
    };
    let rate = timed(n, threads, |i| {
        let row = format!("{i:06}");
        let mut batch = sled::Batch::default();
        for c in 0..COLUMNS {
            let name = format!("C{c}");
            let (key, value) = layout.column_entry(&row, name.as_bytes(), &cell);
            batch.insert(key, value);
        }
        db.apply_batch(batch)?;
        Ok(())
    })?;
    db.flush()?;
    report("raw sled apply_batch", rate, dir.path());
    Ok(())
}

fn main() -> BenchResult<()> {
    // `cargo bench` passes --bench; skip flags.
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let n = args.next().map_or(200_000, |s| s.parse().expect("ROWS"));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get() as u64);
    let threads = args.next().map_or(cores, |s| s.parse().expect("THREADS"));
    cf(n, threads)?;
    raw_sled(n, threads)
}
