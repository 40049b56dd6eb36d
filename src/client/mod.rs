//! A Rust Thrift client for ilion's tools and tests: the generated `CassandraSyncClient` over
//! a TCP connection, framed or unframed, with strict (versioned) or old non-strict message
//! headers, so tests can speak each of the four wire styles the server accepts.
//!
//! For load generation there is also [`AsyncConnection`], a tokio connection that makes the
//! three calls of [`calls`] without per-call allocation, and [`admin`] is the HTTP client of
//! the admin endpoint that `ilion tool` drives.

pub mod admin;
mod async_conn;
pub mod calls;

pub use async_conn::{AsyncConnection, CallError};

use crate::protocol::generated::CassandraSyncClient;
use std::net::{SocketAddr, TcpStream};
use std::ops::{Deref, DerefMut};
use std::time::Duration;
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TInputProtocol, TOutputProtocol,
};
use thrift::transport::{
    TBufferedReadTransport, TBufferedWriteTransport, TFramedReadTransport, TFramedWriteTransport,
    TIoChannel, TTcpChannel,
};

pub use crate::protocol::generated::TCassandraSyncClient;

/// How a client frames and encodes its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireStyle {
    /// 4-byte length-prefixed frames (otherwise a plain buffered stream).
    pub framed: bool,
    /// Versioned message headers (otherwise the old unversioned ones, as cassandra-cli sent).
    pub strict: bool,
}

impl WireStyle {
    /// The four styles the server must accept.
    pub const ALL: [WireStyle; 4] = [
        WireStyle {
            framed: false,
            strict: true,
        },
        WireStyle {
            framed: true,
            strict: true,
        },
        WireStyle {
            framed: false,
            strict: false,
        },
        WireStyle {
            framed: true,
            strict: false,
        },
    ];
}

type Input = Box<dyn TInputProtocol + Send>;
type Output = Box<dyn TOutputProtocol + Send>;

/// A connected client; call API methods through [`TCassandraSyncClient`].
pub struct Client {
    inner: CassandraSyncClient<Input, Output>,
}

impl Client {
    /// Connects to `addr` in `style`, with `timeout` on connect, reads and writes.
    pub fn connect(
        addr: SocketAddr,
        style: WireStyle,
        timeout: Duration,
    ) -> thrift::Result<Client> {
        let stream = TcpStream::connect_timeout(&addr, timeout)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        let (read, write) = TTcpChannel::with_stream(stream).split()?;
        // Replies are always versioned, but reading non-strictly accepts either header.
        let (input, output): (Input, Output) = if style.framed {
            (
                Box::new(TBinaryInputProtocol::new(
                    TFramedReadTransport::new(read),
                    false,
                )),
                Box::new(TBinaryOutputProtocol::new(
                    TFramedWriteTransport::new(write),
                    style.strict,
                )),
            )
        } else {
            (
                Box::new(TBinaryInputProtocol::new(
                    TBufferedReadTransport::new(read),
                    false,
                )),
                Box::new(TBinaryOutputProtocol::new(
                    TBufferedWriteTransport::new(write),
                    style.strict,
                )),
            )
        };
        Ok(Client {
            inner: CassandraSyncClient::new(input, output),
        })
    }
}

impl Deref for Client {
    type Target = CassandraSyncClient<Input, Output>;

    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl DerefMut for Client {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.inner
    }
}
