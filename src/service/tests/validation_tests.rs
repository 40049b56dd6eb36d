//! The InvalidRequestException texts of `docs/api.md#validation` (4.1–4.8), each with a request
//! that triggers it (mutations and deletions, `#mutations`, are in
//! `mutation_validation_tests`).

use super::*;
use crate::partitioner::Partitioner;
use crate::service::validation::modified_utf8_length;

const BIG: usize = 65536;

#[test]
fn key_checks() {
    let f = Fixture::new();
    let s = f.session();
    let c = || path("Standard1", None, Some(b"c"));
    let max = "a".repeat(65535);
    run(
        &s,
        vec![
            case("empty key", ire("Key may not be empty"), move |s| {
                get(s, KS, "", c())
            }),
            case("65535 ASCII bytes", Outcome::Ok, move |s| {
                insert(s, KS, &max, c())
            }),
            case(
                "65536 ASCII bytes",
                ire("Encoded key length of 65536 is longer than maximum of 65535"),
                move |s| insert(s, KS, &"a".repeat(BIG), c()),
            ),
            case(
                "U+0000 counts 2",
                ire("Encoded key length of 65536 is longer than maximum of 65535"),
                move |s| insert(s, KS, &"\0".repeat(32768), c()),
            ),
            case(
                "supplementary characters count 6",
                ire("Encoded key length of 65538 is longer than maximum of 65535"),
                move |s| insert(s, KS, &"\u{10000}".repeat(10923), c()),
            ),
        ],
    );
    assert_eq!(
        modified_utf8_length("a\u{0}\u{80}\u{7FF}\u{800}\u{FFFF}\u{1F600}"),
        1 + 2 + 2 + 2 + 3 + 3 + 6
    );
}

#[test]
fn keyspaces_and_column_families() {
    let f = Fixture::new();
    let s = f.session();
    let ks_gone = ire("Keyspace Nope does not exist in this schema.");
    let cf_empty = ire("non-empty columnfamily is required");
    let cf_gone = ire("unconfigured columnfamily Nope");
    let c = Some(&b"c"[..]);
    run(
        &s,
        vec![
            case("get: keyspace", ks_gone.clone(), move |s| {
                get(s, "Nope", "k", path("Standard1", None, c))
            }),
            case("get: empty cf", cf_empty.clone(), move |s| {
                get(s, KS, "k", path("", None, c))
            }),
            case("get: unknown cf", cf_gone.clone(), move |s| {
                get(s, KS, "k", path("Nope", None, c))
            }),
            case("slice: keyspace", ks_gone.clone(), |s| {
                slice(s, "Nope", "k", parent("Standard1", None), all())
            }),
            case("slice: empty cf", cf_empty.clone(), |s| {
                slice(s, KS, "k", parent("", None), all())
            }),
            case("remove: unknown cf", cf_gone.clone(), |s| {
                remove(s, KS, "k", path("Nope", None, None))
            }),
            case("remove: keyspace", ks_gone.clone(), |s| {
                remove(s, "Nope", "k", path("Standard1", None, None))
            }),
            case("batch_insert: unknown cf", cf_gone.clone(), |s| {
                batch_insert(s, KS, "k", "Nope", vec![cosc_col(b"c", b"v", 1)])
            }),
            case("batch_mutate insert: keyspace", ks_gone.clone(), |s| {
                mutate(
                    s,
                    "Nope",
                    "k",
                    "Standard1",
                    vec![put(cosc_col(b"c", b"v", 1))],
                )
            }),
            // D1: deletions get the insert texts, before their own checks.
            case("D1 deletion: keyspace", ks_gone.clone(), |s| {
                mutate(s, "Nope", "k", "Standard1", vec![delete(1, None, None)])
            }),
            case("D1 deletion: empty cf", cf_empty.clone(), |s| {
                mutate(s, KS, "k", "", vec![delete(1, None, None)])
            }),
            case(
                "D1 deletion: unknown cf before its predicate",
                cf_gone.clone(),
                |s| {
                    let empty = SlicePredicate::new(None, None);
                    mutate(s, KS, "k", "Nope", vec![delete(1, None, Some(empty))])
                },
            ),
            // Nothing validated, but 0.6 failed building the mutation: same texts.
            case(
                "batch_insert: unknown cf without columns",
                cf_gone.clone(),
                |s| batch_insert(s, KS, "k", "Nope", vec![]),
            ),
            case(
                "batch_insert: keyspace without columns",
                ks_gone.clone(),
                |s| outcome(s.handle_batch_insert("Nope".into(), "k".into(), BTreeMap::new(), ONE)),
            ),
            case("batch_mutate: keyspace with an empty row", ks_gone, |s| {
                mutate(s, "Nope", "k", "Standard1", vec![])
            }),
            case(
                "batch_mutate: unknown cf with nothing in it is a no-op",
                Outcome::Ok,
                |s| mutate(s, KS, "k", "Nope", vec![put(cosc_super(b"", vec![]))]),
            ),
            case("batch_mutate: empty map", Outcome::Ok, |s| {
                outcome(s.handle_batch_mutate("Nope".into(), BTreeMap::new(), ONE))
            }),
        ],
    );
}

