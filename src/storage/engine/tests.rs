//! One behaviour suite, run against the sled and fjall engines and their in-memory twin.

use super::*;
use crate::storage::{FjallEngine, MemoryEngine, SledEngine};
use std::path::Path;
use std::sync::Arc;

fn engines() -> Vec<(&'static str, Arc<dyn Engine>, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sled = SledEngine::open(&dir.path().join("sled"), 8 << 20).unwrap();
    let fjall = FjallEngine::open(&dir.path().join("fjall"), 8 << 20).unwrap();
    let mut engines: Vec<(&'static str, Arc<dyn Engine>, Option<tempfile::TempDir>)> = vec![
        ("memory", Arc::new(MemoryEngine::new()), None),
        ("sled", Arc::new(sled), None),
        ("fjall", Arc::new(fjall), Some(dir)),
    ];
    // With ILION_TEST_REDIS set, the redis-cluster engine too.
    let partitioner = crate::partitioner::Partitioner::Random;
    if let Some(redis) = crate::storage::redis_cluster::tests::engine(partitioner) {
        engines.push(("redis", Arc::new(redis), None));
    }
    engines
}

/// The two engines on disk, by name, with their `open`.
type OpenOnDisk = fn(&Path) -> crate::Result<Arc<dyn Engine>>;
const ON_DISK: [(&str, OpenOnDisk); 2] = [
    ("sled", |dir| Ok(Arc::new(SledEngine::open(dir, 8 << 20)?))),
    ("fjall", |dir| {
        Ok(Arc::new(FjallEngine::open(dir, 8 << 20)?))
    }),
];

fn collect(scan: Scan<'_>) -> Vec<Vec<u8>> {
    scan.map(|r| r.unwrap().0).collect()
}

#[test]
fn get_scan_and_batches_behave_alike() {
    for (name, engine, _dir) in engines() {
        let mut batch = Batch::default();
        for k in 0u8..200 {
            batch.put(vec![1, k], vec![k]);
        }
        batch.put(vec![2], b"x".to_vec());
        batch.delete(vec![1, 5]);
        engine.apply(batch).unwrap();
        assert_eq!(engine.get(&[1, 7]).unwrap(), Some(vec![7]), "{name}");
        assert_eq!(engine.get(&[1, 5]).unwrap(), None, "{name}");

        let fwd = collect(engine.scan(
            Bound::Included(vec![1, 3]),
            Bound::Excluded(vec![1, 9]),
            false,
        ));
        assert_eq!(
            fwd,
            vec![vec![1, 3], vec![1, 4], vec![1, 6], vec![1, 7], vec![1, 8]],
            "{name}"
        );
        let rev = collect(engine.scan(
            Bound::Excluded(vec![1, 3]),
            Bound::Included(vec![1, 9]),
            true,
        ));
        assert_eq!(
            rev,
            vec![vec![1, 9], vec![1, 8], vec![1, 7], vec![1, 6], vec![1, 4]],
            "{name}"
        );
        // Long scans cross the memory engine's chunk boundary.
        assert_eq!(
            collect(engine.scan(Bound::Unbounded, Bound::Unbounded, false)).len(),
            200,
            "{name}"
        );
        assert_eq!(
            collect(engine.scan(Bound::Unbounded, Bound::Unbounded, true)).len(),
            200,
            "{name}"
        );
        // Inverted and empty ranges are empty, not a panic.
        assert!(
            collect(engine.scan(Bound::Included(vec![3]), Bound::Included(vec![1]), false))
                .is_empty()
        );
        assert!(
            collect(engine.scan(Bound::Excluded(vec![2]), Bound::Excluded(vec![2]), true))
                .is_empty()
        );
        engine.sync().unwrap();
    }
}

#[test]
fn a_foreign_directory_is_refused() {
    for (name, open) in ON_DISK {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let err = open(dir.path()).err().unwrap();
        assert!(
            matches!(&err, crate::Error::Corrupt(m) if m.contains("holds no ilion store")),
            "{name}: {err}"
        );
    }
}

