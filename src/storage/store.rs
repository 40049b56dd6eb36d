//! The row store: the packing layer and the durability layer put together. Reads go through
//! [`Packed`]; writes are planned into chunk writes by it and committed by [`Durability`],
//! whose [`Ack`] says when they may be acknowledged. The typed row API (`rows`) is built on
//! the logical get/scan/write here.

use super::durability::{Ack, Durability, SyncPolicy};
use super::engine::{Batch, Engine, KvPair, RowLease, Scan};
use super::packed::{FirstChunks, Packed, Packing};
use crate::error::Result;
use std::cell::RefCell;
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
        let _leases = self.lease_rows(batch.keys())?;
        self.durability.commit(self.rows.plan(batch, None)?)
    }

    /// Takes the leases of the rows of `keys`, in key order, from an engine that several
    /// processes share (see [`Engine::lock_row`]); nothing for an engine of one process.
    pub(super) fn lease_rows<'k>(
        &self,
        keys: impl Iterator<Item = &'k [u8]>,
    ) -> Result<Vec<RowLease>> {
        let mut keys: Vec<&[u8]> = keys.collect();
        keys.sort_unstable();
        let mut leases = Vec::new();
        for key in keys {
            leases.extend(self.engine.lock_row(key)?);
        }
        Ok(leases)
    }

    /// A session for one row mutation, under the row's lock: lookups and the final write
    /// read each row's first chunk from the engine only once.
    pub fn row_session(&self) -> RowSession<'_> {
        RowSession {
            store: self,
            seen: FirstChunks::default(),
            lease: RefCell::new(None),
        }
    }

    /// Records this server among the front ends sharing the engine (see
    /// [`Engine::announce`]).
    pub fn announce(&self, endpoint: &str) -> Result<()> {
        self.engine.announce(endpoint)
    }

    /// The live front ends sharing the engine, or `None` when this node is alone (see
    /// [`Engine::front_ends`]).
    pub fn front_ends(&self) -> Result<Option<Vec<String>>> {
        self.engine.front_ends()
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
    /// The row's lease in an engine several processes share, taken at the first read
    /// (`Some(None)` once taken from an engine that has none).
    lease: RefCell<Option<Option<RowLease>>>,
}

impl RowSession<'_> {
    /// Takes the lease of the row `key` belongs to before its first read.
    fn lease_for(&self, key: &[u8]) -> Result<()> {
        if self.lease.borrow().is_none() {
            let lease = self.store.engine.lock_row(key)?;
            *self.lease.borrow_mut() = Some(lease);
        }
        Ok(())
    }

    /// The value at a logical `key`.
    pub(super) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.lease_for(key)?;
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
        if let Bound::Included(key) | Bound::Excluded(key) = &lower {
            if let Err(e) = self.lease_for(key) {
                return Box::new(std::iter::once(Err(e)));
            }
        }
        self.store.scan(lower, upper, reverse)
    }

    /// Applies the mutation's logical writes atomically (see [`Store::write_batch`]).
    pub(super) fn write_batch(self, batch: Batch) -> Result<Ack> {
        if let Some(key) = batch.keys().next() {
            self.lease_for(key)?;
        }
        let batch = self.store.rows.plan(batch, Some(&self.seen))?;
        self.store.durability.commit(batch)
    }
}

#[cfg(test)]
mod tests;
