//! The row store: the packing layer and the durability layer put together. Reads go through
//! [`Packed`]; writes are planned into chunk writes by it and committed by [`Durability`],
//! whose [`Ack`] says when they may be acknowledged. The typed row API (`rows`) is built on
//! the logical get/scan/write here.

use super::durability::{Ack, SyncPolicy};
use super::engine::{Batch, Engine, KvPair, RowLease, Scan};
use super::packed::{FirstChunks, Packing};
use super::recovery::{Attempt, Live, Slot};
use crate::error::{Error, Result};
use std::cell::RefCell;
use std::marker::PhantomData;
use std::ops::Bound;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// An engine with its rows packed and its writes made durable by policy: what `cf` reads
/// from and writes through. The engine and what is built over it are one live store,
/// replaced whole when a failed engine is reopened (`recovery`).
pub struct Store {
    slot: Arc<Slot>,
    recovery: Mutex<Option<JoinHandle<()>>>,
}

/// A scan that keeps the live store it reads open (it may be replaced meanwhile).
type LiveScan<'a> = Scan<'a>;

self_cell::self_cell!(
    struct OwnedScan {
        owner: Arc<Live>,
        #[covariant]
        dependent: LiveScan,
    }
);

impl Iterator for OwnedScan {
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        self.with_dependent_mut(|_, scan| scan.next())
    }
}

impl Store {
    /// Wraps `engine` with `policy` and starts its syncer thread; the entries of each row
    /// are stored packed by `packing`. A store whose generation is below its watermark has
    /// lost durable writes and is refused. An engine that can be reopened from its files
    /// is reopened when it fails and the disk takes writes again (`recovery`).
    pub fn new(engine: Arc<dyn Engine>, policy: SyncPolicy, packing: Packing) -> Result<Store> {
        let live = Live::start(engine, policy, packing)?;
        let slot = Arc::new(Slot::new(live, policy, packing));
        let recovery = slot.start_recovery()?;
        Ok(Store {
            slot,
            recovery: Mutex::new(recovery),
        })
    }

    /// The engine underneath, for whole-store copies (`snapshot`).
    pub(super) fn engine(&self) -> Result<Arc<dyn Engine>> {
        Ok(Arc::clone(&self.slot.current()?.engine))
    }

    /// One recovery attempt now (the recovery thread makes one every second).
    pub fn try_recover(&self) -> Attempt {
        self.slot.try_recover()
    }

    /// The value at a logical `key`.
    pub(super) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.slot.current()?.rows.get(key, None)
    }

    /// An ordered scan of logical entries (see [`Engine::scan`]).
    pub(super) fn scan(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> Scan<'_> {
        match self.slot.current() {
            Ok(live) => Box::new(OwnedScan::new(live, |live| {
                live.rows.scan(lower, upper, reverse)
            })),
            Err(e) => Box::new(std::iter::once(Err(e))),
        }
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
        let live = self.slot.current()?;
        let _leases = lease_rows(live.engine.as_ref(), batch.keys())?;
        live.durability.commit(live.rows.plan(batch, None)?)
    }

    /// Removes every physical entry from `lower` up to `upper` — whole rows, chunks and all,
    /// never read back or planned — and hands out the acknowledgement of the removal. The
    /// caller keeps writers of these rows out. On an engine of one process it is one atomic
    /// batch: after a crash all of it or none of it is gone. On a shared engine, which
    /// cannot apply a batch across rows atomically, it is one batch per row, each under the
    /// row's lease (so no other front end writes the row meanwhile): a crash part-way leaves
    /// some rows whole and the others gone, never part of a row, and the same call again
    /// finishes the job.
    pub(super) fn remove_rows(&self, lower: Vec<u8>, upper: Bound<Vec<u8>>) -> Result<Ack> {
        let live = self.slot.current()?;
        let engine = live.engine.as_ref();
        if !engine.shared() {
            let mut batch = Batch::default();
            for item in engine.scan(Bound::Included(lower), upper, false) {
                batch.delete(item?.0);
            }
            return live.durability.commit(batch);
        }
        let mut ack = Ack::done();
        let mut from = Bound::Included(lower);
        while let Some((key, _)) = engine.scan(from, upper.clone(), false).next().transpose()? {
            let prefix = match live.rows.row_prefix_len(&key) {
                Some(len) => key[..len].to_vec(),
                None => return Err(Error::Corrupt("undecodable row key in a removal".into())),
            };
            let row_end = super::keys::prefix_upper(&prefix);
            let _lease = lease_rows(engine, std::iter::once(prefix.as_slice()))?;
            // Read under the lease: the row's chunks as they are now.
            let mut batch = Batch::default();
            for item in engine.scan(Bound::Included(prefix), row_end.clone(), false) {
                batch.delete(item?.0);
            }
            ack = live.durability.commit(batch)?;
            from = match row_end {
                Bound::Excluded(end) => Bound::Included(end),
                _ => break,
            };
        }
        Ok(ack)
    }

    /// Takes the leases of the rows of `keys`, in row order, from an engine that several
    /// processes share (see [`Engine::lock_row`]); nothing for an engine of one process.
    pub(super) fn lease_rows<'k>(
        &self,
        keys: impl Iterator<Item = &'k [u8]>,
    ) -> Result<Vec<RowLease>> {
        lease_rows(self.slot.current()?.engine.as_ref(), keys)
    }

    /// A session for one row mutation, under the row's lock: lookups and the final write
    /// read each row's first chunk from the engine only once.
    pub fn row_session(&self) -> RowSession<'_> {
        RowSession {
            _store: PhantomData,
            live: self.slot.current().map_err(|e| e.to_string()),
            seen: FirstChunks::default(),
            leases: RefCell::new(None),
        }
    }

    /// A session for the mutations of several rows written in one batch, under all their
    /// locks: the leases of the rows of `keys` are taken now, in row order (see
    /// [`Store::lease_rows`]), and held until the session's write.
    pub(super) fn leased_session(&self, keys: Vec<Vec<u8>>) -> Result<RowSession<'_>> {
        let session = self.row_session();
        let leases = lease_rows(
            session.live()?.engine.as_ref(),
            keys.iter().map(Vec::as_slice),
        )?;
        *session.leases.borrow_mut() = Some(leases);
        Ok(session)
    }

    /// Records this server among the front ends sharing the engine (see
    /// [`Engine::announce`]).
    pub fn announce(&self, endpoint: &str) -> Result<()> {
        self.slot.current()?.engine.announce(endpoint)
    }

    /// The live front ends sharing the engine, or `None` when this node is alone (see
    /// [`Engine::front_ends`]).
    pub fn front_ends(&self) -> Result<Option<Vec<String>>> {
        self.slot.current()?.engine.front_ends()
    }

    /// Makes everything written so far durable now.
    pub fn sync(&self) -> Result<()> {
        self.slot.current()?.durability.sync()
    }

    /// Stops recoveries and the syncer after a final sync. Idempotent; also run on drop.
    pub fn close(&self) -> Result<()> {
        let thread = self
            .recovery
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        self.slot.close(thread)
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let thread = self
            .recovery
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if thread.is_some() {
            // Ends the recovery thread, which holds the slot (the live store's own drop
            // makes its final sync).
            if let Err(e) = self.slot.close(thread) {
                tracing::error!("final sync failed: {e}");
            }
        }
    }
}

