//! Striped row locks: writes to one row key run their read-reconcile-write one at a time,
//! while writes to other rows (almost always on other stripes) proceed in parallel.

use foldhash::fast::RandomState;
use std::hash::BuildHasher;
use std::sync::{Mutex, MutexGuard};

const STRIPES: usize = 1024;

/// A fixed set of mutexes indexed by a hash of (keyspace, row key).
pub struct RowLocks {
    stripes: Vec<Mutex<()>>,
    /// Randomly keyed per process: clients choose row keys, but cannot aim them at one
    /// stripe.
    hasher: RandomState,
}

impl RowLocks {
    /// A new set of stripes.
    pub fn new() -> RowLocks {
        RowLocks {
            stripes: (0..STRIPES).map(|_| Mutex::new(())).collect(),
            hasher: RandomState::default(),
        }
    }

    /// Locks the stripe of one row. Poisoning is ignored: the guarded data is the store,
    /// which a panicking writer leaves consistent (its batch was atomic or never applied).
    pub fn lock(&self, keyspace: &str, key: &[u8]) -> MutexGuard<'_, ()> {
        let hash = self.hasher.hash_one((keyspace, key));
        let stripe = &self.stripes[(hash as usize) % STRIPES];
        stripe.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Locks every stripe, in order: no row write runs until the guards are dropped. Row
    /// writers hold one stripe at a time, so this cannot deadlock with them.
    pub fn lock_all(&self) -> Vec<MutexGuard<'_, ()>> {
        self.stripes
            .iter()
            .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()))
            .collect()
    }
}
