//! `docs/api.md#order`: which message a request that is wrong in two ways gets — the earlier
//! check's.

use super::*;
use crate::partitioner::Partitioner;

#[test]
fn reads_check_in_0_6_order() {
    let f = Fixture::new();
    let s = f.session();
    let zero = ConsistencyLevel::ZERO;
    let bad_cf = || path("Nope", None, Some(b"c"));
    let no_pred = || SlicePredicate::new(None, None);
    run(
        &s,
        vec![
            case("get: path before key", ire("unconfigured columnfamily Nope"), move |s| get(s, KS, "", bad_cf())),
            case("get: key before consistency", ire("Key may not be empty"), |s| {
                outcome(s.handle_get(KS.into(), "".into(), path("Standard1", None, Some(b"c")), ConsistencyLevel::ZERO))
            }),
            case("multiget: path before keys", ire("unconfigured columnfamily Nope"), move |s| {
                outcome(s.handle_multiget(KS.into(), vec!["".into()], bad_cf(), zero))
            }),
            case("multiget: every key before consistency", ire("Key may not be empty"), |s| {
                let keys = vec!["a".into(), "".into()];
                outcome(s.handle_multiget(KS.into(), keys, path("Standard1", None, Some(b"c")), ConsistencyLevel::ZERO))
            }),
            case("get_slice: parent before predicate", ire("columnfamily alone is required for standard CF Standard1"), move |s| {
                slice(s, KS, "k", parent("Standard1", Some(b"sc")), no_pred())
            }),
            case("get_slice: predicate before key", ire("predicate column_names and slice_range may not both be null"), move |s| {
                slice(s, KS, "", parent("Standard1", None), no_pred())
            }),
            case("multiget_slice: key before consistency", ire("Key may not be empty"), |s| {
                outcome(s.handle_multiget_slice(KS.into(), vec!["".into()], parent("Standard1", None), all(), ConsistencyLevel::ANY))
            }),
            case("get_count: parent before key", ire("unconfigured columnfamily Nope"), |s| {
                outcome(s.handle_get_count(KS.into(), "".into(), parent("Nope", None), ONE))
            }),
            case("get_count: key before consistency", ire("Key may not be empty"), |s| {
                outcome(s.handle_get_count(KS.into(), "".into(), parent("Standard1", None), ConsistencyLevel::ZERO))
            }),
            case("range: parent before predicate", ire("unconfigured columnfamily Nope"), move |s| {
                range_slices(s, KS, parent("Nope", None), no_pred(), keys("", "", 0), zero)
            }),
            case("range: predicate before key range", ire("predicate column_names and slice_range may not both be null"), move |s| {
                range_slices(s, KS, parent("Standard1", None), no_pred(), keys("", "", 0), zero)
            }),
            case("range: key range before token parse", ire("maxRows must be positive"), move |s| {
                range_slices(s, KS, parent("Standard1", None), all(), tokens("x", "y", 0), zero)
            }),
            case("range: D4 token parse before D6", ire("Invalid token 'x': RandomPartitioner tokens are decimal integers"), move |s| {
                range_slices(s, KS, parent("Standard1", None), all(), tokens("x", "0", 10), zero)
            }),
            case("range: D6 zero", ire("Consistency level zero may not be applied to read operations"), move |s| {
                range_slices(s, KS, parent("Standard1", None), all(), tokens("0", "0", 10), zero)
            }),
            case("get_range_slice: same checks", ire("maxRows must be positive"), |s| {
                outcome(s.handle_get_range_slice(KS.into(), parent("Standard1", None), all(), "".into(), "".into(), 0, ConsistencyLevel::ZERO))
            }),
            case("get_range_slice: keys out of order", ire("start key's md5 sorts after end key's md5.  this is not allowed; you probably should not specify end key at all, under RandomPartitioner"), |s| {
                outcome(s.handle_get_range_slice(KS.into(), parent("Standard1", None), all(), "key2".into(), "b".into(), 10, ONE))
            }),
        ],
    );
}

