//! An async Thrift connection for load generation: one tokio socket, one call outstanding at a
//! time (as 0.6 clients worked), strict binary protocol, framed or not. The request and reply
//! buffers live as long as the connection, so a call allocates nothing once they have grown;
//! reply boundaries are found by the same resumable [`Splitter`] the server uses.

use super::calls::{encode, read_reply, Call, Outcome};
use crate::protocol::{ConsistencyLevel, Limits, Mode, Split, Splitter};
use std::fmt;
use std::io;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest reply accepted: a 1000-row range slice of wide rows can be tens of megabytes.
const MAX_REPLY_BYTES: usize = 256 * 1024 * 1024;

/// Bytes asked of the socket per read.
const READ_CHUNK: usize = 64 * 1024;

/// Why a call did not get an answer.
#[derive(Debug)]
pub enum CallError {
    /// The socket failed or the server closed it; reconnect before the next call.
    Io(io::Error),
    /// The reply was not a well-formed answer to the call; reconnect before the next call.
    Wire(String),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Io(e) => write!(f, "connection failed: {e}"),
            CallError::Wire(why) => write!(f, "bad reply: {why}"),
        }
    }
}

impl std::error::Error for CallError {}

impl From<io::Error> for CallError {
    fn from(e: io::Error) -> Self {
        CallError::Io(e)
    }
}

/// One client connection to a 0.6-API server.
pub struct AsyncConnection {
    stream: TcpStream,
    framed: bool,
    keyspace: String,
    consistency: ConsistencyLevel,
    seq: i32,
    request: Vec<u8>,
    reply: Vec<u8>,
    splitter: Splitter,
}

impl AsyncConnection {
    /// Connects to `addr`; calls will name `keyspace` and ask for `consistency`.
    pub async fn connect(
        addr: SocketAddr,
        framed: bool,
        keyspace: &str,
        consistency: ConsistencyLevel,
    ) -> io::Result<AsyncConnection> {
        let stream = TcpStream::connect(addr).await?;
        // One small request per round trip: Nagle would hold it for the previous ACK.
        stream.set_nodelay(true)?;
        let limits = Limits {
            max_frame_bytes: MAX_REPLY_BYTES,
            max_message_bytes: MAX_REPLY_BYTES,
            ..Limits::default()
        };
        // Replies are always versioned, whatever the request's header was.
        let mode = Mode {
            framed,
            strict: true,
        };
        Ok(AsyncConnection {
            stream,
            framed,
            keyspace: keyspace.to_owned(),
            consistency,
            seq: 0,
            request: Vec::new(),
            reply: Vec::new(),
            splitter: Splitter::new(mode, limits),
        })
    }

    /// Sends `call` and waits for its reply.
    pub async fn call(&mut self, call: &Call<'_>) -> Result<Outcome, CallError> {
        self.seq = self.seq.wrapping_add(1);
        encode(
            &mut self.request,
            self.framed,
            self.seq,
            &self.keyspace,
            self.consistency,
            call,
        );
        self.stream.write_all(&self.request).await?;
        self.reply.clear();
        loop {
            if !self.reply.is_empty() {
                match self.splitter.poll(&self.reply) {
                    Split::NeedMore => {}
                    Split::Reject(v) => return Err(CallError::Wire(v.to_string())),
                    Split::Message(span) => {
                        if span.len != self.reply.len() {
                            return Err(CallError::Wire("bytes after the reply".into()));
                        }
                        let message = &self.reply[span.message];
                        return read_reply(message, call.method(), self.seq)
                            .map_err(CallError::Wire);
                    }
                }
            }
            self.reply.reserve(READ_CHUNK);
            if self.stream.read_buf(&mut self.reply).await? == 0 {
                return Err(CallError::Io(io::ErrorKind::UnexpectedEof.into()));
            }
        }
    }
}
