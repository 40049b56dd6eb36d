//! Row order per partitioner, prefix relations and token bounds of the key layout.

use super::*;
use crate::storage::engine::in_bounds;
use proptest::prelude::*;
use std::cmp::Ordering;

fn layout(partitioner: Partitioner, sub: Option<Comparator>) -> CfLayout {
    CfLayout {
        id: 7,
        partitioner,
        comparator: Comparator::Utf8,
        subcomparator: sub,
    }
}

/// Non-empty row keys: UTF-8 strings with the characters whose orders differ (zero bytes,
/// supplementary and high-BMP characters), arbitrary bytes (mostly not UTF-8), and the hex
/// text of arbitrary bytes, which under OPP has the same token as those bytes when they are
/// not UTF-8.
fn keys() -> impl Strategy<Value = Vec<u8>> {
    let bytes = || proptest::collection::vec(any::<u8>(), 1..5);
    prop_oneof![
        "[a-c0-2\u{0}\u{1}\u{e9}\u{ff01}\u{1F600}-]{1,4}".prop_map(String::into_bytes),
        bytes(),
        bytes().prop_map(|b| crate::comparator::hex(&b).into_bytes()),
    ]
}

/// The order rows take (`docs/storage.md#rows`): by token, then by key bytes, except that
/// under OPP a UTF-8 key precedes a key that is not UTF-8 with the same token.
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

proptest! {
    #[test]
    fn rows_sort_by_token_then_key(a in keys(), b in keys()) {
        for p in Partitioner::ALL {
            prop_assert_eq!(
                encode_row(p, &a).cmp(&encode_row(p, &b)),
                row_order(p, &a, &b),
                "{:?}",
                p
            );
            let row = encode_row(p, &a);
            prop_assert_eq!(decode_row(p, &row), Some((a.clone(), row.len())));
            // Prefix-free: a longer input still decodes to the same row.
            let mut longer = row.clone();
            longer.extend_from_slice(&encode_row(p, &b));
            prop_assert_eq!(decode_row(p, &longer), Some((a.clone(), row.len())));
            prop_assert!(row.ends_with(&[0, 0]));
        }
    }

    /// Stores written before keys became bytes keep their bytes: for a UTF-8 key each 0.6
    /// partitioner's row part is still the formula of the string-key layout.
    #[test]
    fn utf8_keys_keep_the_string_key_layout(key in "\\PC{1,6}") {
        let escaped = |bytes: &[u8]| {
            let mut out = Vec::new();
            put_escaped(&mut out, bytes);
            out
        };
        let md5: [u8; 16] = {
            use md5::{Digest, Md5};
            Md5::digest(key.as_bytes()).into()
        };
        let mut rp = i128::from_be_bytes(md5).unsigned_abs().to_be_bytes().to_vec();
        rp.extend(escaped(key.as_bytes()));
        prop_assert_eq!(encode_row(Partitioner::Random, key.as_bytes()), rp);
        prop_assert_eq!(
            encode_row(Partitioner::OrderPreserving, key.as_bytes()),
            escaped(&cesu8(&key))
        );
        let mut copp = escaped(&crate::partitioner::collation_key(&key));
        copp.extend(escaped(key.as_bytes()));
        prop_assert_eq!(encode_row(Partitioner::CollatingOrderPreserving, key.as_bytes()), copp);
    }

    #[test]
    fn token_bounds_select_exactly_the_rows_in_range(a in keys(), t in keys()) {
        for p in Partitioner::ALL {
            let cf = layout(p, None);
            let row_key = cf.column_key(&encode_row(p, &a), b"col");
            let tomb_key = cf.row_tombstone_key(&encode_row(p, &a));
            // Another key's token, and the row's own (its bounds are where keys that start
            // with `FF` could stray).
            for token in [p.token(&t), p.token(&a)] {
                let from = cf.rows_from(&token);
                let through = cf.rows_through(&token);
                for key in [&row_key, &tomb_key] {
                    prop_assert_eq!(in_bounds(key, &from, &cf.cf_end()), p.token(&a) >= token, "{:?}", p);
                    prop_assert_eq!(in_bounds(key, &Bound::Included(cf.cf_prefix()), &through), p.token(&a) <= token, "{:?}", p);
                }
            }
        }
    }

    #[test]
    fn opp_and_bop_rows_decode_only_from_their_canonical_form(bytes in proptest::collection::vec(any::<u8>(), 0..24)) {
        // The partitioners whose row part is all key: whatever decodes is the one encoding
        // of its key (the others do not check their token bytes against the key).
        for p in [Partitioner::OrderPreserving, Partitioner::ByteOrdered] {
            if let Some((key, len)) = decode_row(p, &bytes) {
                prop_assert_eq!(&encode_row(p, &key)[..], &bytes[..len], "{:?}", p);
            }
        }
    }
}

