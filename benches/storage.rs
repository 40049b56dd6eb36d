//! Storage benchmark (the storage table of README.md, *Benchmarks*): `cargo bench --bench
//! storage [-- N]`.
//!
//! In one run, on this machine's disk, it measures
//! * single-column inserts/s and point gets/s through `cf`, against raw sled doing the same
//!   puts and gets (same keys and values, same sled settings) — goal: cf ≥ 60% of raw sled;
//! * 100-column slice reads/s through `cf`;
//! * acknowledged writes/s with 50 concurrent writers in batch mode (group commit, fsync)
//!   against periodic mode — goal: batch ≥ 40% of periodic.
//!
//! Figures are ratios measured side by side; the machine is shared, so absolute numbers vary.

use ilion::cf::{Db, DbOptions};
use ilion::comparator::Comparator;
use ilion::config::{CfDef, ColumnType, KeyspaceDef, Schema};
use ilion::model::Cell;
use ilion::model::{Change, Column, ColumnParent, Predicate, RowMutation, SliceRange};
use ilion::partitioner::Partitioner;
use ilion::storage::{CfLayout, SledEngine, SyncPolicy};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A failed benchmark run: any error ends it with a message (`main` returns it).
type BenchResult<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

const KS: &str = "Keyspace1";
const CACHE: u64 = 128 << 20;

fn schema() -> Arc<Schema> {
    let def = CfDef {
        name: "Standard1".into(),
        column_type: ColumnType::Standard,
        comparator: Comparator::Bytes,
        subcomparator: None,
        comment: None,
        later: Default::default(),
    };
    let ks = KeyspaceDef {
        name: KS.into(),
        replication_factor: 1,
        replica_placement_strategy: "org.apache.cassandra.locator.RackUnawareStrategy".into(),
        endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".into(),
        column_families: [("Standard1".to_string(), def)].into_iter().collect(),
        strategy_options: Default::default(),
        durable_writes: true,
    };
    Arc::new(Schema {
        keyspaces: [(KS.to_string(), ks)].into_iter().collect(),
    })
}

fn open_db(dir: &std::path::Path, sync: SyncPolicy) -> BenchResult<Db> {
    let engine = Arc::new(SledEngine::open(dir, CACHE)?);
    let options = DbOptions {
        partitioner: Partitioner::Random,
        sync,
        gc_grace_seconds: 864_000,
        initial_token: None,
        chunk_bytes: ilion::storage::MAX_CHUNK_BYTES,
        clock: ilion::cf::system_clock(),
    };
    Ok(Db::open(engine, schema(), options)?)
}

fn insert(key: String, name: &[u8], value: &[u8], ts: i64) -> RowMutation {
    let column = Column {
        name: name.to_vec(),
        value: value.to_vec(),
        timestamp: ts,
        ttl: None,
    };
    RowMutation {
        keyspace: KS.into(),
        key: key.into_bytes(),
        changes: vec![(
            "Standard1".into(),
            vec![Change::Insert {
                super_column: None,
                column,
            }],
        )],
    }
}

fn rate(n: usize, elapsed: Duration) -> f64 {
    n as f64 / elapsed.as_secs_f64()
}

const VALUE: [u8; 34] = [b'v'; 34];
const PERIODIC: SyncPolicy = SyncPolicy::Periodic(Duration::from_secs(10));

/// Raw sled doing the same puts and gets as `cf_single`: the very key and value bytes ilion
/// stores (precomputed, so only sled's own work is timed), one at a time.
fn raw_sled(n: usize) -> BenchResult<(f64, f64)> {
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
    let entries: Vec<(Vec<u8>, Vec<u8>)> = (0..n)
        .map(|i| layout.column_entry(format!("key{i}").as_bytes(), b"C0", &cell))
        .collect();
    let start = Instant::now();
    for (key, value) in &entries {
        db.insert(key, value.as_slice())?;
    }
    let inserts = rate(n, start.elapsed());
    let start = Instant::now();
    for (key, _) in &entries {
        assert!(db.get(key)?.is_some());
    }
    Ok((inserts, rate(n, start.elapsed())))
}

