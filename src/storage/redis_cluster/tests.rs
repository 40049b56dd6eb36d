//! Tests of the `redis-cluster` engine against a running cluster: they run when
//! `ILION_TEST_REDIS` names its nodes (`host:port,host:port…`, as printed by
//! `scripts/redis-cluster.sh up`), and are skipped otherwise. Each engine gets a namespace of
//! its own, so runs never see each other's keys.

use super::{RedisEngine, RedisOptions};
use crate::partitioner::Partitioner;
use crate::storage::engine::{Batch, Engine};
use crate::storage::{Packing, Store, SyncPolicy};
use std::ops::Bound;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The seeds of the test cluster, when one is configured.
pub(crate) fn seeds() -> Option<Vec<String>> {
    let text = std::env::var("ILION_TEST_REDIS").ok()?;
    let seeds: Vec<String> = text
        .split([',', ' ', '\n'])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    (!seeds.is_empty()).then_some(seeds)
}

/// A namespace no other test uses.
pub(crate) fn fresh_namespace() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "test-{}-{nanos:x}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// An engine over the test cluster in `namespace`, or None when no cluster is configured.
pub(crate) fn engine_in(namespace: &str, partitioner: Partitioner) -> Option<RedisEngine> {
    let options = RedisOptions {
        seeds: seeds()?,
        namespace: namespace.to_string(),
        wait_for_replica: true,
    };
    Some(RedisEngine::open(options, partitioner).expect("the test cluster answers"))
}

/// An engine over the test cluster in a fresh namespace.
pub(crate) fn engine(partitioner: Partitioner) -> Option<RedisEngine> {
    engine_in(&fresh_namespace(), partitioner)
}

fn packing(partitioner: Partitioner) -> Packing {
    Packing {
        partitioner,
        max_chunk: 64,
    }
}

/// A logical key of row `row` (OPP) in CF 1: the row tombstone's place plus a name.
fn entry_key(row: &str, name: &[u8]) -> Vec<u8> {
    let mut key = vec![0, 0, 0, 1];
    key.extend_from_slice(row.as_bytes());
    key.extend_from_slice(&[0, 0, 1]);
    key.extend_from_slice(name);
    key
}

#[test]
fn rows_scan_in_key_order_across_buckets_and_pages() {
    let Some(engine) = engine(Partitioner::OrderPreserving) else {
        return;
    };
    let store = Store::new(
        Arc::new(engine),
        SyncPolicy::Periodic(Duration::from_secs(1)),
        packing(Partitioner::OrderPreserving),
    )
    .unwrap();
    let mut want = Vec::new();
    let mut batch = Batch::default();
    for row in ["a", "b", "ba", "c", "zz", "\u{7f}x"] {
        for n in 0..30u8 {
            let key = entry_key(row, &[b'n', n]);
            batch.put(key.clone(), vec![n; 9]);
            want.push(key);
        }
    }
    store.write_batch(batch).unwrap();
    want.sort();
    let all = |reverse| -> Vec<Vec<u8>> {
        store
            .scan(
                Bound::Included(vec![0, 0, 0, 1]),
                Bound::Excluded(vec![0, 0, 0, 2]),
                reverse,
            )
            .map(|r| r.unwrap().0)
            .collect()
    };
    assert_eq!(all(false), want);
    let mut back = all(true);
    back.reverse();
    assert_eq!(back, want);
    // A range starting inside one row and ending inside another.
    let from = entry_key("b", &[b'n', 7]);
    let to = entry_key("c", &[b'n', 3]);
    let got: Vec<Vec<u8>> = store
        .scan(
            Bound::Excluded(from.clone()),
            Bound::Included(to.clone()),
            false,
        )
        .map(|r| r.unwrap().0)
        .collect();
    let expected: Vec<Vec<u8>> = want
        .iter()
        .filter(|k| **k > from && **k <= to)
        .cloned()
        .collect();
    assert_eq!(got, expected);
    // Emptying a row takes it out of the index: the scan no longer visits it.
    let mut batch = Batch::default();
    for n in 0..30u8 {
        batch.delete(entry_key("ba", &[b'n', n]));
    }
    store.write_batch(batch).unwrap();
    want.retain(|k| !k.starts_with(&entry_key("ba", b"")[..7]));
    assert_eq!(all(false), want);
}

/// Two front ends (engines of one namespace) increment one value by read-modify-write
/// under their own row sessions at once: the row lease keeps every increment.
#[test]
fn row_sessions_of_two_front_ends_lose_no_update() {
    let namespace = fresh_namespace();
    let Some(first) = engine_in(&namespace, Partitioner::OrderPreserving) else {
        return;
    };
    let second = engine_in(&namespace, Partitioner::OrderPreserving).unwrap();
    let stores: Vec<Arc<Store>> = [first, second]
        .into_iter()
        .map(|engine| {
            Arc::new(
                Store::new(
                    Arc::new(engine),
                    SyncPolicy::Batch(Duration::ZERO),
                    packing(Partitioner::OrderPreserving),
                )
                .unwrap(),
            )
        })
        .collect();
    let key = entry_key("counter", b"n");
    const EACH: u64 = 40;
    let workers: Vec<_> = stores
        .iter()
        .flat_map(|store| [Arc::clone(store), Arc::clone(store)])
        .map(|store| {
            let key = key.clone();
            std::thread::spawn(move || {
                for _ in 0..EACH {
                    let session = store.row_session();
                    let now = session
                        .get(&key)
                        .unwrap()
                        .map_or(0, |v| u64::from_be_bytes(v.try_into().unwrap()));
                    let mut batch = Batch::default();
                    batch.put(key.clone(), (now + 1).to_be_bytes().to_vec());
                    session.write_batch(batch).unwrap().wait().unwrap();
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let total = stores[1].get(&key).unwrap().unwrap();
    assert_eq!(u64::from_be_bytes(total.try_into().unwrap()), 4 * EACH);
}

/// Namespaces keep ilion clusters apart on one Redis Cluster.
#[test]
fn namespaces_do_not_see_each_other() {
    let Some(a) = engine(Partitioner::Random) else {
        return;
    };
    let b = engine(Partitioner::Random).unwrap();
    let mut batch = Batch::default();
    batch.put(b"k".to_vec(), b"a".to_vec());
    a.apply(batch).unwrap();
    assert_eq!(a.get(b"k").unwrap(), Some(b"a".to_vec()));
    assert_eq!(b.get(b"k").unwrap(), None);
    assert_eq!(b.scan(Bound::Unbounded, Bound::Unbounded, false).count(), 0);
}
