//! batch_insert and batch_mutate over real sockets (`docs/api.md#order`,
//! `#mutations-to-changes`), each wire style on its own row keys: several rows and column
//! families per call, every kind of Deletion (names under and without a super column, a super
//! column, a whole row per CF), an insert and a delete at one timestamp in one batch, a batch
//! that fails validation anywhere applying nothing, and all write methods under CommitLogSync
//! batch, where acks wait for a sync.

use crate::cases::{mutation_map, ONE};
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use crate::writes::{names_in, put_at, remove_at, value};
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::Mutation;
use std::collections::BTreeMap;

fn mutate_ok(c: &mut Client, key: &str, cf: &str, mutations: Vec<Mutation>) {
    c.batch_mutate(KS.into(), mutation_map(key, cf, mutations), ONE)
        .unwrap();
}

#[test]
fn batch_insert_and_batch_mutate() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let k = tag(style);
        let cfmap = BTreeMap::from([
            (
                "Standard1".to_string(),
                vec![cosc_col(b"a", b"1", 1), cosc_col(b"b", b"2", 1)],
            ),
            ("StdLong".to_string(), vec![cosc_col(&long(-3), b"3", 1)]),
            (
                "Super1".to_string(),
                vec![
                    cosc_super(b"sc", vec![col(b"x", b"4", 1)]),
                    cosc_super(b"empty", vec![]),
                ],
            ),
        ]);
        c.batch_insert(KS.into(), k.into(), cfmap, ONE).unwrap();
        assert_eq!(
            names_in(&mut c, k, parent("Standard1", None)),
            [b"a".to_vec(), b"b".to_vec()],
            "{k}"
        );
        assert_eq!(
            names_in(&mut c, k, parent("StdLong", None)),
            [long(-3)],
            "{k}"
        );
        assert_eq!(
            names_in(&mut c, k, parent("Super1", None)),
            [b"sc".to_vec()],
            "{k}: an empty super column writes nothing"
        );

        // Several rows and CFs in one call.
        let (r1, r2) = (format!("{k}-1"), format!("{k}-2"));
        let map = BTreeMap::from([
            (
                r1.clone(),
                BTreeMap::from([
                    ("Standard1".to_string(), vec![put(cosc_col(b"m", b"v", 1))]),
                    (
                        "Super1".to_string(),
                        vec![
                            put(cosc_super(
                                b"s1",
                                vec![col(b"a", b"v", 1), col(b"b", b"v", 1)],
                            )),
                            put(cosc_super(b"s2", vec![col(b"a", b"v", 1)])),
                            put(cosc_super(b"s3", vec![col(b"a", b"v", 1)])),
                        ],
                    ),
                ]),
            ),
            (
                r2.clone(),
                BTreeMap::from([(
                    "Standard2".to_string(),
                    vec![put(cosc_col("é".as_bytes(), b"v", 1))],
                )]),
            ),
        ]);
        c.batch_mutate(KS.into(), map, ONE).unwrap();
        assert_eq!(
            names_in(&mut c, &r1, parent("Standard1", None)),
            [b"m".to_vec()],
            "{k}"
        );
        assert_eq!(
            names_in(&mut c, &r2, parent("Standard2", None)),
            ["é".as_bytes().to_vec()],
            "{k}"
        );

        // Deletions: names under a super column delete subcolumns, names without one delete
        // super columns, a super column alone deletes it.
        mutate_ok(
            &mut c,
            &r1,
            "Super1",
            vec![delete(1, Some(b"s1"), Some(names(&[b"a"])))],
        );
        assert_eq!(
            names_in(&mut c, &r1, parent("Super1", Some(b"s1"))),
            [b"b".to_vec()],
            "{k}"
        );
        mutate_ok(
            &mut c,
            &r1,
            "Super1",
            vec![
                delete(1, None, Some(names(&[b"s2"]))),
                delete(1, Some(b"s3"), None),
            ],
        );
        assert_eq!(
            names_in(&mut c, &r1, parent("Super1", None)),
            [b"s1".to_vec()],
            "{k}"
        );
        // Insert and delete of one column at one timestamp in one batch: deleted.
        mutate_ok(
            &mut c,
            &r1,
            "Standard1",
            vec![
                put(cosc_col(b"n", b"v", 1)),
                delete(1, None, Some(names(&[b"n"]))),
            ],
        );
        assert_eq!(value(&mut c, &r1, cpath("Standard1", b"n")), None, "{k}");
        // No predicate, no super column: the row of that CF only.
        mutate_ok(&mut c, &r1, "Super1", vec![delete(1, None, None)]);
        assert!(
            names_in(&mut c, &r1, parent("Super1", None)).is_empty(),
            "{k}"
        );
        assert_eq!(
            names_in(&mut c, &r1, parent("Standard1", None)),
            [b"m".to_vec()],
            "{k}"
        );
    }
}

