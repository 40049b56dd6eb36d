//! Dispatch onto the generated handler: real calls encoded by the generated client over the
//! thrift crate's own binary protocol, in every mode, and the 0.6 answers for unknown methods,
//! undecodable arguments, declared exceptions, application errors and Java's defaults.

use crate::util::handler::Recorder;
use crate::util::*;
use ilion::protocol::generated::{CassandraSyncClient, TCassandraSyncClient};
use ilion::protocol::{
    process, BinaryIn, ColumnOrSuperColumn, ColumnPath, ConsistencyLevel, Limits, Mode,
    SlicePredicate, SliceRange, Violation,
};
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol, TInputProtocol, TMessageType};
use thrift::ApplicationErrorKind;

type Client<'a> =
    CassandraSyncClient<TBinaryInputProtocol<&'a [u8]>, TBinaryOutputProtocol<&'a mut Vec<u8>>>;

/// The bytes the generated client sends for one call (`strict`: versioned header).
fn request(strict: bool, call: impl FnOnce(&mut Client<'_>)) -> Vec<u8> {
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

const MODES: [Mode; 4] = [
    Mode {
        framed: false,
        strict: true,
    },
    Mode {
        framed: false,
        strict: false,
    },
    Mode {
        framed: true,
        strict: true,
    },
    Mode {
        framed: true,
        strict: false,
    },
];

fn run(h: &Recorder, message: &[u8]) -> Vec<u8> {
    let mode = Mode {
        framed: false,
        strict: true,
    };
    process(message, mode, &Limits::default(), h).expect("a reply")
}

/// The TApplicationException in an EXCEPTION reply: (name, seq, kind, message).
fn app_error(reply: &[u8]) -> (String, i32, ApplicationErrorKind, String) {
    let mut i = BinaryIn::new(reply, 64);
    let m = i.read_message_begin().unwrap();
    assert_eq!(m.message_type, TMessageType::Exception);
    let e = thrift::Error::read_application_error_from_in_protocol(&mut i).unwrap();
    (m.name, m.sequence_number, e.kind, e.message)
}

fn path() -> ColumnPath {
    ColumnPath::new("Standard1".to_owned(), None, b"col".to_vec())
}

fn get(c: &mut Client<'_>, key: &str) -> thrift::Result<ColumnOrSuperColumn> {
    c.get(
        "Keyspace1".into(),
        key.into(),
        path(),
        ConsistencyLevel::QUORUM,
    )
}

#[test]
fn get_and_describe_version_in_every_mode() {
    for mode in MODES {
        let h = Recorder::default();
        let req = request(mode.strict, |c| drop(get(c, "row")));
        let reply = process(&req, mode, &Limits::default(), &h).unwrap();
        let body = if mode.framed {
            assert_eq!(
                &reply[..4],
                &(reply.len() as i32 - 4).to_be_bytes(),
                "{mode:?}"
            );
            &reply[4..]
        } else {
            &reply[..]
        };
        assert_eq!(
            &body[..4],
            &[0x80, 0x01, 0x00, 0x02],
            "versioned REPLY header"
        );
        let got = response(body, |c| get(c, "row")).unwrap();
        assert_eq!(got.column.unwrap().value, b"Keyspace1");
        assert_eq!(
            h.last(),
            format!(
                "get{:?}",
                ("Keyspace1", "row", path(), ConsistencyLevel::QUORUM)
            )
        );

        let req = request(mode.strict, |c| drop(c.describe_version()));
        let reply = process(&req, mode, &Limits::default(), &h).unwrap();
        let body = &reply[if mode.framed { 4 } else { 0 }..];
        assert_eq!(response(body, |c| c.describe_version()).unwrap(), "2.2.0");
    }
}

#[test]
fn declared_exceptions_are_normal_replies() {
    let h = Recorder::default();
    let reply = run(&h, &request(true, |c| drop(get(c, "nf"))));
    assert_eq!(reply[3], 2, "REPLY");
    let err = response(&reply, |c| get(c, "nf")).unwrap_err();
    let thrift::Error::User(e) = err else {
        panic!("{err:?}")
    };
    assert!(e
        .downcast_ref::<ilion::protocol::NotFoundException>()
        .is_some());
    let reply = run(&h, &request(true, |c| drop(get(c, "ire"))));
    let err = response(&reply, |c| get(c, "ire")).unwrap_err();
    let thrift::Error::User(e) = err else {
        panic!("{err:?}")
    };
    let ire = e
        .downcast_ref::<ilion::protocol::InvalidRequestException>()
        .unwrap();
    assert_eq!(ire.why, "bad");
}

#[test]
fn application_errors_and_panics_are_exceptions() {
    let h = Recorder::default();
    let reply = run(&h, &request(true, |c| drop(get(c, "app"))));
    let want = ("get".to_owned(), 1, ApplicationErrorKind::InternalError);
    let (name, seq, kind, why) = app_error(&reply);
    assert_eq!((name, seq, kind), want.clone());
    assert_eq!(why, "Internal error processing get");
    let reply = run(&h, &request(true, |c| drop(get(c, "panic"))));
    let (name, seq, kind, why) = app_error(&reply);
    assert_eq!((name, seq, kind), want);
    assert_eq!(why, "Internal error processing get");
}

#[test]
fn unknown_method_keeps_the_connection() {
    let h = Recorder::default();
    let msg = Enc::strict("set_keyspace", 42).s(1, "ks").stop().done();
    let (name, seq, kind, why) = app_error(&run(&h, &msg));
    assert_eq!(
        (name.as_str(), seq, kind),
        ("set_keyspace", 42, ApplicationErrorKind::UnknownMethod)
    );
    assert_eq!(why, "Invalid method name: 'set_keyspace'");
    assert!(h.calls.borrow().is_empty());
}

#[test]
fn missing_required_objects_are_protocol_errors() {
    let h = Recorder::default();
    let no_keyspace = Enc::strict("get", 7)
        .s(2, "row")
        .field(STRUCT, 3)
        .s(3, "Standard1")
        .stop()
        .stop()
        .done();
    let (name, seq, kind, why) = app_error(&run(&h, &no_keyspace));
    assert_eq!(
        (name.as_str(), seq, kind),
        ("get", 7, ApplicationErrorKind::ProtocolError)
    );
    assert_eq!(
        why,
        "Required field 'keyspace' was not present! Struct: get_args"
    );
    // nested: ColumnPath without its column family
    let no_cf = Enc::strict("get", 1)
        .s(1, "ks")
        .s(2, "row")
        .field(STRUCT, 3)
        .stop()
        .stop()
        .done();
    let (.., why) = app_error(&run(&h, &no_cf));
    assert_eq!(
        why,
        "Required field 'column_family' was not present! Struct: ColumnPath"
    );
    // a keyspace sent as an i32 is skipped, as Java did, so it is missing
    let wrong_type = Enc::strict("describe_ring", 1)
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
fn missing_primitives_and_defaulted_args_take_java_defaults() {
    let h = Recorder::default();
    // SliceRange without reversed and count; no consistency level; count sent as i64 skipped
    let msg = Enc::strict("get_slice", 1)
        .s(1, "ks")
        .s(2, "row")
        .field(STRUCT, 3)
        .s(3, "Standard1")
        .stop()
        .field(STRUCT, 4)
        .field(STRUCT, 2)
        .s(1, "")
        .s(2, "")
        .field(I64, 4)
        .i64(5)
        .stop()
        .stop()
        .stop()
        .done();
    assert_eq!(run(&h, &msg)[3], 2, "REPLY");
    let pred = SlicePredicate::new(None, SliceRange::new(vec![], vec![], false, 100));
    let parent = ilion::protocol::ColumnParent::new("Standard1".to_owned(), None);
    let want = ("ks", "row", parent.clone(), pred, ConsistencyLevel::ONE);
    assert_eq!(h.last(), format!("get_slice{want:?}"));

    let msg = Enc::strict("insert", 1)
        .s(1, "ks")
        .s(2, "row")
        .field(STRUCT, 3)
        .s(3, "cf")
        .stop();
    run(&h, &msg.field(STRING, 4).str("v").stop().done());
    let cp = ColumnPath::new("cf".to_owned(), None, None);
    assert_eq!(
        h.last(),
        format!(
            "insert{:?}",
            ("ks", "row", cp, b"v".to_vec(), 0i64, ConsistencyLevel::ONE)
        )
    );

    let msg = Enc::strict("get_range_slice", 1)
        .s(1, "ks")
        .field(STRUCT, 2)
        .s(3, "Standard1")
        .stop();
    let msg = msg
        .field(STRUCT, 3)
        .field(LIST, 1)
        .list(STRING, 0)
        .stop()
        .stop()
        .done();
    run(&h, &msg);
    let pred = SlicePredicate::new(Vec::new(), None);
    let want = ("ks", parent, pred, "", "", 100, ConsistencyLevel::ONE);
    assert_eq!(h.last(), format!("get_range_slice{want:?}"));

    let msg = Enc::strict("get_range_slices", 1)
        .s(1, "ks")
        .field(STRUCT, 2)
        .s(3, "S")
        .stop();
    let msg = msg
        .field(STRUCT, 3)
        .stop()
        .field(STRUCT, 4)
        .s(1, "a")
        .s(2, "b")
        .stop()
        .stop();
    run(&h, &msg.done());
    assert!(h.last().contains("count: 100"), "{}", h.last());
}

#[test]
fn unknown_consistency_levels() {
    let h = Recorder::default();
    let remove = |cl: Option<i32>| {
        let m = Enc::strict("remove", 1)
            .s(1, "ks")
            .s(2, "row")
            .field(STRUCT, 3)
            .s(3, "cf")
            .stop();
        let m = m.field(I64, 4).i64(9);
        match cl {
            Some(n) => m.field(I32, 5).i32(n).stop().done(),
            None => m.stop().done(),
        }
    };
    // remove's level is not required: the service sees the number (docs/compatibility.md#d7) or
    // ONE
    run(&h, &remove(Some(42)));
    assert!(
        h.last().ends_with("9, ConsistencyLevel(42))"),
        "{}",
        h.last()
    );
    run(&h, &remove(None));
    assert!(
        h.last().ends_with("9, ConsistencyLevel(1))"),
        "{}",
        h.last()
    );
    // a required level that is no level is a protocol error, as Java's null was
    let get = get_call(1).done();
    let bad = [&get[..get.len() - 5], &42i32.to_be_bytes()[..], &[0]].concat();
    let (_, _, kind, why) = app_error(&run(&h, &bad));
    assert_eq!(kind, ApplicationErrorKind::ProtocolError);
    assert_eq!(
        why,
        "Required field 'consistency_level' was not present! Struct: get_args"
    );
}

#[test]
fn message_type_is_not_checked_and_strings_are_lossy() {
    let h = Recorder::default();
    let msg = Enc::loose("describe_ring", 9, 3)
        .field(STRING, 1)
        .bytes(&[b'k', 0xff])
        .stop();
    let reply = process(&msg.done(), MODES[1], &Limits::default(), &h).unwrap();
    assert_eq!(&reply[..4], &[0x80, 1, 0, 2]);
    assert_eq!(h.last(), format!("describe_ring{:?}", ("k\u{fffd}",)));
}

#[test]
fn container_element_type_mismatch_is_a_protocol_error() {
    let h = Recorder::default();
    let msg = Enc::strict("multiget", 1)
        .s(1, "ks")
        .field(LIST, 2)
        .list(I32, 1)
        .i32(0)
        .stop();
    let (_, _, kind, _) = app_error(&run(&h, &msg.done()));
    assert_eq!(kind, ApplicationErrorKind::ProtocolError);
}

#[test]
fn malformed_messages_close() {
    let h = Recorder::default();
    let mode = MODES[0];
    let get = get_call(1).done();
    assert!(process(&get[..get.len() - 1], mode, &Limits::default(), &h).is_err());
    assert!(process(
        &[get.clone(), vec![0]].concat(),
        mode,
        &Limits::default(),
        &h
    )
    .is_err());
    assert!(process(b"", mode, &Limits::default(), &h).is_err());
}

#[test]
fn decoding_that_would_explode_in_memory_closes() {
    let h = Recorder::default();
    // A 16 MiB message of 16 million empty Mutation structs (1 byte each on the wire) would
    // need gigabytes once decoded: refused before decoding.
    let n = 16 * 1024 * 1024 - 100;
    let msg = Enc::strict("batch_mutate", 1)
        .s(1, "ks")
        .field(MAP, 2)
        .map(STRING, MAP, 1)
        .str("r")
        .map(STRING, LIST, 1)
        .str("cf")
        .list(STRUCT, n)
        .raw(&vec![0; n as usize])
        .stop()
        .done();
    let got = process(&msg, MODES[0], &Limits::default(), &h);
    assert!(matches!(got, Err(Violation::DecodedTooLarge(_))), "{got:?}");
    // the same shape, at a sane size, is served
    let small = Enc::strict("batch_mutate", 1)
        .s(1, "ks")
        .field(MAP, 2)
        .map(STRING, MAP, 1)
        .str("r")
        .map(STRING, LIST, 1)
        .str("cf")
        .list(STRUCT, 1000)
        .raw(&[0; 1000])
        .stop()
        .done();
    assert_eq!(run(&h, &small)[3], 2, "REPLY");
}
