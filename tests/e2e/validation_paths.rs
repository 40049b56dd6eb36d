//! `docs/api.md#validation` (4.1–4.6) over real sockets: every InvalidRequestException text
//! about keys, keyspaces, column families, column paths and parents, remove paths and column
//! names (including each comparator's validation message), with a request that triggers it, and
//! the neighbouring requests that must pass — each table played in all four wire styles.

use crate::cases::*;
use crate::harness::{Options, Server, KS};
use crate::values::*;
use ilion::client::TCassandraSyncClient;
use std::collections::BTreeMap;

const BIG: usize = 65536;

#[test]
fn keys() {
    let server = Server::start(Options::default());
    let c = || cpath("Standard1", b"c");
    let too_long = |n| {
        ire(&format!(
            "Encoded key length of {n} is longer than maximum of 65535"
        ))
    };
    run(
        &server,
        &[
            case("get: empty key", ire("Key may not be empty"), move |cl| {
                get(cl, KS, "", c())
            }),
            case(
                "insert: empty key",
                ire("Key may not be empty"),
                move |cl| insert(cl, KS, "", c()),
            ),
            case("65535 ASCII bytes", Outcome::Ok, move |cl| {
                insert(cl, KS, &"a".repeat(65535), c())
            }),
            case("and it reads back", Outcome::Ok, move |cl| {
                get(cl, KS, &"a".repeat(65535), c())
            }),
            case("65536 ASCII bytes", too_long(65536), move |cl| {
                insert(cl, KS, &"a".repeat(BIG), c())
            }),
            case("U+0000 counts 2", too_long(65536), move |cl| {
                insert(cl, KS, &"\0".repeat(32768), c())
            }),
            case("U+07FF counts 2", too_long(65536), move |cl| {
                get(cl, KS, &"\u{7FF}".repeat(32768), c())
            }),
            case("U+0800 counts 3", too_long(65538), move |cl| {
                get(cl, KS, &"\u{800}".repeat(21846), c())
            }),
            case(
                "supplementary characters count 6",
                too_long(65538),
                move |cl| insert(cl, KS, &"\u{10000}".repeat(10923), c()),
            ),
            case(
                "multiget: every key",
                ire("Key may not be empty"),
                move |cl| outcome(cl.multiget(KS.into(), vec!["a".into(), "".into()], c(), ONE)),
            ),
            case("multiget_slice", ire("Key may not be empty"), |cl| {
                let keys = vec!["".into()];
                outcome(cl.multiget_slice(KS.into(), keys, parent("Standard1", None), all(), ONE))
            }),
            case("get_count", ire("Key may not be empty"), |cl| {
                count(cl, KS, "", parent("Standard1", None))
            }),
            case("remove", ire("Key may not be empty"), |cl| {
                remove(cl, KS, "", path("Standard1", None, None))
            }),
            case("batch_insert", ire("Key may not be empty"), |cl| {
                batch_insert(cl, KS, "", "Standard1", vec![cosc_col(b"c", b"v", 1)])
            }),
            case("batch_mutate", ire("Key may not be empty"), |cl| {
                mutate(cl, KS, "", "Standard1", vec![put(cosc_col(b"c", b"v", 1))])
            }),
            case("range keys are not validated", Outcome::Ok, |cl| {
                let r = crate::values::keys("", "", 10);
                range_slices(cl, KS, parent("Standard1", None), all(), r, ONE)
            }),
        ],
    );
}

