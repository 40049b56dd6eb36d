//! `docs/api.md#consistency` on one node: which consistency levels each kind of call accepts,
//! for a keyspace with ReplicationFactor 1 and one with 2.

use super::*;

const ALL_LEVELS: [ConsistencyLevel; 7] = [
    ConsistencyLevel::ZERO,
    ConsistencyLevel::ONE,
    ConsistencyLevel::QUORUM,
    ConsistencyLevel::DCQUORUM,
    ConsistencyLevel::DCQUORUMSYNC,
    ConsistencyLevel::ALL,
    ConsistencyLevel::ANY,
];

fn zero_read() -> Outcome {
    ire("Consistency level zero may not be applied to read operations")
}

fn any_read() -> Outcome {
    ire("Consistency level any may not be applied to read operations")
}

/// The outcome of each single-row read method at `cl`.
fn reads(s: &Session, ks: &str, cl: ConsistencyLevel) -> Vec<(&'static str, Outcome)> {
    let p = || path("Standard1", None, Some(b"c"));
    let keys = || vec!["k".to_string()];
    vec![
        ("get", outcome(s.handle_get(ks.into(), "k".into(), p(), cl))),
        (
            "get_slice",
            outcome(s.handle_get_slice(
                ks.into(),
                "k".into(),
                parent("Standard1", None),
                all(),
                cl,
            )),
        ),
        (
            "multiget",
            outcome(s.handle_multiget(ks.into(), keys(), p(), cl)),
        ),
        (
            "multiget_slice",
            outcome(s.handle_multiget_slice(
                ks.into(),
                keys(),
                parent("Standard1", None),
                all(),
                cl,
            )),
        ),
        (
            "get_count",
            outcome(s.handle_get_count(ks.into(), "k".into(), parent("Standard1", None), cl)),
        ),
    ]
}

#[test]
fn reads_by_replication_factor() {
    let f = Fixture::new();
    let s = f.session();
    assert_eq!(
        insert(&s, KS, "k", path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );
    assert_eq!(
        insert(&s, KS_RF3, "k", path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );
    for cl in ALL_LEVELS {
        for (ks, rf) in [(KS, 1), (KS_RF3, 3)] {
            let expected = match cl {
                ConsistencyLevel::ZERO => zero_read(),
                ConsistencyLevel::ANY => any_read(),
                ConsistencyLevel::ONE => Outcome::Ok,
                _ if rf == 1 => Outcome::Ok,
                _ => Outcome::Unavailable,
            };
            for (method, got) in reads(&s, ks, cl) {
                assert_eq!(got, expected, "{method} at {cl:?} on RF {rf}");
            }
        }
    }
}

#[test]
fn an_empty_key_list_is_never_unavailable() {
    let f = Fixture::new();
    let s = f.session();
    let p = path("Standard1", None, Some(b"c"));
    let q = ConsistencyLevel::QUORUM;
    assert_eq!(
        outcome(s.handle_multiget(KS_RF3.into(), vec![], p.clone(), q)),
        Outcome::Ok
    );
    assert_eq!(
        outcome(s.handle_multiget_slice(
            KS_RF3.into(),
            vec![],
            parent("Standard1", None),
            all(),
            q
        )),
        Outcome::Ok
    );
    let zero = ConsistencyLevel::ZERO;
    assert_eq!(
        outcome(s.handle_multiget(KS_RF3.into(), vec![], p, zero)),
        zero_read()
    );
}

#[test]
fn range_reads_by_replication_factor() {
    let f = Fixture::new();
    let s = f.session();
    for cl in ALL_LEVELS {
        for (ks, rf) in [(KS, 1), (KS_RF3, 3)] {
            let expected = match cl {
                ConsistencyLevel::ZERO => zero_read(),
                ConsistencyLevel::ONE | ConsistencyLevel::ANY => Outcome::Ok,
                _ if rf == 1 => Outcome::Ok,
                _ => Outcome::Unavailable,
            };
            let got = range_slices(
                &s,
                ks,
                parent("Standard1", None),
                all(),
                keys("", "", 10),
                cl,
            );
            assert_eq!(got, expected, "get_range_slices at {cl:?} on RF {rf}");
            let old = s.handle_get_range_slice(
                ks.into(),
                parent("Standard1", None),
                all(),
                "".into(),
                "".into(),
                10,
                cl,
            );
            assert_eq!(
                outcome(old),
                expected,
                "get_range_slice at {cl:?} on RF {rf}"
            );
        }
    }
}

#[test]
fn every_write_level_succeeds_on_one_node() {
    let f = Fixture::new();
    let s = f.session();
    for (i, cl) in ALL_LEVELS.into_iter().enumerate() {
        let key = format!("k{i}");
        let c = path("Standard1", None, Some(b"c"));
        let insert = s.handle_insert(KS_RF3.into(), key.clone(), c.clone(), b"v".to_vec(), 1, cl);
        assert_eq!(outcome(insert), Outcome::Ok, "insert at {cl:?}");
        let cfmap = BTreeMap::from([("Standard1".to_string(), vec![cosc_col(b"d", b"v", 1)])]);
        let batch = s.handle_batch_insert(KS_RF3.into(), key.clone(), cfmap, cl);
        assert_eq!(outcome(batch), Outcome::Ok, "batch_insert at {cl:?}");
        let map = BTreeMap::from([(
            key.clone(),
            BTreeMap::from([("Standard1".to_string(), vec![put(cosc_col(b"e", b"v", 1))])]),
        )]);
        assert_eq!(
            outcome(s.handle_batch_mutate(KS_RF3.into(), map, cl)),
            Outcome::Ok,
            "batch_mutate at {cl:?}"
        );
        // Applied before the call returns, whatever the level (ZERO only skips the wait).
        let count = s.handle_get_count(KS_RF3.into(), key.clone(), parent("Standard1", None), ONE);
        assert_eq!(count.ok(), Some(3), "written at {cl:?}");
        let remove = s.handle_remove(
            KS_RF3.into(),
            key.clone(),
            path("Standard1", None, None),
            2,
            cl,
        );
        assert_eq!(outcome(remove), Outcome::Ok, "remove at {cl:?}");
        let count = s.handle_get_count(KS_RF3.into(), key, parent("Standard1", None), ONE);
        assert_eq!(count.ok(), Some(0), "removed at {cl:?}");
    }
}
