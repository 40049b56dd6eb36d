//! Argument decoding as the 0.6 Java server did it (`docs/api.md#wire`), with hand-encoded
//! arguments in each wire style: a missing required object field (top-level or nested, or sent
//! with the wrong wire type) is a PROTOCOL_ERROR naming the field and struct; absent required
//! numbers and absent consistency levels take their defaults (SliceRange.count, KeyRange.count
//! and row_count 100, reversed false, timestamps 0, level ONE); `string` arguments decode
//! lossily, invalid UTF-8 becoming U+FFFD.

use crate::cases::{mutation_map, range_keys, ONE};
use crate::harness::{tag, Options, Server, KS};
use crate::raw::*;
use crate::values::*;
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::protocol::ApplicationErrorKind;
use std::collections::BTreeMap;
use thrift::protocol::{
    TBinaryInputProtocol, TInputProtocol, TListIdentifier, TMessageType, TOutputProtocol, TType,
};

/// The TApplicationException in an EXCEPTION reply.
fn app_error(reply: &[u8]) -> (ApplicationErrorKind, String) {
    let mut i = TBinaryInputProtocol::new(reply, true);
    assert_eq!(
        i.read_message_begin().unwrap().message_type,
        TMessageType::Exception
    );
    let e = thrift::Error::read_application_error_from_in_protocol(&mut i).unwrap();
    (e.kind, e.message)
}

fn std_path(o: &mut Out<'_>, id: i16) -> thrift::Result<()> {
    struct_field(o, id, |o| {
        string_field(o, 3, b"Standard1")?;
        string_field(o, 5, b"c")
    })
}

#[test]
fn missing_required_objects_are_protocol_errors() {
    let server = Server::start(Options::default());
    let missing = |f: &str, s: &str| {
        (
            ApplicationErrorKind::ProtocolError,
            format!("Required field '{f}' was not present! Struct: {s}"),
        )
    };
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut raw = Raw::connect(&server, style);
        let mut ask = |name: &str, args: &dyn Fn(&mut Out<'_>) -> thrift::Result<()>| {
            raw.send(&[call(style, name, 1, args)]);
            app_error(&raw.reply())
        };
        let no_keyspace = ask("get", &|o| {
            string_field(o, 2, b"k")?;
            std_path(o, 3)
        });
        assert_eq!(no_keyspace, missing("keyspace", "get_args"), "{at}");
        let wrong_type = ask("get", &|o| {
            i32_field(o, 1, 7)?; // keyspace as an i32 is skipped, like Java did
            string_field(o, 2, b"k")?;
            std_path(o, 3)
        });
        assert_eq!(
            wrong_type,
            missing("keyspace", "get_args"),
            "{at}: a field of the wrong type"
        );
        let nested = ask("get", &|o| {
            string_field(o, 1, KS.as_bytes())?;
            string_field(o, 2, b"k")?;
            struct_field(o, 3, |o| string_field(o, 5, b"c"))
        });
        assert_eq!(nested, missing("column_family", "ColumnPath"), "{at}");
        let no_map = ask("batch_mutate", &|o| string_field(o, 1, KS.as_bytes()));
        assert_eq!(no_map, missing("mutation_map", "batch_mutate_args"), "{at}");
        let no_credentials = ask("login", &|o| {
            string_field(o, 1, KS.as_bytes())?;
            struct_field(o, 2, |_| Ok(()))
        });
        assert_eq!(
            no_credentials,
            missing("credentials", "AuthenticationRequest"),
            "{at}"
        );
        raw.send(&[call(style, "describe_version", 1, |_| Ok(()))]);
        assert_eq!(
            header(&raw.reply()).1,
            TMessageType::Reply,
            "{at}: still usable"
        );
    }
}