fn cf_single(n: usize) -> BenchResult<(f64, f64, f64)> {
    let dir = tempfile::tempdir()?;
    let db = open_db(dir.path(), PERIODIC)?;
    let start = Instant::now();
    for i in 0..n {
        db.apply(insert(format!("key{i}"), b"C0", &VALUE, 1))?;
    }
    let inserts = rate(n, start.elapsed());
    let start = Instant::now();
    for i in 0..n {
        db.get(
            KS,
            format!("key{i}").as_bytes(),
            "Standard1",
            None,
            Some(b"C0"),
        )?;
    }
    let gets = rate(n, start.elapsed());

    // 100-column rows, read whole.
    let rows = 1000;
    for r in 0..rows {
        let changes = (0..100)
            .map(|c| {
                let column = Column {
                    name: format!("c{c:03}").into_bytes(),
                    value: VALUE.to_vec(),
                    timestamp: 1,
                    ttl: None,
                };
                Change::Insert {
                    super_column: None,
                    column,
                }
            })
            .collect();
        db.apply(RowMutation {
            keyspace: KS.into(),
            key: format!("wide{r}").into_bytes(),
            changes: vec![("Standard1".to_string(), changes)],
        })?;
    }
    let parent = ColumnParent {
        column_family: "Standard1".into(),
        super_column: None,
    };
    let predicate = Predicate::Range(SliceRange {
        count: 100,
        ..SliceRange::all()
    });
    let reads = 20_000;
    let start = Instant::now();
    for i in 0..reads {
        let got = db.get_slice(
            KS,
            format!("wide{}", i % rows).as_bytes(),
            &parent,
            &predicate,
        )?;
        assert_eq!(got.len(), 100);
    }
    Ok((inserts, gets, rate(reads, start.elapsed())))
}

/// Acknowledged writes/s with `writers` threads for `duration`.
fn concurrent_writes(sync: SyncPolicy, writers: usize, duration: Duration) -> BenchResult<f64> {
    let dir = tempfile::tempdir()?;
    let db = Arc::new(open_db(dir.path(), sync)?);
    let start = Instant::now();
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let db = Arc::clone(&db);
            std::thread::spawn(move || -> BenchResult<usize> {
                let mut n = 0usize;
                while start.elapsed() < duration {
                    db.apply(insert(format!("w{w}-{n}"), b"C0", &VALUE, 1))?
                        .wait()?;
                    n += 1;
                }
                Ok(n)
            })
        })
        .collect();
    let mut total = 0;
    for thread in threads {
        total += thread.join().map_err(|_| "a writer thread panicked")??;
    }
    Ok(rate(total, start.elapsed()))
}

fn main() -> BenchResult<()> {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200_000);
    println!("ilion storage benchmark: {n} single-column operations, 34-byte values");
    let (raw_ins, raw_get) = raw_sled(n)?;
    let (cf_ins, cf_get, slices) = cf_single(n)?;
    println!(
        "{:<40} {:>12} {:>12} {:>8}",
        "operation", "cf ops/s", "sled ops/s", "ratio"
    );
    println!(
        "{:<40} {:>12.0} {:>12.0} {:>7.0}%",
        "single-column insert",
        cf_ins,
        raw_ins,
        100.0 * cf_ins / raw_ins
    );
    println!(
        "{:<40} {:>12.0} {:>12.0} {:>7.0}%",
        "point get",
        cf_get,
        raw_get,
        100.0 * cf_get / raw_get
    );
    println!("{:<40} {:>12.0}", "100-column slice read", slices);
    let window = Duration::from_millis(1);
    let secs = Duration::from_secs(5);
    let periodic = concurrent_writes(PERIODIC, 50, secs)?;
    let batch = concurrent_writes(SyncPolicy::Batch(window), 50, secs)?;
    println!(
        "{:<40} {:>12} {:>12} {:>8}",
        "50 concurrent writers", "batch", "periodic", "ratio"
    );
    println!(
        "{:<40} {:>12.0} {:>12.0} {:>7.0}%",
        "acknowledged writes/s (window 1 ms)",
        batch,
        periodic,
        100.0 * batch / periodic
    );
    Ok(())
}
