//! The split value layout on a real sled store: large values never reach sled's blob files,
//! read back whole through every read path, leave no pieces behind, stay consistent under a
//! concurrent writer, and older stores keep their plain values.

use super::pieces::{self, Sizes};
use super::*;
use crate::storage::engine::{Batch, KvPair};
use std::ops::Bound;
use std::sync::atomic::AtomicUsize;

/// The split layout's sizes of `engine`.
fn sizes(engine: &SledEngine) -> Sizes {
    match engine.layout {
        Layout::Split(sizes) => sizes,
        Layout::Plain => panic!("a new store is not in the split layout"),
    }
}

fn value(seed: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| seed.wrapping_add((i % 251) as u8))
        .collect()
}

/// Keys sled holds under the layout's own range (piece keys, not the marker).
fn piece_keys(engine: &SledEngine) -> usize {
    engine
        .db
        .range(pieces::RESERVED.to_vec()..)
        .keys()
        .filter(|k| {
            k.as_ref()
                .map(|k| k.as_ref() != pieces::LAYOUT_KEY)
                .unwrap_or(true)
        })
        .count()
}

fn blob_files(dir: &Path) -> usize {
    fs::read_dir(dir.join("blobs"))
        .map(|entries| entries.count())
        .unwrap_or(0)
}

fn all(engine: &SledEngine, reverse: bool) -> Vec<KvPair> {
    engine
        .scan(Bound::Unbounded, Bound::Unbounded, reverse)
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn large_values_never_reach_sleds_blob_files() {
    let dir = tempfile::tempdir().unwrap();
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    let inline_max = sizes(&engine).inline_max;
    let mut expected = Vec::new();
    for row in 0u32..300 {
        let key = [&[0, 0, 0, 7][..], &row.to_be_bytes()].concat();
        let len = match row % 3 {
            0 => 40 * 1024,
            1 => inline_max - key.len() + 1,
            _ => 100,
        };
        let v = value(row as u8, len);
        if row % 2 == 0 {
            engine.apply(single(key.clone(), v.clone())).unwrap();
        } else {
            let mut batch = Batch::default();
            batch.put(key.clone(), v.clone());
            batch.put([&key[..], b"x"].concat(), value(1, 90_000));
            engine.apply(batch).unwrap();
            expected.push(([&key[..], b"x"].concat(), value(1, 90_000)));
        }
        expected.push((key, v));
    }
    let huge_key = vec![0, 0, 0, 9];
    let huge = value(3, 3 << 20);
    engine
        .apply(single(huge_key.clone(), huge.clone()))
        .unwrap();
    expected.push((huge_key.clone(), huge.clone()));
    engine.sync().unwrap();
    assert_eq!(
        blob_files(dir.path()),
        0,
        "a value went to a sled blob file"
    );

    expected.sort();
    assert_eq!(all(&engine, false), expected);
    let mut reversed = expected.clone();
    reversed.reverse();
    assert_eq!(all(&engine, true), reversed);
    assert_eq!(engine.get(&huge_key).unwrap(), Some(huge));

    // The control: the same values in a store of the plain layout do reach blob files.
    let plain_dir = tempfile::tempdir().unwrap();
    let db = sled::open(plain_dir.path()).unwrap();
    drop(db);
    let plain = SledEngine::open(plain_dir.path(), 4 << 20).unwrap();
    assert_eq!(plain.layout, Layout::Plain);
    plain
        .apply(single(huge_key.clone(), value(3, 3 << 20)))
        .unwrap();
    plain.sync().unwrap();
    assert!(blob_files(plain_dir.path()) > 0);
}

fn single(key: Vec<u8>, value: Vec<u8>) -> Batch {
    let mut batch = Batch::default();
    batch.put(key, value);
    batch
}

#[test]
fn a_split_value_shrinks_grows_and_goes_without_leaving_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    let piece_bytes = sizes(&engine).piece_bytes;
    let key = vec![0, 0, 0, 5, 1];
    // Another key whose pieces sit next to this one's and must be left alone.
    let neighbour = vec![0, 0, 0, 5, 1, 0];
    engine
        .apply(single(neighbour.clone(), value(9, 3 * piece_bytes)))
        .unwrap();
    let steps: [(usize, usize); 5] = [
        (10 * piece_bytes, 10),
        (3 * piece_bytes - 7, 3),
        (12 * piece_bytes + 1, 13),
        (200, 0),
        (5 * piece_bytes, 5),
    ];
    for (i, (len, pieces_expected)) in steps.into_iter().enumerate() {
        let v = value(i as u8, len);
        engine.apply(single(key.clone(), v.clone())).unwrap();
        assert_eq!(engine.get(&key).unwrap(), Some(v), "step {i}");
        assert_eq!(piece_keys(&engine), pieces_expected + 3, "step {i}");
    }
    let mut batch = Batch::default();
    batch.delete(key.clone());
    engine.apply(batch).unwrap();
    assert_eq!(engine.get(&key).unwrap(), None);
    assert_eq!(piece_keys(&engine), 3);
    assert_eq!(
        engine.get(&neighbour).unwrap(),
        Some(value(9, 3 * piece_bytes))
    );

    // A later write to the same key in one batch wins, with its pieces only.
    let mut batch = Batch::default();
    batch.put(key.clone(), value(1, 8 * piece_bytes));
    batch.put(key.clone(), value(2, 2 * piece_bytes));
    engine.apply(batch).unwrap();
    assert_eq!(engine.get(&key).unwrap(), Some(value(2, 2 * piece_bytes)));
    assert_eq!(piece_keys(&engine), 5);
}

