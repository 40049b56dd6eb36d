//! The InvalidRequestException texts of `docs/api.md#mutations`: mutations,
//! ColumnOrSuperColumns and deletions of batch_mutate and batch_insert, and Java's rendering of
//! a Deletion.

use super::*;
use crate::protocol::Deletion;
use crate::service::validation::java_deletion_string;

#[test]
fn mutations_and_coscs() {
    let f = Fixture::new();
    let s = f.session();
    let neither = || ColumnOrSuperColumn::new(None, None);
    let both = |sub: Vec<crate::protocol::Column>| {
        let mut c = cosc_col(b"c", b"v", 1);
        c.super_column = cosc_super(b"sc", sub).super_column;
        c
    };
    run(
        &s,
        vec![
            case(
                "COSC with neither: batch_insert",
                ire("ColumnOrSuperColumn must have one or both of Column or SuperColumn"),
                move |s| batch_insert(s, KS, "k", "Standard1", vec![neither()]),
            ),
            case(
                "COSC with neither: batch_mutate",
                ire("ColumnOrSuperColumn must have one or both of Column or SuperColumn"),
                move |s| mutate(s, KS, "k", "Standard1", vec![put(neither())]),
            ),
            case(
                "COSC with both on a super CF: the column part fails",
                ire("supercolumn parameter is not optional for super CF Super1"),
                move |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "Super1",
                        vec![put(both(vec![col(b"s", b"v", 1)]))],
                    )
                },
            ),
            case(
                "COSC with both on a standard CF: a subcolumn fails",
                ire("supercolumn parameter is invalid for standard CF Standard1"),
                move |s| {
                    batch_insert(
                        s,
                        KS,
                        "k",
                        "Standard1",
                        vec![both(vec![col(b"s", b"v", 1)])],
                    )
                },
            ),
            case(
                "D3: COSC with both that passes the part checks",
                ire("ColumnOrSuperColumn may not have both Column and SuperColumn in batch_insert"),
                move |s| batch_insert(s, KS, "k", "Standard1", vec![both(vec![])]),
            ),
            case(
                "batch_mutate stores the column of such a COSC",
                Outcome::Ok,
                move |s| mutate(s, KS, "both", "Standard1", vec![put(both(vec![]))]),
            ),
            case(
                "subcolumns validated as paths",
                ire("A long is exactly 8 bytes"),
                |s| {
                    batch_insert(
                        s,
                        KS,
                        "k",
                        "SuperLong",
                        vec![cosc_super(b"sc", vec![col(b"x", b"v", 1)])],
                    )
                },
            ),
            case("an empty super column is not validated", Outcome::Ok, |s| {
                batch_insert(s, KS, "k", "SuperLong", vec![cosc_super(&[0xFF], vec![])])
            }),
            case(
                "mutation with both",
                ire("Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both"),
                |s| {
                    let mut m = put(cosc_col(b"c", b"v", 1));
                    m.deletion = delete(1, None, None).deletion;
                    mutate(s, KS, "k", "Standard1", vec![m])
                },
            ),
            case(
                "mutation with neither",
                ire("Mutation must have one ColumnOrSuperColumn or one Deletion"),
                |s| mutate(s, KS, "k", "Standard1", vec![Mutation::new(None, None)]),
            ),
        ],
    );
    assert_eq!(
        get_value(&s, "both", path("Standard1", None, Some(b"c"))),
        Some(b"v".to_vec())
    );
}

#[test]
fn deletions() {
    let f = Fixture::new();
    let s = f.session();
    let std_sc = "deletion of super_column is not possible on a standard ColumnFamily (KeySpace=Keyspace1 ColumnFamily=Standard1 Deletion=Deletion(timestamp:5, super_column:73 63))";
    run(
        &s,
        vec![
            case(
                "predicate with neither",
                ire("A SlicePredicate must be given a list of Columns, a SliceRange, or both"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "Standard1",
                        vec![delete(1, None, Some(SlicePredicate::new(None, None)))],
                    )
                },
            ),
            case(
                "slice range",
                ire("Deletion does not yet support SliceRange predicates."),
                |s| mutate(s, KS, "k", "Standard1", vec![delete(1, None, Some(all()))]),
            ),
            case(
                "the range is validated first",
                ire("get_slice requires non-negative count"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "Standard1",
                        vec![delete(1, None, Some(range(b"", b"", false, -1)))],
                    )
                },
            ),
            case(
                "the range under the CF comparator",
                ire("A long is exactly 8 bytes"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "StdLong",
                        vec![delete(1, None, Some(range(b"x", b"", false, 1)))],
                    )
                },
            ),
            case(
                "range and names: names checked before the range refusal",
                ire("column name must not be empty"),
                |s| {
                    let mut p = super::names(&[b""]);
                    p.slice_range = all().slice_range;
                    mutate(s, KS, "k", "Standard1", vec![delete(1, None, Some(p))])
                },
            ),
            case(
                "names under the subcolumn comparator",
                ire("A long is exactly 8 bytes"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "SuperLong",
                        vec![delete(1, Some(b"sc"), Some(super::names(&[b"x"])))],
                    )
                },
            ),
            case(
                "names under the CF comparator",
                ire("invalid UTF8 bytes [-1]"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "SuperLong",
                        vec![delete(1, None, Some(super::names(&[&[0xFF]])))],
                    )
                },
            ),
            case("super column on a standard CF", ire(std_sc), |s| {
                mutate(s, KS, "k", "Standard1", vec![delete(5, Some(b"sc"), None)])
            }),
            case(
                "with names, the name check fires first",
                ire("supercolumn specified to ColumnFamily Standard1 containing normal columns"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "Standard1",
                        vec![delete(5, Some(b"sc"), Some(super::names(&[b"c"])))],
                    )
                },
            ),
            case("whole row", Outcome::Ok, |s| {
                mutate(s, KS, "k", "Standard1", vec![delete(5, None, None)])
            }),
            case("super column", Outcome::Ok, |s| {
                mutate(s, KS, "k", "Super1", vec![delete(5, Some(b"sc"), None)])
            }),
            // 0.6 validates a super column of a Deletion only through a predicate.
            case(
                "a bare empty super column is not validated",
                Outcome::Ok,
                |s| mutate(s, KS, "k", "Super1", vec![delete(5, Some(b""), None)]),
            ),
            case(
                "a bare invalid super column is not validated",
                Outcome::Ok,
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "SuperLong",
                        vec![delete(5, Some(&[0xFF]), None)],
                    )
                },
            ),
        ],
    );
}

#[test]
fn java_deletion_strings() {
    let d = |ts, sc: Option<Vec<u8>>| Deletion::new(ts, sc, None);
    assert_eq!(
        java_deletion_string(&d(5, Some(b"sc".to_vec()))),
        "Deletion(timestamp:5, super_column:73 63)"
    );
    assert_eq!(
        java_deletion_string(&d(-1, Some(vec![0x00, 0xAB, 0xFF]))),
        "Deletion(timestamp:-1, super_column:00 AB FF)"
    );
    assert_eq!(
        java_deletion_string(&d(7, Some(vec![]))),
        "Deletion(timestamp:7, super_column:)"
    );
    assert_eq!(java_deletion_string(&d(7, None)), "Deletion(timestamp:7)");
    let long = java_deletion_string(&d(1, Some(vec![0x01; 130])));
    assert!(long.ends_with("01 01 ...)"), "{long}");
    assert_eq!(long.matches("01").count(), 128);
}