#[test]
fn prefixes_are_byte_prefixes_of_their_keys() {
    let cf = layout(
        Partitioner::CollatingOrderPreserving,
        Some(Comparator::Long),
    );
    let row = encode_row(cf.partitioner, "row\u{0}1".as_bytes());
    let sc = 5i64.to_be_bytes();
    let keys = [
        cf.row_tombstone_key(&row),
        cf.super_tombstone_key(&row, b"sc"),
        cf.subcolumn_key(&row, b"sc", &sc),
    ];
    for key in &keys {
        assert!(key.starts_with(&cf.cf_prefix()));
        assert!(key.starts_with(&cf.row_prefix(&row)));
    }
    assert!(keys[1].starts_with(&cf.super_prefix(&row, b"sc")));
    assert!(keys[2].starts_with(&cf.subcolumns_prefix(&row, b"sc")));
    assert!(keys[1].starts_with(&cf.columns_prefix(&row)));
    assert!(!keys[0].starts_with(&cf.columns_prefix(&row)));
    // The tombstone sorts before the row's columns; "sc" entries before "sc\0" entries.
    assert!(keys[0] < keys[1] && keys[1] < keys[2]);
    assert!(keys[2] < cf.super_tombstone_key(&row, b"sc\0"));
    assert_eq!(
        cf.decode(&keys[2]).unwrap(),
        DecodedKey {
            row_key: "row\u{0}1".into(),
            row_len: row.len(),
            entry: Entry::SubColumn(b"sc".to_vec(), sc.to_vec())
        }
    );
    assert_eq!(
        cf.decode(&keys[1]).unwrap().entry,
        Entry::SuperTombstone(b"sc".to_vec())
    );
    assert_eq!(cf.decode(&keys[0]).unwrap().entry, Entry::RowTombstone);
    assert!(cf.decode(&keys[0][..keys[0].len() - 1]).is_none());
}

#[test]
fn rp_row_layout_vector() {
    let row = encode_row(Partitioner::Random, b"a");
    // token("a") = 16955237001963240173058271559858726497
    assert_eq!(
        crate::comparator::hex(&row),
        format!("{:032x}", 16955237001963240173058271559858726497u128) + "610000"
    );
}

/// The worked examples of `docs/storage.md#rows`.
#[test]
fn row_layout_vectors() {
    let row = |p, key: &[u8]| crate::comparator::hex(&encode_row(p, key));
    let opp = Partitioner::OrderPreserving;
    // A UTF-8 key keeps the 0.6 layout; one that is not UTF-8 ends its token (its hex) with
    // 00 01 and carries the raw key after it.
    assert_eq!(row(opp, b"ff00"), "666630300000");
    assert_eq!(row(opp, &[0xFF, 0x00]), "666630300001ff00ff0000");
    assert_eq!(row(opp, "\u{1F600}".as_bytes()), "eda0bdedb8800000");
    // Murmur3: token("a") = -8839064797231613815, sign bit flipped.
    assert_eq!(row(Partitioner::Murmur3, b"a"), "05555565f6597889610000");
    assert_eq!(row(Partitioner::Murmur3, b"b"), "fa98a957b1d3d1ee620000");
    // BOP: the escaped key.
    assert_eq!(row(Partitioner::ByteOrdered, b"a"), "610000");
    assert_eq!(row(Partitioner::ByteOrdered, &[0x00, 0xFF]), "00ffff0000");
    // RP and COPP of a binary key: the raw bytes, escaped, after the token.
    assert!(row(Partitioner::Random, &[0xFF, 0x00]).ends_with("ff00ff0000"));
}

/// OPP bounds of a token that a UTF-8 key and a binary key share hold both rows, and only
/// them.
#[test]
fn opp_token_bounds_cover_both_forms_of_a_token() {
    let cf = layout(Partitioner::OrderPreserving, None);
    let token = Partitioner::OrderPreserving.token(b"ff");
    let (from, through) = (cf.rows_from(&token), cf.rows_through(&token));
    for key in [&b"ff"[..], &[0xFF][..]] {
        let k = cf.row_tombstone_key(&encode_row(cf.partitioner, key));
        assert!(in_bounds(&k, &from, &through), "{key:02x?}");
    }
    for key in [&b"ff\0"[..], &b"f"[..], &b"fg"[..], &[0xFF, 0x00][..]] {
        let k = cf.row_tombstone_key(&encode_row(cf.partitioner, key));
        assert!(!in_bounds(&k, &from, &through), "{key:02x?}");
    }
}
