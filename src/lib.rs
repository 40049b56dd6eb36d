//! ilion: a Rust re-implementation of Apache Cassandra 0.6's Thrift-era column-family store,
//! on sled. One node; the 0.6 Thrift API (`idl/cassandra.thrift`, VERSION "2.2.0"); a 0.6
//! `storage-conf.xml`. The contract is `../shared/spec/cassandra-0.6-api.md`.
//!
//! Data flows one way — socket → [`server`] → [`protocol`] → [`service`] → [`cf`] →
//! [`storage`] → sled — with [`config`], [`auth`], [`comparator`], [`partitioner`], [`model`],
//! [`metrics`] and [`error`] used from below. [`node`] wires them together; [`client`] is the
//! Rust client for tools and tests; [`tools`] holds `ilion stress` (whose no-op floor server
//! reuses [`server`], so that the floor is the same network stack) and `ilion tool` (the
//! client of the admin endpoint, `server::admin`).
//!
//! ## One `batch_mutate`
//! 1. `server::connection::run` reads bytes; [`protocol::detect`] fixes the connection's
//!    framing and strictness from its first bytes, and a [`protocol::Splitter`] finds the end
//!    of the message while checking every length against the E4 limits.
//! 2. `Connection::process` (implemented by [`service::Session`]) hands the message to
//!    [`protocol::process`], which normalises the arguments the way 0.6 read them and runs the
//!    generated processor, which calls `Session::handle_batch_mutate`.
//! 3. `service::writes` checks login, then `validate_key` and `validate_mutation` for every
//!    row, CF and mutation (`service::validation`, 0.6's ThriftValidation with its messages),
//!    and converts all of them into [`model::RowMutation`]s (`service::convert`) before
//!    applying any.
//! 4. [`cf::Db::apply`] reconciles each row's changes among themselves, takes the row's lock,
//!    plans them against what is stored (tombstones applied at write time) and writes one
//!    atomic [`storage::Batch`] through [`storage::Store::write`].
//! 5. The store applies the batch to sled (`storage::SledEngine`) and returns an
//!    [`storage::Ack`]; in `batch` commit-log mode it completes after the group commit's
//!    `fdatasync`.
//! 6. The session keeps the acks; the server awaits them as the reply gate
//!    (`Connection::take_reply_gate`) and only then writes the reply. A failed sync closes
//!    the connection instead: an unsynced write is never acknowledged.
//!
//! ## One `get_slice`
//! Steps 1–2 as above, then `service::reads::get_slice`: login, `validate_column_parent`,
//! `validate_predicate`, `validate_key`, the read consistency check; [`cf::Db::get_slice`]
//! encodes the row key and slice bounds with `storage::keys` (order-preserving encodings,
//! so sled's byte order is the comparator's order), scans forward or backward skipping
//! column tombstones and counting live columns, and the result goes back through
//! `service::convert` to the generated types and out through the same connection loop.

pub mod auth;
pub mod cf;
pub mod client;
pub mod comparator;
pub mod config;
pub mod error;
pub mod metrics;
pub mod model;
pub mod node;
pub mod partitioner;
pub mod protocol;
pub mod server;
pub mod service;
pub mod storage;
pub mod tools;

pub use error::{Error, Result};
