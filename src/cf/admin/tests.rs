//! The operator actions on a database with a hand-driven clock: scan statistics, compact of
//! chosen CFs after the grace period, drain, and a snapshot that opens as a database.

use super::super::*;
use super::{CfScan, CfSelection, DRAINED};
use crate::comparator::Comparator;
use crate::config::{CfDef, ColumnType, KeyspaceDef};
use crate::model::{Change, Column, RowMutation};
use crate::storage::{MemoryEngine, SledEngine};
use std::sync::atomic::{AtomicU32, Ordering};

const KS: &str = "Keyspace1";

fn schema() -> Arc<Schema> {
    let cf = |name: &str| CfDef {
        name: name.into(),
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
        strategy_options: Default::default(),
        durable_writes: true,
        column_families: ["Standard1", "Standard2"]
            .into_iter()
            .map(|n| (n.to_string(), cf(n)))
            .collect(),
    };
    Arc::new(Schema {
        keyspaces: [(KS.to_string(), ks)].into_iter().collect(),
    })
}

fn options(clock: &Arc<AtomicU32>) -> DbOptions {
    let c = Arc::clone(clock);
    DbOptions {
        partitioner: Partitioner::OrderPreserving,
        sync: SyncPolicy::Periodic(std::time::Duration::from_secs(60)),
        gc_grace_seconds: 100,
        initial_token: None,
        chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
        clock: Arc::new(move || c.load(Ordering::SeqCst)),
    }
}

fn db() -> (Db, Arc<AtomicU32>) {
    let clock = Arc::new(AtomicU32::new(1_000_000));
    let db = Db::open(Arc::new(MemoryEngine::new()), schema(), options(&clock)).unwrap();
    (db, clock)
}

fn write(db: &Db, cf: &str, key: &str, change: Change) -> crate::error::Result<()> {
    let mutation = RowMutation {
        keyspace: KS.into(),
        key: key.into(),
        changes: vec![(cf.into(), vec![change])],
    };
    db.apply(mutation).map(drop)
}

fn ins(name: &str) -> Change {
    Change::Insert {
        super_column: None,
        column: Column {
            name: name.into(),
            value: b"value".to_vec(),
            timestamp: 1,
            ttl: None,
        },
    }
}

fn del(name: &str) -> Change {
    Change::DeleteColumn {
        super_column: None,
        name: name.into(),
        timestamp: 2,
    }
}

fn only(cf: &str) -> CfSelection {
    CfSelection {
        keyspace: Some(KS.into()),
        cfs: vec![cf.into()],
    }
}

#[test]
fn a_scan_counts_live_rows_columns_and_tombstones() {
    let (db, _) = db();
    for key in ["a", "b", "c"] {
        write(&db, "Standard1", key, ins("x")).unwrap();
        write(&db, "Standard1", key, ins("y")).unwrap();
    }
    write(&db, "Standard1", "c", del("x")).unwrap();
    write(&db, "Standard1", "c", del("y")).unwrap();
    let stats = db.scan_stats(&only("Standard1")).unwrap();
    assert_eq!(stats.len(), 1);
    let s = &stats[0];
    assert_eq!((s.live_rows, s.live_columns, s.tombstones), (2, 4, 2));
    assert!(s.bytes > 0);
    let all = db.scan_stats(&CfSelection::default()).unwrap();
    assert!(all.iter().any(|s| s.cf == "Standard2" && s.bytes == 0));
    let unknown = db.scan_stats(&only("Nope"));
    assert!(matches!(unknown, Err(crate::Error::InvalidRequest(m)) if m.contains("Nope")));
}

/// The estimates of one CF, as `/metrics` shows them.
fn estimate(db: &Db, cf: &str) -> CfScan {
    let all = db.estimated_stats().unwrap();
    all.into_iter().find(|s| s.cf == cf).unwrap()
}

