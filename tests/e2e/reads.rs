//! Read methods over real sockets (`docs/api.md#reads`, `#comparators`): get_slice, get_count,
//! get and multiget on Standard column families of each of the six comparators — comparator
//! order, reversed slices, inclusive bounds, counts, names predicates in comparator order — and
//! the shapes of missing data (NotFound, empty COSC per multiget key) for Standard and Super
//! CFs. Data is written once; every assertion is then made in all four wire styles.

use crate::cases::ONE;
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{ColumnOrSuperColumn, SuperColumn};
use std::collections::BTreeMap;

/// Names of one Standard CF, listed in that CF's comparator order.
fn sorted_names() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let s = |v: &[&str]| v.iter().map(|n| n.as_bytes().to_vec()).collect::<Vec<_>>();
    vec![
        (
            "Standard1",
            vec![
                vec![0],
                b"a".to_vec(),
                b"ab".to_vec(),
                b"b".to_vec(),
                vec![0xFF],
            ],
        ),
        ("StdAscii", s(&["B", "Z", "a", "b~"])),
        ("Standard2", s(&["a", "z", "é", "€", "😀"])),
        (
            "StdLong",
            [i64::MIN, -5, -1, 0, 3, i64::MAX].map(long).to_vec(),
        ),
        (
            "StdLexical",
            vec![
                lexical(-1, -2),
                lexical(-1, 5),
                lexical(0, 9),
                lexical(1, i64::MIN),
            ],
        ),
        (
            "StdTime",
            vec![
                time_uuid(2, 1),
                time_uuid(2, 0xFF),
                time_uuid(3, 0),
                time_uuid(1 << 40, 0),
            ],
        ),
    ]
}

/// A valid name for `cf` that is never written.
fn absent_name(cf: &str) -> Vec<u8> {
    match cf {
        "StdLong" => long(42),
        "StdLexical" => lexical(42, 42),
        "StdTime" => time_uuid(42, 42),
        _ => b"never written".to_vec(),
    }
}

fn slice_names(
    c: &mut Client,
    cf: &str,
    sc: Option<&[u8]>,
    p: ilion::protocol::SlicePredicate,
) -> Vec<Vec<u8>> {
    let got = c.get_slice(KS.into(), "row".into(), parent(cf, sc), p, ONE);
    result_names(&got.unwrap_or_else(|e| panic!("get_slice {cf}: {e}")))
}

#[test]
fn slices_follow_each_comparator() {
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[0]);
    for (cf, sorted) in sorted_names() {
        // Written out of order, in a single batch_insert per CF.
        let coscs = sorted.iter().rev().map(|n| cosc_col(n, n, 7)).collect();
        let cfmap = BTreeMap::from([(cf.to_string(), coscs)]);
        w.batch_insert(KS.into(), "row".into(), cfmap, ONE).unwrap();
    }
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        for (cf, sorted) in sorted_names() {
            let at = format!("{cf} [{}]", tag(style));
            assert_eq!(slice_names(&mut c, cf, None, all()), sorted, "{at}");
            let reversed: Vec<_> = sorted.iter().rev().cloned().collect();
            assert_eq!(
                slice_names(&mut c, cf, None, range(b"", b"", true, 100)),
                reversed,
                "{at}"
            );
            assert_eq!(
                slice_names(&mut c, cf, None, range(b"", b"", false, 2)),
                sorted[..2],
                "{at}"
            );
            assert_eq!(
                slice_names(&mut c, cf, None, range(b"", b"", false, 0)),
                Vec::<Vec<u8>>::new()
            );
            // Both bounds inclusive; reversed starts at start and walks down to finish.
            let (lo, hi) = (&sorted[1], &sorted[3]);
            assert_eq!(
                slice_names(&mut c, cf, None, range(lo, hi, false, 100)),
                sorted[1..4],
                "{at}"
            );
            assert_eq!(
                slice_names(&mut c, cf, None, range(hi, lo, true, 2)),
                [hi.clone(), sorted[2].clone()],
                "{at}"
            );
            // Names come back in comparator order, duplicates collapse, missing ones are left out.
            let missing = absent_name(cf);
            let asked: Vec<&[u8]> = vec![hi, lo, hi, &missing];
            let got = slice_names(&mut c, cf, None, names(&asked));
            assert_eq!(got, [lo.clone(), hi.clone()], "{at}");
            let count = c
                .get_count(KS.into(), "row".into(), parent(cf, None), ONE)
                .unwrap();
            assert_eq!(count, sorted.len() as i32, "{at}");
            let one = c.get(KS.into(), "row".into(), cpath(cf, lo), ONE).unwrap();
            assert_eq!(one, cosc_col(lo, lo, 7), "{at}");
        }
    }
}

