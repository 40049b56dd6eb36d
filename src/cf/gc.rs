//! Tombstone purge after GCGraceSeconds (`docs/compatibility.md#s5`; a column family's own
//! `gc_grace_seconds` when the later API set one). Row, super-column,
//! range and column tombstones whose local deletion time is older than the grace period are
//! removed (what they hid went when they were written): a marker whose own deletion and
//! range tombstones all expired is removed, one where only some did is rewritten without
//! them — and a row left with nothing stops appearing as a range ghost. An expired column is
//! a tombstone whose local deletion time is its write time (`docs/api-later.md#ttl`): it goes once it has
//! expired and its write time is older than the grace period. A background thread runs the
//! purge regularly.

use super::Db;
use crate::error::Result;
use crate::model::Cell;
use crate::storage::{Marker, StoredEntry, StoredValue};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

/// Rows examined per purge batch: bounds the memory a purge holds.
const ROWS_PER_BATCH: usize = 256;

/// Expired tombstones of one row: (row key, the tombstones as read, the markers only part
/// of which expired with what is left of them).
type RowCandidates = (Vec<u8>, Vec<StoredEntry>, Vec<(StoredEntry, Marker)>);

/// What the purge does with a marker at `expired` (which says whether a local deletion time
/// is past the grace period): nothing (None), delete it (an empty marker), or keep the
/// parts that are not expired — its own deletion and each range go separately, so a row
/// that keeps receiving range deletes does not keep the old ones forever.
fn purged_marker(marker: &Marker, expired: impl Fn(u32) -> bool) -> Option<Marker> {
    let own_expired = marker.timestamp.is_some() && expired(marker.local_deletion_time);
    let ranges: Vec<_> = marker
        .ranges
        .iter()
        .filter(|range| !expired(range.local_deletion_time))
        .cloned()
        .collect();
    if !own_expired && ranges.len() == marker.ranges.len() {
        return None;
    }
    Some(Marker {
        timestamp: marker.timestamp.filter(|_| !own_expired),
        local_deletion_time: if own_expired {
            0
        } else {
            marker.local_deletion_time
        },
        ranges,
    })
}

impl Db {
    /// Removes every tombstone older than GCGraceSeconds; returns how many were removed.
    pub fn purge_expired_tombstones(&self) -> Result<usize> {
        self.purge_expired_in(&|_, _| true)
    }

