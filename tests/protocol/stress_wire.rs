//! The hand-encoded stress calls against the generated server code: each request must decode
//! to exactly the arguments the generated client would have sent, in both framings, and the
//! reply reader must see what the no-op handler (and an exception) answered.

use crate::util::handler::Recorder;
use crate::util::{Enc, I32, STRING, STRUCT};
use ilion::client::calls::{encode, read_reply, Call, InsertShape, Outcome};
use ilion::protocol::generated::{
    Column, ColumnOrSuperColumn, ColumnParent, ConsistencyLevel, KeyRange, SlicePredicate,
    SliceRange, SuperColumn,
};
use ilion::protocol::{process, Limits, Mode};
use ilion::tools::stress::noop::{NoopHandler, NoopShape};
use std::collections::BTreeMap;

const QUORUM: ConsistencyLevel = ConsistencyLevel(2);

/// Encodes `call`, runs it through `process` with the recorder in both framings, and returns
/// what the handler saw.
fn decoded(call: &Call<'_>) -> String {
    let mut seen = Vec::new();
    for framed in [false, true] {
        let mut buf = Vec::new();
        encode(&mut buf, framed, 7, "Keyspace1", QUORUM, call);
        let message = if framed {
            assert_eq!(buf[..4], ((buf.len() - 4) as i32).to_be_bytes());
            &buf[4..]
        } else {
            &buf[..]
        };
        let rec = Recorder::default();
        let mode = Mode {
            framed,
            strict: true,
        };
        let reply = process(message, mode, &Limits::default(), &rec).expect("well-formed");
        let message = if framed { &reply[4..] } else { &reply[..] };
        assert_eq!(
            read_reply(message, call.method(), 7),
            Ok(Outcome::Ok { items: 0 })
        );
        seen.push(rec.last());
    }
    assert_eq!(seen[0], seen[1]);
    seen.pop().unwrap()
}

fn names(prefix: &str, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| format!("{prefix}{i}").into_bytes())
        .collect()
}

fn all(count: i32) -> SlicePredicate {
    let range = SliceRange::new(Vec::new(), Vec::new(), false, count);
    SlicePredicate::new(None, range)
}

#[test]
fn batch_insert_of_standard_columns() {
    let columns = names("C", 3);
    let call = Call::BatchInsert {
        key: "0042",
        shape: InsertShape {
            column_family: "Standard1",
            columns: &columns,
            value: b"value",
            supers: &[],
            timestamp: 1234,
        },
    };
    let cosc =
        |n: &[u8]| ColumnOrSuperColumn::new(Column::new(n.to_vec(), b"value".to_vec(), 1234), None);
    let cfmap = BTreeMap::from([(
        "Standard1".to_string(),
        columns.iter().map(|n| cosc(n)).collect::<Vec<_>>(),
    )]);
    let want = ("Keyspace1".to_string(), "0042".to_string(), cfmap, QUORUM);
    assert_eq!(decoded(&call), format!("batch_insert{want:?}"));
}

#[test]
fn batch_insert_of_super_columns() {
    let (columns, supers) = (names("C", 2), names("S", 2));
    let call = Call::BatchInsert {
        key: "7",
        shape: InsertShape {
            column_family: "Super1",
            columns: &columns,
            value: b"v",
            supers: &supers,
            timestamp: -1,
        },
    };
    let cols: Vec<Column> = columns
        .iter()
        .map(|n| Column::new(n.clone(), b"v".to_vec(), -1))
        .collect();
    let sc = |n: &[u8]| ColumnOrSuperColumn::new(None, SuperColumn::new(n.to_vec(), cols.clone()));
    let cfmap = BTreeMap::from([(
        "Super1".to_string(),
        supers.iter().map(|n| sc(n)).collect::<Vec<_>>(),
    )]);
    let want = ("Keyspace1".to_string(), "7".to_string(), cfmap, QUORUM);
    assert_eq!(decoded(&call), format!("batch_insert{want:?}"));
}

