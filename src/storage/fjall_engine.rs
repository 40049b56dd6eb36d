//! The fjall engine: an LSM tree (journal, memtable, sorted tables, compaction) in one
//! directory. fjall keeps `version`, `lock`, its journals `<n>.jnl` and `keyspaces/` (one
//! tree per keyspace, each with its tables); ilion uses a single keyspace, `ilion`, for the
//! whole ordered key space. Every write batch is one journal record with a checksum, so after
//! a crash a batch is replayed whole or not at all. Writes are only buffered by fjall;
//! [`FjallEngine::sync`] has fjall write the journal buffer out, then `fdatasync`s the
//! journal file itself, outside fjall's journal lock (`journal_sync`), so "synced" means on
//! disk and writers are not stopped meanwhile. Keys are stored with their CF id shortened
//! (`key_layout`), and keys longer than fjall allows are kept in buckets (`long_keys`).

mod background;
mod journal_sync;
mod key_layout;
mod long_keys;

use super::engine::{
    open_waiting_for_lock, range_is_empty, Batch, Engine, OpenAttempt, Reopen, Scan,
};
use super::recovery::DirReopen;
use super::{EngineKind, Watermark};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::fs;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub(super) use key_layout::LAYOUT_FILE;

/// The one keyspace holding everything.
const KEYSPACE: &str = "ilion";

/// The file fjall writes last when it creates a database; without it a non-empty directory
/// is not fjall's.
const FJALL_MARKER: &str = "version";

/// Largest memtable before it is sealed and flushed to a table. Smaller than fjall's 64 MiB
/// default: it bounds the journal replayed at start-up and the memory held in memtables.
const MEMTABLE_BYTES: u64 = 32 << 20;

/// Most journal bytes kept before fjall forces the oldest memtable to disk (fjall's minimum;
/// its default is 512 MiB): this bounds start-up replay time whatever the write pattern.
const MAX_JOURNAL_BYTES: u64 = 64 << 20;

/// An [`Engine`] on a fjall database in one directory.
pub struct FjallEngine {
    /// ilion's background thread (`background`). Declared first so that it stops,
    /// releasing its memtables and its handles, before the database closes. Held for its
    /// drop; only tests read it.
    #[cfg_attr(not(test), allow(dead_code))]
    background: background::Background,
    db: fjall::Database,
    data: fjall::Keyspace,
    dir: PathBuf,
    /// fjall's block cache size, for a reopen.
    cache_bytes: u64,
    /// How logical keys are stored.
    layout: key_layout::KeyLayout,
    /// ilion's sync of the active journal.
    journal: Arc<journal_sync::JournalSync>,
    /// Serialises the read-modify-write of long-key buckets (rows of different locks may
    /// share one).
    buckets: Mutex<()>,
    /// Set when a write or sync failed with an I/O error (fjall's or ilion's own): every
    /// later write and sync is refused until the engine is reopened.
    failed: Arc<AtomicBool>,
}

fn fjall_err(e: fjall::Error) -> Error {
    match e {
        fjall::Error::Io(io) => Error::Storage(io.to_string()),
        fjall::Error::Storage(fjall::LsmError::Io(io)) => Error::Storage(io.to_string()),
        fjall::Error::Poisoned => {
            Error::Storage("fjall refuses writes after a failed journal write or sync".into())
        }
        other => Error::Corrupt(format!("fjall: {other:?}")),
    }
}

impl FjallEngine {
    /// Opens (or creates) the store in `dir`, with fjall's block cache capped at
    /// `cache_bytes`. A directory that holds other files, or that fjall cannot read, is an
    /// error that says so; it is never reset.
    pub fn open(dir: &Path, cache_bytes: u64) -> Result<FjallEngine> {
        check_directory(dir)?;
        let layout = key_layout::KeyLayout::open(dir, dir.join(FJALL_MARKER).is_file())?;
        let db = open_fjall(dir, cache_bytes)?;
        let data = db
            .keyspace(KEYSPACE, || {
                fjall::KeyspaceCreateOptions::default()
                    // ilion's durability layer decides when the journal reaches the disk.
                    .manual_journal_persist(true)
                    .max_memtable_size(MEMTABLE_BYTES)
            })
            .map_err(fjall_err)?;
        let journal = Arc::new(journal_sync::JournalSync::new(dir));
        let failed = Arc::new(AtomicBool::new(false));
        let background = background::Background::start(background::Work {
            db: db.clone(),
            data: data.clone(),
            journal: Arc::clone(&journal),
            failed: Arc::clone(&failed),
        })?;
        Ok(FjallEngine {
            background,
            db,
            data,
            dir: dir.to_path_buf(),
            journal,
            cache_bytes,
            layout,
            buckets: Mutex::new(()),
            failed,
        })
    }

