//! The three calls a load generator makes (`batch_insert`, `get_slice`, `get_range_slices`),
//! encoded by hand into a reused buffer, and their replies read without building the result
//! values. The generated client would allocate a `BTreeMap`, a `Vec` per column and the
//! decoded result for every call; here one request costs no allocation once the buffer has
//! grown, and a reply is only walked far enough to count its list and find any exception.
//!
//! The bytes are the standard strict binary protocol of the 0.6 IDL (API 2.2.0), so any
//! 0.6-API server understands them; the tests decode them with the generated server code.

use crate::protocol::wire::{
    CALL, EXCEPTION, REPLY, T_BOOL, T_I32, T_I64, T_LIST, T_MAP, T_STOP, T_STRING, T_STRUCT,
    VERSION_1, VERSION_MASK,
};
use crate::protocol::{methods, BinaryIn, ConsistencyLevel};
use thrift::protocol::{TInputProtocol, TType};

/// Nesting allowed when walking a reply (a KeySlice list is 6 deep at most).
const REPLY_DEPTH: usize = 64;

/// Where the columns of one `batch_insert` go, and what they hold.
#[derive(Debug, Clone, Copy)]
pub struct InsertShape<'a> {
    /// Column family.
    pub column_family: &'a str,
    /// Column names, each written with `value`.
    pub columns: &'a [Vec<u8>],
    /// The value of every column.
    pub value: &'a [u8],
    /// Super column names: when not empty, each holds all of `columns` (a Super CF).
    pub supers: &'a [Vec<u8>],
    /// Column timestamp.
    pub timestamp: i64,
}

/// One call to encode.
#[derive(Debug, Clone, Copy)]
pub enum Call<'a> {
    /// `batch_insert(keyspace, key, {cf: [COSC…]}, cl)`.
    BatchInsert {
        /// Row key.
        key: &'a str,
        /// The columns.
        shape: InsertShape<'a>,
    },
    /// `get_slice(keyspace, key, ColumnParent(cf), SliceRange("", "", false, count), cl)`.
    GetSlice {
        /// Row key.
        key: &'a str,
        /// Column family.
        column_family: &'a str,
        /// Most columns to return.
        count: i32,
    },
    /// `get_range_slices(keyspace, ColumnParent(cf), SliceRange("", "", false, columns),
    /// KeyRange(start_key, end_key, rows), cl)`.
    GetRangeSlices {
        /// First key of the range (inclusive); "" for the start of the ring.
        start_key: &'a str,
        /// Last key (inclusive); "" for the end of the ring.
        end_key: &'a str,
        /// Column family.
        column_family: &'a str,
        /// Most columns per row.
        columns: i32,
        /// Most rows.
        rows: i32,
    },
}

impl Call<'_> {
    /// The IDL method name.
    pub fn method(&self) -> &'static str {
        match self {
            Call::BatchInsert { .. } => methods::BATCH_INSERT.name,
            Call::GetSlice { .. } => methods::GET_SLICE.name,
            Call::GetRangeSlices { .. } => methods::GET_RANGE_SLICES.name,
        }
    }
}

/// Appends binary-protocol values to a borrowed buffer.
struct Out<'b>(&'b mut Vec<u8>);

