//! The in-memory twin of the sled engine: a `BTreeMap` behind a lock. Unit tests run the same
//! suites against both, and it is the pattern for adding another engine.

use super::engine::{range_is_empty, Batch, Engine, KvPair, Scan};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::{PoisonError, RwLock};

/// Entries fetched per lock acquisition while scanning, so scans never hold the lock long.
const SCAN_CHUNK: usize = 64;

/// An engine that keeps everything in memory; `sync` is a no-op.
#[derive(Debug, Default)]
pub struct MemoryEngine {
    map: RwLock<BTreeMap<Vec<u8>, Vec<u8>>>,
}

impl MemoryEngine {
    /// An empty engine.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock_err<T>(_: PoisonError<T>) -> Error {
        Error::Storage("memory engine lock poisoned".into())
    }
}

impl Engine for MemoryEngine {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        Ok(self.map.read().map_err(Self::lock_err)?.get(key).cloned())
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        Box::new(ChunkedScan {
            engine: self,
            lower,
            upper,
            reverse,
            buffer: Vec::new(),
            done: false,
        })
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        let mut map = self.map.write().map_err(Self::lock_err)?;
        for (key, value) in batch.into_ops() {
            match value {
                Some(v) => map.insert(key, v),
                None => map.remove(&key),
            };
        }
        Ok(())
    }

    fn sync(&self) -> Result<()> {
        Ok(())
    }
}

/// A scan that refills a small buffer under the read lock, resuming after the last key.
struct ChunkedScan<'a> {
    engine: &'a MemoryEngine,
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
    reverse: bool,
    /// Next entries, last one first (popped from the back).
    buffer: Vec<KvPair>,
    done: bool,
}

impl ChunkedScan<'_> {
    fn refill(&mut self) -> Result<()> {
        let map = self.engine.map.read().map_err(MemoryEngine::lock_err)?;
        if range_is_empty(&self.lower, &self.upper) {
            self.done = true;
            return Ok(());
        }
        let range = map.range((self.lower.clone(), self.upper.clone()));
        let chunk: Vec<KvPair> = if self.reverse {
            range
                .rev()
                .take(SCAN_CHUNK)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        } else {
            range
                .take(SCAN_CHUNK)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        };
        self.done = chunk.len() < SCAN_CHUNK;
        if let Some((last, _)) = chunk.last() {
            if self.reverse {
                self.upper = Bound::Excluded(last.clone());
            } else {
                self.lower = Bound::Excluded(last.clone());
            }
        }
        self.buffer = chunk.into_iter().rev().collect();
        Ok(())
    }
}

impl Iterator for ChunkedScan<'_> {
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.buffer.is_empty() && !self.done {
            if let Err(e) = self.refill() {
                self.done = true;
                return Some(Err(e));
            }
        }
        self.buffer.pop().map(Ok)
    }
}
