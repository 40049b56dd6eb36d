//! Recovery of a failed store, over an engine whose "disk" can fill up: what a sync
//! completed is on the disk, what was only applied is lost when the engine is reopened.

use super::*;
use crate::partitioner::Partitioner;
use crate::storage::keys::meta_key;
use crate::storage::{Batch, MemoryEngine, Scan, Store, Watermark, MAX_CHUNK_BYTES};
use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The simulated disk: what was synced, whether it takes writes, where the watermark is.
struct Disk {
    durable: Mutex<BTreeMap<Vec<u8>, Vec<u8>>>,
    full: AtomicBool,
    dir: tempfile::TempDir,
}

/// An engine over [`Disk`]: applies in memory; a sync copies memory to the disk, or fails
/// (for good: the engine refuses writes after it) while the disk is full.
struct FaultyEngine {
    disk: Arc<Disk>,
    memory: MemoryEngine,
    failed: AtomicBool,
}

impl FaultyEngine {
    fn open(disk: &Arc<Disk>) -> Arc<dyn Engine> {
        let memory = MemoryEngine::new();
        let mut batch = Batch::default();
        for (k, v) in disk.durable.lock().unwrap().iter() {
            batch.put(k.clone(), v.clone());
        }
        memory.apply(batch).unwrap();
        Arc::new(FaultyEngine {
            disk: Arc::clone(disk),
            memory,
            failed: AtomicBool::new(false),
        })
    }

    fn check(&self) -> Result<()> {
        if self.failed.load(Ordering::Acquire) {
            return Err(Error::Storage("refused after a failed write".into()));
        }
        Ok(())
    }
}

impl Engine for FaultyEngine {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.memory.get(key)
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        self.memory.scan(lower, upper, reverse)
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        self.check()?;
        self.memory.apply(batch)
    }

    fn sync(&self) -> Result<()> {
        self.check()?;
        if self.disk.full.load(Ordering::Acquire) {
            self.failed.store(true, Ordering::Release);
            return Err(Error::Storage("No space left on device (simulated)".into()));
        }
        let all = self.memory.scan(Bound::Unbounded, Bound::Unbounded, false);
        *self.disk.durable.lock().unwrap() = all.collect::<Result<_>>()?;
        Ok(())
    }

    fn watermark(&self) -> Option<Watermark> {
        Some(Watermark::in_dir(self.disk.dir.path()))
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    fn reopener(&self) -> Option<Arc<dyn Reopen>> {
        Some(Arc::new(Arc::clone(&self.disk)))
    }
}

impl Reopen for Arc<Disk> {
    fn ready(&self) -> Result<()> {
        if self.full.load(Ordering::Acquire) {
            return Err(Error::Storage("the disk is still full".into()));
        }
        Ok(())
    }

    fn reopen(&self) -> Result<Arc<dyn Engine>> {
        Ok(FaultyEngine::open(self))
    }
}

fn new_store() -> (Arc<Disk>, Store) {
    new_store_with(SyncPolicy::Batch(Duration::ZERO))
}

fn new_store_with(policy: SyncPolicy) -> (Arc<Disk>, Store) {
    let disk = Arc::new(Disk {
        durable: Mutex::new(BTreeMap::new()),
        full: AtomicBool::new(false),
        dir: tempfile::tempdir().unwrap(),
    });
    let packing = Packing {
        partitioner: Partitioner::Random,
        max_chunk: MAX_CHUNK_BYTES,
    };
    let store = Store::new(FaultyEngine::open(&disk), policy, packing).unwrap();
    (disk, store)
}

fn key(name: &str) -> Vec<u8> {
    meta_key(name.as_bytes())
}

fn write(store: &Store, name: &str) -> Result<()> {
    let mut batch = Batch::default();
    batch.put(key(name), name.as_bytes().to_vec());
    store.write_batch(batch)?.wait()
}