impl Out<'_> {
    fn field(&mut self, t: u8, id: i16) {
        self.0.push(t);
        self.0.extend_from_slice(&id.to_be_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        // Lengths come from our own small inputs; a 2 GiB value is a caller bug.
        let len = i32::try_from(b.len()).expect("value over 2 GiB");
        self.i32(len);
        self.0.extend_from_slice(b);
    }
    fn stop(&mut self) {
        self.0.push(T_STOP);
    }
    fn string_field(&mut self, id: i16, s: &[u8]) {
        self.field(T_STRING, id);
        self.bytes(s);
    }
    fn list(&mut self, elem: u8, n: usize) {
        self.0.push(elem);
        self.i32(i32::try_from(n).expect("list over 2^31 elements"));
    }
    /// Column{1: name, 2: value, 3: timestamp}.
    fn column(&mut self, name: &[u8], value: &[u8], timestamp: i64) {
        self.string_field(1, name);
        self.string_field(2, value);
        self.field(T_I64, 3);
        self.0.extend_from_slice(&timestamp.to_be_bytes());
        self.stop();
    }
    /// ColumnParent{3: column_family} as field `id`.
    fn column_parent(&mut self, id: i16, cf: &str) {
        self.field(T_STRUCT, id);
        self.string_field(3, cf.as_bytes());
        self.stop();
    }
    /// SlicePredicate{2: SliceRange{"", "", false, count}} as field `id`.
    fn all_columns(&mut self, id: i16, count: i32) {
        self.field(T_STRUCT, id);
        self.field(T_STRUCT, 2);
        self.string_field(1, b"");
        self.string_field(2, b"");
        self.field(T_BOOL, 3);
        self.0.push(u8::from(false));
        self.field(T_I32, 4);
        self.i32(count);
        self.stop();
        self.stop();
    }
}

/// Replaces `buf` with one complete call message (framed when `framed`): versioned header,
/// method name, `seq`, then the arguments.
pub fn encode(
    buf: &mut Vec<u8>,
    framed: bool,
    seq: i32,
    keyspace: &str,
    cl: ConsistencyLevel,
    call: &Call<'_>,
) {
    buf.clear();
    if framed {
        buf.extend_from_slice(&[0; 4]);
    }
    let mut o = Out(buf);
    o.0.extend_from_slice(&(VERSION_1 | u32::from(CALL)).to_be_bytes());
    o.bytes(call.method().as_bytes());
    o.i32(seq);
    o.string_field(1, keyspace.as_bytes());
    let cl_id = match *call {
        Call::BatchInsert { key, shape } => {
            o.string_field(2, key.as_bytes());
            o.field(T_MAP, 3);
            o.0.extend_from_slice(&[T_STRING, T_LIST]);
            o.i32(1);
            o.bytes(shape.column_family.as_bytes());
            if shape.supers.is_empty() {
                o.list(T_STRUCT, shape.columns.len());
                for name in shape.columns {
                    o.field(T_STRUCT, 1);
                    o.column(name, shape.value, shape.timestamp);
                    o.stop();
                }
            } else {
                o.list(T_STRUCT, shape.supers.len());
                for sc in shape.supers {
                    o.field(T_STRUCT, 2);
                    o.string_field(1, sc);
                    o.field(T_LIST, 2);
                    o.list(T_STRUCT, shape.columns.len());
                    for name in shape.columns {
                        o.column(name, shape.value, shape.timestamp);
                    }
                    o.stop();
                    o.stop();
                }
            }
            4
        }
        Call::GetSlice {
            key,
            column_family,
            count,
        } => {
            o.string_field(2, key.as_bytes());
            o.column_parent(3, column_family);
            o.all_columns(4, count);
            5
        }
        Call::GetRangeSlices {
            start_key,
            end_key,
            column_family,
            columns,
            rows,
        } => {
            o.column_parent(2, column_family);
            o.all_columns(3, columns);
            o.field(T_STRUCT, 4);
            o.string_field(1, start_key.as_bytes());
            o.string_field(2, end_key.as_bytes());
            o.field(T_I32, 5);
            o.i32(rows);
            o.stop();
            5
        }
    };
    o.field(T_I32, cl_id);
    o.i32(cl.0);
    o.stop();
    if framed {
        let len = i32::try_from(buf.len() - 4).expect("request over 2 GiB");
        buf[..4].copy_from_slice(&len.to_be_bytes());
    }
}

/// What a call came back with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A normal reply; `items` is the length of the returned list (0 for `batch_insert`).
    Ok {
        /// Columns (get_slice) or rows (get_range_slices) returned.
        items: u32,
    },
    /// The server answered with a declared exception or a TApplicationException; the
    /// connection is still usable.
    ServerError(String),
}