#[test]
fn column_paths() {
    let f = Fixture::new();
    let s = f.session();
    run(
        &s,
        vec![
            case(
                "standard with super column",
                ire("supercolumn parameter is invalid for standard CF Standard1"),
                |s| get(s, KS, "k", path("Standard1", Some(b"sc"), Some(b"c"))),
            ),
            case(
                "standard without column",
                ire("column parameter is not optional for standard CF Standard1"),
                |s| get(s, KS, "k", path("Standard1", None, None)),
            ),
            case(
                "super without super column",
                ire("supercolumn parameter is not optional for super CF Super1"),
                |s| get(s, KS, "k", path("Super1", None, Some(b"c"))),
            ),
            case(
                "plain column in a COSC for a super CF",
                ire("supercolumn parameter is not optional for super CF Super1"),
                |s| batch_insert(s, KS, "k", "Super1", vec![cosc_col(b"c", b"v", 1)]),
            ),
            case(
                "column under the subcolumn comparator",
                ire("A long is exactly 8 bytes"),
                |s| get(s, KS, "k", path("SuperLong", Some(b"sc"), Some(b"c"))),
            ),
            case(
                "column under the CF comparator",
                ire("A long is exactly 8 bytes"),
                |s| get(s, KS, "k", path("StdLong", None, Some(b"c"))),
            ),
            case(
                "super column under the CF comparator",
                ire("invalid UTF8 bytes [-1]"),
                |s| get(s, KS, "k", path("SuperLong", Some(&[0xFF]), Some(&long(1)))),
            ),
            case(
                "the column is checked before the super column",
                ire("A long is exactly 8 bytes"),
                |s| get(s, KS, "k", path("SuperLong", Some(&[0xFF]), Some(b"c"))),
            ),
            case(
                "D2: insert of a super column alone",
                ire("column parameter is not optional when inserting into super CF Super1"),
                |s| insert(s, KS, "k", path("Super1", Some(b"sc"), None)),
            ),
            case(
                "get of a whole super column is fine",
                Outcome::NotFound,
                |s| get(s, KS, "k", path("Super1", Some(b"sc"), None)),
            ),
        ],
    );
}

#[test]
fn column_parents() {
    let f = Fixture::new();
    let s = f.session();
    run(
        &s,
        vec![
            case(
                "standard with super column",
                ire("columnfamily alone is required for standard CF Standard1"),
                |s| slice(s, KS, "k", parent("Standard1", Some(b"sc")), all()),
            ),
            case(
                "empty super column is a column name",
                ire("column name must not be empty"),
                |s| slice(s, KS, "k", parent("Super1", Some(b"")), all()),
            ),
            case(
                "long super column is a column name",
                ire("column name length must not be greater than 65535"),
                |s| slice(s, KS, "k", parent("Super1", Some(&vec![b'x'; BIG])), all()),
            ),
            case(
                "super column under the CF comparator",
                ire("invalid UTF8 bytes [-61, 40]"),
                |s| {
                    outcome(s.handle_get_count(
                        KS.into(),
                        "k".into(),
                        parent("SuperLong", Some(&[0xC3, 0x28])),
                        ONE,
                    ))
                },
            ),
        ],
    );
}