/// Fills the disk: the write waiting for its sync fails, and so does every later one at
/// once; reads still work.
fn fail(disk: &Disk, store: &Store) {
    write(store, "acknowledged").unwrap();
    disk.full.store(true, Ordering::Release);
    assert!(write(store, "applied, never acknowledged").is_err());
    let refused = write(store, "refused").unwrap_err().to_string();
    assert!(refused.contains("refuses writes"), "{refused}");
    assert_eq!(
        store.get(&key("acknowledged")).unwrap(),
        Some(b"acknowledged".to_vec())
    );
}

#[test]
fn a_failed_store_is_reopened_once_the_disk_takes_writes() {
    let (disk, store) = new_store();
    fail(&disk, &store);
    assert_eq!(
        store.try_recover(),
        Attempt::Waiting,
        "reopened while the disk is full"
    );
    assert!(write(&store, "still refused").is_err());

    disk.full.store(false, Ordering::Release);
    // The recovery thread may have got there first; either way writes work now.
    store.try_recover();
    write(&store, "after recovery").unwrap();
    assert_eq!(
        store.get(&key("acknowledged")).unwrap(),
        Some(b"acknowledged".to_vec())
    );
    assert_eq!(
        store.get(&key("after recovery")).unwrap(),
        Some(b"after recovery".to_vec())
    );
    // What the reopened engine read from the disk: the unacknowledged write was never
    // synced, so it is gone, as after a restart.
    assert_eq!(
        store.get(&key("applied, never acknowledged")).unwrap(),
        None
    );
    store.close().unwrap();
    assert!(disk
        .durable
        .lock()
        .unwrap()
        .contains_key(&key("after recovery")));
}

#[test]
fn a_reopened_store_missing_durable_writes_is_refused() {
    let (disk, store) = new_store();
    fail(&disk, &store);
    // The disk comes back without what had been synced (its generation falls below the
    // watermark): the store must not be served.
    disk.durable.lock().unwrap().clear();
    disk.full.store(false, Ordering::Release);
    assert_eq!(store.try_recover(), Attempt::Refused);
    let why = store.get(&key("acknowledged")).unwrap_err().to_string();
    assert!(why.contains("is damaged"), "{why}");
    assert!(write(&store, "refused").is_err());
    // Later attempts refuse it again; it is never reset.
    assert_eq!(store.try_recover(), Attempt::Refused);
    assert!(store.get(&key("acknowledged")).is_err());
    assert!(store.close().is_err());
}

#[test]
fn a_working_store_is_left_alone() {
    let (disk, store) = new_store();
    write(&store, "a").unwrap();
    assert_eq!(store.try_recover(), Attempt::Nothing);
    write(&store, "b").unwrap();
    store.close().unwrap();
    assert_eq!(
        disk.durable.lock().unwrap().len(),
        3,
        "a, b and the generation"
    );
    assert!(Path::new(&disk.dir.path().join(crate::storage::watermark::FILE_NAME)).is_file());
}

#[test]
fn periodic_mode_recovers_too() {
    let (disk, store) = new_store_with(SyncPolicy::Periodic(Duration::from_secs(600)));
    write(&store, "synced").unwrap();
    store.sync().unwrap();
    disk.full.store(true, Ordering::Release);
    // Acknowledged at once, as periodic mode does; the next sync fails.
    write(&store, "acknowledged, not synced").unwrap();
    assert!(store.sync().is_err());
    assert!(write(&store, "refused").is_err());
    assert_eq!(store.try_recover(), Attempt::Waiting);

    disk.full.store(false, Ordering::Release);
    store.try_recover();
    write(&store, "after recovery").unwrap();
    store.sync().unwrap();
    assert_eq!(store.get(&key("synced")).unwrap(), Some(b"synced".to_vec()));
    // Lost with the failed sync, as a crash would lose it: periodic mode's promise covers
    // only what a completed sync wrote.
    assert_eq!(store.get(&key("acknowledged, not synced")).unwrap(), None);
    store.close().unwrap();
}
