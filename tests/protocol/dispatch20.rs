//! Dispatch of 20.1.0 calls (`ilion::protocol::v20::process`) onto the generated 20.1.0
//! handler: the same answers as for the 0.6 API (unknown method, required objects, declared
//! exceptions, panics) with the later IDL's own rules: no ZERO level, the 2.2 defaults of
//! required numbers and optional objects (spec §1.2), `remove`'s level reaching the service
//! (F7), `cas`'s absent lists (F3). The E4 limits on 20.1.0 messages are in `limits20`.

use crate::util::handler20::Recorder20;
use crate::util::*;
use ilion::protocol::v20::generated::{CassandraSyncClient, TCassandraSyncClient};
use ilion::protocol::v20::{
    process, CfDef, ColumnOrSuperColumn, ColumnPath, ConsistencyLevel, SchemaDisagreementException,
};
use ilion::protocol::{BinaryIn, Limits, Mode};
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TInputProtocol, TMessageType, TSerializable,
};
use thrift::ApplicationErrorKind;

const DOUBLE: u8 = ilion::protocol::wire::T_DOUBLE;

pub type Client<'a> =
    CassandraSyncClient<TBinaryInputProtocol<&'a [u8]>, TBinaryOutputProtocol<&'a mut Vec<u8>>>;

/// The bytes the generated 20.1.0 client sends for one call (`strict`: versioned header).
pub fn request(strict: bool, call: impl FnOnce(&mut Client<'_>)) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut c = CassandraSyncClient::new(
            TBinaryInputProtocol::new(&[][..], true),
            TBinaryOutputProtocol::new(&mut out, strict),
        );
        call(&mut c); // fails reading the (absent) reply, which is fine
    }
    out
}