#[test]
fn remove_paths() {
    let f = Fixture::new();
    let s = f.session();
    run(
        &s,
        vec![
            case("standard with super column", ire("supercolumn may not be specified for standard CF Standard1"), |s| {
                remove(s, KS, "k", path("Standard1", Some(b"sc"), None))
            }),
            case("super with a column only", ire("A column cannot be specified without specifying a super column for removal on super CF Super1"), |s| {
                remove(s, KS, "k", path("Super1", None, Some(b"c")))
            }),
            case("column name validated", ire("A long is exactly 8 bytes"), |s| {
                remove(s, KS, "k", path("StdLong", None, Some(b"c")))
            }),
            case("subcolumn name validated", ire("A long is exactly 8 bytes"), |s| {
                remove(s, KS, "k", path("SuperLong", Some(b"sc"), Some(b"c")))
            }),
            case("super column name validated", ire("invalid UTF8 bytes [-1]"), |s| {
                remove(s, KS, "k", path("SuperLong", Some(&[0xFF]), None))
            }),
            case("empty super column", ire("supercolumn name must not be empty"), |s| {
                remove(s, KS, "k", path("Super1", Some(b""), Some(b"c")))
            }),
            case("whole row", Outcome::Ok, |s| remove(s, KS, "k", path("Standard1", None, None))),
            case("whole super column", Outcome::Ok, |s| remove(s, KS, "k", path("Super1", Some(b"sc"), None))),
        ],
    );
}

#[test]
fn name_checks() {
    let f = Fixture::new();
    let s = f.session();
    let big = vec![b'x'; BIG];
    let max = vec![b'x'; 65535];
    let (big2, max2) = (big.clone(), max.clone());
    let mut v4 = time_uuid(1);
    v4[6] = 0x40;
    run(
        &s,
        vec![
            case(
                "super column too long",
                ire("supercolumn name length must not be greater than 65535"),
                move |s| get(s, KS, "k", path("Super1", Some(&big), Some(b"c"))),
            ),
            case(
                "super column empty",
                ire("supercolumn name must not be empty"),
                |s| get(s, KS, "k", path("Super1", Some(b""), Some(b"c"))),
            ),
            case(
                "super column on a standard CF",
                ire("supercolumn specified to ColumnFamily Standard1 containing normal columns"),
                |s| {
                    mutate(
                        s,
                        KS,
                        "k",
                        "Standard1",
                        vec![delete(1, Some(b"sc"), Some(super::names(&[b"c"])))],
                    )
                },
            ),
            case(
                "column too long",
                ire("column name length must not be greater than 65535"),
                move |s| get(s, KS, "k", path("Standard1", None, Some(&big2))),
            ),
            case("longest column name", Outcome::Ok, move |s| {
                insert(s, KS, "k", path("Standard1", None, Some(&max)))
            }),
            case("longest column name reads back", Outcome::Ok, move |s| {
                get(s, KS, "k", path("Standard1", None, Some(&max2)))
            }),
            case("column empty", ire("column name must not be empty"), |s| {
                get(s, KS, "k", path("Standard1", None, Some(b"")))
            }),
            case(
                "predicate names empty",
                ire("column name must not be empty"),
                |s| {
                    slice(
                        s,
                        KS,
                        "k",
                        parent("Standard1", None),
                        super::names(&[b"a", b""]),
                    )
                },
            ),
            case("UTF8Type", ire("invalid UTF8 bytes [-61, 40]"), |s| {
                get(s, KS, "k", path("Standard2", None, Some(&[0xC3, 0x28])))
            }),
            case("AsciiType accepts any bytes", Outcome::NotFound, |s| {
                get(s, KS, "k", path("StdAscii", None, Some(&[0xFF])))
            }),
            case("BytesType accepts any bytes", Outcome::NotFound, |s| {
                get(s, KS, "k", path("Standard1", None, Some(&[0xFF])))
            }),
            case("LongType", ire("A long is exactly 8 bytes"), |s| {
                get(s, KS, "k", path("StdLong", None, Some(&[1; 9])))
            }),
            case(
                "LexicalUUIDType",
                ire("UUIDs must be exactly 16 bytes"),
                |s| get(s, KS, "k", path("StdLexical", None, Some(&[1; 15]))),
            ),
            case(
                "TimeUUIDType length",
                ire("TimeUUID should be 16 or 0 bytes (3)"),
                |s| get(s, KS, "k", path("StdTime", None, Some(&[1; 3]))),
            ),
            case(
                "TimeUUIDType version",
                ire("Invalid version for TimeUUID type."),
                move |s| get(s, KS, "k", path("StdTime", None, Some(&v4))),
            ),
            case("TimeUUIDType version 1", Outcome::NotFound, |s| {
                get(s, KS, "k", path("StdTime", None, Some(&time_uuid(1))))
            }),
            case(
                "LexicalUUIDType subcolumns",
                ire("UUIDs must be exactly 16 bytes"),
                |s| {
                    get(
                        s,
                        KS,
                        "k",
                        path("SuperTime", Some(&time_uuid(1)), Some(b"c")),
                    )
                },
            ),
        ],
    );
}

