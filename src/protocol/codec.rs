//! The Thrift binary protocol over memory: [`BinaryIn`] reads one complete message from a byte
//! slice, checking every length and count against the bytes actually left before it allocates
//! anything, and [`BinaryOut`](super::BinaryOut) writes into a `Vec<u8>`, always with the
//! versioned message header (`docs/compatibility.md#e3`). Type ids, their sizes and the header
//! word are in [`wire`](super::wire).

use std::borrow::Cow;
use thrift::protocol::{
    TFieldIdentifier, TInputProtocol, TListIdentifier, TMapIdentifier, TMessageIdentifier,
    TMessageType, TSetIdentifier, TStructIdentifier, TType,
};
use thrift::{ProtocolError, ProtocolErrorKind};

use super::wire::{fixed_size, min_size, ttype, type_id, T_STOP, VERSION_1, VERSION_MASK};

/// A protocol error as the generated code expects to see it.
pub(crate) fn perr(kind: ProtocolErrorKind, message: impl Into<String>) -> thrift::Error {
    thrift::Error::Protocol(ProtocolError::new(kind, message.into()))
}

/// Reads one complete binary-protocol message (or a bare struct) from a byte slice.
///
/// Both header styles are accepted; lengths and counts never reserve more than the slice can
/// back; nesting is limited; `string` values decode lossily (U+FFFD), `binary` stays raw.
#[derive(Debug, Clone)]
pub struct BinaryIn<'a> {
    buf: &'a [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
}

impl<'a> BinaryIn<'a> {
    /// A reader over `buf` allowing structs and containers nested `max_depth` deep.
    pub fn new(buf: &'a [u8], max_depth: usize) -> Self {
        BinaryIn {
            buf,
            pos: 0,
            depth: 0,
            max_depth,
        }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not yet consumed.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn take(&mut self, n: usize) -> thrift::Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(perr(
                ProtocolErrorKind::InvalidData,
                format!(
                    "message truncated: {n} bytes needed, {} left",
                    self.remaining()
                ),
            ));
        }
        let bytes = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self) -> thrift::Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A length-prefixed string or binary, borrowed from the input.
    pub(crate) fn read_raw(&mut self) -> thrift::Result<&'a [u8]> {
        let len = self.read_i32()?;
        let len = usize::try_from(len)
            .map_err(|_| perr(ProtocolErrorKind::NegativeSize, format!("length {len}")))?;
        if len > self.remaining() {
            return Err(perr(
                ProtocolErrorKind::SizeLimit,
                format!("length {len} but {} bytes left", self.remaining()),
            ));
        }
        self.take(len)
    }

    fn type_byte(&mut self) -> thrift::Result<TType> {
        let [id] = self.array::<1>()?;
        ttype(id).ok_or_else(|| perr(ProtocolErrorKind::InvalidData, format!("type id {id}")))
    }

    /// Reads a container count and checks `count × min_each` fits in what is left.
    fn count(&mut self, min_each: usize) -> thrift::Result<u32> {
        let n = self.read_i32()?;
        let n = u32::try_from(n)
            .map_err(|_| perr(ProtocolErrorKind::NegativeSize, format!("count {n}")))?;
        if u64::from(n) * min_each as u64 > self.remaining() as u64 {
            return Err(perr(
                ProtocolErrorKind::SizeLimit,
                format!("count {n} cannot fit in {} bytes", self.remaining()),
            ));
        }
        Ok(n)
    }

    fn enter(&mut self) -> thrift::Result<()> {
        if self.depth >= self.max_depth {
            return Err(perr(
                ProtocolErrorKind::DepthLimit,
                format!("nesting deeper than {}", self.max_depth),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) -> thrift::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        Ok(())
    }
}

impl<'a> BinaryIn<'a> {
    /// A message header, its name borrowed from the input (decoded lossily only when it is
    /// not UTF-8): what [`read_message_begin`](TInputProtocol::read_message_begin) reads,
    /// without allocating the name.
    pub(crate) fn read_message_head(
        &mut self,
    ) -> thrift::Result<(Cow<'a, str>, TMessageType, i32)> {
        let word = self.read_i32()?;
        let (name, kind) = if word < 0 {
            let word = word as u32;
            if word & VERSION_MASK != VERSION_1 {
                return Err(perr(
                    ProtocolErrorKind::BadVersion,
                    format!("version word {word:#010x}"),
                ));
            }
            (String::from_utf8_lossy(self.read_raw()?), word as u8)
        } else {
            // Unversioned: the word just read was the name's length.
            let name = self.take(word as usize)?;
            let [kind] = self.array::<1>()?;
            (String::from_utf8_lossy(name), kind)
        };
        let seq = self.read_i32()?;
        // The 0.6 server never looked at the type, so anything unknown is taken as a call.
        let kind = TMessageType::try_from(kind).unwrap_or(TMessageType::Call);
        Ok((name, kind, seq))
    }
}

impl TInputProtocol for BinaryIn<'_> {
    fn read_message_begin(&mut self) -> thrift::Result<TMessageIdentifier> {
        let (name, kind, seq) = self.read_message_head()?;
        Ok(TMessageIdentifier::new(name.into_owned(), kind, seq))
    }

    fn read_message_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_struct_begin(&mut self) -> thrift::Result<Option<TStructIdentifier>> {
        self.enter()?;
        Ok(None)
    }

    fn read_struct_end(&mut self) -> thrift::Result<()> {
        self.leave()
    }

    fn read_field_begin(&mut self) -> thrift::Result<TFieldIdentifier> {
        let [id] = self.array::<1>()?;
        if id == T_STOP {
            return Ok(
                TFieldIdentifier::new::<Option<String>, String, Option<i16>>(
                    None,
                    TType::Stop,
                    None,
                ),
            );
        }
        let t = ttype(id)
            .ok_or_else(|| perr(ProtocolErrorKind::InvalidData, format!("type id {id}")))?;
        let field = self.read_i16()?;
        Ok(TFieldIdentifier::new::<Option<String>, String, i16>(
            None, t, field,
        ))
    }

    fn read_field_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_bool(&mut self) -> thrift::Result<bool> {
        // As Java's TBinaryProtocol: only 1 is true.
        Ok(self.array::<1>()? == [1])
    }

    fn read_bytes(&mut self) -> thrift::Result<Vec<u8>> {
        Ok(self.read_raw()?.to_vec())
    }

    fn read_i8(&mut self) -> thrift::Result<i8> {
        Ok(i8::from_be_bytes(self.array()?))
    }

    fn read_i16(&mut self) -> thrift::Result<i16> {
        Ok(i16::from_be_bytes(self.array()?))
    }

    fn read_i32(&mut self) -> thrift::Result<i32> {
        Ok(i32::from_be_bytes(self.array()?))
    }

    fn read_i64(&mut self) -> thrift::Result<i64> {
        Ok(i64::from_be_bytes(self.array()?))
    }

    fn read_double(&mut self) -> thrift::Result<f64> {
        Ok(f64::from_be_bytes(self.array()?))
    }

    fn read_uuid(&mut self) -> thrift::Result<uuid::Uuid> {
        Ok(uuid::Uuid::from_bytes(self.array()?))
    }

    fn read_string(&mut self) -> thrift::Result<String> {
        // Java decoded Thrift strings lossily; so do we.
        Ok(String::from_utf8_lossy(self.read_raw()?).into_owned())
    }

    fn read_list_begin(&mut self) -> thrift::Result<TListIdentifier> {
        let t = self.type_byte()?;
        let n = self.count(min_size(type_id(t)))?;
        self.enter()?;
        Ok(TListIdentifier::new(t, n as i32))
    }

    fn read_list_end(&mut self) -> thrift::Result<()> {
        self.leave()
    }

    fn read_set_begin(&mut self) -> thrift::Result<TSetIdentifier> {
        let t = self.type_byte()?;
        let n = self.count(min_size(type_id(t)))?;
        self.enter()?;
        Ok(TSetIdentifier::new(t, n as i32))
    }

    fn read_set_end(&mut self) -> thrift::Result<()> {
        self.leave()
    }

    fn read_map_begin(&mut self) -> thrift::Result<TMapIdentifier> {
        let k = self.type_byte()?;
        let v = self.type_byte()?;
        let n = self.count(min_size(type_id(k)) + min_size(type_id(v)))?;
        self.enter()?;
        Ok(TMapIdentifier::new(k, v, n as i32))
    }

    fn read_map_end(&mut self) -> thrift::Result<()> {
        self.leave()
    }

    fn skip_till_depth(&mut self, field_type: TType, depth: i8) -> thrift::Result<()> {
        skip_value(self, field_type, depth)
    }

    fn read_byte(&mut self) -> thrift::Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    fn min_serialized_size(&self, field_type: TType) -> usize {
        min_size(type_id(field_type))
    }
}

