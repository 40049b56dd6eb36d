//! ilion's own `fdatasync` of fjall's active journal, outside fjall's journal lock.
//!
//! fjall's `persist(SyncAll)` holds the journal writer's lock across the `fsync`, and every
//! write appends to the journal under that lock, so each sync used to stop every writer for
//! as long as the disk took (in batch mode, at every group commit). ilion instead asks
//! fjall only to write its buffer out (`persist(Buffer)`, a `write(2)` under the lock) and
//! then syncs the journal file through a handle of its own while writers go on.
//!
//! Why that covers every write applied before the sync (fjall 3.1's journal, read in its
//! source): journals are `<n>.jnl` in the database directory, and the one with the highest
//! `n` is the active one (fjall's recovery says so too). A rotation fsyncs the old journal
//! (buffer written out first) *before* it creates `<n+1>.jnl`, and fsyncs the directory
//! after. So once `persist(Buffer)` returned, a write's bytes are in the page cache of some
//! journal `j`; the newest journal found afterwards is `n ≥ j`, and if `j < n` then `j` was
//! fsynced when it was sealed; if `j = n` the `fdatasync` here covers it (a sync is per
//! file, whichever descriptor it is called on). The journal is preallocated, so its size
//! does not change as it fills; `fdatasync` still writes the block allocation its data
//! needs.

use crate::error::{Error, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The active journal as last seen: its number and a read-only handle on it.
pub(super) struct JournalSync {
    dir: PathBuf,
    active: Mutex<Option<(u64, File)>>,
}

fn journal_path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id}.jnl"))
}

/// The highest-numbered journal in `dir`.
pub(super) fn newest_journal(dir: &Path) -> Result<u64> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        let id = name
            .to_str()
            .and_then(|n| n.strip_suffix(".jnl"))
            .and_then(|n| n.parse::<u64>().ok());
        if let Some(id) = id {
            newest = newest.max(Some(id));
        }
    }
    newest.ok_or_else(|| {
        Error::Corrupt(format!(
            "fjall's store in {} has no journal (`<n>.jnl`)",
            dir.display()
        ))
    })
}

impl JournalSync {
    pub(super) fn new(dir: &Path) -> JournalSync {
        JournalSync {
            dir: dir.to_path_buf(),
            active: Mutex::new(None),
        }
    }

    /// `fdatasync`s the newest journal. Call it after fjall's buffer is written out.
    pub(super) fn sync(&self) -> Result<()> {
        let mut active = self.active.lock().unwrap_or_else(|p| p.into_inner());
        // Rotations number journals one up; a look for the next name is one `stat`, and a
        // listing is needed only when it exists (or nothing is open yet).
        let stale = match &*active {
            None => true,
            Some((id, _)) => journal_path(&self.dir, id + 1).exists(),
        };
        if stale {
            *active = None;
            *active = Some(self.open_newest()?);
        }
        match &*active {
            Some((_, file)) => Ok(file.sync_data()?),
            None => Ok(()),
        }
    }

    /// The newest journal, opened. Only sealed journals are ever deleted, so one that
    /// vanishes between the listing and the open was sealed by a rotation meanwhile: look
    /// again.
    fn open_newest(&self) -> Result<(u64, File)> {
        let mut attempts = 0;
        loop {
            let id = newest_journal(&self.dir)?;
            match File::open(journal_path(&self.dir, id)) {
                Ok(file) => return Ok((id, file)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && attempts < 8 => {
                    attempts += 1;
                }
                Err(e) => {
                    return Err(Error::Storage(format!(
                        "cannot open fjall's journal {id}.jnl in {}: {e}",
                        self.dir.display()
                    )))
                }
            }
        }
    }

    /// The number of the journal last synced, for tests.
    #[cfg(test)]
    pub(super) fn active_id(&self) -> Option<u64> {
        self.active
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|(id, _)| *id)
    }
}