#[test]
fn data_survives_reopen() {
    for (name, open) in ON_DISK {
        let dir = tempfile::tempdir().unwrap();
        {
            let engine = open(dir.path()).unwrap();
            let mut batch = Batch::default();
            batch.put(b"k".to_vec(), b"v".to_vec());
            batch.put(b"l".to_vec(), b"w".to_vec());
            batch.delete(b"k".to_vec());
            engine.apply(batch).unwrap();
            engine.sync().unwrap();
        }
        let engine = open(dir.path()).unwrap();
        assert_eq!(engine.get(b"l").unwrap(), Some(b"w".to_vec()), "{name}");
        assert_eq!(engine.get(b"k").unwrap(), None, "{name}");
    }
}

#[test]
fn a_damaged_fjall_version_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    drop(FjallEngine::open(dir.path(), 8 << 20).unwrap());
    std::fs::write(dir.path().join("version"), b"not fjall's version").unwrap();
    let err = FjallEngine::open(dir.path(), 8 << 20).err().unwrap();
    assert!(
        matches!(&err, crate::Error::Corrupt(m) if m.contains("cannot open the store")),
        "{err}"
    );
}

#[test]
fn a_damaged_sled_configuration_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    drop(SledEngine::open(dir.path(), 8 << 20).unwrap());
    std::fs::write(dir.path().join("conf"), b"not sled's configuration").unwrap();
    let err = SledEngine::open(dir.path(), 8 << 20).err().unwrap();
    assert!(
        matches!(&err, crate::Error::Corrupt(m) if m.contains("cannot open the store")),
        "{err}"
    );
}

#[test]
fn a_store_in_use_is_refused() {
    for (name, open) in ON_DISK {
        let dir = tempfile::tempdir().unwrap();
        let _first = open(dir.path()).unwrap();
        let err = open(dir.path()).err().unwrap();
        assert!(
            matches!(&err, crate::Error::Storage(m) if m.contains("in use")),
            "{name}: {err}"
        );
    }
}

/// Keys around and past fjall's 64 KiB key limit keep byte order, bounds and batches.
#[test]
fn long_keys_behave_like_short_ones() {
    let long = |fill: u8, len: usize, tail: &[u8]| {
        let mut key = vec![fill; len];
        key.extend_from_slice(tail);
        key
    };
    let keys = [
        long(5, 65_533, b""),
        long(5, 65_534, b""),
        long(5, 65_534, b"\0"),
        long(5, 65_534, b"\x01"),
        long(5, 65_534, b"\x01\0"),
        long(5, 70_000, b""),
        long(5, 65_533, b"\x06 after"),
        long(4, 70_000, b""),
        long(6, 10, b""),
        long(5, 140_000, b"\xff"),
    ];
    for (name, engine, _dir) in engines() {
        let mut model = std::collections::BTreeMap::new();
        let mut batch = Batch::default();
        for (i, key) in keys.iter().enumerate() {
            batch.put(key.clone(), vec![i as u8]);
            model.insert(key.clone(), vec![i as u8]);
        }
        engine.apply(batch).unwrap();
        let mut batch = Batch::default();
        batch.delete(keys[3].clone());
        batch.put(keys[5].clone(), b"new".to_vec());
        batch.delete(keys[7].clone());
        engine.apply(batch).unwrap();
        model.remove(&keys[3]);
        model.insert(keys[5].clone(), b"new".to_vec());
        model.remove(&keys[7]);

        for key in &keys {
            assert_eq!(engine.get(key).unwrap(), model.get(key).cloned(), "{name}");
        }
        let bounds = [
            (Bound::Unbounded, Bound::Unbounded),
            (
                Bound::Excluded(keys[2].clone()),
                Bound::Included(keys[9].clone()),
            ),
            (
                Bound::Included(keys[4].clone()),
                Bound::Excluded(keys[9].clone()),
            ),
            (Bound::Included(long(5, 66_000, b"")), Bound::Unbounded),
        ];
        for (lower, upper) in bounds {
            let want: Vec<Vec<u8>> = model
                .range((lower.clone(), upper.clone()))
                .map(|(k, _)| k.clone())
                .collect();
            let got = collect(engine.scan(lower.clone(), upper.clone(), false));
            assert!(got == want, "{name}: forward scan differs");
            let mut got = collect(engine.scan(lower, upper, true));
            got.reverse();
            assert!(got == want, "{name}: reverse scan differs");
        }
    }
}
