//! get_range_slice and get_range_slices under the order-preserving partitioners
//! (`docs/api.md#range-slices`, `#order-preserving-partitioner`, `#collating-partitioner`,
//! `#key-ranges`) over real sockets: inclusive key ranges, start-exclusive token ranges,
//! wrapping and full-ring token ranges, the empty end token, row counts, ghosts (rows without
//! live or matching columns), Super CF parents, and the collated key order of
//! CollatingOrderPreservingPartitioner with the documented examples. Data is written once per
//! server; every range is then read in all four wire styles.

use crate::cases::{range_keys, ONE};
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::partitioner::Partitioner;
use ilion::protocol::KeySlice;
use std::collections::BTreeMap;

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn order_preserving_ranges_tokens_and_ghosts() {
    let server = Server::start(Options::partitioner(Partitioner::OrderPreserving));
    let mut w = server.client(WireStyle::ALL[3]);
    for key in ["e", "d", "c", "b", "a"] {
        let cfmap = BTreeMap::from([(
            "Standard1".to_string(),
            vec![cosc_col(b"c", b"v", 1), cosc_col(b"x", b"v", 1)],
        )]);
        w.batch_insert(KS.into(), key.into(), cfmap, ONE).unwrap();
    }
    // b: deleted as a row; d: each column deleted. Both stay visible as ghosts.
    w.remove(KS.into(), "b".into(), path("Standard1", None, None), 1, ONE)
        .unwrap();
    for name in [b"c", b"x"] {
        w.remove(KS.into(), "d".into(), cpath("Standard1", name), 1, ONE)
            .unwrap();
    }
    for key in ["z", "a"] {
        w.insert(
            KS.into(),
            key.into(),
            path("Super1", Some(b"sc"), Some(b"s")),
            b"v".to_vec(),
            1,
            ONE,
        )
        .unwrap();
    }
    let everything = strings(&["a", "b(ghost)", "c", "d(ghost)", "e"]);
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        let mut std = |p, r| range_keys(&mut c, "Standard1", p, r);
        assert_eq!(std(all(), keys("", "", 100)), everything, "{at}");
        assert_eq!(
            std(all(), keys("", "", 2)),
            ["a", "b(ghost)"],
            "{at}: ghosts use up the count"
        );
        assert_eq!(
            std(all(), keys("b", "d", 100)),
            ["b(ghost)", "c", "d(ghost)"],
            "{at}: keys inclusive"
        );
        assert_eq!(std(all(), keys("c", "c", 100)), ["c"], "{at}");
        assert_eq!(
            std(all(), keys("bb", "cc", 100)),
            ["c"],
            "{at}: bounds need not exist"
        );
        assert_eq!(
            std(all(), tokens("b", "d", 100)),
            ["c", "d(ghost)"],
            "{at}: start token exclusive"
        );
        assert_eq!(
            std(all(), tokens("d", "b", 100)),
            ["e", "a", "b(ghost)"],
            "{at}: wrapping"
        );
        assert_eq!(
            std(all(), tokens("c", "c", 100)),
            ["d(ghost)", "e", "a", "b(ghost)", "c"],
            "{at}: full ring"
        );
        assert_eq!(
            std(all(), tokens("c", "", 100)),
            ["d(ghost)", "e"],
            "{at}: empty end token"
        );
        assert_eq!(std(all(), tokens("", "", 100)), everything, "{at}");
        assert_eq!(std(all(), tokens("d", "b", 2)), ["e", "a"], "{at}");
        let ghosts = ["a(ghost)", "b(ghost)", "c(ghost)", "d(ghost)", "e(ghost)"];
        assert_eq!(
            std(names(&[b"other"]), keys("", "", 100)),
            ghosts,
            "{at}: no matching column"
        );
        assert_eq!(
            range_keys(&mut c, "Standard2", all(), keys("", "", 100)),
            Vec::<String>::new(),
            "{at}"
        );

        let rows = c.get_range_slices(
            KS.into(),
            parent("Standard1", None),
            range(b"", b"", true, 1),
            keys("c", "c", 5),
            ONE,
        );
        assert_eq!(
            rows.unwrap(),
            vec![KeySlice::new("c".into(), vec![cosc_col(b"x", b"v", 1)])],
            "{at}"
        );
        let rows = c
            .get_range_slices(
                KS.into(),
                parent("Super1", Some(b"sc")),
                all(),
                keys("", "", 10),
                ONE,
            )
            .unwrap();
        let sub = || vec![cosc_col(b"s", b"v", 1)];
        assert_eq!(
            rows,
            vec![
                KeySlice::new("a".into(), sub()),
                KeySlice::new("z".into(), sub())
            ],
            "{at}"
        );
        let rows = c
            .get_range_slices(
                KS.into(),
                parent("Super1", None),
                all(),
                tokens("a", "", 10),
                ONE,
            )
            .unwrap();
        assert_eq!(
            rows,
            vec![KeySlice::new(
                "z".into(),
                vec![cosc_super(b"sc", vec![col(b"s", b"v", 1)])]
            )],
            "{at}"
        );

        let old = c
            .get_range_slice(
                KS.into(),
                parent("Standard1", None),
                names(&[b"c"]),
                "b".into(),
                "".into(),
                2,
                ONE,
            )
            .unwrap();
        let old: Vec<(String, usize)> = old.into_iter().map(|r| (r.key, r.columns.len())).collect();
        assert_eq!(
            old,
            [("b".to_string(), 0), ("c".to_string(), 1)],
            "{at}: get_range_slice"
        );
        let old = c
            .get_range_slice(
                KS.into(),
                parent("Standard1", None),
                all(),
                "".into(),
                "".into(),
                100,
                ONE,
            )
            .unwrap();
        assert_eq!(old.len(), 5, "{at}");
    }
}