#[test]
fn keyspaces_and_column_families() {
    let server = Server::start(Options::default());
    let ks_gone = || ire("Keyspace Nope does not exist in this schema.");
    let empty = || ire("non-empty columnfamily is required");
    let cf_gone = || ire("unconfigured columnfamily Nope");
    let c = Some(&b"c"[..]);
    let std = || parent("Standard1", None);
    run(
        &server,
        &[
            case("get: keyspace", ks_gone(), move |cl| {
                get(cl, "Nope", "k", path("Standard1", None, c))
            }),
            case("get: empty cf", empty(), move |cl| {
                get(cl, KS, "k", path("", None, c))
            }),
            case("get: unknown cf", cf_gone(), move |cl| {
                get(cl, KS, "k", path("Nope", None, c))
            }),
            case("get_slice: keyspace", ks_gone(), move |cl| {
                slice(cl, "Nope", "k", std(), all())
            }),
            case("get_slice: empty cf", empty(), |cl| {
                slice(cl, KS, "k", parent("", None), all())
            }),
            case("get_count: unknown cf", cf_gone(), |cl| {
                count(cl, KS, "k", parent("Nope", None))
            }),
            case("multiget: keyspace", ks_gone(), move |cl| {
                outcome(cl.multiget(
                    "Nope".into(),
                    vec!["k".into()],
                    path("Standard1", None, c),
                    ONE,
                ))
            }),
            case("multiget_slice: unknown cf", cf_gone(), |cl| {
                outcome(cl.multiget_slice(
                    KS.into(),
                    vec!["k".into()],
                    parent("Nope", None),
                    all(),
                    ONE,
                ))
            }),
            case("get_range_slices: keyspace", ks_gone(), move |cl| {
                range_slices(
                    cl,
                    "Nope",
                    std(),
                    all(),
                    crate::values::keys("", "", 1),
                    ONE,
                )
            }),
            case("get_range_slice: unknown cf", cf_gone(), |cl| {
                outcome(cl.get_range_slice(
                    KS.into(),
                    parent("Nope", None),
                    all(),
                    "".into(),
                    "".into(),
                    1,
                    ONE,
                ))
            }),
            case("insert: keyspace", ks_gone(), move |cl| {
                insert(cl, "Nope", "k", path("Standard1", None, c))
            }),
            case("insert: empty cf", empty(), move |cl| {
                insert(cl, KS, "k", path("", None, c))
            }),
            case("remove: unknown cf", cf_gone(), |cl| {
                remove(cl, KS, "k", path("Nope", None, None))
            }),
            case("remove: keyspace", ks_gone(), |cl| {
                remove(cl, "Nope", "k", path("Standard1", None, None))
            }),
            case("batch_insert: unknown cf", cf_gone(), |cl| {
                batch_insert(cl, KS, "k", "Nope", vec![cosc_col(b"c", b"v", 1)])
            }),
            case(
                "batch_insert: unknown cf without columns",
                cf_gone(),
                |cl| batch_insert(cl, KS, "k", "Nope", vec![]),
            ),
            case("batch_insert: keyspace without columns", ks_gone(), |cl| {
                outcome(cl.batch_insert("Nope".into(), "k".into(), BTreeMap::new(), ONE))
            }),
            case("batch_mutate insert: keyspace", ks_gone(), |cl| {
                mutate(
                    cl,
                    "Nope",
                    "k",
                    "Standard1",
                    vec![put(cosc_col(b"c", b"v", 1))],
                )
            }),
            case("batch_mutate insert: empty cf", empty(), |cl| {
                mutate(cl, KS, "k", "", vec![put(cosc_col(b"c", b"v", 1))])
            }),
            case(
                "batch_mutate: keyspace with an empty row",
                ks_gone(),
                |cl| mutate(cl, "Nope", "k", "Standard1", vec![]),
            ),
            case(
                "batch_mutate: unknown cf with nothing in it is a no-op",
                Outcome::Ok,
                |cl| mutate(cl, KS, "k", "Nope", vec![put(cosc_super(b"", vec![]))]),
            ),
            case("batch_mutate: empty map", Outcome::Ok, |cl| {
                outcome(cl.batch_mutate("Nope".into(), BTreeMap::new(), ONE))
            }),
        ],
    );
}

