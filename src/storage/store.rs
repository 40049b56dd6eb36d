//! The row store: the packing layer and the durability layer put together. Reads go through
//! [`Packed`]; writes are planned into chunk writes by it and committed by [`Durability`],
//! whose [`Ack`] says when they may be acknowledged. The typed row API (`rows`) is built on
//! the logical get/scan/write here.

use super::durability::{Ack, Durability, SyncPolicy};
use super::engine::{Batch, Engine, KvPair, Scan};
use super::packed::{FirstChunks, Packed, Packing};
use crate::error::Result;
use std::ops::Bound;
use std::sync::Arc;

/// An engine with its rows packed and its writes made durable by policy: what `cf` reads
/// from and writes through.
pub struct Store {
    /// The engine itself, for whole-store copies (`snapshot`).
    engine: Arc<dyn Engine>,
    rows: Packed,
    durability: Durability,
}

impl Store {
    /// Wraps `engine` with `policy` and starts its syncer thread; the entries of each row
    /// are stored packed by `packing`. A store whose generation is below its watermark has
    /// lost durable writes and is refused.
    pub fn new(engine: Arc<dyn Engine>, policy: SyncPolicy, packing: Packing) -> Result<Store> {
        let durability = Durability::start(Arc::clone(&engine), policy)?;
        Ok(Store {
            rows: Packed::new(Arc::clone(&engine), packing),
            engine,
            durability,
        })
    }

    /// The engine underneath, for whole-store copies (`snapshot`).
    pub(super) fn engine(&self) -> &dyn Engine {
        self.engine.as_ref()
    }

    /// The value at a logical `key`.
    pub(super) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.rows.get(key, None)
    }

    /// An ordered scan of logical entries (see [`Engine::scan`]).
    pub(super) fn scan(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> Scan<'_> {
        self.rows.scan(lower, upper, reverse)
    }

    /// The first entry at or after `lower` and before `upper`.
    pub(super) fn first(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
    ) -> Result<Option<KvPair>> {
        self.scan(lower, upper, false).next().transpose()
    }

    /// Applies `batch` of logical writes atomically. The returned [`Ack`] completes when
    /// the policy allows the write to be acknowledged. Writes to one row must not run
    /// concurrently (`cf` serialises them with its row locks).
    pub(super) fn write_batch(&self, batch: Batch) -> Result<Ack> {
        self.durability.commit(self.rows.plan(batch, None)?)
    }

    /// A session for one row mutation, under the row's lock: lookups and the final write
    /// read each row's first chunk from the engine only once.
    pub fn row_session(&self) -> RowSession<'_> {
        RowSession {
            store: self,
            seen: FirstChunks::default(),
        }
    }

    /// Makes everything written so far durable now.
    pub fn sync(&self) -> Result<()> {
        self.durability.sync()
    }

    /// Stops the syncer after a final sync. Idempotent; also run on drop.
    pub fn close(&self) -> Result<()> {
        self.durability.close()
    }
}

/// Reads and the write of one row mutation (see [`Store::row_session`]).
pub struct RowSession<'a> {
    store: &'a Store,
    seen: FirstChunks,
}

impl RowSession<'_> {
    /// The value at a logical `key`.
    pub(super) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.store.rows.get(key, Some(&self.seen))
    }

    /// True when the row `prefix` (CF id and row part) has nothing stored.
    pub(super) fn row_absent(&self, prefix: &[u8]) -> Result<bool> {
        self.store.rows.row_absent(prefix, Some(&self.seen))
    }

    /// An ordered scan (see [`Engine::scan`]).
    pub(super) fn scan(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> Scan<'_> {
        self.store.scan(lower, upper, reverse)
    }

    /// Applies the mutation's logical writes atomically (see [`Store::write_batch`]).
    pub(super) fn write_batch(self, batch: Batch) -> Result<Ack> {
        let batch = self.store.rows.plan(batch, Some(&self.seen))?;
        self.store.durability.commit(batch)
    }
}

#[cfg(test)]
mod tests;