#[test]
fn predicates_and_slice_ranges() {
    let f = Fixture::new();
    let s = f.session();
    let std = || parent("Standard1", None);
    let longs = || parent("StdLong", None);
    run(
        &s,
        vec![
            case(
                "neither",
                ire("predicate column_names and slice_range may not both be null"),
                move |s| slice(s, KS, "k", std(), SlicePredicate::new(None, None)),
            ),
            case(
                "both",
                ire("predicate column_names and slice_range may not both be present"),
                move |s| {
                    let mut p = super::names(&[b"a"]);
                    p.slice_range = all().slice_range;
                    slice(s, KS, "k", std(), p)
                },
            ),
            case(
                "names validated",
                ire("A long is exactly 8 bytes"),
                move |s| slice(s, KS, "k", longs(), super::names(&[b"a"])),
            ),
            case(
                "names under the subcolumn comparator",
                ire("A long is exactly 8 bytes"),
                |s| {
                    slice(
                        s,
                        KS,
                        "k",
                        parent("SuperLong", Some(b"sc")),
                        super::names(&[b"a"]),
                    )
                },
            ),
            case("empty names list", Outcome::Ok, move |s| {
                slice(s, KS, "k", std(), super::names(&[]))
            }),
            case(
                "start validated",
                ire("A long is exactly 8 bytes"),
                move |s| slice(s, KS, "k", longs(), range(b"a", b"", false, 1)),
            ),
            case(
                "finish validated",
                ire("A long is exactly 8 bytes"),
                move |s| slice(s, KS, "k", longs(), range(b"", b"ab", false, 1)),
            ),
            case(
                "start before count",
                ire("A long is exactly 8 bytes"),
                move |s| slice(s, KS, "k", longs(), range(b"a", b"", false, -1)),
            ),
            case(
                "negative count",
                ire("get_slice requires non-negative count"),
                move |s| slice(s, KS, "k", std(), range(b"", b"", false, -1)),
            ),
            case("zero count", Outcome::Ok, move |s| {
                slice(s, KS, "k", std(), range(b"", b"", false, 0))
            }),
            case(
                "start after finish",
                ire("range finish must come after start in the order of traversal"),
                move |s| slice(s, KS, "k", std(), range(b"b", b"a", false, 1)),
            ),
            case(
                "reversed start before finish",
                ire("range finish must come after start in the order of traversal"),
                move |s| slice(s, KS, "k", std(), range(b"a", b"b", true, 1)),
            ),
            case("reversed start after finish", Outcome::Ok, move |s| {
                slice(s, KS, "k", std(), range(b"b", b"a", true, 1))
            }),
            case("equal bounds", Outcome::Ok, move |s| {
                slice(s, KS, "k", std(), range(b"a", b"a", false, 1))
            }),
            case(
                "comparator order: 1 after -1 in LongType",
                ire("range finish must come after start in the order of traversal"),
                move |s| slice(s, KS, "k", longs(), range(&long(1), &long(-1), false, 1)),
            ),
            case("comparator order: -1 before 1", Outcome::Ok, move |s| {
                slice(s, KS, "k", longs(), range(&long(-1), &long(1), false, 1))
            }),
            case(
                "subcolumn comparator order",
                ire("range finish must come after start in the order of traversal"),
                |s| {
                    slice(
                        s,
                        KS,
                        "k",
                        parent("SuperLong", Some(b"sc")),
                        range(&long(0), &long(-5), false, 1),
                    )
                },
            ),
        ],
    );
}

