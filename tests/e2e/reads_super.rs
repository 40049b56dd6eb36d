//! Super column families and multi-row reads over real sockets (`docs/api.md#result-shape`,
//! `#slice-range`, `#multiget-and-counts`): top-level slices of super columns with their
//! subcolumns in subcomparator order, reversed slices, slices inside a super column, counts
//! that skip tombstones and deleted or empty super columns, multiget_slice with an entry per
//! key, and get_slice of a missing row. Data is written once; every assertion is then made in
//! all four wire styles.

use crate::cases::ONE;
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use std::collections::BTreeMap;

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
fn super_slices_multiget_slice_and_counts() {
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[2]);
    let subs = |names: &[i64]| {
        names
            .iter()
            .map(|&n| col(&long(n), b"v", 1))
            .collect::<Vec<_>>()
    };
    let cfmap = BTreeMap::from([(
        "SuperLong".to_string(),
        vec![
            cosc_super(b"sc2", subs(&[1, -1])),
            cosc_super(b"sc1", subs(&[9, -9, 0])),
            cosc_super(b"sc3", subs(&[5])),
            cosc_super(b"sc4", vec![]),
        ],
    )]);
    w.batch_insert(KS.into(), "row".into(), cfmap, ONE).unwrap();
    // Standard1: c1..c5, with c2 and c4 deleted: counts skip tombstones.
    for i in 1..=5 {
        w.insert(
            KS.into(),
            "row".into(),
            cpath("Standard1", format!("c{i}").as_bytes()),
            b"v".to_vec(),
            1,
            ONE,
        )
        .unwrap();
    }
    for i in [2, 4] {
        w.remove(
            KS.into(),
            "row".into(),
            cpath("Standard1", format!("c{i}").as_bytes()),
            1,
            ONE,
        )
        .unwrap();
    }
    w.remove(
        KS.into(),
        "row".into(),
        path("SuperLong", Some(b"sc3"), None),
        1,
        ONE,
    )
    .unwrap();
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        let top = c
            .get_slice(
                KS.into(),
                "row".into(),
                parent("SuperLong", None),
                all(),
                ONE,
            )
            .unwrap();
        let expected = vec![
            cosc_super(b"sc1", subs(&[-9, 0, 9])),
            cosc_super(b"sc2", subs(&[-1, 1])),
        ];
        assert_eq!(
            top, expected,
            "{at}: subcolumns ascending, deleted and empty super columns omitted"
        );
        let reversed = c
            .get_slice(
                KS.into(),
                "row".into(),
                parent("SuperLong", None),
                range(b"", b"", true, 1),
                ONE,
            )
            .unwrap();
        assert_eq!(
            reversed,
            vec![cosc_super(b"sc2", subs(&[-1, 1]))],
            "{at}: reversed reverses super columns only"
        );
        let inner = slice_names(
            &mut c,
            "SuperLong",
            Some(b"sc1"),
            range(&long(9), &long(-9), true, 10),
        );
        assert_eq!(inner, [long(9), long(0), long(-9)], "{at}");
        assert_eq!(
            slice_names(&mut c, "Standard1", None, range(b"", b"", false, 2)),
            [b"c1".to_vec(), b"c3".to_vec()],
            "{at}"
        );
        assert_eq!(
            slice_names(&mut c, "Standard1", None, range(b"c2", b"", false, 2)),
            [b"c3".to_vec(), b"c5".to_vec()],
            "{at}"
        );

        let count = |c: &mut Client, cf: &str, sc: Option<&[u8]>, key: &str| {
            c.get_count(KS.into(), key.into(), parent(cf, sc), ONE)
                .unwrap()
        };
        assert_eq!(count(&mut c, "Standard1", None, "row"), 3, "{at}");
        assert_eq!(count(&mut c, "SuperLong", None, "row"), 2, "{at}");
        assert_eq!(count(&mut c, "SuperLong", Some(b"sc1"), "row"), 3, "{at}");
        assert_eq!(count(&mut c, "SuperLong", Some(b"sc3"), "row"), 0, "{at}");
        assert_eq!(count(&mut c, "Standard1", None, "never"), 0, "{at}");

        let keys = vec!["row".to_string(), "never".to_string()];
        let got = c
            .multiget_slice(
                KS.into(),
                keys,
                parent("SuperLong", Some(b"sc2")),
                all(),
                ONE,
            )
            .unwrap();
        let expected = BTreeMap::from([
            (
                "row".to_string(),
                vec![cosc_col(&long(-1), b"v", 1), cosc_col(&long(1), b"v", 1)],
            ),
            ("never".to_string(), vec![]),
        ]);
        assert_eq!(got, expected, "{at}");
        let empty = c
            .get_slice(
                KS.into(),
                "never".into(),
                parent("Standard1", None),
                all(),
                ONE,
            )
            .unwrap();
        assert_eq!(empty, vec![], "{at}");
    }
}
