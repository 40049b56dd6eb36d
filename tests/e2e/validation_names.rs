//! `docs/api.md#names` and `#comparators` over real sockets: the name checks (length limits,
//! emptiness, super column names on Standard CFs) and each of the six comparators' validation —
//! the message for a bad name, acceptance of a good one — for column names, super column names,
//! subcolumn names, `column_names` predicates and slice bounds, in all four wire styles.

use crate::cases::*;
use crate::harness::{Options, Server, KS};
use crate::values::*;

const BIG: usize = 65536;

#[test]
fn name_checks() {
    let server = Server::start(Options::default());
    let big = || vec![b'x'; BIG];
    let max = || vec![b'x'; 65535];
    run(
        &server,
        &[
            case(
                "super column too long",
                ire("supercolumn name length must not be greater than 65535"),
                move |cl| get(cl, KS, "k", path("Super1", Some(&big()), Some(b"c"))),
            ),
            case(
                "super column empty",
                ire("supercolumn name must not be empty"),
                |cl| get(cl, KS, "k", path("Super1", Some(b""), Some(b"c"))),
            ),
            case(
                "super column on a standard CF",
                ire("supercolumn specified to ColumnFamily Standard1 containing normal columns"),
                |cl| {
                    mutate(
                        cl,
                        KS,
                        "k",
                        "Standard1",
                        vec![delete(1, Some(b"sc"), Some(names(&[b"c"])))],
                    )
                },
            ),
            case(
                "column too long",
                ire("column name length must not be greater than 65535"),
                move |cl| get(cl, KS, "k", cpath("Standard1", &big())),
            ),
            case(
                "column too long in an insert",
                ire("column name length must not be greater than 65535"),
                move |cl| insert(cl, KS, "k", cpath("Standard1", &big())),
            ),
            case("longest column name", Outcome::Ok, move |cl| {
                insert(cl, KS, "k", cpath("Standard1", &max()))
            }),
            case("longest column name reads back", Outcome::Ok, move |cl| {
                get(cl, KS, "k", cpath("Standard1", &max()))
            }),
            case("longest super column name", Outcome::Ok, move |cl| {
                insert(cl, KS, "k", path("Super1", Some(&max()), Some(b"c")))
            }),
            case("column empty", ire("column name must not be empty"), |cl| {
                get(cl, KS, "k", cpath("Standard1", b""))
            }),
            case(
                "column empty in batch_insert",
                ire("column name must not be empty"),
                |cl| batch_insert(cl, KS, "k", "Standard1", vec![cosc_col(b"", b"v", 1)]),
            ),
            case(
                "subcolumn empty in batch_mutate",
                ire("column name must not be empty"),
                |cl| {
                    mutate(
                        cl,
                        KS,
                        "k",
                        "Super1",
                        vec![put(cosc_super(b"sc", vec![col(b"", b"v", 1)]))],
                    )
                },
            ),
            case(
                "super column empty in batch_mutate",
                ire("supercolumn name must not be empty"),
                |cl| {
                    mutate(
                        cl,
                        KS,
                        "k",
                        "Super1",
                        vec![put(cosc_super(b"", vec![col(b"c", b"v", 1)]))],
                    )
                },
            ),
            case(
                "predicate names empty",
                ire("column name must not be empty"),
                |cl| slice(cl, KS, "k", parent("Standard1", None), names(&[b"a", b""])),
            ),
            case(
                "predicate names too long",
                ire("column name length must not be greater than 65535"),
                move |cl| slice(cl, KS, "k", parent("Standard1", None), names(&[&big()])),
            ),
        ],
    );
}

