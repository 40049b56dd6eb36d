//! Bytes below the generated client, for the protocol-level tests: hand-encoded messages
//! (any header style, any message type, arguments written field by field so required ones
//! can be left out), framing, a raw connection that reads back exactly one reply message,
//! and decoding of a reply through the generated client's own result parsing.

use crate::harness::Server;
use ilion::client::WireStyle;
use ilion::protocol::generated::CassandraSyncClient;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TFieldIdentifier, TInputProtocol,
    TMessageIdentifier, TMessageType, TOutputProtocol, TStructIdentifier, TType,
};

/// The output protocol argument writers get.
pub type Out<'a> = TBinaryOutputProtocol<&'a mut Vec<u8>>;

/// One message: header (versioned when `strict`), then the arguments struct `args` writes
/// as fields (the struct's begin, field stop and end are added here).
pub fn message(
    strict: bool,
    name: &str,
    kind: TMessageType,
    seq: i32,
    args: impl FnOnce(&mut Out<'_>) -> thrift::Result<()>,
) -> Vec<u8> {
    let mut buf = Vec::new();
    {
        let mut o = TBinaryOutputProtocol::new(&mut buf, strict);
        o.write_message_begin(&TMessageIdentifier::new(name, kind, seq))
            .unwrap();
        o.write_struct_begin(&TStructIdentifier::new("args"))
            .unwrap();
        args(&mut o).expect("encode arguments");
        o.write_field_stop().unwrap();
        o.write_struct_end().unwrap();
        o.write_message_end().unwrap();
        o.flush().unwrap();
    }
    buf
}

/// A CALL message in `style`'s header form.
pub fn call(
    style: WireStyle,
    name: &str,
    seq: i32,
    args: impl FnOnce(&mut Out<'_>) -> thrift::Result<()>,
) -> Vec<u8> {
    message(style.strict, name, TMessageType::Call, seq, args)
}

/// Writes a field header; the value follows.
pub fn field(o: &mut Out<'_>, id: i16, ty: TType) -> thrift::Result<()> {
    o.write_field_begin(&TFieldIdentifier::new("f", ty, id))
}

/// A string (or binary) field.
pub fn string_field(o: &mut Out<'_>, id: i16, value: &[u8]) -> thrift::Result<()> {
    field(o, id, TType::String)?;
    o.write_bytes(value)
}

/// An i32 field.
pub fn i32_field(o: &mut Out<'_>, id: i16, value: i32) -> thrift::Result<()> {
    field(o, id, TType::I32)?;
    o.write_i32(value)
}

/// A struct field whose fields `inner` writes.
pub fn struct_field(
    o: &mut Out<'_>,
    id: i16,
    inner: impl FnOnce(&mut Out<'_>) -> thrift::Result<()>,
) -> thrift::Result<()> {
    field(o, id, TType::Struct)?;
    o.write_struct_begin(&TStructIdentifier::new("s"))?;
    inner(o)?;
    o.write_field_stop()?;
    o.write_struct_end()
}

/// `bytes` with a frame's 4-byte length prefix.
pub fn frame(bytes: &[u8]) -> Vec<u8> {
    let mut out = (bytes.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(bytes);
    out
}

/// A plain TCP connection to the server.
pub struct Raw {
    pub stream: TcpStream,
    pub style: WireStyle,
}

impl Raw {
    /// Connects, with a 10 s read timeout so a missing reply fails the test.
    pub fn connect(server: &Server, style: WireStyle) -> Raw {
        let stream = TcpStream::connect(server.addr()).expect("connect");
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        Raw { stream, style }
    }

    /// Sends `messages` (unframed message bytes) in one write, each framed if the style is.
    pub fn send(&mut self, messages: &[Vec<u8>]) {
        let mut bytes = Vec::new();
        for m in messages {
            match self.style.framed {
                true => bytes.extend(frame(m)),
                false => bytes.extend_from_slice(m),
            }
        }
        self.stream.write_all(&bytes).expect("send");
    }

    /// Reads exactly `n` bytes.
    pub fn read_exact(&mut self, n: usize) -> Vec<u8> {
        let mut buf = vec![0; n];
        self.stream.read_exact(&mut buf).expect("reply bytes");
        buf
    }

    /// Reads one reply message and returns it without any frame prefix. A framed reply must
    /// have a prefix equal to the message's length; an unframed one is delimited by parsing.
    pub fn reply(&mut self) -> Vec<u8> {
        if self.style.framed {
            let len = u32::from_be_bytes(self.read_exact(4).try_into().unwrap()) as usize;
            let body = self.read_exact(len);
            assert_eq!(message_len(&body), len, "a frame holds exactly one message");
            body
        } else {
            let mut recorder = Recorder {
                inner: &mut self.stream,
                seen: Vec::new(),
            };
            skip_message(&mut recorder).expect("a whole reply message");
            recorder.seen
        }
    }
}

/// The length of the versioned message at the start of `bytes`.
fn message_len(bytes: &[u8]) -> usize {
    let mut r = bytes;
    skip_message(&mut r).expect("a whole versioned message");
    bytes.len() - r.len()
}

/// Reads one message (its header must be versioned) and its body.
fn skip_message(r: &mut dyn Read) -> thrift::Result<()> {
    let mut i = TBinaryInputProtocol::new(r, true);
    i.read_message_begin()?;
    i.skip(TType::Struct)?;
    i.read_message_end()
}

/// A reader that keeps a copy of what it reads.
struct Recorder<'a> {
    inner: &'a mut TcpStream,
    seen: Vec<u8>,
}

impl Read for Recorder<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.seen.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// The message header of a reply: (name, type, sequence id).
pub fn header(reply: &[u8]) -> (String, TMessageType, i32) {
    let mut i = TBinaryInputProtocol::new(reply, true);
    let m = i.read_message_begin().expect("a versioned header");
    (m.name, m.message_type, m.sequence_number)
}

/// A client that decodes `reply` (sequence id 1) as the answer to the call `decode` makes.
pub type Decoder<'a> =
    CassandraSyncClient<TBinaryInputProtocol<&'a [u8]>, TBinaryOutputProtocol<std::io::Sink>>;

/// What the generated client makes of `reply` as the answer to its first call, `call`.
pub fn decode<T>(
    reply: &[u8],
    call: impl FnOnce(&mut Decoder<'_>) -> thrift::Result<T>,
) -> thrift::Result<T> {
    let mut client = CassandraSyncClient::new(
        TBinaryInputProtocol::new(reply, true),
        TBinaryOutputProtocol::new(std::io::sink(), true),
    );
    call(&mut client)
}