#[test]
fn column_paths_and_parents() {
    let server = Server::start(Options::default());
    run(
        &server,
        &[
            case("path: standard with super column", ire("supercolumn parameter is invalid for standard CF Standard1"), |cl| {
                get(cl, KS, "k", path("Standard1", Some(b"sc"), Some(b"c")))
            }),
            case("path: standard without column", ire("column parameter is not optional for standard CF Standard1"), |cl| {
                get(cl, KS, "k", path("Standard1", None, None))
            }),
            case("path: insert without column", ire("column parameter is not optional for standard CF Standard1"), |cl| {
                insert(cl, KS, "k", path("Standard1", None, None))
            }),
            case("path: super without super column", ire("supercolumn parameter is not optional for super CF Super1"), |cl| {
                get(cl, KS, "k", path("Super1", None, Some(b"c")))
            }),
            case("path: a plain column in a COSC for a super CF", ire("supercolumn parameter is not optional for super CF Super1"), |cl| {
                batch_insert(cl, KS, "k", "Super1", vec![cosc_col(b"c", b"v", 1)])
            }),
            case("path: column under the subcolumn comparator", ire("A long is exactly 8 bytes"), |cl| {
                get(cl, KS, "k", path("SuperLong", Some(b"sc"), Some(b"c")))
            }),
            case("path: column under the CF comparator", ire("A long is exactly 8 bytes"), |cl| {
                get(cl, KS, "k", path("StdLong", None, Some(b"c")))
            }),
            case("path: super column under the CF comparator", ire("invalid UTF8 bytes [-1]"), |cl| {
                get(cl, KS, "k", path("SuperLong", Some(&[0xFF]), Some(&long(1))))
            }),
            case("path: the column is checked before the super column", ire("A long is exactly 8 bytes"), |cl| {
                get(cl, KS, "k", path("SuperLong", Some(&[0xFF]), Some(b"c")))
            }),
            case("path: D2 insert of a super column alone", ire("column parameter is not optional when inserting into super CF Super1"), |cl| {
                insert(cl, KS, "k", path("Super1", Some(b"sc"), None))
            }),
            case("path: get of a whole super column is fine", Outcome::NotFound, |cl| {
                get(cl, KS, "k", path("Super1", Some(b"sc"), None))
            }),
            case("parent: standard with super column", ire("columnfamily alone is required for standard CF Standard1"), |cl| {
                slice(cl, KS, "k", parent("Standard1", Some(b"sc")), all())
            }),
            case("parent: empty super column is a column name", ire("column name must not be empty"), |cl| {
                slice(cl, KS, "k", parent("Super1", Some(b"")), all())
            }),
            case("parent: long super column is a column name", ire("column name length must not be greater than 65535"), |cl| {
                slice(cl, KS, "k", parent("Super1", Some(&vec![b'x'; BIG])), all())
            }),
            case("parent: super column under the CF comparator", ire("invalid UTF8 bytes [-61, 40]"), |cl| {
                count(cl, KS, "k", parent("SuperLong", Some(&[0xC3, 0x28])))
            }),
            case("remove: standard with super column", ire("supercolumn may not be specified for standard CF Standard1"), |cl| {
                remove(cl, KS, "k", path("Standard1", Some(b"sc"), None))
            }),
            case("remove: super with a column only", ire("A column cannot be specified without specifying a super column for removal on super CF Super1"), |cl| {
                remove(cl, KS, "k", path("Super1", None, Some(b"c")))
            }),
            case("remove: column name validated", ire("A long is exactly 8 bytes"), |cl| {
                remove(cl, KS, "k", path("StdLong", None, Some(b"c")))
            }),
            case("remove: subcolumn name validated", ire("A long is exactly 8 bytes"), |cl| {
                remove(cl, KS, "k", path("SuperLong", Some(b"sc"), Some(b"c")))
            }),
            case("remove: super column name validated", ire("invalid UTF8 bytes [-1]"), |cl| {
                remove(cl, KS, "k", path("SuperLong", Some(&[0xFF]), None))
            }),
            case("remove: empty super column", ire("supercolumn name must not be empty"), |cl| {
                remove(cl, KS, "k", path("Super1", Some(b""), Some(b"c")))
            }),
            case("remove: whole row", Outcome::Ok, |cl| remove(cl, KS, "k", path("Standard1", None, None))),
            case("remove: whole super column", Outcome::Ok, |cl| remove(cl, KS, "k", path("Super1", Some(b"sc"), None))),
        ],
    );
}