/// What the generated client makes of `reply` for the same call.
fn response<T>(
    reply: &[u8],
    call: impl FnOnce(&mut Client<'_>) -> thrift::Result<T>,
) -> thrift::Result<T> {
    let mut sink = Vec::new();
    let mut c = CassandraSyncClient::new(
        TBinaryInputProtocol::new(reply, true),
        TBinaryOutputProtocol::new(&mut sink, true),
    );
    call(&mut c)
}

pub const STRICT: Mode = Mode {
    framed: false,
    strict: true,
};

pub fn run(h: &Recorder20, message: &[u8]) -> Vec<u8> {
    process(message, STRICT, &Limits::default(), h).expect("a reply")
}

/// The TApplicationException in an EXCEPTION reply: (name, seq, kind, message).
fn app_error(reply: &[u8]) -> (String, i32, ApplicationErrorKind, String) {
    let mut i = BinaryIn::new(reply, 64);
    let m = i.read_message_begin().unwrap();
    assert_eq!(m.message_type, TMessageType::Exception);
    let e = thrift::Error::read_application_error_from_in_protocol(&mut i).unwrap();
    (m.name, m.sequence_number, e.kind, e.message)
}

/// A CfDef with only its required fields, as the generated decoder makes it.
fn cf_def(keyspace: &str, name: &str) -> CfDef {
    let bytes = Enc::default().s(1, keyspace).s(2, name).stop().done();
    let mut i = TBinaryInputProtocol::new(&bytes[..], true);
    CfDef::read_from_in_protocol(&mut i).unwrap()
}

fn path() -> ColumnPath {
    ColumnPath::new("Standard1".to_owned(), None, b"col".to_vec())
}

fn get(c: &mut Client<'_>, key: &[u8]) -> thrift::Result<ColumnOrSuperColumn> {
    c.get(key.to_vec(), path(), ConsistencyLevel::LOCAL_ONE)
}

/// `get(key, ColumnPath{Standard1}, level)` encoded by hand.
fn get_with_level(level: Option<i32>) -> Vec<u8> {
    let m = Enc::strict("get", 3)
        .field(STRING, 1)
        .str("row")
        .field(STRUCT, 2)
        .s(3, "Standard1")
        .stop();
    match level {
        Some(n) => m.field(I32, 3).i32(n).stop().done(),
        None => m.stop().done(),
    }
}

#[test]
fn get_and_describe_version_in_every_mode() {
    for (framed, strict) in [(false, true), (false, false), (true, true), (true, false)] {
        let mode = Mode { framed, strict };
        let h = Recorder20::default();
        let req = request(strict, |c| drop(get(c, b"row")));
        let reply = process(&req, mode, &Limits::default(), &h).unwrap();
        let body = &reply[if framed { 4 } else { 0 }..];
        if framed {
            assert_eq!(&reply[..4], &(body.len() as i32).to_be_bytes(), "{mode:?}");
        }
        assert_eq!(&body[..4], &[0x80, 0x01, 0x00, 0x02], "versioned REPLY");
        let got = response(body, |c| get(c, b"row")).unwrap();
        let column = got.column.unwrap();
        assert_eq!(
            (column.name, column.value),
            (b"col".to_vec(), Some(b"row".to_vec()))
        );
        let want = (b"row".to_vec(), path(), ConsistencyLevel::LOCAL_ONE);
        assert_eq!(h.last(), format!("get{want:?}"));

        let req = request(strict, |c| drop(c.describe_version()));
        let reply = process(&req, mode, &Limits::default(), &h).unwrap();
        let body = &reply[if framed { 4 } else { 0 }..];
        assert_eq!(response(body, |c| c.describe_version()).unwrap(), "20.1.0");
    }
}

#[test]
fn unknown_methods_include_the_0_6_only_ones() {
    let h = Recorder20::default();
    for name in ["multiget", "get_string_property", "no_such_method"] {
        let msg = Enc::strict(name, 42).s(1, "ks").stop().done();
        let (got, seq, kind, why) = app_error(&run(&h, &msg));
        assert_eq!(
            (got.as_str(), seq, kind),
            (name, 42, ApplicationErrorKind::UnknownMethod)
        );
        assert_eq!(why, format!("Invalid method name: '{name}'"));
    }
    assert!(h.calls.borrow().is_empty());
}

#[test]
fn missing_required_objects_are_protocol_errors() {
    let h = Recorder20::default();
    let no_path = Enc::strict("get", 7)
        .field(STRING, 1)
        .str("row")
        .stop()
        .done();
    let (name, seq, kind, why) = app_error(&run(&h, &no_path));
    assert_eq!(
        (name.as_str(), seq, kind),
        ("get", 7, ApplicationErrorKind::ProtocolError)
    );
    assert_eq!(
        why,
        "Required field 'column_path' was not present! Struct: get_args"
    );
    // nested: a CfDef without its name
    let no_name = Enc::strict("system_add_column_family", 1)
        .field(STRUCT, 1)
        .s(1, "ks")
        .stop()
        .stop()
        .done();
    let (.., why) = app_error(&run(&h, &no_name));
    assert_eq!(why, "Required field 'name' was not present! Struct: CfDef");
    // a key sent as an i32 is skipped, as Java skipped it, so it is missing
    let wrong_type = Enc::strict("set_keyspace", 1)
        .field(I32, 1)
        .i32(5)
        .stop()
        .done();
    let (_, _, kind, why) = app_error(&run(&h, &wrong_type));
    assert_eq!(kind, ApplicationErrorKind::ProtocolError);
    assert!(why.contains("'keyspace'"), "{why}");
    assert!(h.calls.borrow().is_empty());
}

#[test]
fn levels_the_later_api_does_not_list_are_protocol_errors() {
    let h = Recorder20::default();
    // ZERO (0) was a 0.6 level; 12 was never one
    for n in [0, 12, -1] {
        let (name, _, kind, why) = app_error(&run(&h, &get_with_level(Some(n))));
        assert_eq!(
            (name.as_str(), kind),
            ("get", ApplicationErrorKind::ProtocolError)
        );
        assert_eq!(
            why,
            "Required field 'consistency_level' was not present! Struct: get_args"
        );
    }
    assert!(h.calls.borrow().is_empty());
    // every listed level is served, and an absent one is ONE
    for n in 1..=11 {
        run(&h, &get_with_level(Some(n)));
        assert!(
            h.last().ends_with(&format!("ConsistencyLevel({n}))")),
            "{}",
            h.last()
        );
    }
    run(&h, &get_with_level(None));
    assert!(h.last().ends_with("ConsistencyLevel(1))"), "{}", h.last());
    // an unknown operator in a row filter: IndexExpression.op is required
    let msg = Enc::strict("get_range_slices", 1)
        .field(STRUCT, 1)
        .s(3, "cf")
        .stop()
        .field(STRUCT, 2)
        .stop()
        .field(STRUCT, 3)
        .field(LIST, 6)
        .list(STRUCT, 1)
        .field(STRING, 1)
        .str("c")
        .field(I32, 2)
        .i32(5)
        .field(STRING, 3)
        .str("v")
        .stop()
        .stop()
        .stop()
        .done();
    let (.., why) = app_error(&run(&h, &msg));
    assert_eq!(
        why,
        "Required field 'op' was not present! Struct: IndexExpression"
    );
    // an unknown Compression
    let msg = Enc::strict("prepare_cql3_query", 1)
        .field(STRING, 1)
        .str("SELECT")
        .field(I32, 2)
        .i32(0)
        .stop()
        .done();
    let (.., why) = app_error(&run(&h, &msg));
    assert!(why.starts_with("Required field 'compression'"), "{why}");
}

#[test]
fn remove_s_level_is_not_required_and_reaches_the_service() {
    let h = Recorder20::default();
    let remove = |timestamp: Option<i64>, level: Option<i32>| {
        let m = Enc::strict("remove", 1)
            .field(STRING, 1)
            .str("row")
            .field(STRUCT, 2)
            .s(3, "cf")
            .stop();
        let m = match timestamp {
            Some(t) => m.field(I64, 3).i64(t),
            None => m,
        };
        match level {
            Some(n) => m.field(I32, 4).i32(n).stop().done(),
            None => m.stop().done(),
        }
    };
    // F7: the service sees the unknown number and answers it
    run(&h, &remove(Some(9), Some(0)));
    assert!(
        h.last().ends_with("9, ConsistencyLevel(0))"),
        "{}",
        h.last()
    );
    // absent: ONE; an absent timestamp is 0, as Java's primitive was
    run(&h, &remove(None, None));
    assert!(
        h.last().ends_with("0, ConsistencyLevel(1))"),
        "{}",
        h.last()
    );
}

#[test]
fn absent_required_numbers_take_the_java_defaults() {
    let h = Recorder20::default();
    // SliceRange without reversed and count; no level; count sent as an i64 is dropped
    let msg = Enc::strict("get_slice", 1)
        .field(STRING, 1)
        .str("row")
        .field(STRUCT, 2)
        .s(3, "Standard1")
        .stop()
        .field(STRUCT, 3)
        .field(STRUCT, 2)
        .s(1, "")
        .s(2, "")
        .field(I64, 4)
        .i64(5)
        .stop()
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    assert!(
        h.last().contains("reversed: false, count: 100 }"),
        "{}",
        h.last()
    );
    assert!(h.last().ends_with("ConsistencyLevel(1))"), "{}", h.last());
    // KeyRange.count
    let msg = Enc::strict("get_paged_slice", 1)
        .s(1, "cf")
        .field(STRUCT, 2)
        .field(STRING, 1)
        .str("a")
        .stop()
        .field(STRING, 3)
        .str("")
        .stop()
        .done();
    run(&h, &msg);
    assert!(
        h.last().contains("count: 100, row_filter: None }"),
        "{}",
        h.last()
    );
    // IndexClause.count
    let msg = Enc::strict("get_indexed_slices", 1)
        .field(STRUCT, 1)
        .s(3, "cf")
        .stop()
        .field(STRUCT, 2)
        .field(LIST, 1)
        .list(STRUCT, 0)
        .field(STRING, 2)
        .str("")
        .stop()
        .field(STRUCT, 3)
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    assert!(
        h.last().contains("start_key: [], count: 100 }"),
        "{}",
        h.last()
    );
    // CounterColumn.value
    let msg = Enc::strict("add", 1)
        .field(STRING, 1)
        .str("row")
        .field(STRUCT, 2)
        .s(3, "Counter1")
        .stop()
        .field(STRUCT, 3)
        .field(STRING, 1)
        .str("c")
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    assert!(
        h.last().contains("CounterColumn { name: [99], value: 0 }"),
        "{}",
        h.last()
    );
    // describe_splits_ex.keys_per_split and execute_prepared_cql3_query.itemId
    let msg = Enc::strict("describe_splits_ex", 1)
        .s(1, "cf")
        .s(2, "0")
        .s(3, "10")
        .stop()
        .done();
    run(&h, &msg);
    assert_eq!(
        h.last(),
        format!("describe_splits_ex{:?}", (&"cf", &"0", &"10", &0))
    );
    let msg = Enc::strict("execute_prepared_cql3_query", 1)
        .field(LIST, 2)
        .list(STRING, 0)
        .stop()
        .done();
    run(&h, &msg);
    let want = (&0, &Vec::<Vec<u8>>::new(), &ConsistencyLevel::ONE);
    assert_eq!(h.last(), format!("execute_prepared_cql3_query{want:?}"));
}

#[test]
fn cas_defaults_its_levels_and_reads_absent_lists_as_empty() {
    let h = Recorder20::default();
    let msg = Enc::strict("cas", 1)
        .field(STRING, 1)
        .str("row")
        .s(2, "cf")
        .stop()
        .done();
    run(&h, &msg);
    let none: Vec<ilion::protocol::v20::Column> = Vec::new();
    let want = (
        &b"row".to_vec(),
        &"cf",
        &none,
        &none,
        &ConsistencyLevel::SERIAL,
        &ConsistencyLevel::QUORUM,
    );
    assert_eq!(h.last(), format!("cas{want:?}"));
}

#[test]
fn optional_objects_with_defaults_are_present_and_optional_numbers_absent() {
    let h = Recorder20::default();
    // the least a CfDef can be
    let msg = Enc::strict("system_add_column_family", 1)
        .field(STRUCT, 1)
        .s(1, "ks")
        .s(2, "cf")
        .stop()
        .stop()
        .done();
    assert_eq!(run(&h, &msg)[3], 2, "REPLY");
    let cf = h.cf_defs.borrow_mut().pop().unwrap();
    let strings = [
        &cf.column_type,
        &cf.comparator_type,
        &cf.caching,
        &cf.speculative_retry,
        &cf.cells_per_row_to_cache,
    ];
    let want = ["Standard", "BytesType", "keys_only", "NONE", "100"];
    assert_eq!(strings.map(|s| s.as_deref()), want.map(Some));
    assert_eq!(cf.dclocal_read_repair_chance, None);
    assert_eq!((cf.subcomparator_type, cf.gc_grace_seconds), (None, None));

    // what a Python client sends: every field it has, deprecated ones included; a field of
    // the wrong type (gc_grace_seconds as a string) is dropped
    let msg = Enc::strict("system_add_column_family", 1)
        .field(STRUCT, 1)
        .s(1, "ks")
        .s(2, "cf")
        .s(3, "Super")
        .field(DOUBLE, 37)
        .raw(&0.0f64.to_be_bytes())
        .field(DOUBLE, 9)
        .raw(&0.5f64.to_be_bytes())
        .field(BOOL, 24)
        .raw(&[1])
        .s(14, "864000")
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    let cf = h.cf_defs.borrow_mut().pop().unwrap();
    assert_eq!(cf.column_type.as_deref(), Some("Super"));
    assert_eq!(cf.dclocal_read_repair_chance.map(f64::from), Some(0.0));
    assert_eq!(cf.row_cache_size.map(f64::from), Some(0.5));
    assert_eq!(cf.replicate_on_write, Some(true));
    assert_eq!(cf.gc_grace_seconds, None);

    // KsDef.durable_writes (optional bool = 1) stays absent; CfDefs inside get their defaults
    let msg = Enc::strict("system_add_keyspace", 1)
        .field(STRUCT, 1)
        .s(1, "ks")
        .s(2, "SimpleStrategy")
        .field(LIST, 5)
        .list(STRUCT, 1)
        .s(1, "ks")
        .s(2, "cf")
        .stop()
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    let ks = h.ks_defs.borrow_mut().pop().unwrap();
    assert_eq!(ks.durable_writes, None);
    assert_eq!(ks.cf_defs[0].caching.as_deref(), Some("keys_only"));

    // MultiSliceRequest: the level (an enum) is present, reversed and count are not
    let msg = Enc::strict("get_multi_slice", 1)
        .field(STRUCT, 1)
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    let req = h.multi_slices.borrow_mut().pop().unwrap();
    assert_eq!(req.consistency_level, Some(ConsistencyLevel::ONE));
    assert_eq!((req.reversed, req.count, req.key), (None, None, None));
}

#[test]
fn a_stock_client_s_cf_def_round_trips() {
    let h = Recorder20::default();
    let mut cf = cf_def("ks", "cf");
    cf.comparator_type = Some("UTF8Type".to_owned());
    cf.gc_grace_seconds = Some(10);
    cf.bloom_filter_fp_chance = Some(0.01.into());
    let sent = cf.clone();
    let req = request(true, |c| drop(c.system_add_column_family(sent)));
    let reply = run(&h, &req);
    let version = response(&reply, |c| c.system_add_column_family(cf_def("", "")));
    assert_eq!(version.unwrap(), "a-schema-version");
    let got = h.cf_defs.borrow_mut().pop().unwrap();
    // the client's fields as sent, the absent string defaults filled in
    assert_eq!(got.comparator_type, cf.comparator_type);
    assert_eq!(got.gc_grace_seconds, Some(10));
    assert_eq!(got.bloom_filter_fp_chance, cf.bloom_filter_fp_chance);
    assert_eq!(got.caching.as_deref(), Some("keys_only"));
}

#[test]
fn declared_exceptions_are_normal_replies() {
    let h = Recorder20::default();
    let reply = run(&h, &request(true, |c| drop(get(c, b"nf"))));
    assert_eq!(reply[3], 2, "REPLY");
    let err = response(&reply, |c| get(c, b"nf")).unwrap_err();
    let thrift::Error::User(e) = err else {
        panic!("{err:?}")
    };
    assert!(e
        .downcast_ref::<ilion::protocol::v20::NotFoundException>()
        .is_some());
    // the exception only the later IDL has
    let cf = cf_def("ks", "sde");
    let call = |c: &mut Client<'_>| c.system_add_column_family(cf.clone());
    let reply = run(&h, &request(true, |c| drop(call(c))));
    assert_eq!(reply[3], 2, "REPLY");
    let err = response(&reply, call).unwrap_err();
    let thrift::Error::User(e) = err else {
        panic!("{err:?}")
    };
    assert!(e.downcast_ref::<SchemaDisagreementException>().is_some());
}

#[test]
fn panics_and_application_errors_are_internal_errors() {
    let h = Recorder20::default();
    let (name, seq, kind, why) = app_error(&run(&h, &request(true, |c| drop(get(c, b"panic")))));
    assert_eq!(
        (name.as_str(), seq, kind),
        ("get", 1, ApplicationErrorKind::InternalError)
    );
    assert_eq!(why, "Internal error processing get");
    // the handler's own application error travels as it is
    let req = request(true, |c| drop(c.describe_snitch()));
    let (name, _, kind, why) = app_error(&run(&h, &req));
    assert_eq!(
        (name.as_str(), kind),
        ("describe_snitch", ApplicationErrorKind::InternalError)
    );
    assert_eq!(why, "describe_snitch is not served by the test handler");
}
