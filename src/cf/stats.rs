//! Per-column-family statistics kept on the write path, so that `/metrics`, `ilion tool
//! info` and the status page never scan a column family (`docs/admin.md`). Each row
//! mutation adds what it changed — live rows and columns, tombstones, stored bytes — to its
//! CF's atomic counters. A full scan (`ilion tool cfstats`, or the first statistics asked
//! for after start) sets the base the changes are added to, so the figures are **estimates**
//! between scans: each mutation's changes are exact (a row's liveness is looked up only when
//! its number of live columns changes, counting just enough of them), but writes that run
//! during a scan may be counted twice, and a mutation that deletes a row and also writes
//! tombstones over its newer columns may leave the row counted as live.
//!
//! A truncate empties its column family while no write runs, so its estimates restart from
//! zero (a statistics scan running across the truncate may still set them from what it saw).
//!
//! Expiring columns: a column expires with no write to count it, so the write path counts
//! an expiring column as a live column (and its row as live) from its write until it is
//! overwritten, hidden by a delete, or purged; the purge then subtracts it from the live
//! columns, but its row stays counted as live. A scan counts what reads see at its time:
//! an expired column as a tombstone. Between scans the estimates can therefore overstate
//! live columns and rows while expired columns wait for the purge.
//!
//! Range tombstones live in their level's marker (`deletions`): a marker counts as one
//! tombstone however many ranges it holds, each write of it as one more tombstone written,
//! and what a range removes when it is written leaves the counts as any removal does.
//!
//! The same counters let the tombstone purge skip a column family that holds no tombstone:
//! a purge that leaves none behind remembers how many tombstones had been written then, and
//! the next one scans only if more were written since.

use super::CfScan;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// What one row mutation changed in one column family.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    pub live_rows: i64,
    pub live_columns: i64,
    pub tombstones: i64,
    pub bytes: i64,
    /// Tombstones, markers and expiring columns written (never decreases): what the purge
    /// looks at.
    pub tombstones_written: u64,
}

/// The counters of one column family.
#[derive(Default)]
struct CfCounters {
    /// Sums of every [`Tally`] since the node started.
    live_rows: AtomicI64,
    live_columns: AtomicI64,
    tombstones: AtomicI64,
    bytes: AtomicI64,
    tombstones_written: AtomicU64,
    /// The scan's figures minus the sums when it started: estimate = base + sums.
    base: [AtomicI64; 4],
    /// Set once a scan has set `base`.
    based: AtomicBool,
    /// `tombstones_written` when a purge last left no tombstone, plus one (0: never).
    clean_at: AtomicU64,
}

impl CfCounters {
    fn sums(&self) -> [i64; 4] {
        [
            self.live_rows.load(Ordering::Relaxed),
            self.live_columns.load(Ordering::Relaxed),
            self.tombstones.load(Ordering::Relaxed),
            self.bytes.load(Ordering::Relaxed),
        ]
    }
}

/// The counters of every column family, by the CF's storage id (sorted). The ids come from
/// the catalog on disk, so they are looked up, never used as indices: a damaged id must not
/// size an allocation. Column families created at run time are added (`add_cfs`); the
/// lock is only written then.
pub(crate) struct Counters {
    by_id: std::sync::RwLock<Vec<(u32, std::sync::Arc<CfCounters>)>>,
}

/// The sums at the start of a scan, to set the base from its result.
pub(crate) struct ScanStart([i64; 4]);

impl Counters {
    /// Counters for the CFs with these storage ids.
    pub fn new(ids: impl IntoIterator<Item = u32>) -> Counters {
        let mut ids: Vec<u32> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        Counters {
            by_id: std::sync::RwLock::new(
                ids.into_iter().map(|id| (id, Default::default())).collect(),
            ),
        }
    }

    /// Starts counting for column families created since (ids already known keep their
    /// counts).
    pub fn add_cfs(&self, ids: impl IntoIterator<Item = u32>) {
        let mut by_id = self.by_id.write().unwrap_or_else(|e| e.into_inner());
        for id in ids {
            if let Err(at) = by_id.binary_search_by_key(&id, |(i, _)| *i) {
                by_id.insert(at, (id, Default::default()));
            }
        }
    }

    fn cf(&self, id: u32) -> Option<std::sync::Arc<CfCounters>> {
        // The counters are plain atomics: a poisoned lock still guards a valid list.
        let by_id = self.by_id.read().unwrap_or_else(|e| e.into_inner());
        let at = by_id.binary_search_by_key(&id, |(i, _)| *i).ok()?;
        by_id.get(at).map(|(_, c)| c.clone())
    }

    /// Adds what a row mutation changed.
    pub fn add(&self, id: u32, tally: &Tally) {
        let Some(c) = self.cf(id) else { return };
        c.live_rows.fetch_add(tally.live_rows, Ordering::Relaxed);
        c.live_columns
            .fetch_add(tally.live_columns, Ordering::Relaxed);
        c.tombstones.fetch_add(tally.tombstones, Ordering::Relaxed);
        c.bytes.fetch_add(tally.bytes, Ordering::Relaxed);
        if tally.tombstones_written > 0 {
            c.tombstones_written
                .fetch_add(tally.tombstones_written, Ordering::Release);
        }
    }

