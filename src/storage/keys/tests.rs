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

fn keys() -> impl Strategy<Value = String> {
    "[a-c0-2\u{0}\u{1}\u{e9}\u{ff01}\u{1F600}-]{1,4}"
}

proptest! {
    #[test]
    fn rows_sort_by_token_then_key(a in keys(), b in keys()) {
        for p in Partitioner::ALL {
            let expected = p.token(&a).cmp(&p.token(&b)).then_with(|| match p {
                // OPP tokens are the keys themselves; nothing to break ties with.
                Partitioner::OrderPreserving => Ordering::Equal,
                _ => a.as_bytes().cmp(b.as_bytes()),
            });
            prop_assert_eq!(encode_row(p, &a).cmp(&encode_row(p, &b)), expected, "{:?}", p);
            let row = encode_row(p, &a);
            prop_assert_eq!(decode_row(p, &row), Some((a.clone(), row.len())));
        }
    }

    #[test]
    fn token_bounds_select_exactly_the_rows_in_range(a in keys(), t in keys()) {
        for p in Partitioner::ALL {
            let cf = layout(p, None);
            let token = p.token(&t);
            let row_key = cf.column_key(&encode_row(p, &a), b"col");
            let tomb_key = cf.row_tombstone_key(&encode_row(p, &a));
            let from = cf.rows_from(&token);
            let through = cf.rows_through(&token);
            for key in [&row_key, &tomb_key] {
                prop_assert_eq!(in_bounds(key, &from, &cf.cf_end()), p.token(&a) >= token);
                prop_assert_eq!(in_bounds(key, &Bound::Included(cf.cf_prefix()), &through), p.token(&a) <= token);
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
    let row = encode_row(cf.partitioner, "row\u{0}1");
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
    let row = encode_row(Partitioner::Random, "a");
    // token("a") = 16955237001963240173058271559858726497
    assert_eq!(
        crate::comparator::hex(&row),
        format!("{:032x}", 16955237001963240173058271559858726497u128) + "610000"
    );
}
