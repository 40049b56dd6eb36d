//! Reads a call's arguments the way the Java servers did, and rewrites them so that the
//! generated Rust decoder (stricter than Java's in three ways) sees what Java would have. The
//! same rules serve both APIs; only the struct definitions differ (`schema`, `v20::schema`):
//!
//! * A known field whose wire type differs from the IDL's is skipped, as Java skipped it
//!   (the generated Rust would read it as the declared type and lose its place). Unknown
//!   field ids are skipped too.
//! * An absent field with an IDL default gets that default (Java's constructors set them:
//!   `consistency_level` ONE, `SliceRange.count` 100, `get_range_slice.start_key` "", ...),
//!   except an *optional primitive*: Java's isSet said "absent" for those, so they stay
//!   absent (20.1.0's `KsDef.durable_writes`, `MultiSliceRequest.count`; the 0.6 IDL has
//!   none). An absent *required primitive* without a default gets 0 / false: Java never
//!   checked those. An absent default-requiredness list without a default (20.1.0's `cas`
//!   `expected`/`updates`) becomes an empty list (F3 of the later-API spec). The generated Rust
//!   would refuse all of these.
//! * An absent required object field is a PROTOCOL_ERROR with Java's message, as is a required
//!   enum field whose number the enum does not list (Java read it as null; e.g. 0, ZERO, as a
//!   20.1.0 consistency level). A non-required one (`remove`'s level, an optional
//!   `index_type`) passes through unchanged for the service to refuse
//!   (`docs/compatibility.md#d7`, `docs/api-later.md#wire`: F7).
//!
//! Elements of lists and maps are read as the IDL says, as Java read them; a non-empty
//! container whose announced element type differs is a PROTOCOL_ERROR. Strings are copied as
//! bytes; the lossy decoding happens once, in the generated decoder.
//!
//! Most requests need none of that: a stock client sends every field with its declared type.
//! So [`process`](super::process) walks the arguments once into a [`Discard`] sink, which
//! only checks and notes in [`Pass::rewrite`] whether anything would change; only then does
//! it walk them again into a buffer. The common case costs one read-only pass and no copy.
//!
//! It also bounds what decoding will cost in memory. A list of empty structs takes one byte
//! per element on the wire but a hundred or more once decoded (a `Mutation` is ~200 bytes),
//! so a 16 MiB message could become gigabytes. Each container charges its elements' decoded
//! size, each string its length, against the [`Pass`] budget; running out closes the
//! connection.

use thrift::protocol::{
    TFieldIdentifier, TInputProtocol, TListIdentifier, TMapIdentifier, TOutputProtocol,
    TStructIdentifier, TType,
};

use super::codec::BinaryIn;
use super::schema::{Req, StructDef, Ty, Value};
use super::wire::{ttype, type_id};

/// Why arguments could not be normalized.
#[derive(Debug)]
pub(crate) enum NormError {
    /// The bytes are not a well-formed message: close the connection.
    Wire(thrift::Error),
    /// Well-formed but unacceptable, as Java's validation saw it: a PROTOCOL_ERROR reply.
    Invalid(String),
    /// Decoding would take more memory than the budget allows: close the connection.
    TooBig(u64),
}

impl From<thrift::Error> for NormError {
    fn from(e: thrift::Error) -> Self {
        NormError::Wire(e)
    }
}

type Result<T> = std::result::Result<T, NormError>;

/// The state of one pass over the arguments.
#[derive(Debug)]
pub(crate) struct Pass {
    /// Bytes the decoded arguments may still take.
    pub budget: u64,
    /// Set when the output differs from the input: a field was dropped, a default added or
    /// a container's element type replaced.
    pub rewrite: bool,
}

impl Pass {
    /// A pass allowing `budget` bytes of decoded arguments.
    pub(crate) fn new(budget: u64) -> Pass {
        Pass {
            budget,
            rewrite: false,
        }
    }

    fn charge(&mut self, n: u64) -> Result<()> {
        self.budget = self.budget.checked_sub(n).ok_or(NormError::TooBig(n))?;
        Ok(())
    }
}

/// A field header without a name: the binary protocol does not send names, and a named
/// identifier would allocate a `String` per field.
fn field(t: TType, id: i16) -> TFieldIdentifier {
    TFieldIdentifier {
        name: None,
        field_type: t,
        id: Some(id),
    }
}