#[test]
fn split_values_survive_reopen_and_the_layout_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let key = vec![0, 0, 0, 3];
    {
        let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
        engine.apply(single(key.clone(), value(4, 50_000))).unwrap();
        engine.sync().unwrap();
    }
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    assert_eq!(
        engine.layout,
        Layout::Split(Sizes::for_segment(pieces::NEW_STORE_SEGMENT))
    );
    assert_eq!(engine.get(&key).unwrap(), Some(value(4, 50_000)));
}

#[test]
fn a_reopened_store_with_pieces_still_removes_them_on_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let key = vec![0, 0, 0, 4];
    {
        let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
        // Small values only: a write reads nothing back.
        engine.apply(single(vec![0, 1], value(1, 40))).unwrap();
        assert!(!engine.may_hold_pieces.load(Ordering::Acquire));
        engine.apply(single(key.clone(), value(4, 80_000))).unwrap();
        assert!(engine.may_hold_pieces.load(Ordering::Acquire));
        engine.sync().unwrap();
    }
    // The pieces on disk are found at open, so the first overwrite after it still
    // removes them.
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    assert!(engine.may_hold_pieces.load(Ordering::Acquire));
    assert!(piece_keys(&engine) > 0);
    engine.apply(single(key.clone(), value(5, 30))).unwrap();
    assert_eq!(piece_keys(&engine), 0);
    assert_eq!(engine.get(&key).unwrap(), Some(value(5, 30)));
    drop(engine);
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    assert!(!engine.may_hold_pieces.load(Ordering::Acquire));
}

#[test]
fn a_store_from_before_the_layout_keeps_its_plain_values() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = sled::open(dir.path()).unwrap();
        db.insert([0, 0, 0, 1, 2], &b"as sled took it"[..]).unwrap();
        db.flush().unwrap();
    }
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    assert_eq!(engine.layout, Layout::Plain);
    assert_eq!(
        engine.get(&[0, 0, 0, 1, 2]).unwrap(),
        Some(b"as sled took it".to_vec())
    );
    engine
        .apply(single(vec![0, 0, 0, 1, 3], value(5, 9000)))
        .unwrap();
    assert_eq!(
        all(&engine, false),
        vec![
            (vec![0, 0, 0, 1, 2], b"as sled took it".to_vec()),
            (vec![0, 0, 0, 1, 3], value(5, 9000)),
        ]
    );
}

#[test]
fn an_unknown_layout_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = sled::open(dir.path()).unwrap();
        db.insert(pieces::LAYOUT_KEY, &b"split-9"[..]).unwrap();
        db.flush().unwrap();
    }
    let err = SledEngine::open(dir.path(), 4 << 20).err().unwrap();
    assert!(err.to_string().contains("unknown value layout"), "{err}");
}

#[test]
fn the_reserved_range_is_refused_to_writers_and_hidden_from_readers() {
    let dir = tempfile::tempdir().unwrap();
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    let err = engine
        .apply(single(vec![0xFF, 0xFF, 0xFF, 0xFF, 1], vec![1]))
        .unwrap_err();
    assert!(err.to_string().contains("reserved"), "{err}");
    engine
        .apply(single(vec![0xFF, 0xFF, 0xFE], vec![1]))
        .unwrap();
    engine
        .apply(single(vec![0, 0, 0, 1], value(1, 20_000)))
        .unwrap();
    let keys: Vec<Vec<u8>> = all(&engine, false).into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, vec![vec![0, 0, 0, 1], vec![0xFF, 0xFF, 0xFE]]);
    let upper = Bound::Included(vec![0xFF; 9]);
    assert_eq!(engine.scan(Bound::Unbounded, upper, true).count(), 2);
    assert_eq!(engine.get(pieces::LAYOUT_KEY).unwrap(), None);
}