#[test]
fn get_and_multiget() {
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[1]);
    w.insert(
        KS.into(),
        "k".into(),
        cpath("Standard1", b"c"),
        b"value".to_vec(),
        42,
        ONE,
    )
    .unwrap();
    for (sub, ts) in [(&b"b"[..], 5), (b"a", 6)] {
        let p = path("Super1", Some(b"sc"), Some(sub));
        w.insert(KS.into(), "k".into(), p, sub.to_vec(), ts, ONE)
            .unwrap();
    }
    let whole = ColumnOrSuperColumn::new(
        None,
        SuperColumn::new(b"sc".to_vec(), vec![col(b"a", b"a", 6), col(b"b", b"b", 5)]),
    );
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        assert_eq!(
            c.get(KS.into(), "k".into(), cpath("Standard1", b"c"), ONE)
                .unwrap(),
            cosc_col(b"c", b"value", 42),
            "{at}"
        );
        assert_eq!(
            get_outcome(&mut c, "missing", cpath("Standard1", b"c")),
            Outcome::NotFound,
            "{at}: missing row"
        );
        assert_eq!(
            get_outcome(&mut c, "k", cpath("Standard1", b"d")),
            Outcome::NotFound,
            "{at}: missing column"
        );
        assert_eq!(
            get_outcome(&mut c, "k", cpath("Standard2", b"c")),
            Outcome::NotFound,
            "{at}: other CF"
        );
        assert_eq!(
            c.get(
                KS.into(),
                "k".into(),
                path("Super1", Some(b"sc"), None),
                ONE
            )
            .unwrap(),
            whole,
            "{at}"
        );
        let sub = c
            .get(
                KS.into(),
                "k".into(),
                path("Super1", Some(b"sc"), Some(b"b")),
                ONE,
            )
            .unwrap();
        assert_eq!(sub, cosc_col(b"b", b"b", 5), "{at}");
        assert_eq!(
            get_outcome(&mut c, "k", path("Super1", Some(b"nope"), None)),
            Outcome::NotFound,
            "{at}"
        );

        let keys = vec!["k".to_string(), "missing".to_string(), "k".to_string()];
        let got = c
            .multiget(KS.into(), keys.clone(), cpath("Standard1", b"c"), ONE)
            .unwrap();
        let expected = BTreeMap::from([
            ("k".to_string(), cosc_col(b"c", b"value", 42)),
            ("missing".to_string(), ColumnOrSuperColumn::new(None, None)),
        ]);
        assert_eq!(got, expected, "{at}: an entry per key, empty when missing");
        let got = c
            .multiget(KS.into(), keys, path("Super1", Some(b"sc"), None), ONE)
            .unwrap();
        assert_eq!(got["k"], whole, "{at}");
        assert_eq!(got["missing"], ColumnOrSuperColumn::new(None, None), "{at}");
        assert!(c
            .multiget(KS.into(), vec![], cpath("Standard1", b"c"), ONE)
            .unwrap()
            .is_empty());
    }
}

fn get_outcome(c: &mut Client, key: &str, p: ilion::protocol::ColumnPath) -> Outcome {
    outcome(c.get(KS.into(), key.into(), p, ONE))
}
