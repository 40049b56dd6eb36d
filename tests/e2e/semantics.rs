//! The finer points of `docs/api.md` (`#tombstones`, `#slice-range`, `#range-ghosts`,
//! `#order-preserving-partitioner`, `#key-order`) over real sockets: what super column and row
//! tombstones hide and how they interact with counts, reconciliation inside one batch, ghost
//! rows for a missing super column, rows whose keys share a collation token under
//! CollatingOrderPreservingPartitioner, OrderPreservingPartitioner's UTF-16 key order, and
//! 0.6's truncated `toString` of a long super column name in an error text.

use crate::cases::{range_keys, ONE};
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use crate::writes::{names_in, put_at, remove_at};
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::partitioner::Partitioner;
use std::collections::BTreeMap;

#[test]
fn super_column_tombstones_and_counts() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let k = tag(style);
        let sc = |c: &mut _, sc: &[u8], sub: &[u8], ts| {
            put_at(c, k, path("Super1", Some(sc), Some(sub)), "v", ts)
        };
        let first = |c: &mut ilion::client::Client| {
            let got = c.get_slice(
                KS.into(),
                k.into(),
                parent("Super1", None),
                range(b"", b"", false, 1),
                ONE,
            );
            got.unwrap()
        };
        for name in [b"sc1", b"sc2", b"sc3"] {
            sc(&mut c, name, b"a", 1);
        }
        remove_at(&mut c, k, path("Super1", Some(b"sc1"), None), 1);
        assert_eq!(
            result_names(&first(&mut c)),
            [b"sc2".to_vec()],
            "{k}: a deleted sc uses no count"
        );
        sc(&mut c, b"sc1", b"b", 2);
        let expected = vec![cosc_super(b"sc1", vec![col(b"b", b"v", 2)])];
        assert_eq!(
            first(&mut c),
            expected,
            "{k}: re-inserted, with only the newer subcolumn"
        );
        let whole = c.get(KS.into(), k.into(), path("Super1", Some(b"sc1"), None), ONE);
        assert_eq!(whole.unwrap(), expected[0], "{k}");

        // A row tombstone at 3, then subcolumns at 2 (hidden) and 4 (shown).
        remove_at(&mut c, k, path("Super1", None, None), 3);
        for name in [&b"sc1"[..], b"sc2", b"sc3", b"sc4", b"sc5"] {
            sc(&mut c, name, b"old", 2);
        }
        for name in [&b"sc2"[..], b"sc4", b"sc5"] {
            sc(&mut c, name, b"new", 4);
        }
        let two = c.get_slice(
            KS.into(),
            k.into(),
            parent("Super1", None),
            range(b"", b"", false, 2),
            ONE,
        );
        assert_eq!(
            result_names(&two.unwrap()),
            [b"sc2".to_vec(), b"sc4".to_vec()],
            "{k}"
        );
        let count = |c: &mut ilion::client::Client, sc: Option<&[u8]>| {
            c.get_count(KS.into(), k.into(), parent("Super1", sc), ONE)
                .unwrap()
        };
        assert_eq!(count(&mut c, None), 3, "{k}");
        assert_eq!(count(&mut c, Some(b"sc2")), 1, "{k}");
        let shadowed = c.get(KS.into(), k.into(), path("Super1", Some(b"sc3"), None), ONE);
        assert_eq!(
            outcome(shadowed),
            Outcome::NotFound,
            "{k}: only shadowed subcolumns"
        );
        // A super column tombstone above the row tombstone: max of the two applies.
        remove_at(&mut c, k, path("Super1", Some(b"sc2"), None), 5);
        sc(&mut c, b"sc2", b"newest", 6);
        sc(&mut c, b"sc2", b"between", 5);
        assert_eq!(
            names_in(&mut c, k, parent("Super1", Some(b"sc2"))),
            [b"newest".to_vec()],
            "{k}"
        );
        // An older super column tombstone never lowers the row's.
        remove_at(&mut c, k, path("Super1", Some(b"sc4"), None), 1);
        assert_eq!(
            names_in(&mut c, k, parent("Super1", Some(b"sc4"))),
            [b"new".to_vec()],
            "{k}"
        );
    }
}

