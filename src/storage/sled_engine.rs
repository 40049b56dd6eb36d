//! The sled engine. sled keeps an ordered log-structured tree in `<dir>/db`, large values in
//! `<dir>/blobs/`. Its own `flush()` writes its buffers and calls `sync_file_range`, which
//! neither flushes the disk cache nor file metadata; [`SledEngine::sync`] adds a real
//! `fdatasync` of the log file and an `fsync` of every blob written since the last sync, so
//! "synced" means on disk. Stores created by this version use the *split* layout
//! (`pieces`), which keeps every value out of those blob files.

use super::engine::{
    open_waiting_for_lock, range_is_empty, Batch, Engine, OpenAttempt, Reopen, Scan,
};
use super::recovery::DirReopen;
use super::{EngineKind, Watermark};
use crate::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

mod pieces;
mod recovery_guard;
mod split;

/// Files sled creates in its directory; anything else there means it is not ours.
const SLED_FILES: [&str; 2] = ["conf", "db"];

/// An [`Engine`] on a sled database in one directory.
pub struct SledEngine {
    db: sled::Db,
    dir: PathBuf,
    /// sled's page cache size, for a reopen.
    cache_bytes: u64,
    /// A second handle on sled's log file, used only to fdatasync it.
    log: File,
    /// The highest blob id already fsynced (blob files are named by log sequence number).
    synced_blob: Mutex<u64>,
    /// Set by the first I/O error sled reports (a full disk): sled's `flush` can then wait
    /// forever for log space it reserved for a failed write, so later writes and syncs are
    /// refused instead, as after a failed sync (`docs/faults.md#io-errors`).
    failed: AtomicBool,
    /// sled's `flush` runs on its own thread, so a sync can stop waiting for a flush that
    /// a failed write has left stuck.
    flusher: Flusher,
    /// How values are laid out: split (new stores) or as sled takes them (older stores).
    layout: Layout,
    /// False while the store holds no piece (none at open, none written since): a write
    /// then needs no read of the value it replaces to find pieces to remove. Set before the
    /// first batch with pieces is applied; writes of one key are serialized by the row
    /// locks above, so the next write of that key sees it.
    may_hold_pieces: AtomicBool,
}

/// How a sled store lays out its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Each value as it is (stores created before the split layout).
    Plain,
    /// Tagged values, large ones in pieces of these sizes ([`pieces`]).
    Split(pieces::Sizes),
}

/// How often a reader re-reads a split value whose pieces a writer replaced meanwhile.
const SPLIT_READ_ATTEMPTS: usize = 16;

/// How often a sync waiting for sled's flush looks whether a write has failed meanwhile.
const FAILURE_POLL: Duration = Duration::from_millis(20);

/// How long a recovery waits for a trial flush before it deems sled stuck.
const RELEASE_FLUSH_WAIT: Duration = Duration::from_secs(2);

/// A thread that runs sled's `flush` on request; it ends when the engine drops `go`.
struct Flusher {
    go: mpsc::Sender<()>,
    done: Mutex<mpsc::Receiver<sled::Result<usize>>>,
    /// Set while a flush runs: one that never returns holds a handle on sled for ever.
    busy: Arc<AtomicBool>,
}

