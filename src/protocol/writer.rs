//! [`BinaryOut`]: the binary protocol written into memory. Message headers are always the
//! versioned form `0x8001_0000|type`, name, seqid (`docs/compatibility.md#e3`: 0.6 wrote with
//! strictWrite=true). A writer made with [`BinaryOut::framed`] reserves the 4-byte frame length
//! up front and fills it in when the bytes are taken, so a framed reply costs no extra copy.
//! [`Discard`] accepts the same calls and keeps nothing, for passes that only check.

use thrift::protocol::{
    TFieldIdentifier, TListIdentifier, TMapIdentifier, TMessageIdentifier, TMessageType,
    TOutputProtocol, TSetIdentifier, TStructIdentifier, TType,
};
use thrift::ProtocolErrorKind;

use super::codec::perr;
use super::wire::{type_id, T_STOP, VERSION_1};

/// Room reserved for a reply up front: most replies fit, so they never reallocate.
const REPLY_CAPACITY: usize = 1024;

/// Writes binary-protocol values into a growable buffer.
#[derive(Debug, Clone, Default)]
pub struct BinaryOut {
    buf: Vec<u8>,
    framed: bool,
}

impl BinaryOut {
    /// An empty, unframed writer.
    pub fn new() -> Self {
        BinaryOut::with_capacity(REPLY_CAPACITY)
    }

    /// A writer whose bytes will be one frame: a 4-byte big-endian length, then the data.
    pub fn framed() -> Self {
        let mut buf = Vec::with_capacity(REPLY_CAPACITY);
        buf.extend_from_slice(&[0; 4]);
        BinaryOut { buf, framed: true }
    }

    /// An empty, unframed writer with room for `n` bytes.
    pub(crate) fn with_capacity(n: usize) -> Self {
        BinaryOut {
            buf: Vec::with_capacity(n),
            framed: false,
        }
    }

    /// The bytes written so far, without the frame prefix.
    pub fn written(&self) -> &[u8] {
        if self.framed {
            &self.buf[4..]
        } else {
            &self.buf
        }
    }

    /// The finished bytes, the frame length filled in when framed. Fails only for a frame
    /// over `i32::MAX` bytes, which no frame length can express.
    pub fn into_bytes(mut self) -> thrift::Result<Vec<u8>> {
        if self.framed {
            let len = i32::try_from(self.buf.len() - 4)
                .map_err(|_| perr(ProtocolErrorKind::SizeLimit, "reply too large to frame"))?;
            self.buf[..4].copy_from_slice(&len.to_be_bytes());
        }
        Ok(self.buf)
    }

    /// Appends a length-prefixed string or binary.
    pub(crate) fn write_raw(&mut self, b: &[u8]) -> thrift::Result<()> {
        let len = i32::try_from(b.len())
            .map_err(|_| perr(ProtocolErrorKind::SizeLimit, "value longer than i32::MAX"))?;
        self.buf.extend_from_slice(&len.to_be_bytes());
        self.buf.extend_from_slice(b);
        Ok(())
    }

    /// A versioned message header for one of the service's own method names, without
    /// building a `TMessageIdentifier` (an owned name).
    pub(crate) fn message_begin(&mut self, name: &'static str, kind: TMessageType, seq: i32) {
        let word = VERSION_1 | u32::from(u8::from(kind));
        self.buf.extend_from_slice(&word.to_be_bytes());
        let len = u32::try_from(name.len()).unwrap_or(u32::MAX); // method names are short
        self.buf.extend_from_slice(&len.to_be_bytes());
        self.buf.extend_from_slice(name.as_bytes());
        self.buf.extend_from_slice(&seq.to_be_bytes());
    }

    /// A field header from its type id, without building a `TFieldIdentifier`.
    pub(crate) fn field(&mut self, type_id: u8, id: i16) {
        self.buf.push(type_id);
        self.buf.extend_from_slice(&id.to_be_bytes());
    }

    /// A list header from its element type id.
    pub(crate) fn list_begin(&mut self, type_id: u8, n: i32) {
        self.buf.push(type_id);
        self.buf.extend_from_slice(&n.to_be_bytes());
    }

    /// The end of a struct's fields.
    pub(crate) fn stop(&mut self) {
        self.buf.push(T_STOP);
    }

    fn type_and_count(&mut self, t: TType, n: i32) {
        self.buf.push(type_id(t));
        self.buf.extend_from_slice(&n.to_be_bytes());
    }
}

impl TOutputProtocol for BinaryOut {
    fn write_message_begin(&mut self, m: &TMessageIdentifier) -> thrift::Result<()> {
        let word = VERSION_1 | u32::from(u8::from(m.message_type));
        self.buf.extend_from_slice(&word.to_be_bytes());
        self.write_raw(m.name.as_bytes())?;
        self.write_i32(m.sequence_number)
    }

