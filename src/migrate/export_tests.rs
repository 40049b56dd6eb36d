//! Exports of expiring columns (`docs/migrate.md#export`): 0.6's text has no TTL, so a live
//! expiring column goes out as a plain column and an expired one, like a deleted column, not
//! at all; columns a range tombstone hides are not exported either.

use super::*;
use crate::cf::{Db, DbOptions};
use crate::comparator::Comparator;
use crate::config::{CfDef, ColumnType, KeyspaceDef, Schema};
use crate::migrate::apply::OfflineCf;
use crate::model::{Change, Column, RowMutation};
use crate::partitioner::Partitioner;
use crate::storage::{MemoryEngine, SyncPolicy};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

const KS: &str = "Keyspace1";
const NOW: u32 = 1_000_000;

fn db(clock: &Arc<AtomicU32>) -> Arc<Db> {
    let cf = CfDef {
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
        column_families: [(cf.name.clone(), cf)].into_iter().collect(),
        strategy_options: Default::default(),
        durable_writes: true,
    };
    let schema = Arc::new(Schema {
        keyspaces: [(KS.to_string(), ks)].into_iter().collect(),
    });
    let c = Arc::clone(clock);
    let options = DbOptions {
        partitioner: Partitioner::OrderPreserving,
        sync: SyncPolicy::Periodic(std::time::Duration::from_secs(60)),
        gc_grace_seconds: 100,
        initial_token: None,
        chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
        clock: Arc::new(move || c.load(Ordering::SeqCst)),
    };
    Arc::new(Db::open(Arc::new(MemoryEngine::new()), schema, options).unwrap())
}

fn insert(db: &Db, key: &str, name: &str, ttl: Option<i32>) {
    let mut m = RowMutation::new(KS, key);
    let column = Column {
        name: name.into(),
        value: b"v".to_vec(),
        timestamp: 3,
        ttl,
    };
    m.push(
        "Standard1",
        Change::Insert {
            super_column: None,
            column,
        },
    );
    db.apply(m).unwrap();
}

fn export(db: &Arc<Db>) -> serde_json::Value {
    let mut source = OfflineCf::new(Arc::clone(db), KS, "Standard1").unwrap();
    let mut out = Vec::new();
    to_writer(&mut source, &Filter::default(), &mut out).unwrap();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn expiring_columns_export_as_plain_columns_and_expired_ones_not_at_all() {
    let clock = Arc::new(AtomicU32::new(NOW));
    let db = db(&clock);
    insert(&db, "a", "short", Some(10));
    insert(&db, "a", "long", Some(1_000));
    insert(&db, "b", "short", Some(10));
    clock.store(NOW + 9, Ordering::SeqCst);
    let live = serde_json::json!({
        "a": [["6c6f6e67", "76", 3, false], ["73686f7274", "76", 3, false]],
        "b": [["73686f7274", "76", 3, false]],
    });
    assert_eq!(export(&db), live);
    clock.store(NOW + 10, Ordering::SeqCst);
    // Row b holds only an expired column: a range ghost, left out as one.
    let expired = serde_json::json!({ "a": [["6c6f6e67", "76", 3, false]] });
    assert_eq!(export(&db), expired);
}

#[test]
fn range_deleted_columns_are_not_exported() {
    let clock = Arc::new(AtomicU32::new(NOW));
    let db = db(&clock);
    for name in ["a", "b", "c", "d"] {
        insert(&db, "r", name, None);
    }
    insert(&db, "s", "a", None);
    let delete = |key: &str, start: &str, finish: &str| {
        let mut m = RowMutation::new(KS, key);
        let change = Change::DeleteRange {
            super_column: None,
            start: start.into(),
            finish: finish.into(),
            timestamp: 3,
        };
        m.push("Standard1", change);
        db.apply(m).unwrap();
    };
    delete("r", "b", "c");
    delete("s", "", "");
    // Row s holds only its range tombstone: a range ghost, left out as one.
    let left = serde_json::json!({ "r": [["61", "76", 3, false], ["64", "76", 3, false]] });
    assert_eq!(export(&db), left);
}
