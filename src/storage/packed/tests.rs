//! Packed rows against a plain sorted map: random writes (forcing splits with a tiny chunk
//! size) and random gets and scans in both directions, on both engines.

use super::*;
use crate::storage::keys::{encode_row, meta_key, CfLayout};
use crate::storage::{Batch, MemoryEngine, SledEngine};
use proptest::prelude::*;
use std::sync::Arc;

const P: Partitioner = Partitioner::OrderPreserving;

fn layout(id: u32) -> CfLayout {
    CfLayout {
        id,
        partitioner: P,
        comparator: crate::comparator::Comparator::Bytes,
        subcomparator: None,
    }
}

/// A logical key: CF 1 or 2, row "r0".."r2", column name.
fn key(cf: u32, row: u8, name: &[u8]) -> Vec<u8> {
    layout(cf).column_key(&encode_row(P, format!("r{row}").as_bytes()), name)
}

#[derive(Debug, Clone)]
enum Op {
    Put(Vec<u8>, Vec<u8>),
    Delete(Vec<u8>),
}

fn any_key() -> impl Strategy<Value = Vec<u8>> {
    (
        1u32..3,
        0u8..3,
        prop::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(0u8)], 1..4),
    )
        .prop_map(|(cf, row, name)| key(cf, row, &name))
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any_key(), prop::collection::vec(any::<u8>(), 0..24)).prop_map(|(k, v)| Op::Put(k, v)),
        1 => any_key().prop_map(Op::Delete),
    ]
}

fn bound() -> impl Strategy<Value = Bound<Vec<u8>>> {
    prop_oneof![
        Just(Bound::Unbounded),
        any_key().prop_map(Bound::Included),
        any_key().prop_map(Bound::Excluded),
        (1u32..3).prop_map(|cf| Bound::Included(layout(cf).cf_prefix())),
    ]
}

fn engines() -> Vec<(Arc<dyn Engine>, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sled = SledEngine::open(dir.path(), 4 << 20).unwrap();
    vec![
        (Arc::new(MemoryEngine::new()), None),
        (Arc::new(sled), Some(dir)),
    ]
}

/// Every row with chunks has its first chunk, marked sole exactly when it is the only one,
/// and only a first chunk may be empty (while others remain).
fn check_chunk_invariants(engine: &dyn Engine, packing: &Packing) {
    let mut rows: BTreeMap<Vec<u8>, Vec<KvPair>> = BTreeMap::new();
    for item in engine.scan(Bound::Unbounded, Bound::Unbounded, false) {
        let (key, value) = item.unwrap();
        let plen = packing
            .row_prefix_len(&key)
            .unwrap()
            .expect("only rows here");
        rows.entry(key[..plen].to_vec())
            .or_default()
            .push((key, value));
    }
    for (prefix, chunks) in rows {
        assert_eq!(
            chunks[0].0, prefix,
            "the first chunk is keyed by the row prefix"
        );
        let sole = chunks[0].1[0] == SOLE_CHUNK;
        assert_eq!(
            sole,
            chunks.len() == 1,
            "sole marking of {prefix:?} with {} chunks",
            chunks.len()
        );
        for (key, value) in &chunks[1..] {
            assert!(
                !decode_chunk(value).unwrap().is_empty(),
                "empty later chunk {key:?}"
            );
        }
        if chunks.len() == 1 {
            assert!(
                !decode_chunk(&chunks[0].1).unwrap().is_empty(),
                "an empty row left a chunk"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn packed_rows_behave_like_a_sorted_map(
        batches in prop::collection::vec(prop::collection::vec(op(), 1..6), 1..25),
        probes in prop::collection::vec((bound(), bound(), any::<bool>()), 1..8),
    ) {
        for (engine, _dir) in engines() {
            let packing = Packing { partitioner: P, max_chunk: 48 };
            let mut model: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
            for ops in &batches {
                let mut batch = Batch::default();
                for op in ops {
                    match op {
                        Op::Put(k, v) => { batch.put(k.clone(), v.clone()); model.insert(k.clone(), v.clone()); }
                        Op::Delete(k) => { batch.delete(k.clone()); model.remove(k); }
                    }
                }
                engine.apply(packing.plan(engine.as_ref(), batch, None).unwrap()).unwrap();
                check_chunk_invariants(engine.as_ref(), &packing);
            }
            for (k, v) in &model {
                prop_assert_eq!(packing.get(engine.as_ref(), k, None).unwrap(), Some(v.clone()));
            }
            for (lower, upper, reverse) in &probes {
                let got: Vec<KvPair> = packing
                    .scan(engine.as_ref(), lower.clone(), upper.clone(), *reverse)
                    .map(|r| r.unwrap())
                    .collect();
                let mut want: Vec<KvPair> = if range_is_empty(lower, upper) {
                    Vec::new()
                } else {
                    model.range((lower.clone(), upper.clone())).map(|(k, v)| (k.clone(), v.clone())).collect()
                };
                if *reverse {
                    want.reverse();
                }
                prop_assert_eq!(got, want, "scan {:?}..{:?} reverse={}", lower, upper, reverse);
            }
        }
    }
}

#[test]
fn meta_keys_pass_through_and_rows_pack_into_one_value() {
    let engine = MemoryEngine::new();
    let packing = Packing {
        partitioner: P,
        max_chunk: MAX_CHUNK_BYTES,
    };
    let mut batch = Batch::default();
    batch.put(meta_key(b"format"), b"x".to_vec());
    for name in [&b"a"[..], b"b", b"c"] {
        batch.put(key(1, 0, name), name.to_vec());
    }
    let physical = packing.plan(&engine, batch, None).unwrap();
    assert_eq!(physical.len(), 2, "one meta key and one chunk for the row");
    engine.apply(physical).unwrap();
    assert_eq!(
        engine.get(&meta_key(b"format")).unwrap(),
        Some(b"x".to_vec())
    );
    assert_eq!(
        packing.get(&engine, &key(1, 0, b"b"), None).unwrap(),
        Some(b"b".to_vec())
    );
    assert_eq!(packing.get(&engine, &key(1, 0, b"z"), None).unwrap(), None);

    let mut delete_all = Batch::default();
    for name in [&b"a"[..], b"b", b"c"] {
        delete_all.delete(key(1, 0, name));
    }
    engine
        .apply(packing.plan(&engine, delete_all, None).unwrap())
        .unwrap();
    let left: Vec<_> = engine
        .scan(Bound::Unbounded, Bound::Unbounded, false)
        .collect();
    assert_eq!(
        left.len(),
        1,
        "the emptied chunk is gone; only the meta key is left"
    );
}

#[test]
fn damaged_chunks_are_reported() {
    assert!(decode_chunk(&[]).is_err());
    assert!(decode_chunk(&[9]).is_err());
    assert!(decode_chunk(&[CHUNK, 5, b'a']).is_err());
    assert!(
        decode_chunk(&[CHUNK, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).is_err()
    );
}