#[test]
fn estimates_follow_writes_without_a_scan() {
    let (db, clock) = db();
    write(&db, "Standard1", "old", ins("x")).unwrap();
    // The first estimate counts the CF once; later ones add the write path's changes.
    assert_eq!(estimate(&db, "Standard1").live_rows, 1);
    for key in ["a", "b", "c"] {
        write(&db, "Standard1", key, ins("x")).unwrap();
        write(&db, "Standard1", key, ins("y")).unwrap();
    }
    // An overwrite, a column tombstone, a row delete with a later insert into the row.
    write(&db, "Standard1", "a", ins("x")).unwrap();
    write(&db, "Standard1", "b", del("x")).unwrap();
    let row_delete = Change::DeleteRow { timestamp: 3 };
    write(&db, "Standard1", "c", row_delete.clone()).unwrap();
    write(&db, "Standard1", "old", row_delete).unwrap();
    let later = Change::Insert {
        super_column: None,
        column: Column {
            name: b"z".to_vec(),
            value: b"later".to_vec(),
            timestamp: 4,
            ttl: None,
        },
    };
    write(&db, "Standard1", "c", later).unwrap();
    let guessed = estimate(&db, "Standard1");
    let counted = db.scan_stats(&only("Standard1")).unwrap().remove(0);
    assert_eq!(
        (counted.live_rows, counted.live_columns, counted.tombstones),
        (3, 4, 3)
    );
    assert_eq!(
        guessed, counted,
        "exact for inserts, overwrites and row deletes"
    );

    // The purge takes what it removes off the estimates.
    clock.fetch_add(101, Ordering::SeqCst);
    assert_eq!(db.purge_expired_tombstones().unwrap(), 3);
    let purged = estimate(&db, "Standard1");
    assert_eq!(purged, db.scan_stats(&only("Standard1")).unwrap().remove(0));
    assert_eq!(purged.tombstones, 0);
}

#[test]
fn the_purge_skips_a_cf_without_tombstones_until_one_is_written() {
    let (db, clock) = db();
    write(&db, "Standard1", "k", ins("x")).unwrap();
    write(&db, "Standard1", "k", del("x")).unwrap();
    clock.fetch_add(101, Ordering::SeqCst);
    assert_eq!(db.purge_expired_tombstones().unwrap(), 1);
    assert!(db
        .counters
        .known_clean(Db::cf(&db.catalog(), KS, "Standard1").unwrap().layout.id));
    write(&db, "Standard1", "k", ins("y")).unwrap();
    write(&db, "Standard1", "k", del("y")).unwrap();
    assert!(!db
        .counters
        .known_clean(Db::cf(&db.catalog(), KS, "Standard1").unwrap().layout.id));
    clock.fetch_add(101, Ordering::SeqCst);
    assert_eq!(db.purge_expired_tombstones().unwrap(), 1, "scanned again");
}

#[test]
fn compact_purges_only_the_chosen_cfs_and_only_after_the_grace_period() {
    let (db, clock) = db();
    for cf in ["Standard1", "Standard2"] {
        write(&db, cf, "k", ins("x")).unwrap();
        write(&db, cf, "k", del("x")).unwrap();
    }
    assert_eq!(
        db.compact(&only("Standard1")).unwrap(),
        0,
        "within the grace"
    );
    clock.fetch_add(101, Ordering::SeqCst);
    assert_eq!(db.compact(&only("Standard1")).unwrap(), 1);
    let left = db.scan_stats(&CfSelection::default()).unwrap();
    let tombstones = |cf: &str| left.iter().find(|s| s.cf == cf).unwrap().tombstones;
    assert_eq!((tombstones("Standard1"), tombstones("Standard2")), (0, 1));
    assert_eq!(db.compact(&CfSelection::default()).unwrap(), 1);
}

#[test]
fn after_drain_writes_are_refused_and_reads_go_on() {
    let (db, clock) = db();
    write(&db, "Standard1", "k", ins("x")).unwrap();
    write(&db, "Standard1", "k", del("x")).unwrap();
    db.drain().unwrap();
    assert!(db.is_drained());
    let refused = write(&db, "Standard1", "k", ins("y"));
    assert_eq!(refused, Err(crate::Error::InvalidRequest(DRAINED.into())));
    assert!(db
        .get_count(
            KS,
            b"k",
            &crate::model::ColumnParent {
                column_family: "Standard1".into(),
                super_column: None,
            }
        )
        .is_ok());
    clock.fetch_add(101, Ordering::SeqCst);
    assert_eq!(
        db.purge_expired_tombstones().unwrap(),
        0,
        "no purge writes either"
    );
    assert!(db.compact(&CfSelection::default()).is_err());
}