    /// fjall poisons itself after its own failed fsync, not after ilion's: this refuses
    /// writes and syncs after either.
    fn check_not_failed(&self) -> Result<()> {
        if self.failed.load(Ordering::Acquire) {
            return Err(Error::Storage(
                "fjall refuses writes after a failed journal write or sync".into(),
            ));
        }
        Ok(())
    }

    /// A write's or sync's result, noting an I/O failure.
    fn written(&self, result: fjall::Result<()>) -> Result<()> {
        result.map_err(|e| {
            if matches!(
                e,
                fjall::Error::Io(_)
                    | fjall::Error::Storage(fjall::LsmError::Io(_))
                    | fjall::Error::Poisoned
            ) {
                self.failed.store(true, Ordering::Release);
            }
            fjall_err(e)
        })
    }

    /// The entries of the bucket stored under `bucket` (empty when there is none).
    fn bucket(&self, bucket: &[u8]) -> Result<BTreeMap<Vec<u8>, Vec<u8>>> {
        match self.data.get(bucket).map_err(fjall_err)? {
            Some(value) => long_keys::decode(bucket, &value),
            None => Ok(BTreeMap::new()),
        }
    }

    /// Applies writes, some to long keys: their buckets are read, changed and written back
    /// in the same fjall batch.
    fn apply_with_buckets(&self, ops: BTreeMap<Vec<u8>, Option<Vec<u8>>>) -> Result<()> {
        let _buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let mut batch = self.db.batch();
        let mut changed: BTreeMap<Vec<u8>, BTreeMap<Vec<u8>, Vec<u8>>> = BTreeMap::new();
        for (key, value) in ops {
            let Some(bucket) = long_keys::bucket_of(&key) else {
                match value {
                    Some(v) => batch.insert(&self.data, key, v),
                    None => batch.remove(&self.data, key),
                }
                continue;
            };
            if !changed.contains_key(&bucket) {
                let entries = self.bucket(&bucket)?;
                changed.insert(bucket.clone(), entries);
            }
            let entries = changed.entry(bucket).or_default();
            match value {
                Some(v) => entries.insert(key, v),
                None => entries.remove(&key),
            };
        }
        for (bucket, entries) in changed {
            if entries.is_empty() {
                batch.remove(&self.data, bucket);
            } else {
                batch.insert(&self.data, bucket, long_keys::encode(&entries));
            }
        }
        self.written(batch.commit())
    }
}

/// fjall's block cache for a `StorageCacheSizeInMB` of `cache_bytes`: the setting is the
/// memory the engine keeps for data, and fjall keeps a memtable of [`MEMTABLE_BYTES`]
/// besides its cache (sled's cache holds its unwritten pages too), so the cache gets the
/// rest, and never less than a quarter of the setting.
fn block_cache_bytes(cache_bytes: u64) -> u64 {
    cache_bytes
        .saturating_sub(MEMTABLE_BYTES)
        .max(cache_bytes / 4)
}

fn open_fjall(dir: &Path, cache_bytes: u64) -> Result<fjall::Database> {
    // A dropped database's lock is released once its background workers wind down.
    open_waiting_for_lock(dir, || {
        let opened = fjall::Database::builder(dir)
            .cache_size(block_cache_bytes(cache_bytes))
            // No write(2) per batch: the journal buffer is written out and fsynced by
            // `sync`, which ilion's syncer calls (every write in batch mode, every period in
            // periodic mode), as sled's own timed flushing is off.
            .manual_journal_persist(true)
            .max_journaling_size(MAX_JOURNAL_BYTES)
            // Flushes and compactions on one thread: with two, one spins handing compactions
            // back to the queue while the other compacts, and that cost more than a flush
            // waiting behind a compaction (docs/performance.md, fifth pass).
            .worker_threads(1)
            .open();
        match opened {
            Ok(db) => OpenAttempt::Opened(db),
            Err(fjall::Error::Locked) => OpenAttempt::Locked,
            Err(other) => OpenAttempt::Failed(fjall_err(other).to_string()),
        }
    })
}