impl Flusher {
    fn start(db: sled::Db) -> Result<Flusher> {
        let (go, requests) = mpsc::channel::<()>();
        let (results, done) = mpsc::channel();
        let busy = Arc::new(AtomicBool::new(false));
        let flushing = Arc::clone(&busy);
        std::thread::Builder::new()
            .name("ilion-sled-flush".into())
            .spawn(move || {
                for () in requests {
                    flushing.store(true, Ordering::Release);
                    let flushed = db.flush();
                    flushing.store(false, Ordering::Release);
                    if results.send(flushed).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Flusher {
            go,
            done: Mutex::new(done),
            busy,
        })
    }
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
        // sled refuses a segment size other than the one a store was made with.
        let segment_size = match recorded_segment_size(dir)? {
            Some(size) => size,
            None => pieces::NEW_STORE_SEGMENT,
        };
        let db = open_sled(dir, cache_bytes, segment_size)?;
        let log = OpenOptions::new()
            .read(true)
            .write(true)
            .open(dir.join("db"))?;
        // sled writes `conf` without syncing it; ilion's later syncs cover only the log,
        // so a power cut could leave a store sled cannot parse (found by the power-cut
        // harness, docs/powercut.md). Sync it on every open: cheap, and covers old stores.
        File::open(dir.join("conf"))?.sync_all()?;
        let layout = if fresh {
            // The marker goes in before anything else; the log is durable in order.
            db.insert(pieces::LAYOUT_KEY, pieces::LAYOUT_SPLIT)
                .map_err(sled_err)?;
            db.flush().map_err(sled_err)?;
            log.sync_data()?;
            // Make the new files' directory entries durable too.
            File::open(dir)?.sync_all()?;
            Layout::Split(pieces::Sizes::for_segment(segment_size))
        } else {
            match db.get(pieces::LAYOUT_KEY).map_err(sled_err)? {
                None => Layout::Plain,
                Some(v) if v == pieces::LAYOUT_SPLIT => {
                    Layout::Split(pieces::Sizes::for_segment(segment_size))
                }
                Some(v) => {
                    return Err(Error::Corrupt(format!(
                        "the sled store in {} has an unknown value layout {:?}",
                        dir.display(),
                        String::from_utf8_lossy(&v)
                    )))
                }
            }
        };
        let may_hold_pieces = match layout {
            Layout::Plain => false,
            Layout::Split(_) => db.scan_prefix(pieces::PIECE_PREFIX).next().is_some(),
        };
        let flusher = Flusher::start(db.clone())?;
        let engine = SledEngine {
            db,
            dir: dir.to_path_buf(),
            cache_bytes,
            log,
            synced_blob: Mutex::new(0),
            failed: AtomicBool::new(false),
            flusher,
            layout,
            may_hold_pieces: AtomicBool::new(may_hold_pieces),
        };
        engine.sync_new_blobs()?;
        Ok(engine)
    }

    /// Writes the stored keys and values (None: remove) atomically: a single write as it is,
    /// which skips sled's batch lock, more as one sled batch.
    fn write_out(&self, mut ops: Vec<(Vec<u8>, Option<Vec<u8>>)>) -> Result<()> {
        if ops.len() == 1 {
            let (key, value) = ops.pop().unwrap_or_default();
            return match value {
                Some(v) => self.write_result(self.db.insert(key, v)),
                None => self.write_result(self.db.remove(key)),
            };
        }
        let mut sled_batch = sled::Batch::default();
        for (key, value) in ops {
            match value {
                Some(v) => sled_batch.insert(key, v),
                None => sled_batch.remove(key),
            }
        }
        self.write_result(self.db.apply_batch(sled_batch))
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

    /// Refuses writes and syncs once a write has failed with an I/O error.
    fn check_not_failed(&self) -> Result<()> {
        if self.failed.load(Ordering::Acquire) {
            return Err(Error::Storage(
                "sled refuses writes after a failed write (disk full or I/O error) until \
                 it is reopened"
                    .into(),
            ));
        }
        Ok(())
    }

    /// sled's `flush` on the flusher thread, waiting for it only as long as no write has
    /// failed: after a failed write sled may never finish a flush already waiting.
    fn flush_unless_failed(&self) -> Result<()> {
        let gone = || Error::Storage("sled's flush thread has stopped".into());
        let done = self
            .flusher
            .done
            .lock()
            .map_err(|_| Error::Storage("flush lock poisoned".into()))?;
        self.flusher.go.send(()).map_err(|_| gone())?;
        loop {
            match done.recv_timeout(FAILURE_POLL) {
                Ok(flushed) => return flushed.map(drop).map_err(sled_err),
                Err(mpsc::RecvTimeoutError::Timeout) => self.check_not_failed()?,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(gone()),
            }
        }
    }

    /// Whether sled can still be closed: its flush must return (with data or an error)
    /// within [`RELEASE_FLUSH_WAIT`]. After a write failed while sled was writing a blob,
    /// sled 0.34 counts a writer on its log buffer that never leaves, so every later
    /// flush — and the flush in sled's own drop, which must end before the directory's
    /// lock is released — waits for ever (`docs/faults.md#recovery`).
    fn check_releasable(&self) -> Result<()> {
        let stuck = || {
            Error::Storage(
                "sled's flush never returns after the failed write (sled 0.34 cannot close \
                 this store); restart the server to reopen it"
                    .into(),
            )
        };
        if self.flusher.busy.load(Ordering::Acquire) {
            return Err(stuck());
        }
        let done = self
            .flusher
            .done
            .lock()
            .map_err(|_| Error::Storage("flush lock poisoned".into()))?;
        // Results of flushes whose waiter gave up.
        while done.try_recv().is_ok() {}
        let gone = || Error::Storage("sled's flush thread has stopped".into());
        self.flusher.go.send(()).map_err(|_| gone())?;
        match done.recv_timeout(RELEASE_FLUSH_WAIT) {
            // An error is fine: sled's drop then gives up its flush at once too.
            Ok(_) => Ok(()),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(stuck()),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(gone()),
        }
    }

    /// A write's result, noting an I/O error.
    fn write_result<T>(&self, r: sled::Result<T>) -> Result<()> {
        r.map(drop).map_err(|e| self.note(e))
    }

    /// Notes an I/O error before passing it on. sled reports one on reads too once a
    /// write has failed (its error then sticks), so any I/O error stops writes.
    fn note(&self, e: sled::Error) -> Error {
        if matches!(e, sled::Error::Io(_)) {
            self.failed.store(true, Ordering::Release);
        }
        sled_err(e)
    }
}

impl Drop for SledEngine {
    fn drop(&mut self) {
        // sled's own drop flushes, and after a failed write that flush can wait forever for
        // the write's log space: keep one handle alive so that no thread ends up waiting
        // in it. (A stuck flush holds a handle anyway; an engine whose flush works is
        // dropped whole, releasing its directory for a reopen.)
        if self.failed.load(Ordering::Acquire) && self.flusher.busy.load(Ordering::Acquire) {
            std::mem::forget(self.db.clone());
        }
    }
}

/// The log segment size sled recorded in the store's `conf`, or None for a new store.
fn recorded_segment_size(dir: &Path) -> Result<Option<usize>> {
    let conf = dir.join("conf");
    // sled's `conf` is text followed by a binary checksum.
    let text = match fs::read(&conf) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::Storage(format!(
                "cannot read {}: {e}",
                conf.display()
            )))
        }
    };
    let size = text
        .lines()
        .find_map(|line| line.strip_prefix("segment_size: "))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|v| v.is_power_of_two() && (256..=1 << 24).contains(v));
    match size {
        Some(size) => Ok(Some(size)),
        None => Err(Error::Corrupt(format!(
            "cannot open the store in {}: sled's `conf` names no valid segment_size",
            dir.display()
        ))),
    }
}

