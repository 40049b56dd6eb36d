//! One connection's loop, kept short: read bytes, let `protocol` find whole messages, hand
//! each to the connection's handler, wait for its reply gate (durability), write the replies.
//! Framing and strictness are fixed by the first bytes. Any wire violation, an idle or slow
//! sender, or a shutdown between requests ends the connection; nothing here looks inside a
//! message.

use super::ServerSettings;
use crate::protocol::{detect, Connection, Detection, Split, Splitter};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::{Duration, Instant};

/// Bytes asked of the socket per read; the buffer grows only by what actually arrives.
const READ_CHUNK: usize = 64 * 1024;

/// Unconsumed input: handled messages are skipped by offset and compacted lazily, so a
/// stream of pipelined small requests is not copied once per request.
struct Input {
    buf: Vec<u8>,
    start: usize,
}

impl Input {
    fn pending(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.buf.len());
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        }
    }

    fn compact(&mut self) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
    }
}

/// Serves one connection until the client leaves, breaks a rule, or the server stops.
pub(super) async fn run(
    mut stream: TcpStream,
    mut conn: Box<dyn Connection>,
    settings: ServerSettings,
    mut stopped: watch::Receiver<bool>,
) -> Result<(), String> {
    let mut input = Input {
        buf: Vec::new(),
        start: 0,
    };
    let mut splitter: Option<Splitter> = None;
    let mut replies = Vec::new();
    // When the first byte of the request being received arrived.
    let mut request_started: Option<Instant> = None;
    loop {
        // Answer every complete message already buffered, in order.
        loop {
            let pending = input.pending();
            if pending.is_empty() {
                break;
            }
            let splitter = match &mut splitter {
                Some(s) => s,
                None => match detect(pending, &settings.limits) {
                    Detection::NeedMore => break,
                    Detection::Mode(mode) => splitter.insert(Splitter::new(mode, settings.limits)),
                    Detection::Reject(v) => return Err(v.to_string()),
                },
            };
            match splitter.poll(pending) {
                Split::NeedMore => break,
                Split::Reject(v) => {
                    let _ = send(&mut stream, &replies, settings.read_timeout).await;
                    return Err(v.to_string());
                }
                Split::Message(span) => {
                    let reply = conn
                        .process(&pending[span.message], splitter.mode())
                        .map_err(|v| v.to_string())?;
                    crate::metrics::bytes_sent(reply.len());
                    input.consume(span.len);
                    request_started = None;
                    if let Some(gate) = conn.take_reply_gate() {
                        // Earlier replies need not wait for this one's durability.
                        send(&mut stream, &replies, settings.read_timeout).await?;
                        replies.clear();
                        let _waiting = crate::metrics::waiting_for_sync();
                        gate.await
                            .map_err(|e| format!("write not made durable, no reply sent: {e}"))?;
                    }
                    // The usual case, one request in flight: its reply is sent as it is.
                    if replies.is_empty() {
                        replies = reply;
                    } else {
                        replies.extend_from_slice(&reply);
                    }
                }
            }
        }
        if !replies.is_empty() {
            send(&mut stream, &replies, settings.read_timeout).await?;
            replies.clear();
        }
        if *stopped.borrow() {
            return Ok(());
        }

        // Wait for more bytes: an idle connection gets the idle timeout, a request that has
        // started must arrive in full within the read timeout.
        let deadline = match request_started {
            Some(started) => started + settings.read_timeout,
            None if input.pending().is_empty() => Instant::now() + settings.idle_timeout,
            None => Instant::now() + settings.read_timeout,
        };
        input.compact();
        input.buf.reserve(READ_CHUNK);
        let read = tokio::select! {
            read = tokio::time::timeout_at(deadline, stream.read_buf(&mut input.buf)) => read,
            _ = stopped.changed() => return Ok(()),
        };
        match read {
            Err(_) if request_started.is_some() || !input.pending().is_empty() => {
                return Err(format!(
                    "request not complete within {:?}",
                    settings.read_timeout
                ))
            }
            Err(_) => return Err(format!("idle for {:?}", settings.idle_timeout)),
            Ok(Err(e)) => return Err(e.to_string()),
            Ok(Ok(0)) if input.pending().is_empty() => return Ok(()),
            Ok(Ok(0)) => return Err("connection closed mid-request".into()),
            Ok(Ok(n)) => {
                crate::metrics::bytes_received(n);
                request_started.get_or_insert_with(Instant::now);
            }
        }
    }
}

/// Writes `bytes`, giving up after `limit` (the read timeout): a client that stops reading
/// its replies must not hold its connection slot forever (`docs/compatibility.md#e9`).
async fn send(stream: &mut TcpStream, bytes: &[u8], limit: Duration) -> Result<(), String> {
    match tokio::time::timeout(limit, stream.write_all(bytes)).await {
        Ok(written) => written.map_err(|e| e.to_string()),
        Err(_) => Err(format!("replies not taken by the client within {limit:?}")),
    }
}