#[test]
fn reconciliation_inside_one_batch() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let k = tag(style);
        let coscs = vec![
            cosc_col(b"t", b"newer", 2),
            cosc_col(b"t", b"older", 1),
            cosc_col(b"v", b"a", 1),
            cosc_col(b"v", b"b", 1),
        ];
        let cfmap = BTreeMap::from([("Standard1".to_string(), coscs)]);
        c.batch_insert(KS.into(), k.into(), cfmap, ONE).unwrap();
        let got = c
            .get_slice(KS.into(), k.into(), parent("Standard1", None), all(), ONE)
            .unwrap();
        assert_eq!(
            got,
            vec![cosc_col(b"t", b"newer", 2), cosc_col(b"v", b"b", 1)],
            "{k}"
        );
    }
}

#[test]
fn ghosts_for_a_missing_super_column() {
    let server = Server::start(Options::partitioner(Partitioner::OrderPreserving));
    let mut w = server.client(WireStyle::ALL[0]);
    for key in ["a", "b"] {
        put_at(&mut w, key, path("Super1", Some(b"sc"), Some(b"x")), "v", 1);
    }
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let rows = c.get_range_slices(
            KS.into(),
            parent("Super1", Some(b"nosuch")),
            all(),
            keys("", "", 10),
            ONE,
        );
        let rows: Vec<_> = rows
            .unwrap()
            .into_iter()
            .map(|r| (r.key, r.columns.len()))
            .collect();
        assert_eq!(
            rows,
            [("a".to_string(), 0), ("b".to_string(), 0)],
            "{}",
            tag(style)
        );
    }
}

#[test]
fn keys_sharing_a_collation_token() {
    let server = Server::start(Options::partitioner(Partitioner::CollatingOrderPreserving));
    let mut w = server.client(WireStyle::ALL[1]);
    // U+0001 is ignorable at every level: "a" and "a\u{1}" share a token.
    for key in ["b", "a\u{1}", "a"] {
        put_at(&mut w, key, cpath("Standard1", b"c"), "v", 1);
    }
    let tok_a = "00530000000100000001";
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut c = server.client(style);
        let mut std = |r| range_keys(&mut c, "Standard1", all(), r);
        assert_eq!(
            std(keys("", "", 10)),
            ["a", "a\u{1}", "b"],
            "{at}: distinct rows, by key bytes"
        );
        assert_eq!(
            std(keys("a", "a", 10)),
            ["a", "a\u{1}"],
            "{at}: every key of the token"
        );
        assert_eq!(std(keys("a\u{1}", "a\u{1}", 10)), ["a", "a\u{1}"], "{at}");
        assert_eq!(
            std(tokens(tok_a, "", 10)),
            ["b"],
            "{at}: start token exclusive"
        );
        assert_eq!(std(tokens("", tok_a, 10)), ["a", "a\u{1}"], "{at}");
        let got = c.get(KS.into(), "a\u{1}".into(), cpath("Standard1", b"c"), ONE);
        assert!(got.is_ok(), "{at}");
    }
}

#[test]
fn order_preserving_keys_sort_by_utf16_code_units() {
    let server = Server::start(Options::partitioner(Partitioner::OrderPreserving));
    let mut w = server.client(WireStyle::ALL[2]);
    for key in ["\u{E000}", "\u{10000}", "z"] {
        put_at(&mut w, key, cpath("Standard1", b"c"), "v", 1);
    }
    let order = ire("start key must sort before (or equal to) finish key in your partitioner!");
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut c = server.client(style);
        let got = range_keys(&mut c, "Standard1", all(), keys("", "", 10));
        assert_eq!(
            got,
            ["z", "\u{10000}", "\u{E000}"],
            "{at}: U+10000 is D800 DC00 in UTF-16"
        );
        let got = range_keys(
            &mut c,
            "Standard1",
            all(),
            keys("\u{10000}", "\u{E000}", 10),
        );
        assert_eq!(got, ["\u{10000}", "\u{E000}"], "{at}");
        let bad = c.get_range_slices(
            KS.into(),
            parent("Standard1", None),
            all(),
            keys("\u{E000}", "\u{10000}", 10),
            ONE,
        );
        assert_eq!(outcome(bad), order, "{at}");
    }
}

#[test]
fn long_super_column_names_are_truncated_in_the_deletion_text() {
    let server = Server::start(Options::default());
    let name = vec![0x01; 130];
    let bytes = vec!["01"; 128].join(" ");
    let why = format!("deletion of super_column is not possible on a standard ColumnFamily (KeySpace=Keyspace1 ColumnFamily=Standard1 Deletion=Deletion(timestamp:1, super_column:{bytes} ...))");
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let got = crate::cases::mutate(
            &mut c,
            KS,
            "k",
            "Standard1",
            vec![delete(1, Some(&name), None)],
        );
        assert_eq!(got, ire(&why), "{}", tag(style));
    }
}
