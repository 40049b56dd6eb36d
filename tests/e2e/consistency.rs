//! Consistency levels on one node over real sockets (`docs/api.md#consistency`,
//! `docs/compatibility.md#d6`): ZERO and ANY reads are refused with 0.6's texts,
//! QUORUM/DCQUORUM/DCQUORUMSYNC/ALL reads are UnavailableException on the ReplicationFactor 3
//! keyspace and fine on RF 1, range reads take ANY like ONE and refuse ZERO (D6), and every
//! write method succeeds — and is applied — at every level. A ConsistencyLevel number outside
//! the enum is a PROTOCOL_ERROR where the field is required, and the D7 message for remove. All
//! four wire styles.

use crate::cases::*;
use crate::harness::{tag, Options, Server, KS, KS_RF3};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{ApplicationErrorKind, ConsistencyLevel};
use std::collections::BTreeMap;

const LEVELS: [ConsistencyLevel; 7] = [
    ConsistencyLevel::ZERO,
    ConsistencyLevel::ONE,
    ConsistencyLevel::QUORUM,
    ConsistencyLevel::DCQUORUM,
    ConsistencyLevel::DCQUORUMSYNC,
    ConsistencyLevel::ALL,
    ConsistencyLevel::ANY,
];

/// Each single-row read method at `cl`, on an existing row.
fn reads(c: &mut Client, ks: &str, cl: ConsistencyLevel) -> Vec<(&'static str, Outcome)> {
    let p = || cpath("Standard1", b"c");
    let std = || parent("Standard1", None);
    let keys = || vec!["k".to_string()];
    vec![
        ("get", outcome(c.get(ks.into(), "k".into(), p(), cl))),
        (
            "get_slice",
            outcome(c.get_slice(ks.into(), "k".into(), std(), all(), cl)),
        ),
        ("multiget", outcome(c.multiget(ks.into(), keys(), p(), cl))),
        (
            "multiget_slice",
            outcome(c.multiget_slice(ks.into(), keys(), std(), all(), cl)),
        ),
        (
            "get_count",
            outcome(c.get_count(ks.into(), "k".into(), std(), cl)),
        ),
    ]
}

fn range_reads(c: &mut Client, ks: &str, cl: ConsistencyLevel) -> Vec<(&'static str, Outcome)> {
    let std = || parent("Standard1", None);
    vec![
        (
            "get_range_slices",
            range_slices(c, ks, std(), all(), keys("", "", 10), cl),
        ),
        (
            "get_range_slice",
            outcome(c.get_range_slice(ks.into(), std(), all(), "".into(), "".into(), 10, cl)),
        ),
    ]
}

#[test]
fn reads_by_level_and_replication_factor() {
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[0]);
    for ks in [KS, KS_RF3] {
        assert_eq!(
            insert(&mut w, ks, "k", cpath("Standard1", b"c")),
            Outcome::Ok
        );
    }
    let zero = || ire("Consistency level zero may not be applied to read operations");
    let any = || ire("Consistency level any may not be applied to read operations");
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        for cl in LEVELS {
            for (ks, rf) in [(KS, 1), (KS_RF3, 3)] {
                let expected = match cl {
                    ConsistencyLevel::ZERO => zero(),
                    ConsistencyLevel::ANY => any(),
                    ConsistencyLevel::ONE => Outcome::Ok,
                    _ if rf == 1 => Outcome::Ok,
                    _ => Outcome::Unavailable,
                };
                for (method, got) in reads(&mut c, ks, cl) {
                    assert_eq!(
                        got,
                        expected,
                        "[{}] {method} at {cl:?} on RF {rf}",
                        tag(style)
                    );
                }
                let expected = match cl {
                    ConsistencyLevel::ZERO => zero(),
                    ConsistencyLevel::ONE | ConsistencyLevel::ANY => Outcome::Ok,
                    _ if rf == 1 => Outcome::Ok,
                    _ => Outcome::Unavailable,
                };
                for (method, got) in range_reads(&mut c, ks, cl) {
                    assert_eq!(
                        got,
                        expected,
                        "[{}] {method} at {cl:?} on RF {rf}",
                        tag(style)
                    );
                }
            }
        }
    }
}

#[test]
fn every_write_level_succeeds_on_one_node() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        for (i, cl) in LEVELS.into_iter().enumerate() {
            let key = format!("{}-{i}", tag(style));
            let at = format!("[{}] {cl:?}", tag(style));
            let ins = c.insert(
                KS_RF3.into(),
                key.clone(),
                cpath("Standard1", b"c"),
                b"v".to_vec(),
                1,
                cl,
            );
            assert_eq!(outcome(ins), Outcome::Ok, "{at}: insert");
            let cfmap = BTreeMap::from([("Standard1".to_string(), vec![cosc_col(b"d", b"v", 1)])]);
            assert_eq!(
                outcome(c.batch_insert(KS_RF3.into(), key.clone(), cfmap, cl)),
                Outcome::Ok,
                "{at}: batch_insert"
            );
            let map = mutation_map(&key, "Standard1", vec![put(cosc_col(b"e", b"v", 1))]);
            assert_eq!(
                outcome(c.batch_mutate(KS_RF3.into(), map, cl)),
                Outcome::Ok,
                "{at}: batch_mutate"
            );
            let count = c.get_count(KS_RF3.into(), key.clone(), parent("Standard1", None), ONE);
            assert_eq!(count.unwrap(), 3, "{at}: applied");
            let rm = c.remove(
                KS_RF3.into(),
                key.clone(),
                path("Standard1", None, None),
                2,
                cl,
            );
            assert_eq!(outcome(rm), Outcome::Ok, "{at}: remove");
            let count = c.get_count(KS_RF3.into(), key, parent("Standard1", None), ONE);
            assert_eq!(count.unwrap(), 0, "{at}: removed");
        }
    }
}

#[test]
fn levels_outside_the_enum() {
    let server = Server::start(Options::default());
    let bad = ConsistencyLevel(42);
    let missing = |args: &str| {
        let why = format!("Required field 'consistency_level' was not present! Struct: {args}");
        Outcome::Application(ApplicationErrorKind::ProtocolError, why)
    };
    run(
        &server,
        &[
            case("get", missing("get_args"), move |c| {
                outcome(c.get(KS.into(), "k".into(), cpath("Standard1", b"c"), bad))
            }),
            case("get_slice", missing("get_slice_args"), move |c| {
                outcome(c.get_slice(KS.into(), "k".into(), parent("Standard1", None), all(), bad))
            }),
            case("insert", missing("insert_args"), move |c| {
                outcome(c.insert(
                    KS.into(),
                    "k".into(),
                    cpath("Standard1", b"c"),
                    vec![],
                    1,
                    bad,
                ))
            }),
            case("batch_mutate", missing("batch_mutate_args"), move |c| {
                outcome(c.batch_mutate(KS.into(), BTreeMap::new(), bad))
            }),
            case(
                "get_range_slices",
                missing("get_range_slices_args"),
                move |c| {
                    range_slices(
                        c,
                        KS,
                        parent("Standard1", None),
                        all(),
                        keys("", "", 1),
                        bad,
                    )
                },
            ),
            case(
                "remove: D7",
                ire("Unknown consistency level 42"),
                move |c| outcome(c.remove(KS.into(), "k".into(), cpath("Standard1", b"c"), 1, bad)),
            ),
            case("remove: nothing was written", Outcome::NotFound, |c| {
                get(c, KS, "k", cpath("Standard1", b"c"))
            }),
        ],
    );
}
