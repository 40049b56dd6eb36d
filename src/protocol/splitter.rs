//! The resumable message splitter: it is shown the connection's input buffer each time more
//! bytes arrive and says when one complete message is there, walking the binary structure
//! (header, then the arguments struct with its fields, strings, nested structs and
//! containers) with an explicit stack. It keeps its place between calls, so a message that
//! arrives in many pieces is scanned once, in linear time.
//!
//! It rejects as soon as the bytes seen prove a breach of the E4 limits
//! (`docs/compatibility.md#e4`): a frame or message over its limit, a length or count that
//! cannot fit in what may still arrive, a negative length or count, nesting past the depth
//! limit, an unknown type id. It allocates nothing that depends on a length on the wire:
//! strings are stepped over, not copied, and the stack is at most `max_depth` deep.
//!
//! Framed messages are delimited by their frame length, and the message inside is still
//! walked, against the frame's end: a message must fill its frame exactly.

use std::ops::Range;

use super::wire::{
    fixed_size, min_size, ttype, T_LIST, T_MAP, T_SET, T_STOP, T_STRING, T_STRUCT, VERSION_1,
    VERSION_MASK,
};
use super::{Limits, Mode, Violation, MAX_METHOD_NAME};

/// Where one complete message lies in the buffer that was polled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageSpan {
    /// Bytes to drop from the front of the buffer once the message is handled (the frame
    /// prefix included).
    pub len: usize,
    /// The Thrift message itself (what [`process`](super::process) takes).
    pub message: Range<usize>,
}

/// The splitter's answer for the bytes seen so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// The message is not complete yet and nothing seen breaks a limit.
    NeedMore,
    /// One complete message.
    Message(MessageSpan),
    /// The bytes break a limit: close the connection without a reply.
    Reject(Violation),
}

/// One open struct or container on the walk.
#[derive(Debug, Clone, Copy)]
enum Level {
    Struct,
    /// A list or set: element type and elements still to come.
    Seq {
        elem: u8,
        left: u32,
    },
    /// A map: key and value types, and keys plus values still to come.
    Map {
        key: u8,
        val: u8,
        left: u64,
    },
}

/// Finds message boundaries in one connection's byte stream.
///
/// Call [`poll`](Splitter::poll) with the whole unconsumed input each time bytes arrive; the
/// buffer must only grow between calls. After [`Split::Message`] drop `span.len` bytes from
/// its front: the next message starts there.
#[derive(Debug, Clone)]
pub struct Splitter {
    mode: Mode,
    limits: Limits,
    failed: Option<Violation>,
    /// Offset of the Thrift message (after the frame prefix), once known.
    start: Option<usize>,
    /// The message may not need bytes at or past this offset.
    end: usize,
    /// Whether the header has been stepped over.
    in_body: bool,
    pos: usize,
    /// The type of a value whose first byte is at `pos`.
    pending: Option<u8>,
    /// The fewest bytes the open structs and containers still need (a stop byte per struct,
    /// the smallest encoding of each element not yet begun): lengths are checked against
    /// what remains after them, so an impossible message is refused as early as possible.
    owed: usize,
    stack: Vec<Level>,
}

/// Bytes `[pos, pos + n)`: `Err` when they would pass `end`, `None` until they have arrived.
fn need(buf: &[u8], end: usize, pos: usize, n: usize) -> Result<Option<&[u8]>, Violation> {
    let want = pos as u64 + n as u64;
    if want > end as u64 {
        return Err(Violation::TooLong {
            need: n as u64,
            left: end.saturating_sub(pos) as u64,
        });
    }
    Ok(buf.get(pos..pos + n))
}

