//! `docs/api.md#mutations` over real sockets: ColumnOrSuperColumn and Mutation checks for
//! batch_insert and batch_mutate, Deletion checks (predicates, super columns on Standard CFs
//! with 0.6's Java `toString` of the Deletion), and the D1 and D3 decisions
//! (`docs/compatibility.md#d1`, `#d3`), in all four wire styles.

use crate::cases::*;
use crate::harness::{Options, Server, KS};
use crate::values::*;
use ilion::protocol::{ColumnOrSuperColumn, Mutation, SlicePredicate};

#[test]
fn mutations_and_coscs() {
    let server = Server::start(Options::default());
    let neither = || ColumnOrSuperColumn::new(None, None);
    let one_or_both = || ire("ColumnOrSuperColumn must have one or both of Column or SuperColumn");
    run(
        &server,
        &[
            case(
                "COSC with neither: batch_insert",
                one_or_both(),
                move |cl| batch_insert(cl, KS, "k", "Standard1", vec![neither()]),
            ),
            case(
                "COSC with neither: batch_mutate",
                one_or_both(),
                move |cl| mutate(cl, KS, "k", "Standard1", vec![put(neither())]),
            ),
            case(
                "COSC with both on a super CF: the column part fails",
                ire("supercolumn parameter is not optional for super CF Super1"),
                |cl| {
                    mutate(
                        cl,
                        KS,
                        "k",
                        "Super1",
                        vec![put(cosc_both(vec![col(b"s", b"v", 1)]))],
                    )
                },
            ),
            case(
                "COSC with both on a standard CF: a subcolumn fails",
                ire("supercolumn parameter is invalid for standard CF Standard1"),
                |cl| {
                    batch_insert(
                        cl,
                        KS,
                        "k",
                        "Standard1",
                        vec![cosc_both(vec![col(b"s", b"v", 1)])],
                    )
                },
            ),
            case(
                "D3: COSC with both that passes the part checks",
                ire("ColumnOrSuperColumn may not have both Column and SuperColumn in batch_insert"),
                |cl| batch_insert(cl, KS, "k", "Standard1", vec![cosc_both(vec![])]),
            ),
            case(
                "batch_mutate stores the column of such a COSC",
                Outcome::Ok,
                |cl| mutate(cl, KS, "both", "Standard1", vec![put(cosc_both(vec![]))]),
            ),
            case("... and it is there", Outcome::Ok, |cl| {
                get(cl, KS, "both", cpath("Standard1", b"c"))
            }),
            case(
                "subcolumns validated as paths",
                ire("A long is exactly 8 bytes"),
                |cl| {
                    batch_insert(
                        cl,
                        KS,
                        "k",
                        "SuperLong",
                        vec![cosc_super(b"sc", vec![col(b"x", b"v", 1)])],
                    )
                },
            ),
            case(
                "an empty super column is not validated",
                Outcome::Ok,
                |cl| batch_insert(cl, KS, "k", "SuperLong", vec![cosc_super(&[0xFF], vec![])]),
            ),
            case(
                "mutation with both",
                ire("Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both"),
                |cl| {
                    let mut m = put(cosc_col(b"c", b"v", 1));
                    m.deletion = delete(1, None, None).deletion;
                    mutate(cl, KS, "k", "Standard1", vec![m])
                },
            ),
            case(
                "mutation with neither",
                ire("Mutation must have one ColumnOrSuperColumn or one Deletion"),
                |cl| mutate(cl, KS, "k", "Standard1", vec![Mutation::new(None, None)]),
            ),
            case(
                "timestamps and values are not validated",
                Outcome::Ok,
                |cl| {
                    mutate(
                        cl,
                        KS,
                        "k",
                        "Standard1",
                        vec![put(cosc_col(b"neg", b"", i64::MIN))],
                    )
                },
            ),
        ],
    );
}