#[test]
fn damaged_stubs_and_pieces_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let engine = SledEngine::open(dir.path(), 4 << 20).unwrap();
    let piece_bytes = sizes(&engine).piece_bytes;
    let key = vec![0, 0, 0, 2];
    engine
        .apply(single(key.clone(), value(6, 3 * piece_bytes)))
        .unwrap();
    // A piece changed behind the stub's back.
    let piece = pieces::piece_key(&key, 2).unwrap();
    engine.db.insert(piece, vec![0; piece_bytes]).unwrap();
    let err = engine.get(&key).unwrap_err();
    assert!(matches!(err, Error::Corrupt(_)), "{err}");
    assert!(engine
        .scan(Bound::Unbounded, Bound::Unbounded, false)
        .any(|r| r.is_err()));
    // Stubs claiming absurd sizes, unknown tags and empty values.
    let mut huge = vec![1];
    huge.extend_from_slice(&u64::MAX.to_be_bytes());
    huge.extend_from_slice(&u32::MAX.to_be_bytes());
    huge.extend_from_slice(&4096u32.to_be_bytes());
    huge.extend_from_slice(&0u32.to_be_bytes());
    // A header whose piece size is zero.
    let mut zero = vec![1];
    zero.extend_from_slice(&100u64.to_be_bytes());
    zero.extend_from_slice(&1u32.to_be_bytes());
    zero.extend_from_slice(&0u32.to_be_bytes());
    zero.extend_from_slice(&0u32.to_be_bytes());
    for bad in [huge, zero, vec![1, 2, 3], vec![7, 1], vec![]] {
        engine.db.insert(&key, bad.clone()).unwrap();
        assert!(
            matches!(engine.get(&key), Err(Error::Corrupt(_))),
            "{bad:?}"
        );
        // Overwriting damage is allowed, and leaves a readable value.
        engine
            .apply(single(key.clone(), value(7, 2 * piece_bytes)))
            .unwrap();
        assert_eq!(engine.get(&key).unwrap(), Some(value(7, 2 * piece_bytes)));
    }
}

#[test]
fn readers_see_whole_values_while_a_writer_replaces_them() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Arc::new(SledEngine::open(dir.path(), 4 << 20).unwrap());
    let piece_bytes = sizes(&engine).piece_bytes;
    let key = vec![0, 0, 0, 4];
    // Two to five pieces each: enough to race, light enough on sled's log (a heavy stream
    // of rewrites can deadlock sled 0.34's I/O pool: docs/storage.md#sled-values).
    let versions: Vec<Vec<u8>> = (0..4u8)
        .map(|i| value(i * 40, (2 + i as usize) * piece_bytes - i as usize))
        .collect();
    engine
        .apply(single(key.clone(), versions[0].clone()))
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (engine, key, versions, stop, written) = (
            engine.clone(),
            key.clone(),
            versions.clone(),
            stop.clone(),
            written.clone(),
        );
        std::thread::spawn(move || {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                let v = versions[i % versions.len()].clone();
                engine.apply(single(key.clone(), v)).unwrap();
                written.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    // Reads go on until the writer has replaced the value many times, however late the
    // scheduler starts it (a writer that panicked ends them; joining reports it).
    let mut round = 0;
    while round < 600 || (written.load(Ordering::Relaxed) < 50 && !writer.is_finished()) {
        let got = if round % 2 == 0 {
            engine.get(&key).unwrap().unwrap()
        } else {
            let mut scan = engine.scan(Bound::Included(key.clone()), Bound::Unbounded, false);
            scan.next().unwrap().unwrap().1
        };
        assert!(versions.contains(&got), "round {round}: a torn value");
        round += 1;
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
}

proptest::proptest! {
    /// Any stored bytes decode to a value or an error, never a panic; a value split and put
    /// together again is itself, and pieces out of order or from another value are refused.
    #[test]
    fn stored_bytes_never_panic_and_split_values_round_trip(
        stored in proptest::collection::vec(proptest::num::u8::ANY, 0..40),
        value in proptest::collection::vec(proptest::num::u8::ANY, 1..20_000),
        key in proptest::collection::vec(proptest::num::u8::ANY, 0..40),
    ) {
        let _ = pieces::decode(&key, &stored);
        let (stub, parts) = pieces::split(Sizes::for_segment(512 << 10), &key, &value).unwrap();
        let pieces::Stored::Split(decoded) = pieces::decode(&key, &stub).unwrap() else {
            panic!("a stub did not decode as one");
        };
        let found = parts.clone().into_iter().map(Ok);
        proptest::prop_assert_eq!(
            pieces::assemble(&key, decoded, found).unwrap(),
            Some(value.clone())
        );
        if parts.len() > 1 {
            let swapped = parts.iter().rev().cloned().map(Ok);
            proptest::prop_assert_eq!(pieces::assemble(&key, decoded, swapped).unwrap(), None);
        }
        let fewer = parts.iter().skip(1).cloned().map(Ok);
        proptest::prop_assert_eq!(pieces::assemble(&key, decoded, fewer).unwrap(), None);
    }
}