#[test]
fn get_slice_of_the_first_columns() {
    let call = Call::GetSlice {
        key: "000123",
        column_family: "Standard1",
        count: 5,
    };
    let parent = ColumnParent::new("Standard1".to_string(), None);
    let want = (
        "Keyspace1".to_string(),
        "000123".to_string(),
        parent,
        all(5),
        QUORUM,
    );
    assert_eq!(decoded(&call), format!("get_slice{want:?}"));
}

#[test]
fn get_range_slices_from_a_key() {
    let call = Call::GetRangeSlices {
        start_key: "0999",
        end_key: "",
        column_family: "Standard1",
        columns: 5,
        rows: 1000,
    };
    let parent = ColumnParent::new("Standard1".to_string(), None);
    let range = KeyRange::new("0999".to_string(), String::new(), None, None, 1000);
    let want = ("Keyspace1".to_string(), parent, all(5), range, QUORUM);
    assert_eq!(decoded(&call), format!("get_range_slices{want:?}"));
}

/// The reply of the no-op handler to `call`, as the stress client reads it.
fn noop_reply(call: &Call<'_>) -> Outcome {
    let shape = NoopShape {
        columns: 5,
        value_size: 34,
        rows: 1000,
    };
    let mut buf = Vec::new();
    encode(&mut buf, false, 3, "Keyspace1", QUORUM, call);
    let mode = Mode {
        framed: false,
        strict: true,
    };
    let reply = process(&buf, mode, &Limits::default(), &NoopHandler::new(shape)).unwrap();
    read_reply(&reply, call.method(), 3).unwrap()
}

#[test]
fn the_noop_floor_answers_with_the_shape_asked_for() {
    let slice = |count| Call::GetSlice {
        key: "1",
        column_family: "Standard1",
        count,
    };
    assert_eq!(noop_reply(&slice(5)), Outcome::Ok { items: 5 });
    assert_eq!(noop_reply(&slice(2)), Outcome::Ok { items: 2 });
    assert_eq!(noop_reply(&slice(100)), Outcome::Ok { items: 5 });
    let range = |rows| Call::GetRangeSlices {
        start_key: "1",
        end_key: "",
        column_family: "Standard1",
        columns: 5,
        rows,
    };
    assert_eq!(noop_reply(&range(1000)), Outcome::Ok { items: 1000 });
    assert_eq!(noop_reply(&range(10)), Outcome::Ok { items: 10 });
}

#[test]
fn exceptions_are_server_errors() {
    // get_slice result: field 1 InvalidRequestException{why}.
    let ire = Enc::default()
        .raw(&[0x80, 0x01, 0x00, 0x02])
        .str("get_slice")
        .i32(9)
        .field(STRUCT, 1)
        .s(1, "bad key")
        .stop()
        .stop()
        .done();
    assert_eq!(
        read_reply(&ire, "get_slice", 9),
        Ok(Outcome::ServerError(
            "get_slice: InvalidRequestException: bad key".into()
        ))
    );
    // EXCEPTION: TApplicationException{1: message, 2: type 6}.
    let app = Enc::default()
        .raw(&[0x80, 0x01, 0x00, 0x03])
        .str("batch_insert")
        .i32(2)
        .field(STRING, 1)
        .str("Internal error processing batch_insert")
        .field(I32, 2)
        .i32(6)
        .stop()
        .done();
    let Ok(Outcome::ServerError(why)) = read_reply(&app, "batch_insert", 2) else {
        panic!("not a server error");
    };
    assert!(
        why.contains("Internal error processing batch_insert"),
        "{why}"
    );
}

#[test]
fn replies_to_another_call_are_refused() {
    let reply = Enc::default()
        .raw(&[0x80, 0x01, 0x00, 0x02])
        .str("get_slice")
        .i32(9)
        .stop()
        .done();
    assert!(read_reply(&reply, "get_slice", 8).is_err());
    assert!(read_reply(&reply, "batch_insert", 9).is_err());
    assert!(read_reply(&reply[..10], "get_slice", 9).is_err());
    assert!(read_reply(&reply[4..], "get_slice", 9).is_err());
}
