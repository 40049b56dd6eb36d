//! The engine layer: the narrow interface the rest of storage needs from an ordered
//! key-value store (get, scan forward/reverse, atomic batch, durable sync), with the helpers
//! every engine shares. `SledEngine` and `MemoryEngine` implement it; code above storage only
//! picks (or, in tests, wraps) an engine and never reads through one.

use super::{EngineKind, Watermark};
use crate::error::{Error, Result};
use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A key and its value.
pub type KvPair = (Vec<u8>, Vec<u8>);

/// An ordered scan over an engine.
pub type Scan<'a> = Box<dyn Iterator<Item = Result<KvPair>> + Send + 'a>;

/// Writes applied together or not at all.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Batch {
    ops: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

impl Batch {
    /// Sets `key` to `value`.
    pub fn put(&mut self, key: Vec<u8>, value: Vec<u8>) {
        self.ops.push((key, Some(value)));
    }

    /// Removes `key`.
    pub fn delete(&mut self, key: Vec<u8>) {
        self.ops.push((key, None));
    }

    /// Number of writes.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// True when there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// The keys written, in order (with repeats).
    pub fn keys(&self) -> impl Iterator<Item = &[u8]> {
        self.ops.iter().map(|(key, _)| key.as_slice())
    }

    /// The writes, in order; a later write to the same key wins.
    pub fn into_ops(self) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        self.ops
    }
}

/// An ordered key-value engine: what the rest of storage needs from sled.
pub trait Engine: Send + Sync {
    /// The value at `key`.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>>;

    /// Entries with keys in `(lower, upper)`, ascending or (with `reverse`) descending.
    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_>;

    /// Applies every write of `batch` atomically: after a crash, all or none are present.
    fn apply(&self, batch: Batch) -> Result<()>;

    /// Makes everything applied so far durable, through a real fsync barrier.
    fn sync(&self) -> Result<()>;

    /// The watermark file that guards this engine's durable history, if it keeps one
    /// (see `watermark`).
    fn watermark(&self) -> Option<Watermark> {
        None
    }

    /// Which on-disk engine this is (`None` for the in-memory twin): a snapshot of the store
    /// is written with the same engine.
    fn kind(&self) -> Option<EngineKind> {
        None
    }

    /// For an engine that several processes share (`redis-cluster`): keeps every other
    /// writer of the row `key` belongs to out until the lease is dropped, and lets this
    /// thread's writes to that row through only while the lease holds. `None` when there is
    /// nothing to take: an engine of one process (where `cf`'s row locks suffice), a key that
    /// is no row's, or a lease this thread already holds.
    fn lock_row(&self, _key: &[u8]) -> Result<Option<RowLease>> {
        Ok(None)
    }

    /// True for an engine that several processes share (`redis-cluster`): it applies a
    /// batch row by row, not atomically across rows, and its row leases expire, so writes
    /// spanning many rows are made row by row under each row's lease.
    fn shared(&self) -> bool {
        false
    }

    /// For an engine that several front ends share: records `endpoint` (this server's
    /// Thrift endpoint) among the live front ends, and keeps it there while the engine is
    /// open. Nothing for an engine of one process.
    fn announce(&self, _endpoint: &str) -> Result<()> {
        Ok(())
    }

    /// The endpoints of the live front ends sharing this engine, sorted; `None` for an
    /// engine of one process (the node is the whole ring).
    fn front_ends(&self) -> Result<Option<Vec<String>>> {
        Ok(None)
    }

    /// True once the engine refuses writes after an I/O failure (a full or read-only disk):
    /// only opening it again from its files clears that (see `recovery`).
    fn failed(&self) -> bool {
        false
    }

    /// How to open this engine again from its files, as a restart would; `None` for an
    /// engine that cannot be reopened in place (the in-memory twin, a shared cluster).
    fn reopener(&self) -> Option<Arc<dyn Reopen>> {
        None
    }

    /// Whether this failed engine can be closed, so that its files can be opened again in
    /// this process: an engine whose close would never finish (and keep its directory
    /// locked) says why not.
    fn releasable(&self) -> Result<()> {
        Ok(())
    }
}

/// Opens a failed engine's files again (see [`Engine::reopener`] and `recovery`).
pub trait Reopen: Send + Sync {
    /// Ok when the files look able to take writes again (space returned): only then is the
    /// failed engine closed and the files reopened.
    fn ready(&self) -> Result<()>;

    /// Opens the engine from its files, as a restart does; the caller has closed the
    /// failed one.
    fn reopen(&self) -> Result<Arc<dyn Engine>>;
}

/// A row's lease in a shared engine (see [`Engine::lock_row`]); dropping it gives it up.
pub struct RowLease {
    _guard: Box<dyn Send>,
}

impl RowLease {
    /// A lease given up when `guard` is dropped.
    pub fn new(guard: impl Send + 'static) -> RowLease {
        RowLease {
            _guard: Box::new(guard),
        }
    }
}

/// True when no key can lie between `lower` and `upper` (std's BTreeMap panics on such
/// ranges, so every engine checks first).
pub(crate) fn range_is_empty(lower: &Bound<Vec<u8>>, upper: &Bound<Vec<u8>>) -> bool {
    match (lower, upper) {
        (Bound::Included(l), Bound::Included(u)) => l > u,
        (Bound::Included(l), Bound::Excluded(u))
        | (Bound::Excluded(l), Bound::Included(u))
        | (Bound::Excluded(l), Bound::Excluded(u)) => l >= u,
        _ => false,
    }
}

/// True when `key` lies between `lower` and `upper`.
pub(crate) fn in_bounds(key: &[u8], lower: &Bound<Vec<u8>>, upper: &Bound<Vec<u8>>) -> bool {
    let above = match lower {
        Bound::Included(l) => key >= l.as_slice(),
        Bound::Excluded(l) => key > l.as_slice(),
        Bound::Unbounded => true,
    };
    let below = match upper {
        Bound::Included(u) => key <= u.as_slice(),
        Bound::Excluded(u) => key < u.as_slice(),
        Bound::Unbounded => true,
    };
    above && below
}

#[cfg(test)]
mod tests;

/// How long opening a store waits for its lock: a closing engine of this same process may
/// still hold it while its background threads wind down after the drop.
const LOCK_WAIT: Duration = Duration::from_secs(2);

/// What one attempt to open an engine's files gave.
pub(crate) enum OpenAttempt<T> {
    /// Opened.
    Opened(T),
    /// Another holder has the directory's lock: try again shortly.
    Locked,
    /// Any other failure, as the engine words it.
    Failed(String),
}

/// Opens the store in `dir` with `attempt`, retrying while its lock is held (up to
/// [`LOCK_WAIT`]); then "in use by another process". Other failures mean the files cannot be
/// read as a store: refused as corrupt, never reset.
pub(crate) fn open_waiting_for_lock<T>(
    dir: &Path,
    mut attempt: impl FnMut() -> OpenAttempt<T>,
) -> Result<T> {
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match attempt() {
            OpenAttempt::Opened(db) => return Ok(db),
            OpenAttempt::Locked if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            OpenAttempt::Locked => {
                return Err(Error::Storage(format!(
                    "data directory {} is in use by another process",
                    dir.display()
                )))
            }
            OpenAttempt::Failed(why) => {
                return Err(Error::Corrupt(format!(
                    "cannot open the store in {}: {why}",
                    dir.display()
                )))
            }
        }
    }
}
