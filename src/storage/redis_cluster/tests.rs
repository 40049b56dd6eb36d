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

/// A removal of a whole column family goes row by row under leases, takes every chunk and
/// the rows' index entries, and leaves the next column family alone.
#[test]
fn removing_a_column_family_takes_every_row_and_leaves_the_next() {
    let Some(engine) = engine(Partitioner::OrderPreserving) else {
        return;
    };
    let store = Store::new(
        Arc::new(engine),
        SyncPolicy::Batch(Duration::ZERO),
        packing(Partitioner::OrderPreserving),
    )
    .unwrap();
    let mut batch = Batch::default();
    for row in ["a", "b", "c"] {
        for n in 0..20u8 {
            batch.put(entry_key(row, &[b'n', n]), vec![n; 9]);
            let mut other = entry_key(row, &[b'n', n]);
            other[3] = 2;
            batch.put(other, vec![n; 9]);
        }
    }
    store.write_batch(batch).unwrap();
    let count = |cf: u8| {
        store
            .scan(
                Bound::Included(vec![0, 0, 0, cf]),
                Bound::Excluded(vec![0, 0, 0, cf + 1]),
                false,
            )
            .count()
    };
    assert_eq!((count(1), count(2)), (60, 60));
    let ack = store
        .remove_rows(vec![0, 0, 0, 1], Bound::Excluded(vec![0, 0, 0, 2]))
        .unwrap();
    ack.wait().unwrap();
    assert_eq!((count(1), count(2)), (0, 60));
    // The rows are gone from the index too: a new write to one lists it again.
    let mut batch = Batch::default();
    batch.put(entry_key("b", b"new"), b"v".to_vec());
    store.write_batch(batch).unwrap();
    assert_eq!(count(1), 1);
}

/// Two front ends run read-modify-write batches over the same rows, leasing them in
/// opposite request orders: the leases are taken in row order, so neither waits for the
/// other in a circle, and no increment is lost.
#[test]
fn batch_sessions_of_two_front_ends_neither_deadlock_nor_lose_updates() {
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
    let keys: Vec<Vec<u8>> = ["r1", "r2", "r3", "r4"]
        .iter()
        .map(|r| entry_key(r, b"n"))
        .collect();
    const EACH: u64 = 25;
    let workers: Vec<_> = stores
        .iter()
        .enumerate()
        .map(|(i, store)| {
            let store = Arc::clone(store);
            let mut keys = keys.clone();
            if i == 1 {
                keys.reverse();
            }
            std::thread::spawn(move || {
                for _ in 0..EACH {
                    let session = store.leased_session(keys.clone()).unwrap();
                    let mut batch = Batch::default();
                    for key in &keys {
                        let now = session
                            .get(key)
                            .unwrap()
                            .map_or(0, |v| u64::from_be_bytes(v.try_into().unwrap()));
                        batch.put(key.clone(), (now + 1).to_be_bytes().to_vec());
                    }
                    session.write_batch(batch).unwrap().wait().unwrap();
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    for key in &keys {
        let total = stores[0].get(key).unwrap().unwrap();
        assert_eq!(u64::from_be_bytes(total.try_into().unwrap()), 2 * EACH);
    }
}
