//! ilion's background thread beside fjall's workers: it takes two pieces of work out of
//! places where fjall holds a lock every request needs (`docs/stalls.md#fifth-pass`).
//!
//! **Keeping memtables.** When fjall has written a sealed memtable to a table, the worker
//! that installed the table drops the tree's old versions while it holds the tree's
//! version-history write lock, and the last reference to the memtable went with them: tens
//! of milliseconds freeing a skiplist of some 100,000 entries, during which no read or
//! write could take the lock. This thread holds one more reference to every memtable it
//! has seen active, so that drop only lowers a count; once this thread's reference is the
//! last, it frees the memtable here, outside every lock. It looks every [`TICK`]; a
//! memtable is active for a whole fill of [`super::MEMTABLE_BYTES`] (seconds at the rates
//! this machine takes), and one that were missed would only be freed where it always was.
//!
//! **Writing back ahead of fjall's syncs.** Before each flush fjall `fsync`s the active
//! journal while it holds the journal writer's lock, which every write needs; in periodic
//! mode that sync had a memtable's worth of journal to write. And a compaction finishes its
//! last table — index, filter, `fsync` of up to a table's 64 MiB — while it holds the
//! version-history write lock. Every [`WRITE_BACK_EVERY`] this thread syncs the journal
//! through ilion's own handle, and every [`TICK`] each table file that grew since its last
//! look, outside any lock, so fjall's own syncs find little left to write. A failed journal sync is a
//! failed sync like any other: the engine takes no more writes until it is reopened. A
//! failed table sync is only logged: the error stays recorded on the file for fjall's own
//! `fsync` of it, which then fails its flush or compaction.
//!
//! It reads fjall 3.1's tree through its hidden `tree` field and `AbstractTree`, and its
//! hidden `Database::seqno` to tell whether anything was written since the last write-back.

use super::journal_sync::JournalSync;
use fjall::AbstractTree;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the thread looks for a new active memtable and for memtables it may free.
const TICK: Duration = Duration::from_millis(20);

/// How often the thread writes the journal back.
const WRITE_BACK_EVERY: Duration = Duration::from_millis(100);

/// What the engine and the thread share.
#[derive(Default)]
struct Control {
    stop: Mutex<bool>,
    wake: Condvar,
    /// Memtables held now (for tests).
    held: AtomicUsize,
    /// Memtables the thread has freed itself (for tests).
    freed: AtomicUsize,
    /// Table files the thread has synced (for tests).
    tables_synced: AtomicUsize,
}

/// What the thread works on.
pub(super) struct Work {
    pub(super) db: fjall::Database,
    pub(super) data: fjall::Keyspace,
    pub(super) journal: Arc<JournalSync>,
    /// The engine's failure flag, set when a write-back fails.
    pub(super) failed: Arc<AtomicBool>,
}

/// The thread; stopped (and everything it holds released) on drop.
pub(super) struct Background {
    control: Arc<Control>,
    thread: Option<JoinHandle<()>>,
}

impl Background {
    /// Starts the thread.
    pub(super) fn start(work: Work) -> std::io::Result<Background> {
        let control = Arc::new(Control::default());
        let shared = Arc::clone(&control);
        let thread = std::thread::Builder::new()
            .name("ilion-fjall-bg".into())
            .spawn(move || run(&work, &shared))?;
        Ok(Background {
            control,
            thread: Some(thread),
        })
    }

    /// How many memtables the thread holds and how many it has freed, for tests.
    #[cfg(test)]
    pub(super) fn counts(&self) -> (usize, usize) {
        (
            self.control.held.load(Ordering::Acquire),
            self.control.freed.load(Ordering::Acquire),
        )
    }

    /// How many table files the thread has synced, for tests.
    #[cfg(test)]
    pub(super) fn tables_synced(&self) -> usize {
        self.control.tables_synced.load(Ordering::Acquire)
    }
}

fn run(work: &Work, control: &Control) {
    let mut kept = Vec::new();
    let mut last_id = None;
    let mut last_write_back = Instant::now();
    // fjall's next sequence number at the last write-back: every write takes one, so the
    // journal is written back only when it moved (an idle store is left alone).
    let mut seqno_at_write_back = work.db.seqno();
    let mut table_sizes = None;
    let mut stop = control.stop.lock().unwrap_or_else(|p| p.into_inner());
    while !*stop {
        drop(stop);
        let active = work.data.tree.active_memtable();
        if last_id != Some(active.id()) {
            last_id = Some(active.id());
            kept.push(active);
        }
        let before = kept.len();
        // Only ours left: fjall is done with it, and freeing it here stops nobody.
        kept.retain(|memtable| Arc::strong_count(memtable) > 1);
        control
            .freed
            .fetch_add(before - kept.len(), Ordering::AcqRel);
        control.held.store(kept.len(), Ordering::Release);
        let seqno = work.db.seqno();
        if last_write_back.elapsed() >= WRITE_BACK_EVERY
            && seqno != seqno_at_write_back
            && !work.failed.load(Ordering::Acquire)
        {
            last_write_back = Instant::now();
            seqno_at_write_back = seqno;
            write_back(work);
        }
        // Tables every tick: a compaction writes tens of megabytes a second.
        let synced = write_back_tables(work, &mut table_sizes);
        control.tables_synced.fetch_add(synced, Ordering::AcqRel);
        stop = control.stop.lock().unwrap_or_else(|p| p.into_inner());
        if !*stop {
            stop = control
                .wake
                .wait_timeout(stop, TICK)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

/// fjall's journal buffer out to the file, then the file synced, outside fjall's lock.
fn write_back(work: &Work) {
    let result = work
        .db
        .persist(fjall::PersistMode::Buffer)
        .map_err(|e| e.to_string())
        .and_then(|()| work.journal.sync().map_err(|e| e.to_string()));
    if let Err(e) = result {
        // After a failed fsync the kernel may have dropped the pages, and a later sync of
        // the same file may report success: no later sync can be trusted.
        tracing::error!("fjall journal write-back failed; refusing further writes: {e}");
        work.failed.store(true, Ordering::Release);
    }
}

/// Syncs the table files that are new or grew since the last look (those fjall is
/// writing), and forgets the ones that are gone. `sizes` holds each file's size at the last
/// look; at the first (None) the tables there are complete and synced already. Returns how
/// many it synced.
fn write_back_tables(work: &Work, sizes: &mut Option<HashMap<OsString, u64>>) -> usize {
    let dir = work.data.path().join("tables");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut synced = 0;
    let mut seen = HashMap::new();
    for entry in entries.flatten() {
        let Ok(len) = entry.metadata().map(|m| m.len()) else {
            continue;
        };
        let name = entry.file_name();
        let grew = sizes
            .as_ref()
            .is_some_and(|sizes| sizes.get(&name) != Some(&len));
        if grew {
            // A file that vanished meanwhile was deleted by a compaction: nothing to sync.
            if let Ok(file) = File::open(entry.path()) {
                match file.sync_data() {
                    Ok(()) => synced += 1,
                    Err(e) => {
                        tracing::warn!("write-back of fjall table {}: {e}", entry.path().display())
                    }
                }
            }
        }
        seen.insert(name, len);
    }
    *sizes = Some(seen);
    synced
}

impl Drop for Background {
    fn drop(&mut self) {
        *self.control.stop.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.control.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            // The thread only loops, frees and syncs; a panic there has nothing to report.
            let _ = thread.join();
        }
    }
}