#[test]
fn a_failed_batch_mutate_applies_nothing() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let k = tag(style);
        let good = |name: &[u8]| put(cosc_col(name, b"v", 1));
        let map = BTreeMap::from([
            (
                format!("{k}-a"),
                BTreeMap::from([
                    ("Standard1".to_string(), vec![good(b"c1")]),
                    (
                        "Super1".to_string(),
                        vec![put(cosc_super(b"sc", vec![col(b"s", b"v", 1)]))],
                    ),
                ]),
            ),
            (
                format!("{k}-b"),
                BTreeMap::from([("Standard1".to_string(), vec![good(b"c2"), good(b"")])]),
            ),
        ]);
        assert_eq!(
            outcome(c.batch_mutate(KS.into(), map, ONE)),
            ire("column name must not be empty")
        );
        let rows = c.get_range_slices(
            KS.into(),
            parent("Standard1", None),
            all(),
            keys("", "", 10),
            ONE,
        );
        assert_eq!(
            rows.unwrap(),
            vec![],
            "{k}: no row may exist, not even as a ghost"
        );
        let sc = c.get(
            KS.into(),
            format!("{k}-a"),
            path("Super1", Some(b"sc"), None),
            ONE,
        );
        assert_eq!(outcome(sc), Outcome::NotFound, "{k}");
    }
}

#[test]
fn writes_are_acknowledged_under_batch_sync() {
    let server = Server::start(Options {
        batch_sync: true,
        ..Options::default()
    });
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let k = tag(style);
        put_at(&mut c, k, cpath("Standard1", b"a"), "v", 1);
        let cfmap = BTreeMap::from([("Standard1".to_string(), vec![cosc_col(b"b", b"v", 1)])]);
        c.batch_insert(KS.into(), k.into(), cfmap, ONE).unwrap();
        mutate_ok(&mut c, k, "Standard1", vec![put(cosc_col(b"c", b"v", 1))]);
        assert_eq!(
            names_in(&mut c, k, parent("Standard1", None)).len(),
            3,
            "{k}"
        );
        remove_at(&mut c, k, cpath("Standard1", b"a"), 1);
        assert_eq!(
            names_in(&mut c, k, parent("Standard1", None)),
            [b"b".to_vec(), b"c".to_vec()],
            "{k}"
        );
    }
}

/// 0.6 never validated the super column of a Deletion without a predicate: any name was
/// accepted. No super column with an empty, overlong or comparator-invalid name can exist
/// (inserts validate names), so such a deletion changes nothing — and the batch it is in
/// applies in full.
#[test]
fn a_bare_super_column_deletion_is_not_validated() {
    let server = Server::start(Options::default());
    let names: [(&str, Vec<u8>); 4] = [
        ("Super1", vec![]),
        ("Super1", vec![b'x'; 70_000]),
        ("SuperLong", vec![0xFF]),
        ("SuperUtf8", b"abc".to_vec()),
    ];
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        for (i, (cf, name)) in names.iter().enumerate() {
            let k = format!("{}-{i}", tag(style));
            let map = BTreeMap::from([
                (
                    format!("{k}-a"),
                    BTreeMap::from([("Standard1".to_string(), vec![put(cosc_col(b"c", b"v", 1))])]),
                ),
                (
                    format!("{k}-b"),
                    BTreeMap::from([(cf.to_string(), vec![delete(5, Some(name), None)])]),
                ),
            ]);
            let at = format!("{k} {cf}, {} bytes", name.len());
            assert_eq!(
                outcome(c.batch_mutate(KS.into(), map, ONE)),
                Outcome::Ok,
                "{at}"
            );
            assert!(
                value(&mut c, &format!("{k}-a"), cpath("Standard1", b"c")).is_some(),
                "{at}: the whole batch applies"
            );
        }
    }
}