/// Skips one value; unlike the library default it never panics on a map without types.
fn skip_value(inp: &mut BinaryIn<'_>, t: TType, depth: i8) -> thrift::Result<()> {
    if depth <= 0 {
        return Err(perr(ProtocolErrorKind::DepthLimit, "skip too deep"));
    }
    if let Some(n) = fixed_size(type_id(t)) {
        return inp.take(n).map(|_| ());
    }
    match t {
        TType::String => inp.read_raw().map(|_| ()),
        TType::Struct => {
            inp.read_struct_begin()?;
            loop {
                let f = inp.read_field_begin()?;
                if f.field_type == TType::Stop {
                    break;
                }
                skip_value(inp, f.field_type, depth - 1)?;
            }
            inp.read_struct_end()
        }
        TType::List | TType::Set => {
            let l = inp.read_list_begin()?;
            for _ in 0..l.size {
                skip_value(inp, l.element_type, depth - 1)?;
            }
            inp.read_list_end()
        }
        TType::Map => {
            let m = inp.read_map_begin()?;
            let (k, v) = (
                m.key_type.unwrap_or(TType::Stop),
                m.value_type.unwrap_or(TType::Stop),
            );
            for _ in 0..m.size {
                skip_value(inp, k, depth - 1)?;
                skip_value(inp, v, depth - 1)?;
            }
            inp.read_map_end()
        }
        other => Err(perr(
            ProtocolErrorKind::InvalidData,
            format!("cannot skip {other:?}"),
        )),
    }
}
