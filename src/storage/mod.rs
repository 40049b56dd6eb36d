//! Storage: the only user of the engines (sled, fjall), and the owner of every byte layout. It is built in
//! layers, each over the one before:
//!
//! 1. **engine** — the narrow [`Engine`] interface of an ordered key-value store (get, scan
//!    forward/reverse, atomic [`Batch`], durable sync), with [`SledEngine`], [`FjallEngine`]
//!    and their in-memory twin [`MemoryEngine`]; `choice` picks the engine of a new data
//!    directory and remembers it ([`open_engine`]);
//! 2. **packing** — `packed`: the entries of each row stored together in a few engine
//!    values (chunks), behind logical get/scan/plan;
//! 3. **row store and durability** — [`Store`] puts packing and the `CommitLogSync` policy
//!    together ([`SyncPolicy`], group commit, [`Ack`]), with a [`RowSession`] per row
//!    mutation (or per atomic batch of several rows); the `watermark` refuses a store that
//!    lost durable writes; `recovery` reopens a failed engine from its files once the disk takes writes again;
//! 4. **typed row API** — `rows`: cells (expiring ones included), deletion markers, slices
//!    by name, rows by token or key bounds, the tombstones due for purge and a column
//!    family's truncation, as `cf` asks for them; the bytes (`keys`, `values`,
//!    `encoding`) stay private to storage.
//!
//! Beside the layers, the [`Catalog`] ties column families to stable ids and refuses a data
//! directory written under a different schema or partitioner.

mod catalog;
mod choice;
mod durability;
mod encoding;
mod engine;
mod fjall_engine;
mod keys;
mod memory;
mod packed;
mod recovery;
mod redis_cluster;
mod rows;
mod sled_engine;
mod small_file;
pub mod snapshot;
mod store;
mod values;
mod watermark;

pub use catalog::{same_encoding, Catalog};
pub use choice::{open_engine, open_redis_cluster, EngineKind, OpenedEngine, ENGINE_FILE};
pub use durability::{Ack, SyncPolicy};
pub use engine::{Batch, Engine, KvPair, Reopen, RowLease, Scan};
pub use fjall_engine::FjallEngine;
pub use keys::{CfLayout, Entry};
pub use memory::MemoryEngine;
pub use packed::{Packing, MAX_CHUNK_BYTES};
pub use recovery::Attempt;
pub use redis_cluster::{RedisEngine, RedisOptions};
pub use rows::{
    canonical_name, stored_value_len, EncodedRow, Marker, MarkerAt, NameRange, RowSpan, RowWrites,
    StoredEntry, StoredSize, StoredValue, SuperEntry,
};
pub use sled_engine::SledEngine;
pub use store::{RowSession, Store};
pub use watermark::Watermark;
