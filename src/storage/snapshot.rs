//! Point-in-time copies of the store for `ilion tool snapshot`. A snapshot is a complete store
//! of its own, on the same engine as the live one — every engine entry (packed rows, catalog,
//! generation) copied byte for byte into a fresh directory and synced — so `ilion serve` starts
//! from it as from any data directory. The copy is consistent when no write is applied while it
//! runs; `cf` guarantees that by holding every row lock (see `cf::admin`).

#[cfg(test)]
use super::SledEngine;
use super::{open_engine, Batch, EngineKind, Store};
use crate::error::{Error, Result};
use std::fs;
use std::ops::Bound;
use std::path::Path;

/// Entries copied per batch.
const COPY_BATCH: usize = 1024;

/// sled's cache while writing a snapshot: it is written once and closed.
const SNAPSHOT_CACHE_BYTES: u64 = 16 << 20;

impl Store {
    /// Copies every entry of the engine into a new sled store in `dir` (which must not
    /// exist yet) and makes it durable. Returns the number of entries copied. The caller
    /// keeps writers out while this runs.
    pub fn copy_to(&self, dir: &Path) -> Result<u64> {
        if dir.exists() {
            return Err(Error::Storage(format!("{} exists already", dir.display())));
        }
        // The same engine as the live store (sled for the in-memory twin), recorded in the
        // copy's marker file like any new store's.
        let engine = self.engine()?;
        let kind = engine.kind().unwrap_or(EngineKind::Sled);
        let target = open_engine(dir, kind, SNAPSHOT_CACHE_BYTES)?.engine;
        let mut copied = 0u64;
        let mut batch = Batch::default();
        for item in engine.scan(Bound::Unbounded, Bound::Unbounded, false) {
            let (key, value) = item?;
            batch.put(key, value);
            copied += 1;
            if batch.len() >= COPY_BATCH {
                target.apply(std::mem::take(&mut batch))?;
            }
        }
        target.apply(batch)?;
        target.sync()?;
        Ok(copied)
    }
}

/// Bytes of the files under `dir`, recursively, leaving out the subdirectory `skip` at the
/// top (the snapshots inside a data directory are not the node's load). Files that vanish
/// while counting (sled removes old segments and blobs) are skipped.
pub fn dir_bytes(dir: &Path, skip: Option<&str>) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut total = 0;
    for entry in entries.flatten() {
        if skip.is_some_and(|s| entry.file_name() == s) {
            continue;
        }
        match entry.metadata() {
            Ok(m) if m.is_dir() => total += dir_bytes(&entry.path(), None),
            Ok(m) => total += m.len(),
            Err(_) => {}
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partitioner::Partitioner;
    use crate::storage::keys::meta_key;
    use crate::storage::{Packing, SyncPolicy, MAX_CHUNK_BYTES};
    use std::sync::Arc;
    use std::time::Duration;

    fn packing() -> Packing {
        Packing {
            partitioner: Partitioner::Random,
            max_chunk: MAX_CHUNK_BYTES,
        }
    }

    #[test]
    fn a_copy_holds_every_entry_and_opens_as_a_store() {
        let dir = tempfile::tempdir().expect("temp dir");
        let engine = Arc::new(SledEngine::open(&dir.path().join("live"), 1 << 20).expect("open"));
        let store = Store::new(
            engine,
            SyncPolicy::Periodic(Duration::from_secs(1)),
            packing(),
        )
        .expect("store");
        let mut batch = Batch::default();
        for i in 0..3000u32 {
            batch.put(meta_key(&i.to_be_bytes()), vec![7; 10]);
        }
        store
            .write_batch(batch)
            .expect("write")
            .wait()
            .expect("durable");
        let copy = dir.path().join("snap");
        let copied = store.copy_to(&copy).expect("copy");
        assert!(copied >= 3000, "{copied}");
        assert!(
            store.copy_to(&copy).is_err(),
            "an existing snapshot is kept"
        );
        assert!(dir_bytes(&copy, None) > 0);

        let reopened = Arc::new(SledEngine::open(&copy, 1 << 20).expect("reopen"));
        let again = Store::new(
            reopened,
            SyncPolicy::Periodic(Duration::from_secs(1)),
            packing(),
        )
        .expect("the copy is a valid store");
        assert_eq!(
            again.get(&meta_key(&2999u32.to_be_bytes())).expect("get"),
            Some(vec![7; 10])
        );
    }

    #[test]
    fn a_copy_keeps_the_engine_of_the_live_store() {
        let dir = tempfile::tempdir().expect("temp dir");
        let live = dir.path().join("live");
        let engine = crate::storage::open_engine(&live, EngineKind::Fjall, 1 << 20)
            .expect("open")
            .engine;
        let store = Store::new(
            engine,
            SyncPolicy::Periodic(Duration::from_secs(1)),
            packing(),
        )
        .expect("store");
        let mut batch = Batch::default();
        batch.put(meta_key(b"k"), b"v".to_vec());
        store
            .write_batch(batch)
            .expect("write")
            .wait()
            .expect("durable");
        let copy = dir.path().join("snap");
        store.copy_to(&copy).expect("copy");
        drop(store);
        // Asked for sled, the copy opens with the engine that wrote it.
        let opened = crate::storage::open_engine(&copy, EngineKind::Sled, 1 << 20).expect("reopen");
        assert_eq!(opened.kind, EngineKind::Fjall);
        assert_eq!(
            opened.engine.get(&meta_key(b"k")).expect("get"),
            Some(b"v".to_vec())
        );
    }
}