#[test]
fn comparators() {
    let server = Server::start(Options::default());
    let mut v4 = time_uuid(1, 0);
    v4[6] = 0x40;
    let v4 = move || v4.clone();
    let utf8 = || ire("invalid UTF8 bytes [-61, 40]");
    let long8 = || ire("A long is exactly 8 bytes");
    let uuid16 = || ire("UUIDs must be exactly 16 bytes");
    run(
        &server,
        &[
            case("BytesType accepts any bytes", Outcome::NotFound, |cl| {
                get(cl, KS, "k", cpath("Standard1", &[0xFF, 0]))
            }),
            case(
                "AsciiType accepts any bytes (0.6)",
                Outcome::NotFound,
                |cl| get(cl, KS, "k", cpath("StdAscii", &[0xFF])),
            ),
            case("UTF8Type", utf8(), |cl| {
                get(cl, KS, "k", cpath("Standard2", &[0xC3, 0x28]))
            }),
            case(
                "UTF8Type lists signed bytes",
                ire("invalid UTF8 bytes [97, -128, 127]"),
                |cl| insert(cl, KS, "k", cpath("Standard2", &[0x61, 0x80, 0x7F])),
            ),
            case("UTF8Type accepts valid UTF-8", Outcome::NotFound, |cl| {
                get(cl, KS, "k", cpath("Standard2", "é€😀".as_bytes()))
            }),
            case("LongType 9 bytes", long8(), |cl| {
                get(cl, KS, "k", cpath("StdLong", &[1; 9]))
            }),
            case("LongType 7 bytes", long8(), |cl| {
                insert(cl, KS, "k", cpath("StdLong", &[1; 7]))
            }),
            case("LongType 8 bytes", Outcome::NotFound, |cl| {
                get(cl, KS, "k", cpath("StdLong", &long(-1)))
            }),
            case("LexicalUUIDType 15 bytes", uuid16(), |cl| {
                get(cl, KS, "k", cpath("StdLexical", &[1; 15]))
            }),
            case("LexicalUUIDType 17 bytes", uuid16(), |cl| {
                remove(cl, KS, "k", cpath("StdLexical", &[1; 17]))
            }),
            case(
                "LexicalUUIDType: no version check",
                Outcome::NotFound,
                |cl| get(cl, KS, "k", cpath("StdLexical", &[0xFF; 16])),
            ),
            case(
                "TimeUUIDType length",
                ire("TimeUUID should be 16 or 0 bytes (3)"),
                |cl| get(cl, KS, "k", cpath("StdTime", &[1; 3])),
            ),
            case(
                "TimeUUIDType version",
                ire("Invalid version for TimeUUID type."),
                move |cl| get(cl, KS, "k", cpath("StdTime", &v4())),
            ),
            case("TimeUUIDType version 1", Outcome::NotFound, |cl| {
                get(cl, KS, "k", cpath("StdTime", &time_uuid(1, 0)))
            }),
            case("super column: LongType", long8(), |cl| {
                get(cl, KS, "k", path("SuperUtf8", Some(b"sc"), None))
            }),
            case("subcolumn: UTF8Type", utf8(), |cl| {
                get(
                    cl,
                    KS,
                    "k",
                    path("SuperUtf8", Some(&long(1)), Some(&[0xC3, 0x28])),
                )
            }),
            case(
                "super column: TimeUUIDType",
                ire("TimeUUID should be 16 or 0 bytes (2)"),
                |cl| slice(cl, KS, "k", parent("SuperTime", Some(b"sc")), all()),
            ),
            case("subcolumn: LexicalUUIDType", uuid16(), |cl| {
                get(
                    cl,
                    KS,
                    "k",
                    path("SuperTime", Some(&time_uuid(1, 0)), Some(b"c")),
                )
            }),
            case("subcolumns in batch_insert", long8(), |cl| {
                batch_insert(
                    cl,
                    KS,
                    "k",
                    "SuperLong",
                    vec![cosc_super(b"sc", vec![col(b"x", b"v", 1)])],
                )
            }),
            case("names predicate: CF comparator", long8(), |cl| {
                slice(cl, KS, "k", parent("StdLong", None), names(&[b"a"]))
            }),
            case("names predicate: subcolumn comparator", long8(), |cl| {
                slice(
                    cl,
                    KS,
                    "k",
                    parent("SuperLong", Some(b"sc")),
                    names(&[b"a"]),
                )
            }),
            case("slice start", long8(), |cl| {
                slice(
                    cl,
                    KS,
                    "k",
                    parent("StdLong", None),
                    range(b"a", b"", false, 1),
                )
            }),
            case("slice finish", long8(), |cl| {
                slice(
                    cl,
                    KS,
                    "k",
                    parent("StdLong", None),
                    range(b"", b"ab", false, 1),
                )
            }),
            case(
                "slice bounds: TimeUUIDType",
                ire("TimeUUID should be 16 or 0 bytes (1)"),
                |cl| {
                    slice(
                        cl,
                        KS,
                        "k",
                        parent("StdTime", None),
                        range(b"", b"x", false, 1),
                    )
                },
            ),
            case("slice bounds: subcolumn UTF8Type", utf8(), |cl| {
                slice(
                    cl,
                    KS,
                    "k",
                    parent("SuperUtf8", Some(&long(1))),
                    range(&[0xC3, 0x28], b"", false, 1),
                )
            }),
            case(
                "empty bounds are valid for every comparator",
                Outcome::Ok,
                |cl| {
                    slice(
                        cl,
                        KS,
                        "k",
                        parent("StdTime", None),
                        range(b"", b"", false, 1),
                    )
                },
            ),
        ],
    );
}
