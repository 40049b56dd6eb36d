//! ilion: a Rust re-implementation of Apache Cassandra 0.6's Thrift-era column-family store, on
//! sled (or fjall, per data directory). One node; the 0.6 Thrift API (`idl/cassandra.thrift`, VERSION "2.2.0"); a 0.6
//! `storage-conf.xml`. The contract is in `docs/`: `docs/api.md` (every API rule),
//! `docs/compatibility.md` (each deliberate difference from 0.6, by id: D…, E…, S…),
//! `docs/storage.md` (every byte on disk) and `docs/durability.md`.
//!
//! The later Thrift API (Cassandra 0.7–3.11, `idl/cassandra-20.thrift`, `docs/api-later.md`)
//! is served on a second listener by [`service20`] over the same column families; it is being
//! built (issue 11).
//!
//! Data flows one way — socket → [`server`] → [`protocol`] → [`service`] → [`cf`] →
//! [`storage`] → sled or fjall — with [`config`], [`auth`], [`comparator`], [`partitioner`], [`model`],
//! [`metrics`] and [`error`] used from below. [`node`] wires them together; [`client`] is the
//! Rust client for tools and tests; [`tools`] holds `ilion stress` (whose no-op floor server
//! reuses [`server`], so that the floor is the same network stack) and `ilion tool` (the
//! client of the admin endpoint, `server::admin`).
//!
//! ## One `batch_mutate`
//! 1. `server::connection::run` reads bytes; [`protocol::detect`] fixes the connection's
//!    framing and strictness from its first bytes (`docs/compatibility.md#e1`, `#e2`), and a
//!    [`protocol::Splitter`] finds the end of the message while checking every length against
//!    the E4 limits.
//! 2. [`Connection::process`](protocol::Connection::process), implemented by
//!    [`service::Session`], calls [`protocol::process`]: it finds the method's row in the 0.6
//!    method table ([`protocol::methods`]; the later API's is [`protocol::v20::methods`]),
//!    normalises the arguments the way 0.6 read them, and runs the row's generated process
//!    function (`process_batch_mutate`), which decodes them and calls
//!    `Session::handle_batch_mutate`.
//! 3. `Session::batch_mutate` (in `service::writes`) checks login, then `validate_key` and
//!    `validate_mutation` for every row, CF and mutation (`service::validation`, 0.6's
//!    ThriftValidation with its messages, `docs/api.md#validation`), then the keyspace
//!    (`docs/compatibility.md#d14`); it converts everything into [`model::RowMutation`]s, their
//!    changes grouped by CF (`service::convert`), and checks the write consistency level before
//!    applying any.
//! 4. [`cf::Db::apply`] reconciles each row's changes among themselves, takes the row's lock,
//!    opens a [`storage::RowSession`] ([`storage::Store::row_session`]), plans the changes
//!    against what is stored (tombstones applied at write time) into typed
//!    [`storage::RowWrites`] (cells and deletion markers), and hands them to
//!    [`storage::RowSession::write`].
//! 5. Storage encodes the keys and values (`docs/storage.md`), packs them into the row's chunks
//!    (`packed`), and its durability layer applies one atomic [`storage::Batch`] to the engine
//!    ([`storage::SledEngine`]) and returns an [`storage::Ack`]; in `batch` commit-log mode the
//!    ack completes after the group commit's `fdatasync` (`docs/durability.md`).
//! 6. `Session::handle_batch_mutate` maps an error through the method's `throws`
//!    (`service::errors`). The session keeps the acks; the server awaits them as the reply gate
//!    ([`Connection::take_reply_gate`](protocol::Connection::take_reply_gate)) and only then
//!    writes the reply. A failed sync closes the connection instead: an unsynced write is never
//!    acknowledged.
//!
//! ## One `get_slice`
//! Steps 1–2 as above, then `Session::get_slice` (in `service::reads`): login,
//! `validate_column_parent`, `validate_predicate`, `validate_key`, the read consistency check;
//! [`cf::Db::get_slice`] encodes the row key ([`storage::EncodedRow`]) and, for a slice range
//! of a Standard CF, asks storage for the row's cells between the bounds
//! ([`storage::Store::cells`] with a [`storage::NameRange`], which encodes the names
//! order-preservingly, so the engine's byte order is the comparator's order, scans the row's
//! chunks forward or backward and decodes what it finds); `cf` skips column tombstones and
//! stops at `count` live columns, and the result goes back through `service::convert` to the
//! generated types and out through the same connection loop.

pub mod auth;
pub mod cf;
pub mod client;
pub mod comparator;
pub mod config;
pub mod error;
pub mod metrics;
pub mod migrate;
pub mod model;
pub mod node;
pub mod partitioner;
pub mod protocol;
pub mod server;
pub mod service;
pub mod service20;
pub mod storage;
pub mod tools;
/// The later API's comparators and validators (issue 11's foundation, not yet on the wire).
pub mod types;

// Entry points for the fuzz targets (fuzz/, docs/fuzzing.md), outside the request path.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;

pub use error::{Error, Result};