fn open_sled(dir: &Path, cache_bytes: u64, segment_size: usize) -> Result<sled::Db> {
    // sled releases a dropped store's lock from its background threads.
    open_waiting_for_lock(dir, || {
        let opened = recovery_guard::without_panic(|| {
            sled::Config::new()
                .path(dir)
                .cache_capacity(cache_bytes)
                .segment_size(segment_size)
                .flush_every_ms(None)
                .mode(sled::Mode::HighThroughput)
                .open()
        });
        let opened = match opened {
            Ok(opened) => opened,
            Err(why) => {
                return OpenAttempt::Failed(format!(
                    "sled cannot recover it ({why}); the store is damaged (a power cut \
                     that lost writes sled counted on, or bad bytes): restore it from a \
                     snapshot"
                ))
            }
        };
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
        if let Layout::Split(_) = self.layout {
            return self.get_split(key);
        }
        match self.db.get(key) {
            Ok(v) => Ok(v.map(|v| v.to_vec())),
            Err(e) => Err(self.note(e)),
        }
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        if let Layout::Split(_) = self.layout {
            return self.scan_split(lower, upper, reverse);
        }
        if range_is_empty(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        let iter = self
            .db
            .range::<sled::IVec, _>((to_ivec_bound(lower), to_ivec_bound(upper)));
        let convert = |r: sled::Result<(sled::IVec, sled::IVec)>| {
            r.map(|(k, v)| (k.to_vec(), v.to_vec()))
                .map_err(|e| self.note(e))
        };
        if reverse {
            Box::new(iter.rev().map(convert))
        } else {
            Box::new(iter.map(convert))
        }
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        if let Layout::Split(sizes) = self.layout {
            return self.apply_split(sizes, batch);
        }
        self.check_not_failed()?;
        self.write_out(batch.into_ops())
    }

    fn sync(&self) -> Result<()> {
        self.check_not_failed()?;
        self.flush_unless_failed()?;
        self.log.sync_data()?;
        self.sync_new_blobs()
    }

    fn watermark(&self) -> Option<Watermark> {
        Some(Watermark::in_dir(&self.dir))
    }

    fn kind(&self) -> Option<EngineKind> {
        Some(EngineKind::Sled)
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    fn reopener(&self) -> Option<Arc<dyn Reopen>> {
        Some(Arc::new(DirReopen {
            dir: self.dir.clone(),
            kind: EngineKind::Sled,
            cache_bytes: self.cache_bytes,
        }))
    }

    fn releasable(&self) -> Result<()> {
        self.check_releasable()
    }
}

#[cfg(test)]
mod tests;