/// The collation token of a one-letter lowercase key: its primary weight from the ASCII weight
/// table (`docs/api.md#collating-partitioner`), then secondary 1 and tertiary 1.
fn letter_token(primary: &str) -> String {
    format!("{primary}0000000100000001")
}

#[test]
fn collating_order_examples_from_the_docs() {
    let server = Server::start(Options::partitioner(Partitioner::CollatingOrderPreserving));
    let mut w = server.client(WireStyle::ALL[0]);
    let mut collated = Vec::new();
    // The keys "0" to "99", and "a", "b", "-a", "-b", in collated order.
    for d in 0..10 {
        collated.push(d.to_string());
        if d > 0 {
            collated.extend((0..10).map(|e| format!("{d}{e}")));
        }
    }
    assert_eq!(collated.len(), 100);
    collated.extend(strings(&["a", "-a", "b", "-b"]));
    for key in collated.iter().rev() {
        w.insert(
            KS.into(),
            key.clone(),
            cpath("Standard1", b"c"),
            b"v".to_vec(),
            1,
            ONE,
        )
        .unwrap();
    }
    for key in ["c", "e", "a", "d", "b"] {
        w.insert(
            KS.into(),
            key.into(),
            cpath("StdAscii", b"c"),
            b"v".to_vec(),
            1,
            ONE,
        )
        .unwrap();
    }
    let (tok_c, tok_e) = (letter_token("0055"), letter_token("0058"));
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        let mut std = |r| range_keys(&mut c, "Standard1", all(), r);
        assert_eq!(std(keys("", "", 200)), collated, "{at}: collated order");
        assert_eq!(std(keys("a", "", 200)), ["a", "-a", "b", "-b"], "{at}");
        assert_eq!(
            std(keys("", "15", 200)),
            ["0", "1", "10", "11", "12", "13", "14", "15"],
            "{at}"
        );
        assert_eq!(std(keys("50", "51", 200)), ["50", "51"], "{at}");
        assert_eq!(
            std(keys("1", "", 10)),
            ["1", "10", "11", "12", "13", "14", "15", "16", "17", "18"],
            "{at}"
        );
        assert_eq!(
            std(tokens("55", "55", 200)),
            collated,
            "{at}: full ring from byte 0x55"
        );
        assert_eq!(
            std(tokens(&letter_token("0053"), &letter_token("0054"), 200)),
            ["-a", "b"],
            "{at}"
        );
        let mut ascii = |r| range_keys(&mut c, "StdAscii", all(), r);
        assert_eq!(
            ascii(tokens(&tok_e, &tok_e, 10)),
            ["a", "b", "c", "d", "e"],
            "{at}"
        );
        assert_eq!(
            ascii(tokens(&tok_c, &tok_c, 10)),
            ["d", "e", "a", "b", "c"],
            "{at}"
        );
        assert_eq!(
            ascii(tokens(&tok_c.to_uppercase(), "", 10)),
            ["d", "e"],
            "{at}: hex in either case"
        );
    }
}
