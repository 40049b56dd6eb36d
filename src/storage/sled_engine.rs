//! The sled engine. sled keeps an ordered log-structured tree in `<dir>/db`, large values in
//! `<dir>/blobs/`. Its own `flush()` writes its buffers and calls `sync_file_range`, which
//! neither flushes the disk cache nor file metadata; [`SledEngine::sync`] adds a real
//! `fdatasync` of the log file and an `fsync` of every blob written since the last sync, so
//! "synced" means on disk.

use super::engine::{open_waiting_for_lock, range_is_empty, Batch, Engine, OpenAttempt, Scan};
use super::{EngineKind, Watermark};
use crate::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Files sled creates in its directory; anything else there means it is not ours.
const SLED_FILES: [&str; 2] = ["conf", "db"];

/// An [`Engine`] on a sled database in one directory.
pub struct SledEngine {
    db: sled::Db,
    dir: PathBuf,
    /// A second handle on sled's log file, used only to fdatasync it.
    log: File,
    /// The highest blob id already fsynced (blob files are named by log sequence number).
    synced_blob: Mutex<u64>,
}

fn sled_err(e: sled::Error) -> Error {
    match e {
        sled::Error::Corruption { .. } => Error::Corrupt(e.to_string()),
        other => Error::Storage(other.to_string()),
    }
}

impl SledEngine {
    /// Opens (or creates) the store in `dir`, with sled's page cache capped at `cache_bytes`.
    /// A directory that holds other files, or that sled cannot read, is an error that says
    /// so; it is never reset.
    pub fn open(dir: &Path, cache_bytes: u64) -> Result<SledEngine> {
        let fresh = check_directory(dir)?;
        let db = open_sled(dir, cache_bytes)?;
        let log = OpenOptions::new()
            .read(true)
            .write(true)
            .open(dir.join("db"))?;
        // sled writes `conf` without syncing it; ilion's later syncs cover only the log,
        // so a power cut could leave a store sled cannot parse (found by the power-cut
        // harness, docs/powercut.md). Sync it on every open: cheap, and covers old stores.
        File::open(dir.join("conf"))?.sync_all()?;
        if fresh {
            // Make the new files' directory entries durable too.
            File::open(dir)?.sync_all()?;
        }
        let engine = SledEngine {
            db,
            dir: dir.to_path_buf(),
            log,
            synced_blob: Mutex::new(0),
        };
        engine.sync_new_blobs()?;
        Ok(engine)
    }

    /// fsyncs blob files newer than the last sync, then the blob directory.
    fn sync_new_blobs(&self) -> Result<()> {
        let dir = self.dir.join("blobs");
        let Ok(entries) = fs::read_dir(&dir) else {
            return Ok(());
        };
        let mut synced = self
            .synced_blob
            .lock()
            .map_err(|_| Error::Storage("blob lock poisoned".into()))?;
        let mut newest = *synced;
        for entry in entries {
            let entry = entry?;
            let Some(id) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u64>().ok())
            else {
                continue;
            };
            if id > *synced {
                // The blob may have been garbage-collected since the listing.
                if let Ok(f) = File::open(entry.path()) {
                    f.sync_all()?;
                }
                newest = newest.max(id);
            }
        }
        if newest > *synced {
            File::open(&dir)?.sync_all()?;
            *synced = newest;
        }
        Ok(())
    }
}

fn open_sled(dir: &Path, cache_bytes: u64) -> Result<sled::Db> {
    // sled releases a dropped store's lock from its background threads.
    open_waiting_for_lock(dir, || {
        let opened = sled::Config::new()
            .path(dir)
            .cache_capacity(cache_bytes)
            .flush_every_ms(None)
            .mode(sled::Mode::HighThroughput)
            .open();
        match opened {
            Ok(db) => OpenAttempt::Opened(db),
            Err(sled::Error::Io(io)) if io.to_string().contains("could not acquire lock") => {
                OpenAttempt::Locked
            }
            Err(other) => OpenAttempt::Failed(other.to_string()),
        }
    })
}

/// Refuses a non-empty directory without sled's files (ilion's own files aside); creates a
/// missing one. Returns true when the store is new.
fn check_directory(dir: &Path) -> Result<bool> {
    if !dir.exists() {
        fs::create_dir_all(dir)
            .map_err(|e| Error::Storage(format!("cannot create {}: {e}", dir.display())))?;
        return Ok(true);
    }
    if super::choice::holds_only_ilion_files(dir)? {
        return Ok(true);
    }
    if let Some(missing) = SLED_FILES.iter().find(|f| !dir.join(f).is_file()) {
        return Err(Error::Corrupt(format!(
            "{} is not empty but holds no ilion store (no `{missing}` file); \
             point the configuration at an empty or ilion-owned directory",
            dir.display()
        )));
    }
    Ok(false)
}

fn to_ivec_bound(b: Bound<Vec<u8>>) -> Bound<sled::IVec> {
    match b {
        Bound::Included(k) => Bound::Included(k.into()),
        Bound::Excluded(k) => Bound::Excluded(k.into()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

impl Engine for SledEngine {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        Ok(self.db.get(key).map_err(sled_err)?.map(|v| v.to_vec()))
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        if range_is_empty(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        let iter = self
            .db
            .range::<sled::IVec, _>((to_ivec_bound(lower), to_ivec_bound(upper)));
        let convert = |r: sled::Result<(sled::IVec, sled::IVec)>| {
            r.map(|(k, v)| (k.to_vec(), v.to_vec())).map_err(sled_err)
        };
        if reverse {
            Box::new(iter.rev().map(convert))
        } else {
            Box::new(iter.map(convert))
        }
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        let mut ops = batch.into_ops();
        // A single write is atomic by itself and skips sled's batch lock.
        if ops.len() == 1 {
            let (key, value) = ops.pop().unwrap_or_default();
            return match value {
                Some(v) => self.db.insert(key, v).map(drop).map_err(sled_err),
                None => self.db.remove(key).map(drop).map_err(sled_err),
            };
        }
        let mut sled_batch = sled::Batch::default();
        for (key, value) in ops {
            match value {
                Some(v) => sled_batch.insert(key, v),
                None => sled_batch.remove(key),
            }
        }
        self.db.apply_batch(sled_batch).map_err(sled_err)
    }

    fn sync(&self) -> Result<()> {
        self.db.flush().map_err(sled_err)?;
        self.log.sync_data()?;
        self.sync_new_blobs()
    }

    fn watermark(&self) -> Option<Watermark> {
        Some(Watermark::in_dir(&self.dir))
    }

    fn kind(&self) -> Option<EngineKind> {
        Some(EngineKind::Sled)
    }
}
