//! The Cassandra 0.6 API (`docs/api.md`, sections 2–5, 11 and 12): one function per IDL method,
//! each doing the same steps — login check, validation in 0.6's order (`validation`),
//! conversion to `model` (`convert`), the call into `cf`, and conversion back — with one
//! mapping from the crate's `Error` to Thrift exceptions (`errors`) and the consistency-level
//! rules in `consistency`.
//!
//! [`Service`] is shared by all connections and is the server's
//! `ConnectionFactory`; each connection gets a
//! [`Session`] holding its login flag and the durability its last writes still wait for.
//! The methods live in `reads`, `writes` and `describe`; `session` routes the generated
//! handler trait onto them.

mod acks;
mod consistency;
mod convert;
mod describe;
mod errors;
pub(crate) mod paths;
mod reads;
mod session;
mod validation;
mod writes;

#[cfg(test)]
mod tests;

pub(crate) use acks::PendingAcks;
pub use session::Session;

use crate::auth::Authenticator;
use crate::cf::Db;
use crate::config::{Config, Schema};
use crate::protocol::{Connection, ConnectionFactory, Limits};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The API over one database: what every connection shares. Cheap to clone.
///
/// The server obtains its factory as `Arc::new(Service::new(db, config))`, used as an
/// `Arc<dyn ConnectionFactory>`.
#[derive(Clone)]
pub struct Service {
    db: Arc<Db>,
    config: Arc<Config>,
    auth: Authenticator,
    limits: Limits,
}

impl Service {
    /// The API over `db`, configured by `config` (cluster name, addresses, authenticator,
    /// wire limits). `db` must have been opened with `config`'s schema and partitioner.
    pub fn new(db: Arc<Db>, config: Arc<Config>) -> Service {
        let limits = Limits::from(&config.limits);
        Service {
            auth: Authenticator::new(&config),
            db,
            config,
            limits,
        }
    }

    /// A fresh, not logged-in session, as for a new connection.
    pub fn session(&self) -> Session {
        Session::new(self.clone())
    }

    /// The wire limits connections are processed under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn schema(&self) -> std::sync::Arc<Schema> {
        self.db.schema()
    }

    /// The address clients should use to reach this node: the Thrift address unless it is
    /// a wildcard, else the listen address, else loopback.
    fn endpoint(&self) -> IpAddr {
        self.config.client_address(self.config.thrift_address)
    }
}

impl ConnectionFactory for Service {
    fn connect(&self, peer: SocketAddr) -> Box<dyn Connection> {
        tracing::debug!(%peer, "session opened");
        Box::new(self.session())
    }
}
