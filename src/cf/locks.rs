//! Striped row locks: writes to one row key run their read-reconcile-write one at a time,
//! while writes to other rows (almost always on other stripes) proceed in parallel. Whoever
//! needs several stripes (an atomic batch, truncate, drain, snapshots) takes them in stripe
//! order.

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
        self.lock_stripe(self.stripe(keyspace, key))
    }

    /// Locks the stripes of several rows, each once, in stripe order: two callers can never
    /// each hold a stripe the other waits for.
    pub fn lock_rows<'k>(
        &self,
        rows: impl IntoIterator<Item = (&'k str, &'k [u8])>,
    ) -> Vec<MutexGuard<'_, ()>> {
        let mut stripes: Vec<usize> = rows
            .into_iter()
            .map(|(keyspace, key)| self.stripe(keyspace, key))
            .collect();
        stripes.sort_unstable();
        stripes.dedup();
        stripes.into_iter().map(|i| self.lock_stripe(i)).collect()
    }

    fn stripe(&self, keyspace: &str, key: &[u8]) -> usize {
        (self.hasher.hash_one((keyspace, key)) as usize) % STRIPES
    }

    fn lock_stripe(&self, index: usize) -> MutexGuard<'_, ()> {
        self.stripes[index % STRIPES]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Locks every stripe, in order: no row write runs until the guards are dropped. Row
    /// writers hold one stripe, or several taken in stripe order ([`RowLocks::lock_rows`]),
    /// so this cannot deadlock with them.
    pub fn lock_all(&self) -> Vec<MutexGuard<'_, ()>> {
        self.stripes
            .iter()
            .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn several_rows_lock_each_stripe_once_in_order() {
        let locks = RowLocks::new();
        let keys: Vec<Vec<u8>> = (0..3000u32).map(|i| i.to_be_bytes().to_vec()).collect();
        // More rows than stripes, and repeats: each stripe is taken once (a second lock of
        // one would never return).
        let rows = keys.iter().chain(&keys).map(|k| ("ks", k.as_slice()));
        let guards = locks.lock_rows(rows);
        let mut distinct: Vec<usize> = keys.iter().map(|k| locks.stripe("ks", k)).collect();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(guards.len(), distinct.len());
        assert!(guards.len() > STRIPES / 2);
        drop(guards);
        // Two threads locking overlapping sets in opposite request orders both finish.
        let locks = Arc::new(locks);
        let threads: Vec<_> = [false, true]
            .into_iter()
            .map(|reverse| {
                let (locks, keys) = (Arc::clone(&locks), keys.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let mut rows: Vec<&[u8]> = keys[..40].iter().map(Vec::as_slice).collect();
                        if reverse {
                            rows.reverse();
                        }
                        drop(locks.lock_rows(rows.into_iter().map(|k| ("ks", k))));
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
    }
}