    /// The purge, for the column families `only` accepts (keyspace, CF).
    pub(crate) fn purge_expired_in(&self, only: &dyn Fn(&str, &str) -> bool) -> Result<usize> {
        if self.is_drained() {
            return Ok(0);
        }
        let now = i64::from(self.now());
        // `found` counts unexpired expiring columns too, so a CF holding one is never
        // marked clean: it will need a purge once it expires, with no write in between.
        let mut purged = 0;
        let catalog = self.catalog();
        for (keyspace, cf, layout) in catalog.layouts() {
            // A CF left without tombstones, and written none since, has nothing to purge:
            // skip its scan (`stats`).
            if !only(keyspace, cf) || self.counters.known_clean(layout.id) {
                continue;
            }
            // A column family's own gc_grace_seconds (set through the later API) wins over
            // the node's <GCGraceSeconds>.
            let grace = catalog
                .schema()
                .cf(keyspace, cf)
                .and_then(|d| d.later.gc_grace_seconds)
                .unwrap_or(self.options.gc_grace_seconds);
            let grace = i64::from(grace);
            let expired = |ldt: u32| i64::from(ldt) + grace < now;
            let mark = self.counters.tombstones_written(layout.id);
            let (mut found, mut removed) = (0, 0);
            let mut candidates: Vec<RowCandidates> = Vec::new();
            for item in self.store.tombstones(layout) {
                let tombstone = item?;
                found += 1;
                let purgeable = match &tombstone.value {
                    StoredValue::Marker(marker) => match purged_marker(marker, expired) {
                        None => false,
                        Some(left) if left.is_empty() => true,
                        Some(left) => {
                            // Rewritten, not removed: the CF still holds the marker.
                            let row = tombstone.row_key.clone();
                            match candidates.last_mut() {
                                Some((r, _, rewrites)) if *r == row => {
                                    rewrites.push((tombstone, left))
                                }
                                _ => candidates.push((row, Vec::new(), vec![(tombstone, left)])),
                            }
                            continue;
                        }
                    },
                    StoredValue::Cell(Cell::Tombstone {
                        local_deletion_time,
                        ..
                    }) => expired(*local_deletion_time),
                    StoredValue::Cell(Cell::Expiring {
                        ttl, expires_at, ..
                    }) => {
                        let written = expires_at.saturating_sub(i64::from(*ttl));
                        now >= *expires_at && written.saturating_add(grace) < now
                    }
                    StoredValue::Cell(Cell::Live { .. } | Cell::Counter { .. }) => continue,
                };
                if !purgeable {
                    continue;
                }
                match candidates.last_mut() {
                    Some((row, entries, _)) if *row == tombstone.row_key => entries.push(tombstone),
                    _ => candidates.push((tombstone.row_key.clone(), vec![tombstone], Vec::new())),
                }
                if candidates.len() >= ROWS_PER_BATCH {
                    let batch = std::mem::take(&mut candidates);
                    let (deleted, rewritten) = self.purge_rows(keyspace, layout.id, batch)?;
                    removed += deleted;
                    purged += rewritten;
                }
            }
            let (deleted, rewritten) = self.purge_rows(keyspace, layout.id, candidates)?;
            removed += deleted;
            purged += rewritten;
            if removed == found {
                self.counters.clean(layout.id, mark);
            }
            purged += removed;
        }
        crate::metrics::tombstones_purged(purged);
        Ok(purged)
    }

    /// Deletes the candidates of each row under its lock, and rewrites its partly expired
    /// markers, skipping any that changed since they were read (a concurrent write replaced
    /// them). Returns how many entries were deleted and how many markers rewritten.
    fn purge_rows(
        &self,
        keyspace: &str,
        cf_id: u32,
        rows: Vec<RowCandidates>,
    ) -> Result<(usize, usize)> {
        let (mut purged, mut rewritten) = (0, 0);
        for (row_key, entries, rewrites) in rows {
            let _guard = self.locks.lock(keyspace, &row_key);
            if self.is_drained() {
                break;
            }
            if !rewrites.is_empty() {
                let (replaced, freed) = self.store.replace_unchanged(rewrites)?;
                self.counters.purged(cf_id, 0, freed);
                rewritten += replaced;
            }
            // Tombstones and expired columns leave different counters (`stats`).
            let (columns, tombstones): (Vec<_>, Vec<_>) =
                entries.into_iter().partition(StoredEntry::holds_value);
            for (entries, expired_columns) in [(tombstones, false), (columns, true)] {
                if entries.is_empty() {
                    continue;
                }
                let (deleted, bytes) = self.store.delete_unchanged(entries)?;
                match expired_columns {
                    true => self
                        .counters
                        .expired_purged(cf_id, deleted as i64, bytes as i64),
                    false => self.counters.purged(cf_id, deleted as i64, bytes as i64),
                }
                purged += deleted;
            }
        }
        Ok((purged, rewritten))
    }

    /// Starts a thread that purges expired tombstones every `interval` until the handle is
    /// dropped or the database is gone.
    pub fn start_maintenance(self: &Arc<Self>, interval: Duration) -> Result<MaintenanceHandle> {
        let db: Weak<Db> = Arc::downgrade(self);
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("ilion-gc".into())
            .spawn(move || loop {
                match stopped.recv_timeout(interval) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                let Some(db) = db.upgrade() else { return };
                match db.purge_expired_tombstones() {
                    Ok(0) => {}
                    Ok(n) => tracing::info!("purged {n} expired tombstones"),
                    Err(e) => tracing::warn!("tombstone purge failed: {e}"),
                }
            })?;
        Ok(MaintenanceHandle {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

/// Stops the maintenance thread when dropped.
pub struct MaintenanceHandle {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for MaintenanceHandle {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