/// Copies one struct of type `def` from `inp` to `out`, normalized.
pub(crate) fn normalize_struct<O: TOutputProtocol>(
    inp: &mut BinaryIn<'_>,
    def: &StructDef,
    out: &mut O,
    pass: &mut Pass,
) -> Result<()> {
    inp.read_struct_begin()?;
    out.write_struct_begin(&TStructIdentifier {
        name: String::new(),
    })?;
    // Per declared field (bit i for field i; a test keeps structs under 64 fields): seen at
    // all, and whether its last value was a number its enum does not list.
    let (mut seen, mut unknown_enum) = (0u64, 0u64);
    loop {
        let f = inp.read_field_begin()?;
        if f.field_type == TType::Stop {
            break;
        }
        let wire = type_id(f.field_type);
        let found = def
            .fields
            .iter()
            .enumerate()
            .find(|(_, d)| Some(d.id) == f.id && d.ty.wire() == wire);
        let Some((i, d)) = found else {
            inp.skip(f.field_type)?;
            pass.rewrite = true;
            continue;
        };
        let bit = 1u64 << i;
        out.write_field_begin(&field(f.field_type, d.id))?;
        if let Ty::Enum(e) = d.ty {
            let n = inp.read_i32()?;
            match e.knows(n) {
                true => unknown_enum &= !bit,
                false => unknown_enum |= bit,
            }
            out.write_i32(n)?;
        } else {
            copy_value(inp, d.ty, out, pass)?;
        }
        out.write_field_end()?;
        seen |= bit;
    }
    inp.read_struct_end()?;
    // Java validated after reading the whole struct, field by field in declaration order.
    for (i, d) in def.fields.iter().enumerate() {
        let bit = 1u64 << i;
        let was_seen = seen & bit != 0;
        let absent = !was_seen || (unknown_enum & bit != 0 && d.req == Req::Required);
        if !was_seen {
            if let Some(v) = d.default {
                // Java's isSet counts an optional primitive's default as absent.
                let primitive = !matches!(v, Value::Str(_)) && !matches!(d.ty, Ty::Enum(_));
                if d.req != Req::Optional || !primitive {
                    write_default(out, d.id, v)?;
                    pass.rewrite = true;
                }
                continue;
            }
            if let (Req::Default, Ty::List(elem)) = (d.req, d.ty) {
                // Only 20.1.0's cas has these; an absent list is an empty one (F3).
                out.write_field_begin(&field(TType::List, d.id))?;
                let t = ttype(elem.wire()).unwrap_or(TType::Stop);
                out.write_list_begin(&TListIdentifier::new(t, 0))?;
                pass.rewrite = true;
                continue;
            }
        }
        if !absent || d.req != Req::Required {
            continue;
        }
        pass.rewrite = true;
        match d.ty {
            // Java's primitives cannot be null, so their absence went unnoticed.
            Ty::Bool => write_default(out, d.id, Value::Bool(false))?,
            Ty::I32 => write_default(out, d.id, Value::I32(0))?,
            Ty::Double => write_default(out, d.id, Value::Double(0.0))?,
            Ty::I64 => {
                out.write_field_begin(&field(TType::I64, d.id))?;
                out.write_i64(0)?;
            }
            _ => {
                return Err(NormError::Invalid(format!(
                    "Required field '{}' was not present! Struct: {}",
                    d.name, def.name
                )))
            }
        }
    }
    out.write_field_stop()?;
    out.write_struct_end()?;
    Ok(())
}

fn write_default<O: TOutputProtocol>(out: &mut O, id: i16, v: Value) -> Result<()> {
    let t = match v {
        Value::Bool(_) => TType::Bool,
        Value::I32(_) => TType::I32,
        Value::Double(_) => TType::Double,
        Value::Str(_) => TType::String,
    };
    out.write_field_begin(&field(t, id))?;
    match v {
        Value::Bool(b) => out.write_bool(b)?,
        Value::I32(n) => out.write_i32(n)?,
        Value::Double(x) => out.write_double(x)?,
        Value::Str(s) => out.write_string(s)?,
    }
    Ok(())
}

/// The declared element type, checked against the announced one when there are elements
/// (an empty container's announced type is replaced).
fn element(
    announced: Option<TType>,
    declared: Ty,
    count: i32,
    what: &str,
    pass: &mut Pass,
) -> Result<TType> {
    let want = ttype(declared.wire()).unwrap_or(TType::Stop);
    if announced != Some(want) {
        if count > 0 {
            return Err(NormError::Invalid(format!(
                "{what} type mismatch: expected {want:?}, got {announced:?}"
            )));
        }
        pass.rewrite = true;
    }
    Ok(want)
}