    /// Tombstones purged: they no longer count.
    pub fn purged(&self, id: u32, tombstones: i64, bytes: i64) {
        let Some(c) = self.cf(id) else { return };
        c.tombstones.fetch_sub(tombstones, Ordering::Relaxed);
        c.bytes.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Expired columns purged: the write path counted them as live columns.
    pub fn expired_purged(&self, id: u32, columns: i64, bytes: i64) {
        let Some(c) = self.cf(id) else { return };
        c.live_columns.fetch_sub(columns, Ordering::Relaxed);
        c.bytes.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Call before scanning a CF whose result goes to [`Counters::scanned`].
    pub fn scan_start(&self, id: u32) -> ScanStart {
        ScanStart(self.cf(id).map(|c| c.sums()).unwrap_or_default())
    }

    /// Sets the base from a scan that began at `start`.
    pub fn scanned(&self, id: u32, start: ScanStart, scan: &CfScan) {
        let Some(c) = self.cf(id) else { return };
        let found = [
            scan.live_rows as i64,
            scan.live_columns as i64,
            scan.tombstones as i64,
            scan.bytes as i64,
        ];
        for ((base, found), at_start) in c.base.iter().zip(found).zip(start.0) {
            base.store(found - at_start, Ordering::Relaxed);
        }
        c.based.store(true, Ordering::Release);
    }

    /// The CF was truncated while no write ran: its estimates start again from empty, as
    /// if a scan had found nothing, and it holds no tombstone for the purge to look for.
    pub fn truncated(&self, id: u32) {
        let Some(c) = self.cf(id) else { return };
        for (base, sum) in c.base.iter().zip(c.sums()) {
            base.store(-sum, Ordering::Relaxed);
        }
        c.based.store(true, Ordering::Release);
        let written = c.tombstones_written.load(Ordering::Acquire);
        c.clean_at.store(written + 1, Ordering::Release);
    }

    /// The estimate for a CF (into `into`), or false when no scan has set its base yet.
    pub fn estimate(&self, id: u32, into: &mut CfScan) -> bool {
        let Some(c) = self.cf(id) else { return false };
        if !c.based.load(Ordering::Acquire) {
            return false;
        }
        let sums = c.sums();
        let value = |i: usize| (c.base[i].load(Ordering::Relaxed) + sums[i]).max(0) as u64;
        into.live_rows = value(0);
        into.live_columns = value(1);
        into.tombstones = value(2);
        into.bytes = value(3);
        true
    }

    /// The purge's mark: how many tombstones had been written when it starts on a CF.
    pub fn tombstones_written(&self, id: u32) -> u64 {
        self.cf(id)
            .map_or(0, |c| c.tombstones_written.load(Ordering::Acquire))
    }

    /// True when a purge left the CF without tombstones and none was written since.
    pub fn known_clean(&self, id: u32) -> bool {
        self.cf(id).is_some_and(|c| {
            c.clean_at.load(Ordering::Acquire) == c.tombstones_written.load(Ordering::Acquire) + 1
        })
    }

    /// A purge that started at `mark` left the CF without tombstones.
    pub fn clean(&self, id: u32, mark: u64) {
        if let Some(c) = self.cf(id) {
            c.clean_at.store(mark + 1, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_add_changes_to_the_last_scan() {
        let counters = Counters::new(0..=3);
        let mut out = CfScan::default();
        assert!(!counters.estimate(3, &mut out), "no base before a scan");
        let one_row = Tally {
            live_rows: 1,
            live_columns: 5,
            bytes: 100,
            ..Tally::default()
        };
        counters.add(3, &one_row);
        let start = counters.scan_start(3);
        let scan = CfScan {
            live_rows: 1,
            live_columns: 5,
            bytes: 100,
            ..CfScan::default()
        };
        counters.scanned(3, start, &scan);
        counters.add(3, &one_row);
        counters.add(
            3,
            &Tally {
                live_columns: -1,
                tombstones: 1,
                tombstones_written: 1,
                ..Tally::default()
            },
        );
        assert!(counters.estimate(3, &mut out));
        assert_eq!(
            (out.live_rows, out.live_columns, out.tombstones, out.bytes),
            (2, 9, 1, 200)
        );
        counters.purged(3, 1, 20);
        assert!(counters.estimate(3, &mut out));
        assert_eq!((out.tombstones, out.bytes), (0, 180));
        assert!(!counters.estimate(2, &mut out), "other CFs have no base");
    }

    #[test]
    fn a_truncated_cf_counts_from_empty() {
        let counters = Counters::new(1..=2);
        let busy = Tally {
            live_rows: 2,
            live_columns: 7,
            tombstones: 3,
            bytes: 300,
            tombstones_written: 3,
        };
        counters.add(1, &busy);
        counters.add(2, &busy);
        counters.truncated(1);
        let mut out = CfScan::default();
        assert!(counters.estimate(1, &mut out), "truncate sets a base");
        assert_eq!(
            (out.live_rows, out.live_columns, out.tombstones, out.bytes),
            (0, 0, 0, 0)
        );
        assert!(counters.known_clean(1));
        counters.add(1, &busy);
        assert!(counters.estimate(1, &mut out));
        assert_eq!((out.live_columns, out.tombstones), (7, 3));
        assert!(!counters.known_clean(1), "tombstones written since");
        assert!(!counters.estimate(2, &mut out), "other CFs untouched");
    }

    #[test]
    fn a_cf_is_clean_until_a_tombstone_is_written() {
        let counters = Counters::new(0..=1);
        assert!(!counters.known_clean(1), "unknown at start");
        let mark = counters.tombstones_written(1);
        counters.clean(1, mark);
        assert!(counters.known_clean(1));
        counters.add(
            1,
            &Tally {
                tombstones: 1,
                tombstones_written: 1,
                ..Tally::default()
            },
        );
        assert!(!counters.known_clean(1));
    }
}