/// Takes the leases of the rows of `keys` in the order of their row parts (leases are per
/// row part, shared by the row's column families), so every writer that takes several
/// takes them in one order and none waits for another in a circle.
fn lease_rows<'k>(
    engine: &dyn Engine,
    keys: impl Iterator<Item = &'k [u8]>,
) -> Result<Vec<RowLease>> {
    let mut keys: Vec<&[u8]> = keys.collect();
    keys.sort_unstable_by(|a, b| a.get(4..).unwrap_or(a).cmp(b.get(4..).unwrap_or(b)));
    let mut leases = Vec::new();
    for key in keys {
        leases.extend(engine.lock_row(key)?);
    }
    Ok(leases)
}

/// Reads and the write of one row mutation (see [`Store::row_session`]), or of the row
/// mutations of one atomic batch (see [`Store::batch_session`]). It works on the live store
/// of its start to its end.
pub struct RowSession<'a> {
    _store: PhantomData<&'a Store>,
    live: std::result::Result<Arc<Live>, String>,
    seen: FirstChunks,
    /// The row's lease in an engine several processes share, taken at the first read, or
    /// the leases of all its rows taken at its start (`Some(empty)` once taken from an
    /// engine that has none).
    leases: RefCell<Option<Vec<RowLease>>>,
}

impl RowSession<'_> {
    fn live(&self) -> Result<&Live> {
        self.live
            .as_deref()
            .map_err(|why| Error::Storage(why.clone()))
    }

    /// Takes the lease of the row `key` belongs to before its first read (nothing when the
    /// session's leases were taken at its start).
    fn lease_for(&self, key: &[u8]) -> Result<()> {
        if self.leases.borrow().is_none() {
            let lease = self.live()?.engine.lock_row(key)?;
            *self.leases.borrow_mut() = Some(lease.into_iter().collect());
        }
        Ok(())
    }

    /// The value at a logical `key`.
    pub(super) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.lease_for(key)?;
        self.live()?.rows.get(key, Some(&self.seen))
    }

    /// True when the row `prefix` (CF id and row part) has nothing stored.
    pub(super) fn row_absent(&self, prefix: &[u8]) -> Result<bool> {
        // Under the lease too: a row found empty is then written without reading it, so
        // another front end must not fill it in between.
        self.lease_for(prefix)?;
        self.live()?.rows.row_absent(prefix, Some(&self.seen))
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
        match self.live() {
            Ok(live) => live.rows.scan(lower, upper, reverse),
            Err(e) => Box::new(std::iter::once(Err(e))),
        }
    }

    /// Applies the mutation's logical writes atomically (see [`Store::write_batch`]).
    pub(super) fn write_batch(self, batch: Batch) -> Result<Ack> {
        if let Some(key) = batch.keys().next() {
            self.lease_for(key)?;
        }
        let live = self.live()?;
        let batch = live.rows.plan(batch, Some(&self.seen))?;
        live.durability.commit(batch)
    }
}

#[cfg(test)]
mod tests;