/// Reads one reply message (frame prefix excluded) to call `seq` of `method`. `Err` means the
/// bytes are not a well-formed reply to that call: the connection should be dropped.
pub fn read_reply(message: &[u8], method: &str, seq: i32) -> Result<Outcome, String> {
    let h = header(message)?;
    if h.name != method.as_bytes() || h.seq != seq {
        return Err(format!(
            "reply to {}#{}, expected {method}#{seq}",
            String::from_utf8_lossy(h.name),
            h.seq
        ));
    }
    let mut inp = BinaryIn::new(h.body, REPLY_DEPTH);
    match h.kind {
        EXCEPTION => {
            let e = thrift::Error::read_application_error_from_in_protocol(&mut inp)
                .map_err(|e| e.to_string())?;
            Ok(Outcome::ServerError(format!(
                "{method}: TApplicationException {:?}: {}",
                e.kind, e.message
            )))
        }
        REPLY => result_struct(&mut inp, method).map_err(|e| e.to_string()),
        other => Err(format!("message type {other} in a reply")),
    }
}

/// A versioned message header and what follows it.
struct Header<'m> {
    kind: u8,
    name: &'m [u8],
    seq: i32,
    body: &'m [u8],
}

fn header(m: &[u8]) -> Result<Header<'_>, String> {
    let be32 = |at: usize| -> Result<i32, String> {
        m.get(at..at + 4)
            .map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| "reply truncated in its header".to_string())
    };
    let word = be32(0)? as u32;
    if word & VERSION_MASK != VERSION_1 {
        return Err(format!("reply header {word:#010x} is not versioned"));
    }
    let len = usize::try_from(be32(4)?).map_err(|_| "negative name length".to_string())?;
    let name = m.get(8..8 + len).ok_or("reply truncated in its name")?;
    let seq = be32(8 + len)?;
    Ok(Header {
        kind: word as u8,
        name,
        seq,
        body: &m[12 + len..],
    })
}

/// Walks a result struct: field 0 is the success value, fields 1.. the declared exceptions
/// (for all three calls: 1 InvalidRequestException, 2 UnavailableException,
/// 3 TimedOutException).
fn result_struct(inp: &mut BinaryIn<'_>, method: &str) -> thrift::Result<Outcome> {
    let mut outcome = Outcome::Ok { items: 0 };
    inp.read_struct_begin()?;
    loop {
        let f = inp.read_field_begin()?;
        match (f.field_type, f.id) {
            (TType::Stop, _) => break,
            (TType::List, Some(0)) => {
                let list = inp.read_list_begin()?;
                for _ in 0..list.size {
                    inp.skip(list.element_type)?;
                }
                inp.read_list_end()?;
                outcome = Outcome::Ok {
                    items: list.size as u32,
                };
            }
            (TType::Struct, Some(id)) if id > 0 => {
                let why = exception_why(inp)?;
                let name = match id {
                    1 => "InvalidRequestException",
                    2 => "UnavailableException",
                    3 => "TimedOutException",
                    _ => "exception",
                };
                outcome = Outcome::ServerError(match why {
                    Some(why) => format!("{method}: {name}: {why}"),
                    None => format!("{method}: {name}"),
                });
            }
            (t, _) => inp.skip(t)?,
        }
        inp.read_field_end()?;
    }
    inp.read_struct_end()?;
    Ok(outcome)
}

/// An exception struct's `why` (field 1), when it has one.
fn exception_why(inp: &mut BinaryIn<'_>) -> thrift::Result<Option<String>> {
    let mut why = None;
    inp.read_struct_begin()?;
    loop {
        let f = inp.read_field_begin()?;
        match (f.field_type, f.id) {
            (TType::Stop, _) => break,
            (TType::String, Some(1)) => why = Some(inp.read_string()?),
            (t, _) => inp.skip(t)?,
        }
        inp.read_field_end()?;
    }
    inp.read_struct_end()?;
    Ok(why)
}
