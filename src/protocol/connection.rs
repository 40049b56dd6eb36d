//! The seam between `server` (sockets) and `service` (the API): the server drives one
//! [`Connection`] per accepted socket and knows nothing else about what a message means.

use super::{Mode, Violation};
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;

/// A wait that must finish before a reply may be sent; `Err` means the request's effect
/// could not be made durable, so the connection is closed without a reply.
pub type ReplyGate = Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// One client connection's request handling, with its per-connection state (login).
pub trait Connection: Send {
    /// Handles one complete message and returns the reply bytes (framed when `mode` is).
    /// `Err` means a wire violation: the server closes the connection without replying.
    fn process(&mut self, message: &[u8], mode: Mode) -> Result<Vec<u8>, Violation>;

    /// Taken after each `process`: what the reply must wait for (e.g. a batch-mode write
    /// becoming durable), if anything.
    fn take_reply_gate(&mut self) -> Option<ReplyGate>;
}

/// Opens a [`Connection`] for each accepted socket.
pub trait ConnectionFactory: Send + Sync + 'static {
    /// A fresh connection (not logged in) for a client at `peer`.
    fn connect(&self, peer: SocketAddr) -> Box<dyn Connection>;
}
