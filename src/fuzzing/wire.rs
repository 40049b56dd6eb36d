//! The wire targets: connection detection and the splitter ([`split`]), and the codec with
//! every method's argument decode ([`call`]).

use super::check_reply;
use crate::protocol::{
    detect, methods::METHODS, process, BinaryIn, Detection, Limits, Mode, Split, Splitter,
};
use crate::tools::stress::noop::{NoopHandler, NoopShape};
use std::sync::OnceLock;
use thrift::protocol::TInputProtocol;

/// What a splitter made of a byte stream: each message's bytes, then how it stopped.
#[derive(Debug, PartialEq, Eq)]
struct Outcome<'a> {
    messages: Vec<&'a [u8]>,
    /// `Some(violation text)` when it rejected, `None` when it wanted more bytes.
    rejected: Option<String>,
}

/// Splits `stream` the way the server's loop does, showing the splitter the bytes in pieces
/// of the given sizes (cycled), or all at once when `pieces` is empty.
fn split_in_pieces<'a>(stream: &'a [u8], mode: Mode, limits: Limits, pieces: &[u8]) -> Outcome<'a> {
    let mut splitter = Splitter::new(mode, limits);
    let mut out = Outcome {
        messages: Vec::new(),
        rejected: None,
    };
    let (mut start, mut seen) = (0, 0);
    let mut sizes = pieces.iter().map(|&p| usize::from(p) + 1).cycle();
    while seen < stream.len() {
        seen = match sizes.next() {
            Some(n) => (seen + n).min(stream.len()),
            None => stream.len(),
        };
        loop {
            let buf = &stream[start..seen];
            match splitter.poll(buf) {
                Split::NeedMore => break,
                Split::Reject(v) => {
                    out.rejected = Some(v.to_string());
                    return out;
                }
                Split::Message(span) => {
                    assert!(
                        span.len > 0 && span.len <= buf.len(),
                        "span {span:?} outside a buffer of {} bytes",
                        buf.len()
                    );
                    assert!(span.message.start <= span.message.end && span.message.end <= span.len);
                    out.messages.push(&buf[span.message]);
                    start += span.len;
                }
            }
        }
    }
    out
}

/// Target `wire`. The first byte picks the limits, the second how the stream arrives in
/// pieces; the rest is a connection's byte stream. Checks: detection on a prefix agrees with
/// detection on the whole; the splitter finds the same messages and the same end whether it
/// sees the stream at once or piecemeal; every message it delimits has a readable header and
/// lies inside the limits.
pub fn split(data: &[u8]) {
    let [limit_pick, piece_pick, stream @ ..] = data else {
        return;
    };
    // Messages of 64 B to 2 MiB, frames up to 24 bytes smaller, nesting depth 1 to 22.
    let message = 64usize << (limit_pick & 0x0f);
    let limits = Limits {
        max_frame_bytes: message - usize::from(limit_pick >> 4 & 3) * 8,
        max_message_bytes: message,
        max_depth: 1 + usize::from(limit_pick >> 6) * 7,
    };
    let mode = match detect(stream, &limits) {
        Detection::NeedMore => {
            assert!(stream.len() < 5, "detection needs more than 5 bytes");
            return;
        }
        Detection::Reject(_) => return,
        Detection::Mode(mode) => mode,
    };
    for n in 0..stream.len().min(5) {
        let early = detect(&stream[..n], &limits);
        assert!(
            early == Detection::NeedMore || early == Detection::Mode(mode),
            "detection on {n} bytes says {early:?}, on all of them {mode:?}"
        );
    }
    let whole = split_in_pieces(stream, mode, limits, &[]);
    let pieces = [piece_pick & 0x0f, piece_pick >> 4, 0];
    let piecemeal = split_in_pieces(stream, mode, limits, &pieces);
    assert_eq!(
        whole, piecemeal,
        "the splitter's answer depends on how the bytes arrive"
    );
    for message in &whole.messages {
        assert!(message.len() <= limits.max_message_bytes);
        let mut inp = BinaryIn::new(message, limits.max_depth);
        if let Err(e) = inp.read_message_begin() {
            panic!("the splitter delimited a message whose header does not read: {e}");
        }
    }
}

fn handler() -> &'static NoopHandler {
    static HANDLER: OnceLock<NoopHandler> = OnceLock::new();
    HANDLER.get_or_init(|| {
        NoopHandler::new(NoopShape {
            columns: 3,
            value_size: 4,
            rows: 2,
        })
    })
}

/// Target `codec`. The first byte picks a method of the IDL, the second the header style,
/// framing and sequence id; the rest are the call's argument bytes. The message is decoded,
/// normalized and dispatched by [`process`] onto a handler that keeps nothing (the stress
/// tool's floor), so every method's generated decoder and reply encoder run on arbitrary
/// arguments. Checks: no panic, and any reply is a well-formed message.
pub fn call(data: &[u8]) {
    let [pick, style, args @ ..] = data else {
        return;
    };
    let method = METHODS[usize::from(*pick) % METHODS.len()];
    let mode = Mode {
        strict: style & 1 == 0,
        framed: style & 2 != 0,
    };
    let seq = i32::from(style >> 2);
    let name = method.name.as_bytes();
    let mut message = Vec::with_capacity(args.len() + name.len() + 12);
    if mode.strict {
        message.extend_from_slice(&[0x80, 0x01, 0x00, 0x01]);
        message.extend_from_slice(&(name.len() as u32).to_be_bytes());
        message.extend_from_slice(name);
    } else {
        message.extend_from_slice(&(name.len() as u32).to_be_bytes());
        message.extend_from_slice(name);
        message.push(1);
    }
    message.extend_from_slice(&seq.to_be_bytes());
    message.extend_from_slice(args);
    let limits = Limits {
        max_frame_bytes: 1 << 20,
        max_message_bytes: 1 << 20,
        max_depth: 16,
    };
    if let Ok(reply) = process(&message, mode, &limits, handler()) {
        if let Err(why) = check_reply(&reply, mode.framed, &limits) {
            panic!(
                "{}: the reply is not a well-formed message: {why}",
                method.name
            );
        }
    }
}
