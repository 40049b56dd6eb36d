//! The later Thrift API (Cassandra 0.7–3.11, IDL 20.1.0; `docs/api-later.md`) over the same
//! column families as the 0.6 API: per-connection sessions (`set_keyspace`, `login`), the
//! `describe_*` family with the stored schema seen as the later API's KsDef and CfDef, the
//! six `system_*` calls that change it, and one mapping from the crate's `Error` to the 20.1.0 exceptions (`errors`).
//!
//! [`Service20`] is shared by the later listener's connections and is its
//! `ConnectionFactory`; each connection gets a [`Session20`]. `session` holds the state and
//! the order of the session checks, `handler` routes the generated handler trait, `describe`
//! answers the cluster calls, `schema` reports definitions, `definitions` converts and
//! validates incoming CfDefs and `system` makes the schema changes.

mod cas;
mod consistency;
mod convert;
mod definitions;
#[cfg(test)]
mod definitions_tests;
mod describe;
mod errors;
mod handler;
mod mutations;
mod reads;
mod schema;
mod session;
mod splits;
mod system;
mod validation;
mod validators;
mod writes;

pub use session::Session20;

use crate::auth::Authenticator;
use crate::cf::Db;
use crate::config::Config;
use crate::protocol::{Connection, ConnectionFactory, Limits};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The later API over one database: what every connection of its listener shares.
#[derive(Clone)]
pub struct Service20 {
    db: Arc<Db>,
    config: Arc<Config>,
    auth: Authenticator,
    limits: Limits,
}

impl Service20 {
    /// The later API over `db`, configured by `config` (cluster name, addresses, the
    /// reported version, authenticator, wire limits).
    pub fn new(db: Arc<Db>, config: Arc<Config>) -> Service20 {
        Service20 {
            auth: Authenticator::new(&config),
            limits: Limits::from(&config.limits),
            db,
            config,
        }
    }

    /// A fresh session with no keyspace and nobody logged in, as for a new connection.
    pub fn session(&self) -> Session20 {
        Session20::new(self.clone())
    }

    /// The listen address: the node's address in the ring and in schema versions.
    fn listen_address(&self) -> IpAddr {
        self.config.listen_address
    }

    /// The address clients reach this listener at: its own address unless it is a
    /// wildcard, else the listen address, else loopback.
    fn rpc_address(&self) -> IpAddr {
        self.config.client_address(self.config.thrift20.address)
    }
}

impl ConnectionFactory for Service20 {
    fn connect(&self, peer: SocketAddr) -> Box<dyn Connection> {
        tracing::debug!(%peer, "later-API session opened");
        Box::new(self.session())
    }
}
