//! Reads a call's arguments the way the 0.6 Java server did, and rewrites them so that the
//! generated Rust decoder (stricter than Java's in three ways) sees what Java would have:
//!
//! * A known field whose wire type differs from the IDL's is skipped, as Java skipped it
//!   (the generated Rust would read it as the declared type and lose its place). Unknown
//!   field ids are skipped too.
//! * An absent field with an IDL default gets that default (Java's constructors set them:
//!   `consistency_level` ONE, `SliceRange.count` 100, `get_range_slice.start_key` "", ...).
//!   An absent *required primitive* without a default gets 0 / false: Java never checked
//!   those. The generated Rust would refuse both.
//! * An absent required object field is a PROTOCOL_ERROR with Java's message, as is a required
//!   `ConsistencyLevel` whose number is not a level (Java read it as null). A non-required one
//!   (`remove`'s) passes through unchanged for the service to refuse (spec D7).
//!
//! Elements of lists and maps are read as the IDL says, as Java read them; a non-empty
//! container whose announced element type differs is a PROTOCOL_ERROR. Strings are copied as
//! bytes; the lossy decoding happens once, in the generated decoder.
//!
//! It also bounds what decoding will cost in memory. A list of empty structs takes one byte
//! per element on the wire but a hundred or more once decoded (a `Mutation` is ~200 bytes),
//! so a 16 MiB message could become gigabytes. Each container charges its elements' decoded
//! size, each string its length, against a [`Budget`]; running out closes the connection.

use thrift::protocol::{
    TFieldIdentifier, TInputProtocol, TListIdentifier, TMapIdentifier, TOutputProtocol,
    TStructIdentifier, TType,
};

use super::codec::{ttype, type_id, BinaryIn};
use super::generated::ConsistencyLevel;
use super::schema::{Req, StructDef, Ty, Value};
use super::writer::BinaryOut;

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

/// Bytes the decoded arguments may still take.
#[derive(Debug)]
pub(crate) struct Budget(pub u64);

impl Budget {
    fn charge(&mut self, n: u64) -> Result<()> {
        self.0 = self.0.checked_sub(n).ok_or(NormError::TooBig(n))?;
        Ok(())
    }
}

/// Copies one struct of type `def` from `inp` to `out`, normalized.
pub(crate) fn normalize_struct(
    inp: &mut BinaryIn<'_>,
    def: &StructDef,
    out: &mut BinaryOut,
    budget: &mut Budget,
) -> Result<()> {
    inp.read_struct_begin()?;
    out.write_struct_begin(&TStructIdentifier::new(def.name))?;
    // Per declared field: seen at all, and whether its last value was an unknown level.
    let mut seen = [false; 8];
    let mut null_level = [false; 8];
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
            continue;
        };
        out.write_field_begin(&TFieldIdentifier::new(d.name, f.field_type, d.id))?;
        if let Ty::Cl = d.ty {
            let n = inp.read_i32()?;
            null_level[i] = !ConsistencyLevel::ENUM_VALUES.contains(&ConsistencyLevel(n));
            out.write_i32(n)?;
        } else {
            copy_value(inp, d.ty, out, budget)?;
        }
        out.write_field_end()?;
        seen[i] = true;
    }
    inp.read_struct_end()?;
    // Java validated after reading the whole struct, field by field in declaration order.
    for (i, d) in def.fields.iter().enumerate() {
        let absent = !seen[i] || (null_level[i] && d.req == Req::Required);
        if !seen[i] {
            if let Some(v) = d.default {
                write_default(out, d.id, d.name, v)?;
                continue;
            }
        }
        if !absent || d.req != Req::Required {
            continue;
        }
        match d.ty {
            // Java's primitives cannot be null, so their absence went unnoticed.
            Ty::Bool => write_default(out, d.id, d.name, Value::Bool(false))?,
            Ty::I32 => write_default(out, d.id, d.name, Value::I32(0))?,
            Ty::I64 => {
                out.write_field_begin(&TFieldIdentifier::new(d.name, TType::I64, d.id))?;
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

fn write_default(out: &mut BinaryOut, id: i16, name: &str, v: Value) -> Result<()> {
    let t = match v {
        Value::Bool(_) => TType::Bool,
        Value::I32(_) => TType::I32,
        Value::Str(_) => TType::String,
    };
    out.write_field_begin(&TFieldIdentifier::new(name, t, id))?;
    match v {
        Value::Bool(b) => out.write_bool(b)?,
        Value::I32(n) => out.write_i32(n)?,
        Value::Str(s) => out.write_string(s)?,
    }
    Ok(())
}

/// The declared element type, checked against the announced one when there are elements.
fn element(announced: Option<TType>, declared: Ty, count: i32, what: &str) -> Result<TType> {
    let want = ttype(declared.wire()).unwrap_or(TType::Stop);
    if count > 0 && announced != Some(want) {
        return Err(NormError::Invalid(format!(
            "{what} type mismatch: expected {want:?}, got {announced:?}"
        )));
    }
    Ok(want)
}

fn copy_value(
    inp: &mut BinaryIn<'_>,
    ty: Ty,
    out: &mut BinaryOut,
    budget: &mut Budget,
) -> Result<()> {
    match ty {
        Ty::Bool => out.write_bool(inp.read_bool()?)?,
        Ty::I32 | Ty::Cl => out.write_i32(inp.read_i32()?)?,
        Ty::I64 => out.write_i64(inp.read_i64()?)?,
        Ty::Str | Ty::Bin => {
            let raw = inp.read_raw()?;
            budget.charge(raw.len() as u64)?;
            out.write_raw(raw)?
        }
        Ty::Struct(def) => normalize_struct(inp, def, out, budget)?,
        Ty::List(elem) => {
            let l = inp.read_list_begin()?;
            let t = element(Some(l.element_type), *elem, l.size, "list element")?;
            budget.charge(l.size as u64 * elem.rust_size() as u64)?;
            out.write_list_begin(&TListIdentifier::new(t, l.size))?;
            for _ in 0..l.size {
                copy_value(inp, *elem, out, budget)?;
            }
            inp.read_list_end()?;
        }
        Ty::Map(key, val) => {
            let m = inp.read_map_begin()?;
            let k = element(m.key_type, *key, m.size, "map key")?;
            let v = element(m.value_type, *val, m.size, "map value")?;
            // B-tree nodes may be half empty: twice the entries' size.
            let entry = 2 * (key.rust_size() + val.rust_size()) as u64;
            budget.charge(m.size as u64 * entry)?;
            out.write_map_begin(&TMapIdentifier::new(k, v, m.size))?;
            for _ in 0..m.size {
                copy_value(inp, *key, out, budget)?;
                copy_value(inp, *val, out, budget)?;
            }
            inp.read_map_end()?;
        }
    }
    Ok(())
}