fn be32(b: &[u8]) -> i32 {
    i32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

fn known(t: u8) -> Result<u8, Violation> {
    ttype(t).map(|_| t).ok_or(Violation::UnknownType(t))
}

/// A length or count field: not negative, and `n × each` bytes fit before `end`.
fn checked(n: i32, each: usize, after: usize, end: usize, count: bool) -> Result<u64, Violation> {
    let Ok(n) = u64::try_from(n) else {
        return Err(match count {
            true => Violation::NegativeCount(n),
            false => Violation::NegativeLength(n),
        });
    };
    let left = end.saturating_sub(after) as u64;
    if n * each as u64 > left {
        return Err(Violation::TooLong {
            need: n * each as u64,
            left,
        });
    }
    Ok(n)
}

impl Splitter {
    /// A splitter for a connection in `mode` (from [`detect`](super::detect)).
    pub fn new(mode: Mode, limits: Limits) -> Self {
        Splitter {
            mode,
            limits,
            failed: None,
            start: None,
            end: 0,
            in_body: false,
            pos: 0,
            pending: None,
            owed: 0,
            stack: Vec::new(),
        }
    }

    /// The mode this splitter was made for.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Looks at `buf` (all unconsumed input, grown since the last call) and says whether a
    /// whole message is there. Once it has rejected, it keeps rejecting.
    pub fn poll(&mut self, buf: &[u8]) -> Split {
        if let Some(v) = &self.failed {
            return Split::Reject(v.clone());
        }
        match self.advance(buf) {
            Ok(None) => Split::NeedMore,
            Ok(Some(span)) => {
                // Ready for the next message; the stack keeps its allocation.
                let mut stack = std::mem::take(&mut self.stack);
                stack.clear();
                *self = Splitter {
                    stack,
                    ..Splitter::new(self.mode, self.limits)
                };
                Split::Message(span)
            }
            Err(v) => {
                self.failed = Some(v.clone());
                Split::Reject(v)
            }
        }
    }

    fn advance(&mut self, buf: &[u8]) -> Result<Option<MessageSpan>, Violation> {
        let start = match self.start {
            Some(start) => start,
            None => match self.frame(buf)? {
                Some(start) => start,
                None => return Ok(None),
            },
        };
        if !self.in_body {
            let Some(body) = self.header(buf, start)? else {
                return Ok(None);
            };
            self.in_body = true;
            self.pos = body;
            self.pending = Some(T_STRUCT);
        }
        if !self.body(buf)? {
            return Ok(None);
        }
        let len = if self.mode.framed {
            if self.pos != self.end {
                return Err(Violation::TrailingBytes(self.end - self.pos));
            }
            self.end
        } else {
            self.pos
        };
        Ok(Some(MessageSpan {
            len,
            message: start..self.pos,
        }))
    }

    /// Reads the frame length (framed mode) and fixes where the message starts and must end.
    fn frame(&mut self, buf: &[u8]) -> Result<Option<usize>, Violation> {
        let start = if self.mode.framed {
            let Some(word) = buf.get(..4) else {
                return Ok(None);
            };
            let len = be32(word);
            let limit = self
                .limits
                .max_frame_bytes
                .min(self.limits.max_message_bytes);
            if len < 0 || len as u64 > limit as u64 {
                return Err(Violation::FrameLength(i64::from(len)));
            }
            self.end = 4 + len as usize;
            4
        } else {
            self.end = self.limits.max_message_bytes;
            0
        };
        self.start = Some(start);
        self.pos = start;
        Ok(Some(start))
    }

    /// Steps over the message header; the offset of the arguments struct once it is all in.
    fn header(&self, buf: &[u8], p: usize) -> Result<Option<usize>, Violation> {
        let end = self.end;
        let Some(word) = need(buf, end, p, 4)? else {
            return Ok(None);
        };
        let word = be32(word);
        let versioned = word < 0;
        if versioned != self.mode.strict {
            return Err(match versioned && word as u32 & VERSION_MASK != VERSION_1 {
                true => Violation::NegativeLength(word),
                false => Violation::StyleChanged,
            });
        }
        // Where the name's length is, and how many bytes follow the name.
        let (len_at, len, after) = if versioned {
            if word as u32 & VERSION_MASK != VERSION_1 {
                return Err(Violation::BadVersion(word as u32));
            }
            let Some(len) = need(buf, end, p + 4, 4)? else {
                return Ok(None);
            };
            (p + 8, be32(len), 4)
        } else {
            (p + 4, word, 5)
        };
        if usize::try_from(len).is_ok_and(|len| len > MAX_METHOD_NAME) {
            return Err(Violation::NameTooLong(len as usize));
        }
        // Past the name come `after` header bytes and at least the arguments' stop byte.
        let len = checked(len, 1, len_at + after + 1, end, false)? as usize;
        Ok(need(buf, end, len_at + len, after)?.map(|_| len_at + len + after))
    }

    /// Walks the arguments struct; `true` once it is complete.
    fn body(&mut self, buf: &[u8]) -> Result<bool, Violation> {
        loop {
            let pos = self.pos;
            // Everything read now must leave room for what open levels still owe.
            let room = self.end - self.owed;
            if let Some(t) = self.pending {
                let Some(step) = self.value(buf, t)? else {
                    return Ok(false);
                };
                self.pos += step;
                self.pending = None;
                continue;
            }
            let Some(top) = self.stack.last_mut() else {
                return Ok(true);
            };
            match top {
                Level::Struct => {
                    // The byte may be this struct's own stop, which `owed` counts.
                    let Some(&[t]) = need(buf, room + 1, pos, 1)? else {
                        return Ok(false);
                    };
                    if t == T_STOP {
                        self.pos += 1;
                        self.owed -= 1;
                        self.stack.pop();
                    } else {
                        known(t)?;
                        if need(buf, room, pos, 3)?.is_none() {
                            return Ok(false);
                        }
                        self.pos += 3;
                        self.pending = Some(t);
                    }
                }
                Level::Seq { left: 0, .. } | Level::Map { left: 0, .. } => {
                    self.stack.pop();
                }
                Level::Seq { elem, left } => match fixed_size(*elem) {
                    // Fixed-size elements: step over all that have arrived at once.
                    Some(size) => {
                        let here = buf.len().min(self.end).saturating_sub(pos) / size;
                        let k = (*left as usize).min(here);
                        if k == 0 {
                            return Ok(false);
                        }
                        *left -= k as u32;
                        self.pos += k * size;
                        self.owed -= k * size;
                    }
                    None => {
                        *left -= 1;
                        self.owed -= min_size(*elem);
                        self.pending = Some(*elem);
                    }
                },
                Level::Map { key, val, left } => {
                    let t = if *left % 2 == 0 { *key } else { *val };
                    *left -= 1;
                    self.owed -= min_size(t);
                    self.pending = Some(t);
                }
            }
        }
    }

    /// Starts or steps over one value of type `t` at `pos`: the bytes consumed, or `None`
    /// until enough have arrived. Structs and containers are pushed, their contents follow,
    /// and the least they can take is added to `owed`.
    fn value(&mut self, buf: &[u8], t: u8) -> Result<Option<usize>, Violation> {
        let (pos, room) = (self.pos, self.end - self.owed);
        let (level, head, owes) = match t {
            T_STRING => {
                let Some(len) = need(buf, room, pos, 4)? else {
                    return Ok(None);
                };
                let len = checked(be32(len), 1, pos + 4, room, false)? as usize;
                return Ok(need(buf, room, pos + 4, len)?.map(|_| 4 + len));
            }
            T_STRUCT => {
                need(buf, room, pos, 1)?;
                (Level::Struct, 0, 1)
            }
            T_LIST | T_SET => {
                let Some(h) = need(buf, room, pos, 5)? else {
                    return Ok(None);
                };
                let elem = known(h[0])?;
                let n = checked(be32(&h[1..]), min_size(elem), pos + 5, room, true)?;
                let left = n as u32;
                (Level::Seq { elem, left }, 5, n as usize * min_size(elem))
            }
            T_MAP => {
                let Some(h) = need(buf, room, pos, 6)? else {
                    return Ok(None);
                };
                let (key, val) = (known(h[0])?, known(h[1])?);
                let each = min_size(key) + min_size(val);
                let n = checked(be32(&h[2..]), each, pos + 6, room, true)?;
                let left = 2 * n;
                (Level::Map { key, val, left }, 6, n as usize * each)
            }
            _ => {
                let size = fixed_size(t).ok_or(Violation::UnknownType(t))?;
                return Ok(need(buf, room, pos, size)?.map(|_| size));
            }
        };
        if self.stack.len() >= self.limits.max_depth {
            return Err(Violation::TooDeep(self.limits.max_depth));
        }
        self.stack.push(level);
        self.owed += owes;
        Ok(Some(head))
    }
}
