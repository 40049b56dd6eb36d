//! What the operator's tools need from the column families: per-CF statistics from a scan
//! (live rows and columns, tombstones, bytes), `compact` (the tombstone purge, now, for
//! chosen CFs), `drain` (refuse every later write, then sync) and consistent snapshots. The
//! last two hold every row lock so that no write is half-way while they act.

use super::Db;
use crate::error::{Error, Result};
use crate::storage::CfLayout;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::Ordering;

/// What a scan of one column family finds (also the first fields of the admin API's
/// cfstats entries).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CfScan {
    /// The keyspace the column family belongs to.
    pub keyspace: String,
    /// The column family's name.
    pub cf: String,
    /// "Standard" or "Super".
    pub column_type: String,
    /// Rows with at least one live column.
    pub live_rows: u64,
    /// Live columns (subcolumns in a Super CF), expiring ones that have not expired included.
    pub live_columns: u64,
    /// Row, super-column and column tombstones still stored, expired columns included.
    pub tombstones: u64,
    /// Bytes of the CF's keys and values as stored (before sled's own overhead).
    pub bytes: u64,
}

/// The message every write gets after `drain`.
pub const DRAINED: &str =
    "this node has been drained (ilion tool drain) and refuses writes until it is restarted";

/// Which column families an admin action applies to: a keyspace and some of its CFs, or
/// every CF when `keyspace` is None (or `cfs` is empty: all of the keyspace). It is also the
/// JSON body of the admin endpoint's flush and compact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CfSelection {
    /// The keyspace; None selects every column family of every keyspace.
    #[serde(default)]
    pub keyspace: Option<String>,
    /// Column families of `keyspace`; empty selects all of them.
    #[serde(default)]
    pub cfs: Vec<String>,
}

impl CfSelection {
    fn contains(&self, keyspace: &str, cf: &str) -> bool {
        match &self.keyspace {
            None => true,
            Some(ks) => ks == keyspace && (self.cfs.is_empty() || self.cfs.iter().any(|c| c == cf)),
        }
    }
}

impl Db {
    /// Checks that the selection names configured keyspaces and CFs.
    pub fn check_selection(&self, selection: &CfSelection) -> Result<()> {
        let Some(ks) = &selection.keyspace else {
            return Ok(());
        };
        let catalog = self.catalog();
        for cf in &selection.cfs {
            Db::cf(&catalog, ks, cf)?;
        }
        match catalog.schema().keyspace(ks) {
            Some(_) => Ok(()),
            None => Err(Error::invalid(format!("Keyspace {ks} does not exist"))),
        }
    }

    /// The statistics of every column family without scanning: the write path's estimates
    /// (`stats`). A CF no scan has counted yet is scanned once, which sets the base later
    /// estimates build on.
    pub fn estimated_stats(&self) -> Result<Vec<CfScan>> {
        let mut out = Vec::new();
        let catalog = self.catalog();
        for (keyspace, cf, layout) in catalog.layouts() {
            let mut stats = self.empty_stats(keyspace, cf);
            if !self.counters.estimate(layout.id, &mut stats) {
                stats = self.scan_cf(keyspace, cf, layout)?;
            }
            out.push(stats);
        }
        Ok(out)
    }

    /// Scans every selected column family and counts what it holds; the counts also become
    /// the base of later estimates ([`Db::estimated_stats`]).
    pub fn scan_stats(&self, selection: &CfSelection) -> Result<Vec<CfScan>> {
        self.check_selection(selection)?;
        let mut out = Vec::new();
        let catalog = self.catalog();
        for (keyspace, cf, layout) in catalog.layouts() {
            if selection.contains(keyspace, cf) {
                out.push(self.scan_cf(keyspace, cf, layout)?);
            }
        }
        Ok(out)
    }

    /// A CF's statistics with every count zero.
    fn empty_stats(&self, keyspace: &str, cf: &str) -> CfScan {
        let super_cf = self
            .schema()
            .cf(keyspace, cf)
            .is_some_and(|d| d.subcomparator.is_some());
        CfScan {
            keyspace: keyspace.to_string(),
            cf: cf.to_string(),
            column_type: if super_cf { "Super" } else { "Standard" }.to_string(),
            ..CfScan::default()
        }
    }

    /// Counts what one column family holds, and rebases its estimates on the counts.
    fn scan_cf(&self, keyspace: &str, cf: &str, layout: &CfLayout) -> Result<CfScan> {
        let start = self.counters.scan_start(layout.id);
        let mut stats = self.empty_stats(keyspace, cf);
        let now = i64::from(self.now());
        {
            let mut row: Option<(Vec<u8>, bool)> = None;
            for item in self.store.entries(layout) {
                let entry = item?;
                stats.bytes += entry.stored_bytes() as u64;
                // An expired column counts as the tombstone it has become.
                let live = entry.is_live(now);
                match live {
                    true => stats.live_columns += 1,
                    false => stats.tombstones += 1,
                }
                match &mut row {
                    Some((k, any_live)) if *k == entry.row_key => *any_live |= live,
                    _ => {
                        if let Some((_, true)) = row {
                            stats.live_rows += 1;
                        }
                        row = Some((entry.row_key, live));
                    }
                }
            }
            if let Some((_, true)) = row {
                stats.live_rows += 1;
            }
        }
        self.counters.scanned(layout.id, start, &stats);
        Ok(stats)
    }

    /// Purges the selected CFs' tombstones older than GCGraceSeconds now and syncs; returns
    /// how many were removed.
    pub fn compact(&self, selection: &CfSelection) -> Result<usize> {
        self.check_selection(selection)?;
        self.refuse_if_drained()?;
        let purged = self.purge_expired_in(&|ks, cf| selection.contains(ks, cf))?;
        self.sync()?;
        Ok(purged)
    }

    /// Refuses every later write, waits for the writes under way, and syncs.
    pub fn drain(&self) -> Result<()> {
        self.drained.store(true, Ordering::SeqCst);
        drop(self.locks.lock_all());
        self.sync()
    }

    /// True after [`Db::drain`].
    pub fn is_drained(&self) -> bool {
        self.drained.load(Ordering::SeqCst)
    }

    /// The error a write meets after [`Db::drain`].
    pub(crate) fn refuse_if_drained(&self) -> Result<()> {
        match self.is_drained() {
            true => Err(Error::invalid(DRAINED)),
            false => Ok(()),
        }
    }

    /// Writes a consistent copy of the whole store into `dir` (a new directory): every row
    /// lock is held while the entries are copied, so the copy holds each row mutation
    /// entirely or not at all, and every write acknowledged before the call.
    pub fn snapshot(&self, dir: &Path) -> Result<u64> {
        let writers_held = self.locks.lock_all();
        let copied = self.store.copy_to(dir);
        drop(writers_held);
        copied
    }
}

#[cfg(test)]
mod tests;