#[test]
fn a_snapshot_opens_as_a_database_with_the_data_of_its_time() {
    let (db, clock) = db();
    write(&db, "Standard1", "before", ins("x")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("snap");
    assert!(db.snapshot(&snap).unwrap() > 0);
    write(&db, "Standard1", "after", ins("x")).unwrap();

    let engine = Arc::new(SledEngine::open(&snap, 1 << 20).unwrap());
    let copy = Db::open(engine, schema(), options(&clock)).unwrap();
    assert_eq!(copy.token(), db.token(), "the catalog came along");
    let rows = copy.scan_stats(&only("Standard1")).unwrap()[0].live_rows;
    assert_eq!(rows, 1);
}

#[test]
fn expiring_columns_are_counted_and_keep_the_purge_looking() {
    let (db, clock) = db();
    let expiring = |name: &str, ttl| Change::Insert {
        super_column: None,
        column: Column {
            name: name.into(),
            value: b"value".to_vec(),
            timestamp: 1,
            ttl: Some(ttl),
        },
    };
    write(&db, "Standard1", "k", ins("x")).unwrap();
    write(&db, "Standard1", "t", expiring("x", 10)).unwrap();
    let id = Db::cf(&db.catalog(), KS, "Standard1").unwrap().layout.id;
    // Nothing to purge yet, but the CF is not clean: the column will need a purge later
    // with no write in between.
    assert_eq!(db.purge_expired_tombstones().unwrap(), 0);
    assert!(!db.counters.known_clean(id));
    let live = db.scan_stats(&only("Standard1")).unwrap().remove(0);
    assert_eq!(
        (live.live_rows, live.live_columns, live.tombstones),
        (2, 2, 0)
    );
    assert_eq!(estimate(&db, "Standard1"), live);

    // Expired: a scan counts it as the tombstone it has become.
    clock.fetch_add(10, Ordering::SeqCst);
    let expired = db.scan_stats(&only("Standard1")).unwrap().remove(0);
    assert_eq!(
        (expired.live_rows, expired.live_columns, expired.tombstones),
        (1, 1, 1)
    );
    assert_eq!(expired.bytes, live.bytes);

    // Purged after the grace from its write time; the CF is then clean.
    clock.fetch_add(91, Ordering::SeqCst);
    assert_eq!(db.purge_expired_tombstones().unwrap(), 1);
    assert!(db.counters.known_clean(id));
    let purged = db.scan_stats(&only("Standard1")).unwrap().remove(0);
    assert_eq!(
        (purged.live_rows, purged.live_columns, purged.tombstones),
        (1, 1, 0)
    );
    assert!(purged.bytes < live.bytes);
}

#[test]
fn estimates_take_a_purged_expired_column_off_the_live_columns() {
    let (db, clock) = db();
    write(&db, "Standard1", "k", ins("x")).unwrap();
    let base = estimate(&db, "Standard1");
    let expiring = Change::Insert {
        super_column: None,
        column: Column {
            name: b"y".to_vec(),
            value: b"value".to_vec(),
            timestamp: 1,
            ttl: Some(5),
        },
    };
    write(&db, "Standard1", "k", expiring).unwrap();
    let written = estimate(&db, "Standard1");
    assert_eq!(written.live_columns, base.live_columns + 1);
    assert_eq!(
        written,
        db.scan_stats(&only("Standard1")).unwrap().remove(0)
    );
    clock.fetch_add(101, Ordering::SeqCst);
    assert_eq!(db.purge_expired_tombstones().unwrap(), 1);
    // Back where it was before the write, and what a scan finds.
    assert_eq!(estimate(&db, "Standard1"), base);
    assert_eq!(base, db.scan_stats(&only("Standard1")).unwrap().remove(0));
}
