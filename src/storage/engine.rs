//! The engine layer: the narrow interface the rest of storage needs from an ordered
//! key-value store (get, scan forward/reverse, atomic batch, durable sync), with the helpers
//! every engine shares. `SledEngine` and `MemoryEngine` implement it; code above storage only
//! picks (or, in tests, wraps) an engine and never reads through one.

use super::{EngineKind, Watermark};
use crate::error::Result;
use std::ops::Bound;

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