    fn write_message_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn write_struct_begin(&mut self, _: &TStructIdentifier) -> thrift::Result<()> {
        Ok(())
    }

    fn write_struct_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn write_field_begin(&mut self, f: &TFieldIdentifier) -> thrift::Result<()> {
        self.buf.push(type_id(f.field_type));
        self.write_i16(f.id.unwrap_or(0))
    }

    fn write_field_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn write_field_stop(&mut self) -> thrift::Result<()> {
        self.buf.push(T_STOP);
        Ok(())
    }

    fn write_bool(&mut self, b: bool) -> thrift::Result<()> {
        self.buf.push(u8::from(b));
        Ok(())
    }

    fn write_bytes(&mut self, b: &[u8]) -> thrift::Result<()> {
        self.write_raw(b)
    }

    fn write_i8(&mut self, i: i8) -> thrift::Result<()> {
        self.buf.extend_from_slice(&i.to_be_bytes());
        Ok(())
    }

    fn write_i16(&mut self, i: i16) -> thrift::Result<()> {
        self.buf.extend_from_slice(&i.to_be_bytes());
        Ok(())
    }

    fn write_i32(&mut self, i: i32) -> thrift::Result<()> {
        self.buf.extend_from_slice(&i.to_be_bytes());
        Ok(())
    }

    fn write_i64(&mut self, i: i64) -> thrift::Result<()> {
        self.buf.extend_from_slice(&i.to_be_bytes());
        Ok(())
    }

    fn write_double(&mut self, d: f64) -> thrift::Result<()> {
        self.buf.extend_from_slice(&d.to_be_bytes());
        Ok(())
    }

    fn write_uuid(&mut self, uuid: &uuid::Uuid) -> thrift::Result<()> {
        self.buf.extend_from_slice(uuid.as_bytes());
        Ok(())
    }

    fn write_string(&mut self, s: &str) -> thrift::Result<()> {
        self.write_raw(s.as_bytes())
    }

    fn write_list_begin(&mut self, l: &TListIdentifier) -> thrift::Result<()> {
        self.type_and_count(l.element_type, l.size);
        Ok(())
    }

    fn write_list_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn write_set_begin(&mut self, s: &TSetIdentifier) -> thrift::Result<()> {
        self.type_and_count(s.element_type, s.size);
        Ok(())
    }

    fn write_set_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn write_map_begin(&mut self, m: &TMapIdentifier) -> thrift::Result<()> {
        self.buf.push(m.key_type.map_or(T_STOP, type_id));
        self.type_and_count(m.value_type.unwrap_or(TType::Stop), m.size);
        Ok(())
    }

    fn write_map_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn write_byte(&mut self, b: u8) -> thrift::Result<()> {
        self.buf.push(b);
        Ok(())
    }
}

/// An output protocol that writes nothing: walking a message into it only checks it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Discard;

impl TOutputProtocol for Discard {
    fn write_message_begin(&mut self, _: &TMessageIdentifier) -> thrift::Result<()> {
        Ok(())
    }
    fn write_message_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_struct_begin(&mut self, _: &TStructIdentifier) -> thrift::Result<()> {
        Ok(())
    }
    fn write_struct_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_field_begin(&mut self, _: &TFieldIdentifier) -> thrift::Result<()> {
        Ok(())
    }
    fn write_field_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_field_stop(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_bool(&mut self, _: bool) -> thrift::Result<()> {
        Ok(())
    }
    fn write_bytes(&mut self, _: &[u8]) -> thrift::Result<()> {
        Ok(())
    }
    fn write_i8(&mut self, _: i8) -> thrift::Result<()> {
        Ok(())
    }
    fn write_i16(&mut self, _: i16) -> thrift::Result<()> {
        Ok(())
    }
    fn write_i32(&mut self, _: i32) -> thrift::Result<()> {
        Ok(())
    }
    fn write_i64(&mut self, _: i64) -> thrift::Result<()> {
        Ok(())
    }
    fn write_double(&mut self, _: f64) -> thrift::Result<()> {
        Ok(())
    }
    fn write_uuid(&mut self, _: &uuid::Uuid) -> thrift::Result<()> {
        Ok(())
    }
    fn write_string(&mut self, _: &str) -> thrift::Result<()> {
        Ok(())
    }
    fn write_list_begin(&mut self, _: &TListIdentifier) -> thrift::Result<()> {
        Ok(())
    }
    fn write_list_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_set_begin(&mut self, _: &TSetIdentifier) -> thrift::Result<()> {
        Ok(())
    }
    fn write_set_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_map_begin(&mut self, _: &TMapIdentifier) -> thrift::Result<()> {
        Ok(())
    }
    fn write_map_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn flush(&mut self) -> thrift::Result<()> {
        Ok(())
    }
    fn write_byte(&mut self, _: u8) -> thrift::Result<()> {
        Ok(())
    }
}
