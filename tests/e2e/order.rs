//! `docs/api.md#order` over real sockets: a request that is wrong in several ways gets the
//! message of the check 0.6 made first — login, then paths, keys, predicates, key ranges, the
//! D4 token parse, the D6 and D7 consistency checks (`docs/compatibility.md`) — and a
//! batch_mutate that fails anywhere applies nothing. All four wire styles.

use crate::cases::*;
use crate::harness::{Options, Server, KS};
use crate::values::*;
use ilion::client::TCassandraSyncClient;
use ilion::protocol::{ColumnOrSuperColumn, ConsistencyLevel, Mutation, SlicePredicate};
use std::collections::BTreeMap;

const ZERO: ConsistencyLevel = ConsistencyLevel::ZERO;

#[test]
fn reads_check_in_0_6_order() {
    let server = Server::start(Options::default());
    let bad_cf = || path("Nope", None, Some(b"c"));
    let no_pred = || SlicePredicate::new(None, None);
    let std = || parent("Standard1", None);
    let c = || cpath("Standard1", b"c");
    run(
        &server,
        &[
            case(
                "get: path before key",
                ire("unconfigured columnfamily Nope"),
                move |cl| get(cl, KS, "", bad_cf()),
            ),
            case(
                "get: key before consistency",
                ire("Key may not be empty"),
                move |cl| outcome(cl.get(KS.into(), "".into(), c(), ZERO)),
            ),
            case(
                "get: D6 read level",
                ire("Consistency level zero may not be applied to read operations"),
                move |cl| outcome(cl.get(KS.into(), "k".into(), c(), ZERO)),
            ),
            case(
                "multiget: path before keys",
                ire("unconfigured columnfamily Nope"),
                move |cl| outcome(cl.multiget(KS.into(), vec!["".into()], bad_cf(), ZERO)),
            ),
            case(
                "multiget: every key before consistency",
                ire("Key may not be empty"),
                move |cl| outcome(cl.multiget(KS.into(), vec!["a".into(), "".into()], c(), ZERO)),
            ),
            case(
                "get_slice: parent before predicate",
                ire("columnfamily alone is required for standard CF Standard1"),
                move |cl| slice(cl, KS, "k", parent("Standard1", Some(b"sc")), no_pred()),
            ),
            case(
                "get_slice: predicate before key",
                ire("predicate column_names and slice_range may not both be null"),
                move |cl| slice(cl, KS, "", std(), no_pred()),
            ),
            case(
                "multiget_slice: key before consistency",
                ire("Key may not be empty"),
                move |cl| {
                    outcome(cl.multiget_slice(
                        KS.into(),
                        vec!["".into()],
                        std(),
                        all(),
                        ConsistencyLevel::ANY,
                    ))
                },
            ),
            case(
                "get_count: parent before key",
                ire("unconfigured columnfamily Nope"),
                |cl| outcome(cl.get_count(KS.into(), "".into(), parent("Nope", None), ONE)),
            ),
            case(
                "get_count: key before consistency",
                ire("Key may not be empty"),
                move |cl| outcome(cl.get_count(KS.into(), "".into(), std(), ZERO)),
            ),
            case(
                "range: parent before predicate",
                ire("unconfigured columnfamily Nope"),
                move |cl| {
                    range_slices(
                        cl,
                        KS,
                        parent("Nope", None),
                        no_pred(),
                        keys("", "", 0),
                        ZERO,
                    )
                },
            ),
            case(
                "range: predicate before key range",
                ire("predicate column_names and slice_range may not both be null"),
                move |cl| range_slices(cl, KS, std(), no_pred(), keys("", "", 0), ZERO),
            ),
            case(
                "range: key range before token parse",
                ire("maxRows must be positive"),
                move |cl| range_slices(cl, KS, std(), all(), tokens("x", "y", 0), ZERO),
            ),
            case(
                "range: D4 token parse before D6",
                ire("Invalid token 'x': RandomPartitioner tokens are decimal integers"),
                move |cl| range_slices(cl, KS, std(), all(), tokens("x", "0", 10), ZERO),
            ),
            case(
                "range: D6 zero",
                ire("Consistency level zero may not be applied to read operations"),
                move |cl| range_slices(cl, KS, std(), all(), tokens("0", "0", 10), ZERO),
            ),
            case(
                "get_range_slice: same checks",
                ire("maxRows must be positive"),
                move |cl| {
                    outcome(cl.get_range_slice(
                        KS.into(),
                        std(),
                        all(),
                        "".into(),
                        "".into(),
                        0,
                        ZERO,
                    ))
                },
            ),
            case(
                "get_range_slice: D6 zero",
                ire("Consistency level zero may not be applied to read operations"),
                move |cl| {
                    outcome(cl.get_range_slice(
                        KS.into(),
                        std(),
                        all(),
                        "".into(),
                        "".into(),
                        10,
                        ZERO,
                    ))
                },
            ),
        ],
    );
}

#[test]
fn writes_check_in_0_6_order() {
    let server = Server::start(Options::default());
    let unknown = ConsistencyLevel(99);
    run(
        &server,
        &[
            case(
                "insert: key before path",
                ire("Key may not be empty"),
                |cl| insert(cl, KS, "", path("Nope", None, None)),
            ),
            case(
                "insert: path before D2",
                ire("supercolumn parameter is not optional for super CF Super1"),
                |cl| insert(cl, KS, "k", path("Super1", None, None)),
            ),
            case(
                "batch_insert: key before columns",
                ire("Key may not be empty"),
                |cl| batch_insert(cl, KS, "", "Nope", vec![ColumnOrSuperColumn::default()]),
            ),
            case(
                "batch_insert: columns before D3",
                ire("column name must not be empty"),
                |cl| {
                    let cfmap = BTreeMap::from([
                        ("Standard1".to_string(), vec![cosc_both(vec![])]),
                        ("Standard2".to_string(), vec![cosc_col(b"", b"v", 1)]),
                    ]);
                    outcome(cl.batch_insert(KS.into(), "k".into(), cfmap, ONE))
                },
            ),
            case(
                "remove: key before path",
                ire("Key may not be empty"),
                move |cl| {
                    outcome(cl.remove(KS.into(), "".into(), path("Nope", None, None), 1, unknown))
                },
            ),
            case(
                "remove: path before D7",
                ire("unconfigured columnfamily Nope"),
                move |cl| {
                    outcome(cl.remove(KS.into(), "k".into(), path("Nope", None, None), 1, unknown))
                },
            ),
            case(
                "remove: D7",
                ire("Unknown consistency level 99"),
                move |cl| {
                    outcome(cl.remove(
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
                |cl| {
                    outcome(cl.remove(
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
                |cl| mutate(cl, KS, "", "Nope", vec![Mutation::new(None, None)]),
            ),
            case(
                "batch_mutate: D1 keyspace before the deletion's checks",
                ire("Keyspace Nope does not exist in this schema."),
                |cl| {
                    mutate(
                        cl,
                        "Nope",
                        "k",
                        "Standard1",
                        vec![delete(
                            1,
                            Some(b"sc"),
                            Some(SlicePredicate::new(None, None)),
                        )],
                    )
                },
            ),
        ],
    );
}