#[test]
fn writes_check_in_0_6_order() {
    let f = Fixture::new();
    let s = f.session();
    let unknown = ConsistencyLevel(99);
    run(
        &s,
        vec![
            case(
                "insert: key before path",
                ire("Key may not be empty"),
                |s| insert(s, KS, "", path("Nope", None, None)),
            ),
            case(
                "insert: path before D2",
                ire("supercolumn parameter is not optional for super CF Super1"),
                |s| insert(s, KS, "k", path("Super1", None, None)),
            ),
            case(
                "batch_insert: key before columns",
                ire("Key may not be empty"),
                |s| batch_insert(s, KS, "", "Nope", vec![ColumnOrSuperColumn::default()]),
            ),
            case(
                "batch_insert: columns before D3",
                ire("column name must not be empty"),
                |s| {
                    let mut both = cosc_col(b"c", b"v", 1);
                    both.super_column = cosc_super(b"sc", vec![]).super_column;
                    let cfmap = BTreeMap::from([
                        ("Standard1".to_string(), vec![both]),
                        ("Standard2".to_string(), vec![cosc_col(b"", b"v", 1)]),
                    ]);
                    outcome(s.handle_batch_insert(KS.into(), "k".into(), cfmap, ONE))
                },
            ),
            case(
                "remove: key before path",
                ire("Key may not be empty"),
                move |s| {
                    outcome(s.handle_remove(
                        KS.into(),
                        "".into(),
                        path("Nope", None, None),
                        1,
                        unknown,
                    ))
                },
            ),
            case(
                "remove: path before D7",
                ire("unconfigured columnfamily Nope"),
                move |s| {
                    outcome(s.handle_remove(
                        KS.into(),
                        "k".into(),
                        path("Nope", None, None),
                        1,
                        unknown,
                    ))
                },
            ),
            case(
                "remove: D7",
                ire("Unknown consistency level 99"),
                move |s| {
                    outcome(s.handle_remove(
                        KS.into(),
                        "k".into(),
                        path("Standard1", None, None),
                        1,
                        unknown,
                    ))
                },
            ),
            case(
                "remove: D7 for negative numbers",
                ire("Unknown consistency level -1"),
                |s| {
                    outcome(s.handle_remove(
                        KS.into(),
                        "k".into(),
                        path("Standard1", None, None),
                        1,
                        ConsistencyLevel(-1),
                    ))
                },
            ),
            case(
                "batch_mutate: key before its mutations",
                ire("Key may not be empty"),
                |s| mutate(s, KS, "", "Nope", vec![Mutation::new(None, None)]),
            ),
        ],
    );
}

#[test]
fn batch_mutate_applies_nothing_unless_everything_validates() {
    let f = Fixture::new();
    let s = f.session();
    let good = |name: &[u8]| put(cosc_col(name, b"v", 1));
    let map = BTreeMap::from([
        (
            "a".to_string(),
            BTreeMap::from([
                ("Standard1".to_string(), vec![good(b"c1")]),
                (
                    "Super1".to_string(),
                    vec![put(cosc_super(b"sc", vec![col(b"s", b"v", 1)]))],
                ),
            ]),
        ),
        (
            "b".to_string(),
            BTreeMap::from([("Standard1".to_string(), vec![good(b"c2"), good(b"")])]),
        ),
    ]);
    assert_eq!(
        outcome(s.handle_batch_mutate(KS.into(), map, ONE)),
        ire("column name must not be empty")
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), keys("", "", 10)),
        Vec::<String>::new()
    );
    assert_eq!(
        get(&s, KS, "a", path("Super1", Some(b"sc"), None)),
        Outcome::NotFound
    );
}

#[test]
fn login_comes_first() {
    let f = Fixture::with(Options {
        simple_auth: true,
        partitioner: Partitioner::OrderPreserving,
        ..Options::default()
    });
    let s = f.session();
    let login = ire("Login is required before any other API calls");
    run(
        &s,
        vec![
            case("get with everything wrong", login.clone(), |s| {
                outcome(s.handle_get(
                    "Nope".into(),
                    "".into(),
                    path("", None, None),
                    ConsistencyLevel::ZERO,
                ))
            }),
            case("range slices with everything wrong", login.clone(), |s| {
                range_slices(
                    s,
                    "Nope",
                    parent("", None),
                    SlicePredicate::new(None, None),
                    KeyRange::new(None, None, None, None, 0),
                    ConsistencyLevel::ZERO,
                )
            }),
            case("remove with an unknown level", login, |s| {
                outcome(s.handle_remove(
                    KS.into(),
                    "".into(),
                    path("Nope", None, None),
                    1,
                    ConsistencyLevel(42),
                ))
            }),
        ],
    );
}
