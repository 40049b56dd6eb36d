//! Column-family semantics (`docs/api.md#data-model`, `#reads`) over `storage`: applying row
//! mutations with the reconcile rules, names and range slices, counts, super columns, range
//! scans over rows, paging across rows and columns, truncating a column family, and
//! tombstone purge after GCGraceSeconds — and counters (`docs/api-later.md#counters`):
//! increments sum into a stored total that reconciles below every timestamp, so an
//! increment a deletion covers is dropped like a hidden insert and a deletion stays final
//! until its tombstone is purged.
//!
//! Tombstones are applied at write time. A row, super-column or range delete physically
//! removes what it hides and stays as a marker (a range in the marker of its level: see
//! `deletions`); an insert the markers (or a newer column version) would hide is dropped. So everything stored is visible except column tombstones and
//! expired columns (`docs/api-later.md#ttl`: an expiring column's expiry is the Db clock at
//! apply time plus its TTL), which reads skip — and reads need no tombstone lookups. Writes to one row are serialised by a
//! striped lock so that read-reconcile-write is atomic; each row mutation is one atomic
//! storage batch.

mod admin;
mod cas;
mod deletions;
mod filter;
mod gc;
mod locks;
mod paged;
mod range;
mod read;
mod schema;
mod stats;
mod truncate;
mod write;

use crate::config::{CfDef, Schema};
use crate::error::{Error, Result};
use crate::partitioner::{Partitioner, Token};
use crate::storage::{Ack, Catalog, CfLayout, Engine, Packing, Store, SyncPolicy};
use arc_swap::{ArcSwap, Guard};
use locks::RowLocks;
use stats::Counters;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

pub use admin::{CfScan, CfSelection, DRAINED};
pub use cas::CasOutcome;
pub use gc::MaintenanceHandle;

/// Seconds since the epoch, as the server's clock for tombstone local deletion times and
/// column expiry.
pub type Clock = Arc<dyn Fn() -> u32 + Send + Sync>;

/// The system clock.
pub fn system_clock() -> Clock {
    Arc::new(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as u32)
            .unwrap_or(0)
    })
}

/// Settings for opening a [`Db`].
#[derive(Clone)]
pub struct DbOptions {
    /// The ring's partitioner; the store refuses one that differs from what it was written with.
    pub partitioner: Partitioner,
    /// When an acknowledged write is durable (`<CommitLogSync>`).
    pub sync: SyncPolicy,
    /// `GCGraceSeconds`: how long tombstones are kept before the purge removes them.
    pub gc_grace_seconds: u32,
    /// `<InitialToken>`, parsed.
    pub initial_token: Option<Token>,
    /// Size above which a row's packed chunk is split (`storage::MAX_CHUNK_BYTES`; tests use
    /// tiny chunks to exercise splits).
    pub chunk_bytes: usize,
    /// The local deletion time of tombstones, the now of column expiry, and the purge's now.
    pub clock: Clock,
}

/// Every column family of every keyspace, over one store.
pub struct Db {
    store: Store,
    /// The schema and layouts now; a schema change swaps in a new snapshot, and readers
    /// keep the one they took for the whole call.
    catalog: ArcSwap<Catalog>,
    /// Serialises schema changes (each reads the current snapshot and writes the next).
    schema_changes: Mutex<()>,
    locks: RowLocks,
    /// Per-CF statistics kept on the write path (`stats`).
    counters: Counters,
    options: DbOptions,
    /// Set by `drain`: every later write is refused.
    drained: std::sync::atomic::AtomicBool,
}

/// A column family's definition and key layout together.
#[derive(Clone, Copy)]
pub(crate) struct CfRef<'a> {
    pub def: &'a CfDef,
    pub layout: &'a CfLayout,
}

impl Db {
    /// Opens the store over `engine` with the schema it keeps; `schema` (storage-conf.xml's)
    /// seeds a fresh store and adds the keyspaces and column families the store has never
    /// seen (`storage::Catalog::load`).
    pub fn open(engine: Arc<dyn Engine>, schema: Arc<Schema>, options: DbOptions) -> Result<Db> {
        let packing = Packing {
            partitioner: options.partitioner,
            max_chunk: options.chunk_bytes,
        };
        let store = Store::new(engine, options.sync, packing)?;
        // Only used to pick a first token when none is configured or recorded.
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let entropy = nanos ^ (u128::from(std::process::id()) << 64);
        let catalog = Catalog::load(
            &store,
            options.partitioner,
            &schema,
            options.initial_token.clone(),
            entropy,
        )?;
        let ids: Vec<u32> = catalog.layouts().map(|(_, _, l)| l.id).collect();
        let db = Db {
            store,
            catalog: ArcSwap::from_pointee(catalog),
            schema_changes: Mutex::new(()),
            locks: RowLocks::new(),
            counters: Counters::new(ids),
            options,
            drained: Default::default(),
        };
        // Column families dropped before this start may still hold data: a crash came
        // before its removal, or a write that looked the column family up just before the
        // drop landed after it.
        db.remove_dropped_data(true)?;
        Ok(db)
    }

    /// The schema now (a snapshot: later schema changes do not alter it).
    pub fn schema(&self) -> Arc<Schema> {
        self.catalog().schema().clone()
    }

    /// The schema and layouts now. Every request takes it, so it is a lock-free load that
    /// usually does not even touch the snapshot's reference count; hold it for one call only.
    pub(crate) fn catalog(&self) -> Guard<Arc<Catalog>> {
        self.catalog.load()
    }

    /// The partitioner rows are ordered by.
    pub fn partitioner(&self) -> Partitioner {
        self.options.partitioner
    }

    /// This node's token (from `<InitialToken>`, or chosen at first start and kept).
    pub fn token(&self) -> Token {
        self.catalog().token().clone()
    }

    /// Records this server's Thrift `endpoint` among the front ends sharing the store (a
    /// `redis-cluster` store; nothing otherwise).
    pub fn announce(&self, endpoint: &str) -> Result<()> {
        self.store.announce(endpoint)
    }

    /// The live front ends sharing the store, sorted; `None` when this node is alone.
    pub fn front_ends(&self) -> Result<Option<Vec<String>>> {
        self.store.front_ends()
    }

    /// Makes everything written so far durable.
    pub fn sync(&self) -> Result<()> {
        self.store.sync()
    }

    /// Final sync and stop of the background syncer.
    pub fn close(&self) -> Result<()> {
        self.store.close()
    }

    /// Looks up a column family in a snapshot taken with [`Db::catalog`], with the message
    /// 0.6 uses for an unknown one.
    pub(crate) fn cf<'c>(catalog: &'c Catalog, keyspace: &str, cf: &str) -> Result<CfRef<'c>> {
        let def = catalog.schema().column_family(keyspace, cf)?;
        let layout = catalog
            .layout(keyspace, cf)
            .ok_or_else(|| Error::Storage(format!("no storage layout for {keyspace}.{cf}")))?;
        Ok(CfRef { def, layout })
    }

    fn now(&self) -> u32 {
        (self.options.clock)()
    }
}

/// The result of an applied mutation: wait on it before acknowledging.
pub type WriteAck = Ack;

#[cfg(test)]
mod tests;