#[test]
fn deletions() {
    let server = Server::start(Options::default());
    let std_sc = "deletion of super_column is not possible on a standard ColumnFamily (KeySpace=Keyspace1 ColumnFamily=Standard1 Deletion=Deletion(timestamp:5, super_column:73 63))";
    let ks_gone = || ire("Keyspace Nope does not exist in this schema.");
    run(
        &server,
        &[
            case("predicate with neither", ire("A SlicePredicate must be given a list of Columns, a SliceRange, or both"), |cl| {
                mutate(cl, KS, "k", "Standard1", vec![delete(1, None, Some(SlicePredicate::new(None, None)))])
            }),
            case("slice range", ire("Deletion does not yet support SliceRange predicates."), |cl| {
                mutate(cl, KS, "k", "Standard1", vec![delete(1, None, Some(all()))])
            }),
            case("the range is validated first", ire("get_slice requires non-negative count"), |cl| {
                mutate(cl, KS, "k", "Standard1", vec![delete(1, None, Some(range(b"", b"", false, -1)))])
            }),
            case("the range under the CF comparator", ire("A long is exactly 8 bytes"), |cl| {
                mutate(cl, KS, "k", "StdLong", vec![delete(1, None, Some(range(b"x", b"", false, 1)))])
            }),
            case("range and names: names checked before the range refusal", ire("column name must not be empty"), |cl| {
                let mut p = names(&[b""]);
                p.slice_range = all().slice_range;
                mutate(cl, KS, "k", "Standard1", vec![delete(1, None, Some(p))])
            }),
            case("names under the subcolumn comparator", ire("A long is exactly 8 bytes"), |cl| {
                mutate(cl, KS, "k", "SuperLong", vec![delete(1, Some(b"sc"), Some(names(&[b"x"])))])
            }),
            case("names under the CF comparator", ire("invalid UTF8 bytes [-1]"), |cl| {
                mutate(cl, KS, "k", "SuperLong", vec![delete(1, None, Some(names(&[&[0xFF]])))])
            }),
            case("super column on a standard CF", ire(std_sc), |cl| {
                mutate(cl, KS, "k", "Standard1", vec![delete(5, Some(b"sc"), None)])
            }),
            case("... with a negative timestamp and raw bytes", ire("deletion of super_column is not possible on a standard ColumnFamily (KeySpace=Keyspace1 ColumnFamily=Standard1 Deletion=Deletion(timestamp:-1, super_column:00 AB FF))"), |cl| {
                mutate(cl, KS, "k", "Standard1", vec![delete(-1, Some(&[0x00, 0xAB, 0xFF]), None)])
            }),
            case("with names, the name check fires first", ire("supercolumn specified to ColumnFamily Standard1 containing normal columns"), |cl| {
                mutate(cl, KS, "k", "Standard1", vec![delete(5, Some(b"sc"), Some(names(&[b"c"])))])
            }),
            case("D1: unknown keyspace", ks_gone(), |cl| mutate(cl, "Nope", "k", "Standard1", vec![delete(1, None, None)])),
            case("D1: empty cf", ire("non-empty columnfamily is required"), |cl| {
                mutate(cl, KS, "k", "", vec![delete(1, None, None)])
            }),
            case("D1: unknown cf, before the Deletion's own checks", ire("unconfigured columnfamily Nope"), |cl| {
                mutate(cl, KS, "k", "Nope", vec![delete(1, None, Some(SlicePredicate::new(None, None)))])
            }),
            case("whole row", Outcome::Ok, |cl| mutate(cl, KS, "k", "Standard1", vec![delete(5, None, None)])),
            case("super column", Outcome::Ok, |cl| mutate(cl, KS, "k", "Super1", vec![delete(5, Some(b"sc"), None)])),
            case("names", Outcome::Ok, |cl| mutate(cl, KS, "k", "StdLong", vec![delete(5, None, Some(names(&[&long(3)])))])),
        ],
    );
}
