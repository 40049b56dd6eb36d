//! `docs/api.md#predicates` over real sockets: SlicePredicate and SliceRange checks — names or
//! range but not both nor neither, bounds under each comparator, negative counts, and traversal
//! order (comparator order, reversed, LongType and UUID orders, subcomparators) — for
//! get_slice, multiget_slice, get_range_slice and get_range_slices in all four wire styles.

use crate::cases::*;
use crate::harness::{Options, Server, KS};
use crate::values::*;
use ilion::client::TCassandraSyncClient;
use ilion::protocol::SlicePredicate;

#[test]
fn predicates_and_slice_ranges() {
    let server = Server::start(Options::default());
    let std = || parent("Standard1", None);
    let longs = || parent("StdLong", None);
    let order = || ire("range finish must come after start in the order of traversal");
    run(
        &server,
        &[
            case(
                "neither",
                ire("predicate column_names and slice_range may not both be null"),
                move |cl| slice(cl, KS, "k", std(), SlicePredicate::new(None, None)),
            ),
            case(
                "both",
                ire("predicate column_names and slice_range may not both be present"),
                move |cl| slice(cl, KS, "k", std(), both_predicate()),
            ),
            case(
                "both, in multiget_slice",
                ire("predicate column_names and slice_range may not both be present"),
                move |cl| {
                    outcome(cl.multiget_slice(
                        KS.into(),
                        vec!["k".into()],
                        std(),
                        both_predicate(),
                        ONE,
                    ))
                },
            ),
            case(
                "neither, in get_range_slices",
                ire("predicate column_names and slice_range may not both be null"),
                move |cl| {
                    range_slices(
                        cl,
                        KS,
                        std(),
                        SlicePredicate::new(None, None),
                        keys("", "", 1),
                        ONE,
                    )
                },
            ),
            case("empty names list", Outcome::Ok, move |cl| {
                slice(cl, KS, "k", std(), names(&[]))
            }),
            case(
                "start before count",
                ire("A long is exactly 8 bytes"),
                move |cl| slice(cl, KS, "k", longs(), range(b"a", b"", false, -1)),
            ),
            case(
                "negative count",
                ire("get_slice requires non-negative count"),
                move |cl| slice(cl, KS, "k", std(), range(b"", b"", false, -1)),
            ),
            case(
                "negative count in get_range_slice",
                ire("get_slice requires non-negative count"),
                move |cl| {
                    outcome(cl.get_range_slice(
                        KS.into(),
                        std(),
                        range(b"", b"", false, -1),
                        "".into(),
                        "".into(),
                        5,
                        ONE,
                    ))
                },
            ),
            case("zero count", Outcome::Ok, move |cl| {
                slice(cl, KS, "k", std(), range(b"", b"", false, 0))
            }),
            case("start after finish", order(), move |cl| {
                slice(cl, KS, "k", std(), range(b"b", b"a", false, 1))
            }),
            case("reversed start before finish", order(), move |cl| {
                slice(cl, KS, "k", std(), range(b"a", b"b", true, 1))
            }),
            case("reversed start after finish", Outcome::Ok, move |cl| {
                slice(cl, KS, "k", std(), range(b"b", b"a", true, 1))
            }),
            case("equal bounds", Outcome::Ok, move |cl| {
                slice(cl, KS, "k", std(), range(b"a", b"a", false, 1))
            }),
            case("a prefix sorts first", order(), move |cl| {
                slice(cl, KS, "k", std(), range(b"ab", b"a", false, 1))
            }),
            case("LongType order: 1 after -1", order(), move |cl| {
                slice(cl, KS, "k", longs(), range(&long(1), &long(-1), false, 1))
            }),
            case("LongType order: -1 before 1", Outcome::Ok, move |cl| {
                slice(cl, KS, "k", longs(), range(&long(-1), &long(1), false, 1))
            }),
            case("TimeUUIDType order: by time, not bytes", order(), |cl| {
                // Later in time, but smaller bytes.
                let (early, late) = (time_uuid(2, 0), time_uuid(1 << 40, 0));
                slice(
                    cl,
                    KS,
                    "k",
                    parent("StdTime", None),
                    range(&late, &early, false, 1),
                )
            }),
            case("LexicalUUIDType order: signed halves", order(), |cl| {
                let (neg, pos) = (lexical(-1, 0), lexical(1, 0));
                slice(
                    cl,
                    KS,
                    "k",
                    parent("StdLexical", None),
                    range(&pos, &neg, false, 1),
                )
            }),
            case("subcolumn comparator order", order(), |cl| {
                slice(
                    cl,
                    KS,
                    "k",
                    parent("SuperLong", Some(b"sc")),
                    range(&long(0), &long(-5), false, 1),
                )
            }),
        ],
    );
}