#[test]
fn absent_numbers_and_levels_take_their_defaults() {
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[0]);
    let wide: Vec<_> = (0..150)
        .map(|i: i32| put(cosc_col(&i.to_be_bytes(), b"v", 1)))
        .collect();
    w.batch_mutate(KS.into(), mutation_map("wide", "Standard1", wide), ONE)
        .unwrap();
    let rows = (0..120).map(|i| {
        (
            format!("row{i}"),
            BTreeMap::from([("Standard1".to_string(), vec![put(cosc_col(b"c", b"v", 1))])]),
        )
    });
    w.batch_mutate(KS.into(), rows.collect(), ONE).unwrap();
    let parent_field =
        |o: &mut Out<'_>, id| struct_field(o, id, |o| string_field(o, 3, b"Standard1"));
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut raw = Raw::connect(&server, style);
        // get_slice: SliceRange without reversed and count.
        raw.send(&[call(style, "get_slice", 1, |o| {
            string_field(o, 1, KS.as_bytes())?;
            string_field(o, 2, b"wide")?;
            parent_field(o, 3)?;
            struct_field(o, 4, |o| {
                struct_field(o, 2, |o| {
                    string_field(o, 1, b"")?;
                    string_field(o, 2, b"")
                })
            })
        })]);
        let got = decode(&raw.reply(), |c| {
            c.get_slice(String::new(), String::new(), parent("x", None), all(), ONE)
        })
        .unwrap();
        assert_eq!(got.len(), 100, "{at}: SliceRange.count defaults to 100");
        assert_eq!(
            result_names(&got[..1]),
            [0i32.to_be_bytes().to_vec()],
            "{at}: reversed defaults to false"
        );
        // get_range_slices: KeyRange without count; no consistency level either.
        raw.send(&[call(style, "get_range_slices", 1, |o| {
            string_field(o, 1, KS.as_bytes())?;
            parent_field(o, 2)?;
            struct_field(o, 3, |o| {
                field(o, 1, TType::List)?;
                o.write_list_begin(&TListIdentifier::new(TType::String, 1))?;
                o.write_bytes(b"c")?;
                o.write_list_end()
            })?;
            struct_field(o, 4, |o| {
                string_field(o, 1, b"")?;
                string_field(o, 2, b"")
            })
        })]);
        let got = decode(&raw.reply(), |c| {
            c.get_range_slices(
                String::new(),
                parent("x", None),
                all(),
                keys("", "", 1),
                ONE,
            )
        })
        .unwrap();
        assert_eq!(got.len(), 100, "{at}: KeyRange.count defaults to 100");
        // get_range_slice: no start_key, finish_key, row_count or level.
        raw.send(&[call(style, "get_range_slice", 1, |o| {
            string_field(o, 1, KS.as_bytes())?;
            parent_field(o, 2)?;
            struct_field(o, 3, |o| {
                struct_field(o, 2, |o| {
                    string_field(o, 1, b"")?;
                    string_field(o, 2, b"")
                })
            })
        })]);
        let got = decode(&raw.reply(), |c| {
            c.get_range_slice(
                String::new(),
                parent("x", None),
                all(),
                String::new(),
                String::new(),
                1,
                ONE,
            )
        })
        .unwrap();
        assert_eq!(got.len(), 100, "{at}: row_count defaults to 100");
        assert!(got.iter().all(|row| row.columns.len() <= 100), "{at}");
        // insert without timestamp or level: stored at timestamp 0.
        let key = format!("ts0-{at}");
        raw.send(&[call(style, "insert", 1, |o| {
            string_field(o, 1, KS.as_bytes())?;
            string_field(o, 2, key.as_bytes())?;
            std_path(o, 3)?;
            string_field(o, 4, b"zero")
        })]);
        decode(&raw.reply(), |c| {
            c.insert(
                String::new(),
                String::new(),
                cpath("x", b"c"),
                vec![],
                0,
                ONE,
            )
        })
        .unwrap();
        let stored = w
            .get(KS.into(), key.clone(), cpath("Standard1", b"c"), ONE)
            .unwrap();
        assert_eq!(stored, cosc_col(b"c", b"zero", 0), "{at}: timestamp 0");
        // remove without a level (its only non-required one) at timestamp 0.
        raw.send(&[call(style, "remove", 1, |o| {
            string_field(o, 1, KS.as_bytes())?;
            string_field(o, 2, key.as_bytes())?;
            std_path(o, 3)?;
            field(o, 4, TType::I64)?;
            o.write_i64(0)
        })]);
        decode(&raw.reply(), |c| {
            c.remove(String::new(), String::new(), cpath("x", b"c"), 0, ONE)
        })
        .unwrap();
        let gone = w.get(KS.into(), key, cpath("Standard1", b"c"), ONE);
        assert_eq!(outcome(gone), Outcome::NotFound, "{at}: removed at ONE");
    }
}

#[test]
fn string_arguments_decode_lossily() {
    let server = Server::start(Options::partitioner(
        ilion::partitioner::Partitioner::OrderPreserving,
    ));
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut raw = Raw::connect(&server, style);
        let mut insert_raw = |ks: &[u8], key: &[u8]| {
            raw.send(&[call(style, "insert", 1, |o| {
                string_field(o, 1, ks)?;
                string_field(o, 2, key)?;
                std_path(o, 3)?;
                string_field(o, 4, b"v")
            })]);
            outcome(decode(&raw.reply(), |c| {
                c.insert(
                    String::new(),
                    String::new(),
                    cpath("x", b"c"),
                    vec![],
                    0,
                    ONE,
                )
            }))
        };
        assert_eq!(
            insert_raw(b"Keyspace1", &[b'a', 0xFF, b'b']),
            Outcome::Ok,
            "{at}"
        );
        assert_eq!(
            insert_raw(b"Keyspace\xC3", b"k"),
            ire("Keyspace Keyspace\u{FFFD} does not exist in this schema."),
            "{at}"
        );
    }
    let mut c = server.client(WireStyle::ALL[1]);
    assert_eq!(
        range_keys(&mut c, "Standard1", all(), keys("", "", 10)),
        ["a\u{FFFD}b"]
    );
    assert!(c
        .get(
            KS.into(),
            "a\u{FFFD}b".into(),
            cpath("Standard1", b"c"),
            ONE
        )
        .is_ok());
}