/// Refuses a non-empty directory without fjall's files (ilion's own files aside); creates a
/// missing one.
fn check_directory(dir: &Path) -> Result<()> {
    if !dir.exists() {
        return fs::create_dir_all(dir)
            .map_err(|e| Error::Storage(format!("cannot create {}: {e}", dir.display())));
    }
    if super::choice::holds_only_ilion_files(dir)? || dir.join(FJALL_MARKER).is_file() {
        return Ok(());
    }
    Err(Error::Corrupt(format!(
        "{} is not empty but holds no ilion store (no `{FJALL_MARKER}` file); \
         point the configuration at an empty or ilion-owned directory",
        dir.display()
    )))
}

impl Engine for FjallEngine {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        let key = self.layout.encode(key);
        match long_keys::bucket_of(&key) {
            None => Ok(self.data.get(&*key).map_err(fjall_err)?.map(|v| v.to_vec())),
            Some(bucket) => Ok(self.bucket(&bucket)?.remove(&*key)),
        }
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        if range_is_empty(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        // The layout keeps byte order, so logical bounds are the same bounds on stored keys.
        let (lower, upper) = (
            self.layout.encode_bound(lower),
            self.layout.encode_bound(upper),
        );
        let stored = (
            long_keys::stored_bound(&lower),
            long_keys::stored_bound(&upper),
        );
        let iter = self.data.range::<Vec<u8>, _>(stored);
        let convert = |guard: fjall::Guard| {
            guard
                .into_inner()
                .map(|(k, v)| (k.to_vec(), v.to_vec()))
                .map_err(fjall_err)
        };
        let stored: Box<dyn Iterator<Item = Result<_>> + Send> = if reverse {
            Box::new(iter.rev().map(convert))
        } else {
            Box::new(iter.map(convert))
        };
        let expanded = long_keys::Expand {
            stored,
            lower,
            upper,
            reverse,
            pending: Vec::new(),
        };
        let layout = self.layout;
        Box::new(expanded.map(move |entry| entry.and_then(|(k, v)| Ok((layout.decode(k)?, v)))))
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        self.check_not_failed()?;
        let mut ops = batch.into_ops();
        for (key, _) in &mut ops {
            *key = self.layout.encode_owned(std::mem::take(key));
        }
        if ops.iter().any(|(key, _)| key.len() > long_keys::DIRECT) {
            return self.apply_with_buckets(ops.into_iter().collect());
        }
        // A single write is one journal record by itself.
        if ops.len() == 1 {
            let (key, value) = ops.pop().unwrap_or_default();
            return match value {
                Some(v) => self.written(self.data.insert(key, v)),
                None => self.written(self.data.remove(key)),
            };
        }
        // All writes of a fjall batch share one sequence number, so which of two writes to
        // one key wins is not defined there: keep only the last of each.
        let ops: BTreeMap<Vec<u8>, Option<Vec<u8>>> = ops.into_iter().collect();
        let mut fjall_batch = self.db.batch();
        for (key, value) in ops {
            match value {
                Some(v) => fjall_batch.insert(&self.data, key, v),
                None => fjall_batch.remove(&self.data, key),
            }
        }
        self.written(fjall_batch.commit())
    }

    fn sync(&self) -> Result<()> {
        // The journal's buffer is written out under fjall's lock, then the active journal
        // is fdatasynced outside it (why that is enough: `journal_sync`). Journals sealed
        // earlier were fsynced when fjall rotated them, and tables are fsynced (with their
        // directory) before the journals they replace are deleted.
        self.check_not_failed()?;
        self.written(self.db.persist(fjall::PersistMode::Buffer))?;
        self.journal.sync().inspect_err(|_| {
            // As after fjall's own failed fsync: nothing since the last good sync can be
            // trusted to be on disk, so the engine takes no more writes until reopened.
            self.failed.store(true, Ordering::Release);
        })
    }

    fn watermark(&self) -> Option<Watermark> {
        Some(Watermark::in_dir(&self.dir))
    }

    fn kind(&self) -> Option<EngineKind> {
        Some(EngineKind::Fjall)
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    fn reopener(&self) -> Option<Arc<dyn Reopen>> {
        Some(Arc::new(DirReopen {
            dir: self.dir.clone(),
            kind: EngineKind::Fjall,
            cache_bytes: self.cache_bytes,
        }))
    }
}

#[cfg(test)]
mod tests;