#[test]
fn key_ranges() {
    let f = Fixture::new();
    let s = f.session();
    let go =
        |s: &Session, r: KeyRange| range_slices(s, KS, parent("Standard1", None), all(), r, ONE);
    let mut start_key_only = keys("a", "", 10);
    start_key_only.end_key = None;
    let mut start_token_only = tokens("1", "", 10);
    start_token_only.end_token = None;
    let mut both = keys("a", "b", 10);
    both.start_token = Some("1".into());
    both.end_token = Some("2".into());
    let neither = KeyRange::new(None, None, None, None, 10);
    let exactly =
        "exactly one of {start key, end key} or {start token, end token} must be specified";
    let mut bad_token_no_rows = tokens("12a", "0", 0);
    bad_token_no_rows.count = 0;
    run(
        &s,
        vec![
            case("start key only", ire("start key and end key must either both be non-null, or both be null"), move |s| go(s, start_key_only.clone())),
            case("start token only", ire("start token and end token must either both be non-null, or both be null"), move |s| go(s, start_token_only.clone())),
            case("both pairs", ire(exactly), move |s| go(s, both.clone())),
            case("neither pair", ire(exactly), move |s| go(s, neither.clone())),
            case("RP keys out of md5 order", ire("start key's md5 sorts after end key's md5.  this is not allowed; you probably should not specify end key at all, under RandomPartitioner"), move |s| {
                go(s, keys("key2", "b", 10))
            }),
            case("RP keys in md5 order", Outcome::Ok, move |s| go(s, keys("b", "key2", 10))),
            case("an empty end key is the end of the ring", Outcome::Ok, move |s| go(s, keys("key2", "", 10))),
            case("zero rows", ire("maxRows must be positive"), move |s| go(s, keys("a", "a", 0))),
            case("negative rows", ire("maxRows must be positive"), move |s| go(s, tokens("1", "2", -1))),
            case("D4 RP token", ire("Invalid token '12a': RandomPartitioner tokens are decimal integers"), move |s| go(s, tokens("12a", "0", 10))),
            case("D4 after the row count check", ire("maxRows must be positive"), move |s| go(s, bad_token_no_rows.clone())),
            case("RP tokens", Outcome::Ok, move |s| go(s, tokens("0", "0", 10))),
        ],
    );
    for p in [
        Partitioner::OrderPreserving,
        Partitioner::CollatingOrderPreserving,
    ] {
        let f = Fixture::with(Options {
            partitioner: p,
            ..Options::default()
        });
        let go =
            |r: KeyRange| range_slices(&f.session(), KS, parent("Standard1", None), all(), r, ONE);
        assert_eq!(
            go(keys("b", "a", 10)),
            ire("start key must sort before (or equal to) finish key in your partitioner!"),
            "{p:?}"
        );
        assert_eq!(go(keys("a", "b", 10)), Outcome::Ok, "{p:?}");
        assert_eq!(go(keys("b", "", 10)), Outcome::Ok, "{p:?}");
    }
    let copp = Fixture::with(Options {
        partitioner: Partitioner::CollatingOrderPreserving,
        ..Options::default()
    });
    let go = |r: KeyRange| {
        range_slices(
            &copp.session(),
            KS,
            parent("Standard1", None),
            all(),
            r,
            ONE,
        )
    };
    let d4 = "CollatingOrderPreservingPartitioner tokens are hex strings of even length";
    assert_eq!(
        go(tokens("abc", "", 10)),
        ire(&format!("Invalid token 'abc': {d4}"))
    );
    assert_eq!(
        go(tokens("", "zz", 10)),
        ire(&format!("Invalid token 'zz': {d4}"))
    );
    assert_eq!(go(tokens("55", "55", 10)), Outcome::Ok);
}
