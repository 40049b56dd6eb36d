//! The Thrift wire, and nothing above it, for both APIs ilion serves: the 0.6 API
//! (`idl/cassandra.thrift`, VERSION 2.2.0; its generated types here) and the later API
//! (`idl/cassandra-20.thrift`, VERSION 20.1.0; its generated types, method table and argument
//! schema in [`v20`], `docs/api-later.md#wire`). Shared by the two: a bounded binary-protocol
//! codec, per-connection detection of framing and strictness (`docs/compatibility.md#e1`,
//! `#e2`), a resumable splitter that finds message boundaries in a byte stream under the E4
//! limits, the normalizer, and dispatch of one complete message onto a generated handler trait.
//!
//! Written down once for the whole crate: the protocol's numbers (type ids, message types, the
//! version word) in [`wire`], and each IDL's methods (name, arguments, `throws`, generated
//! process function) in one table: [`methods`] for 0.6, [`v20::methods`] for 20.1.0, rows of
//! the same [`Method`] type.
//!
//! A connection loop uses it like this:
//! 1. [`detect`] on the first bytes gives the connection's [`Mode`] (or a [`Violation`]: close);
//! 2. a [`Splitter`] for that mode is fed the growing input buffer and says when one whole
//!    message is present ([`Split::Message`]), or proves a limit was broken ([`Split::Reject`]);
//! 3. [`process`] (0.6) or [`v20::process`] (20.1.0) decodes that message, calls the API's
//!    `CassandraSyncHandler` and returns the reply bytes (framed exactly when the connection
//!    is), or a [`Violation`] meaning "close". Both are one generic dispatch (`dispatch`); only
//!    0.6's `get_slice` has a hand-written fast path (`hot`).
//!
//! The generated code is not used raw on client input. Before it decodes a call's arguments,
//! `normalize` rewrites them the way the Java servers read them: fields of the wrong wire type
//! are dropped, absent fields with IDL defaults (and absent required numbers) get their
//! defaults, absent required objects and required enums holding unlisted numbers become a
//! PROTOCOL_ERROR reply. The same pass charges the decoded size of containers and strings
//! against a memory budget (16 × the message limit), since a list of empty structs costs one
//! byte on the wire and ~200 once decoded.

mod codec;
mod connection;
mod dispatch;
mod framing;
mod hot;
#[cfg(test)]
mod idl_text;
pub mod methods;
mod normalize;
mod schema;
#[cfg(test)]
mod schema_tests;
mod splitter;
pub mod wire;
mod writer;

// The compiler's output, committed byte for byte (scripts/gen-thrift.sh), so its lint
// allowances live here rather than in the file.
#[allow(clippy::all, clippy::unwrap_used, missing_docs)]
pub mod generated;
pub mod v20;

pub use codec::BinaryIn;
pub use connection::{Connection, ConnectionFactory, ReplyGate};
pub use dispatch::process;
pub use framing::{detect, Detection};
pub use methods::{Method, Throws};
pub use splitter::{MessageSpan, Split, Splitter};
pub use writer::BinaryOut;

/// The handler-facing surface of the generated code: `service` implements
/// [`CassandraSyncHandler`] and works with these types.
pub use generated::{
    AuthenticationException, AuthenticationRequest, AuthorizationException, CassandraSyncHandler,
    Column, ColumnOrSuperColumn, ColumnParent, ColumnPath, ConsistencyLevel, Deletion,
    InvalidRequestException, KeyRange, KeySlice, Mutation, NotFoundException, SlicePredicate,
    SliceRange, SuperColumn, TimedOutException, TokenRange, UnavailableException, VERSION,
};
/// Errors a handler returns: `User(Box<declared exception>)` or `Application(..)`.
pub use thrift::{ApplicationError, ApplicationErrorKind, Error as ThriftError};

use std::fmt;

/// The E4 limits the wire enforces; a node makes them from its configuration with
/// `Limits::from(&config.limits)` (in `config::tuning`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted frame length (the 4-byte prefix excluded), in bytes.
    pub max_frame_bytes: usize,
    /// Largest accepted message, in bytes.
    pub max_message_bytes: usize,
    /// Deepest nesting of structs and containers; the arguments struct is depth 1.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame_bytes: 15 * 1024 * 1024,
            max_message_bytes: 16 * 1024 * 1024,
            max_depth: 64,
        }
    }
}

/// How a connection talks, fixed by its first bytes (`docs/compatibility.md#e1`, `#e2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mode {
    /// Each message travels in a frame with a 4-byte big-endian length prefix.
    pub framed: bool,
    /// Messages carry the versioned header `0x8001_00tt`; otherwise the old unversioned one.
    pub strict: bool,
}

/// A breach of the wire rules: the connection must be closed without a reply
/// (`docs/compatibility.md#e4`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// The first bytes are not a Thrift binary message (the text says what they look like).
    NotThrift(String),
    /// A versioned header whose version is not 1 (or a negative length).
    BadVersion(u32),
    /// A message in the other strictness than the connection's first one.
    StyleChanged,
    /// A frame length that is negative or over the frame or message limit.
    FrameLength(i64),
    /// A string, binary or name length below zero.
    NegativeLength(i32),
    /// A container element count below zero.
    NegativeCount(i32),
    /// A length or count needing more bytes than may still arrive in this message or frame.
    TooLong {
        /// Bytes the claim needs at least.
        need: u64,
        /// Bytes still allowed.
        left: u64,
    },
    /// Structs and containers nested deeper than the limit.
    TooDeep(usize),
    /// A method name longer than [`MAX_METHOD_NAME`]: no method of the service is.
    NameTooLong(usize),
    /// A type id that is not a Thrift binary-protocol type.
    UnknownType(u8),
    /// A framed message that ends before its frame does.
    TrailingBytes(usize),
    /// Decoding the arguments would take too much memory (a container of this many bytes
    /// could not be charged; see [`process`]).
    DecodedTooLarge(u64),
    /// A complete message that does not decode (only when [`process`] is given bad bytes).
    Malformed(String),
}

/// The longest method name a message may carry. Every method of the service has a name of
/// under 30 bytes; a longer one is no call (an unknown but plausible name still gets
/// UNKNOWN_METHOD), and without this bound a stream whose first word claims a 15 MiB name
/// would hold its connection and buffer until the read timeout.
pub const MAX_METHOD_NAME: usize = 256;

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NotThrift(what) => write!(f, "not a Thrift binary message: {what}"),
            Violation::BadVersion(word) => write!(f, "bad protocol version word {word:#010x}"),
            Violation::StyleChanged => f.write_str("message strictness changed mid-connection"),
            Violation::FrameLength(len) => write!(f, "frame length {len} out of bounds"),
            Violation::NegativeLength(len) => write!(f, "negative length {len}"),
            Violation::NegativeCount(n) => write!(f, "negative container size {n}"),
            Violation::TooLong { need, left } => {
                write!(f, "needs {need} bytes but only {left} may follow")
            }
            Violation::TooDeep(limit) => write!(f, "nesting deeper than {limit}"),
            Violation::NameTooLong(len) => write!(
                f,
                "a method name of {len} bytes (no method's is longer than {MAX_METHOD_NAME})"
            ),
            Violation::UnknownType(t) => write!(f, "unknown type id {t}"),
            Violation::TrailingBytes(n) => write!(f, "{n} bytes left over in the frame"),
            Violation::DecodedTooLarge(n) => {
                write!(
                    f,
                    "decoded arguments would exceed the memory budget ({n} more bytes)"
                )
            }
            Violation::Malformed(why) => write!(f, "malformed message: {why}"),
        }
    }
}

impl std::error::Error for Violation {}