fn copy_value<O: TOutputProtocol>(
    inp: &mut BinaryIn<'_>,
    ty: Ty,
    out: &mut O,
    pass: &mut Pass,
) -> Result<()> {
    match ty {
        Ty::Bool => out.write_bool(inp.read_bool()?)?,
        Ty::I32 | Ty::Enum(_) => out.write_i32(inp.read_i32()?)?,
        Ty::I64 => out.write_i64(inp.read_i64()?)?,
        Ty::Double => out.write_double(inp.read_double()?)?,
        Ty::Str | Ty::Bin => {
            let raw = inp.read_raw()?;
            pass.charge(raw.len() as u64)?;
            out.write_bytes(raw)?
        }
        Ty::Struct(def) => normalize_struct(inp, def, out, pass)?,
        Ty::List(elem) => {
            let l = inp.read_list_begin()?;
            let t = element(Some(l.element_type), *elem, l.size, "list element", pass)?;
            pass.charge(l.size as u64 * elem.rust_size() as u64)?;
            out.write_list_begin(&TListIdentifier::new(t, l.size))?;
            for _ in 0..l.size {
                copy_value(inp, *elem, out, pass)?;
            }
            inp.read_list_end()?;
        }
        Ty::Map(key, val) => {
            let m = inp.read_map_begin()?;
            let k = element(m.key_type, *key, m.size, "map key", pass)?;
            let v = element(m.value_type, *val, m.size, "map value", pass)?;
            // B-tree nodes may be half empty: twice the entries' size.
            let entry = 2 * (key.rust_size() + val.rust_size()) as u64;
            pass.charge(m.size as u64 * entry)?;
            out.write_map_begin(&TMapIdentifier::new(k, v, m.size))?;
            for _ in 0..m.size {
                copy_value(inp, *key, out, pass)?;
                copy_value(inp, *val, out, pass)?;
            }
            inp.read_map_end()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::generated::{CassandraSyncClient, TCassandraSyncClient};
    use super::super::writer::Discard;
    use super::super::{
        methods, ColumnParent, ConsistencyLevel, KeyRange, SlicePredicate, SliceRange,
    };
    use super::*;
    use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};

    /// Whether normalizing the call the generated client writes for `call` rewrites it.
    fn rewrites(
        call: impl FnOnce(
            &mut CassandraSyncClient<
                TBinaryInputProtocol<&[u8]>,
                TBinaryOutputProtocol<&mut Vec<u8>>,
            >,
        ),
    ) -> bool {
        let mut bytes = Vec::new();
        {
            let mut c = CassandraSyncClient::new(
                TBinaryInputProtocol::new(&[][..], true),
                TBinaryOutputProtocol::new(&mut bytes, true),
            );
            call(&mut c);
        }
        let mut inp = BinaryIn::new(&bytes, 64);
        let name = inp.read_message_begin().unwrap().name;
        let mut pass = Pass::new(u64::MAX);
        let def = methods::find(&name).unwrap().args;
        normalize_struct(&mut inp, def, &mut Discard, &mut pass).unwrap();
        pass.rewrite
    }

    #[test]
    fn a_stock_client_s_calls_are_used_as_sent() {
        let parent = || ColumnParent::new("Standard1".to_string(), None);
        let all = || SlicePredicate::new(None, SliceRange::new(vec![], vec![], false, 5));
        let one = ConsistencyLevel::ONE;
        assert!(!rewrites(|c| {
            let _ = c.get_slice("Keyspace1".into(), "k".into(), parent(), all(), one);
        }));
        assert!(!rewrites(|c| {
            let range = KeyRange::new("a".to_string(), String::new(), None, None, 10);
            let _ = c.get_range_slices("Keyspace1".into(), parent(), all(), range, one);
        }));
        assert!(!rewrites(|c| {
            let _ = c.batch_insert("Keyspace1".into(), "k".into(), Default::default(), one);
        }));
        // Empty containers too: the generated client announces their declared types.
        assert!(!rewrites(|c| {
            let names = SlicePredicate::new(vec![], None);
            let _ = c.get_slice("Keyspace1".into(), "k".into(), parent(), names, one);
        }));
    }
}
