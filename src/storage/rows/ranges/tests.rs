//! Row bounds against a brute-force model, for every partitioner: the rows a range finds are
//! exactly the stored rows, sorted by (token, key), that the bound rule admits — with rows
//! whose tokens tie (OPP's hex twins, COPP's ignorable characters) and rows split over
//! several chunks.

use super::*;
use crate::comparator::Comparator;
use crate::model::Cell;
use crate::partitioner::Partitioner;
use crate::storage::rows::RowWrites;
use crate::storage::{MemoryEngine, Packing, SyncPolicy};
use proptest::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;
use std::time::Duration;

fn layout(partitioner: Partitioner, id: u32) -> CfLayout {
    CfLayout {
        id,
        partitioner,
        comparator: Comparator::Bytes,
        subcomparator: None,
    }
}

/// A store holding `keys` as rows of CF 2 (each with a few columns, so that tiny chunks
/// split them), and every key but the first also in CFs 1 and 3, which must not show.
fn store_with(p: Partitioner, keys: &[Vec<u8>]) -> Store {
    let packing = Packing {
        partitioner: p,
        max_chunk: 48,
    };
    let policy = SyncPolicy::Periodic(Duration::from_secs(60));
    let store = Store::new(Arc::new(MemoryEngine::new()), policy, packing).unwrap();
    for (i, key) in keys.iter().enumerate() {
        let mut writes = RowWrites::default();
        let row = EncodedRow::new(p, key);
        let cell = Cell::Live {
            value: vec![7; 20],
            timestamp: 1,
        };
        for name in [&b"a"[..], b"b", b"c"] {
            writes.put_cell(&layout(p, 2), &row, None, name, &cell);
        }
        if i > 0 {
            for id in [1, 3] {
                writes.put_cell(&layout(p, id), &row, None, b"x", &cell);
            }
        }
        store.row_session().write(writes).unwrap();
    }
    store
}

/// Row order (`docs/api.md#key-order`): token, then — under OPP — a UTF-8 key before its
/// hex twin, then key bytes.
fn row_order(p: Partitioner, a: &[u8], b: &[u8]) -> Ordering {
    let utf8 = |k: &[u8]| std::str::from_utf8(k).is_ok();
    p.token(a)
        .cmp(&p.token(b))
        .then_with(|| match p {
            Partitioner::OrderPreserving => utf8(b).cmp(&utf8(a)),
            _ => Ordering::Equal,
        })
        .then_with(|| a.cmp(b))
}

/// The rows `bounds` admit by the rules of `model::RowBounds`, in row order.
fn model(p: Partitioner, keys: &[Vec<u8>], bounds: &RowBounds) -> Vec<Vec<u8>> {
    let mut rows: Vec<Vec<u8>> = keys.to_vec();
    rows.sort_by(|a, b| row_order(p, a, b));
    rows.dedup();
    let from_row = |start: &[u8], k: &[u8]| start.is_empty() || row_order(p, start, k).is_le();
    let admits = |k: &[u8]| match bounds {
        RowBounds::KeySpan { start, end } => {
            from_row(start, k) && (end.is_empty() || row_order(p, k, end).is_le())
        }
        RowBounds::KeyToToken { start, end } => {
            from_row(start, k) && (end.is_minimum() || p.token(k) <= *end)
        }
        RowBounds::Keys { start, end } => {
            (start.is_empty() || p.token(start) <= p.token(k))
                && (end.is_empty() || p.token(k) <= p.token(end))
        }
        RowBounds::Tokens { .. } => unreachable!("not modelled here"),
    };
    rows.into_iter().filter(|k| admits(k)).collect()
}

fn found(store: &Store, p: Partitioner, bounds: &RowBounds) -> Vec<Vec<u8>> {
    store
        .rows(&layout(p, 2), bounds)
        .map(|r| r.unwrap().1)
        .collect()
}

/// Every bound of each kind whose ends come from `probes` (and the empty key / minimum
/// token) agrees with the model.
fn check_all(p: Partitioner, keys: &[Vec<u8>], probes: &[Vec<u8>]) {
    let store = store_with(p, keys);
    let mut ends: Vec<Vec<u8>> = vec![Vec::new()];
    ends.extend(keys.iter().cloned());
    ends.extend(probes.iter().cloned());
    let mut tokens = vec![p.min_token()];
    tokens.extend(ends.iter().filter(|k| !k.is_empty()).map(|k| p.token(k)));
    for start in &ends {
        for end in &ends {
            for bounds in [
                RowBounds::KeySpan {
                    start: start.clone(),
                    end: end.clone(),
                },
                RowBounds::Keys {
                    start: start.clone(),
                    end: end.clone(),
                },
            ] {
                let expected = model(p, keys, &bounds);
                assert_eq!(found(&store, p, &bounds), expected, "{p:?} {bounds:?}");
            }
        }
        for end in &tokens {
            let bounds = RowBounds::KeyToToken {
                start: start.clone(),
                end: end.clone(),
            };
            let expected = model(p, keys, &bounds);
            assert_eq!(found(&store, p, &bounds), expected, "{p:?} {bounds:?}");
        }
    }
}

fn bytes(keys: &[&[u8]]) -> Vec<Vec<u8>> {
    keys.iter().map(|k| k.to_vec()).collect()
}

#[test]
fn key_bounds_cut_random_and_murmur3_rows_at_the_row() {
    let keys = bytes(&[b"a", b"b", b"key1", b"key2", b"123", &[0xFE; 8], &[0xFF, 0]]);
    let probes = bytes(&[b"zz", b"c", &[0x00]]);
    check_all(Partitioner::Random, &keys, &probes);
    check_all(Partitioner::Murmur3, &keys, &probes);
}

#[test]
fn key_bounds_split_opp_hex_twins() {
    // "ff00" and the bytes FF 00 share the token "ff00": a span may hold one without the
    // other. Likewise "c3" and C3 (not UTF-8 alone).
    let keys = bytes(&[
        b"a",
        b"ff00",
        &[0xFF, 0x00],
        b"ff",
        &[0xFF],
        b"c3",
        &[0xC3],
        "\u{e9}".as_bytes(),
        "\u{1F600}".as_bytes(),
        "\u{ff01}".as_bytes(),
    ]);
    let probes = bytes(&[b"ff0", b"fg", &[0xFF, 0x01]]);
    check_all(Partitioner::OrderPreserving, &keys, &probes);
    let p = Partitioner::OrderPreserving;
    let store = store_with(p, &keys);
    let span = RowBounds::KeySpan {
        start: vec![0xFF, 0x00],
        end: b"ff00".to_vec(),
    };
    assert!(
        found(&store, p, &span).is_empty(),
        "the UTF-8 twin sorts first"
    );
    let span = RowBounds::KeySpan {
        start: b"ff00".to_vec(),
        end: b"ff00".to_vec(),
    };
    assert_eq!(found(&store, p, &span), [b"ff00".to_vec()]);
    let to_token = RowBounds::KeyToToken {
        start: vec![0xFF, 0x00],
        end: p.token(b"ff00"),
    };
    assert_eq!(found(&store, p, &to_token), [vec![0xFF, 0x00]]);
}

#[test]
fn key_bounds_split_copp_rows_with_one_collation_key() {
    // U+0001 weighs nothing at any level: "a", "\x01a" and "a\x01" share a token, and the
    // key bytes order them.
    let keys = bytes(&[b"a", b"\x01a", b"a\x01", b"A", b"b", b"-a", b"10", b"2"]);
    let probes = bytes(&[b"\x01", b"a\x01\x01", b"c"]);
    check_all(Partitioner::CollatingOrderPreserving, &keys, &probes);
    let p = Partitioner::CollatingOrderPreserving;
    let store = store_with(p, &keys);
    let span = RowBounds::KeySpan {
        start: b"a".to_vec(),
        end: b"a".to_vec(),
    };
    assert_eq!(
        found(&store, p, &span),
        [b"a".to_vec()],
        "by key, not token"
    );
    let by_token = RowBounds::Keys {
        start: b"a".to_vec(),
        end: b"a".to_vec(),
    };
    assert_eq!(found(&store, p, &by_token).len(), 3, "0.6 bounds by token");
}

#[test]
fn key_bounds_cut_byte_ordered_rows() {
    let keys = bytes(&[b"a", b"ab", b"b", &[0x00], &[0xFF], &[0xFF, 0xFF], b""]);
    let keys: Vec<Vec<u8>> = keys.into_iter().filter(|k| !k.is_empty()).collect();
    let probes = bytes(&[b"aa", &[0xFF, 0x00], &[0x00, 0x00]]);
    check_all(Partitioner::ByteOrdered, &keys, &probes);
}

/// Short keys whose ties matter: ASCII with COPP-ignorable bytes, raw bytes, hex text.
fn keys() -> impl Strategy<Value = Vec<u8>> {
    let raw = || proptest::collection::vec(any::<u8>(), 1..4);
    prop_oneof![
        "[ab\u{1}\u{2}]{1,3}".prop_map(String::into_bytes),
        raw(),
        raw().prop_map(|b| crate::comparator::hex(&b).into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn key_bounds_match_the_model(
        stored in proptest::collection::vec(keys(), 1..8),
        probes in proptest::collection::vec(keys(), 0..3),
    ) {
        for p in Partitioner::ALL {
            // COPP stores UTF-8 keys only.
            let valid = |k: &Vec<u8>| p.check_key(k).is_ok();
            let stored: Vec<Vec<u8>> = stored.iter().filter(|k| valid(k)).cloned().collect();
            let mut unique = stored.clone();
            unique.sort();
            unique.dedup();
            check_all(p, &unique, &probes);
        }
    }
}
