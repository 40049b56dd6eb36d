//! The deletions of one row as the write path plans against them: the row's marker and the
//! markers of the super columns the mutation touches, each with its own deletion and its
//! range tombstones (`docs/api-later.md#data`, `docs/storage.md#values`). Markers are read
//! once (none at all for a row with nothing stored), changed in memory as the mutation's
//! deletes are planned — so a later step of the same mutation sees what an earlier one
//! pruned, and a pruned marker is never written back from a stale read — and written once
//! at the end. Range tombstones, like row and super-column tombstones, are applied at write
//! time (see the module doc of `cf`): what a range hides when it is written is removed, and
//! the range stays in its level's marker so that later writes it hides are dropped. Reads
//! therefore never look at them.

use super::stats::Tally;
use super::CfRef;
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::RangeTombstone;
use crate::storage::{EncodedRow, Marker, MarkerAt, RowSession, RowWrites};
use std::collections::BTreeMap;

/// One level's marker: as stored, and as planned.
#[derive(Default)]
struct Level {
    /// The stored marker, as read (None: none stored, or the row is new).
    stored: Option<Marker>,
    /// The marker as the mutation leaves it; empty means none.
    marker: Marker,
    /// Whether `marker` differs from what is stored and must be written.
    changed: bool,
}

impl Level {
    fn read(stored: Option<Marker>) -> Level {
        Level {
            marker: stored.clone().unwrap_or_default(),
            stored,
            changed: false,
        }
    }

    /// The highest timestamp of a deletion of this level hiding `name` (its own deletion
    /// or a range over the name), if any.
    fn deleted_at(&self, comparator: Comparator, name: &[u8]) -> Option<i64> {
        let ranges = self
            .marker
            .ranges
            .iter()
            .filter(|r| r.covers(comparator, name))
            .map(|r| r.timestamp);
        ranges.max().max(self.marker.timestamp)
    }

    /// Drops what a deletion of everything at `t` hides: the own deletion and the ranges
    /// at or below `t`.
    fn prune(&mut self, t: i64) {
        if self.marker.timestamp.is_some_and(|own| own <= t) {
            self.marker.timestamp = None;
            self.marker.local_deletion_time = 0;
            self.changed = true;
        }
        let before = self.marker.ranges.len();
        self.marker.ranges.retain(|r| r.timestamp > t);
        self.changed |= self.marker.ranges.len() != before;
    }

    /// Sets the own deletion to `t` at `now` (the caller checked it is newer).
    fn delete(&mut self, t: i64, now: u32) {
        self.prune(t);
        self.marker.timestamp = Some(t);
        self.marker.local_deletion_time = now;
        self.changed = true;
    }

    /// Adds a range tombstone; false when a range of this level at least as new already
    /// covers it (nothing to do). Ranges the new one covers at or below its timestamp
    /// go: it hides all they hide.
    fn add_range(&mut self, comparator: Comparator, range: RangeTombstone) -> bool {
        let ranges = &mut self.marker.ranges;
        if ranges
            .iter()
            .any(|r| r.timestamp >= range.timestamp && r.contains(comparator, &range))
        {
            return false;
        }
        ranges.retain(|r| !(r.timestamp <= range.timestamp && range.contains(comparator, r)));
        ranges.push(range);
        self.changed = true;
        true
    }
}

/// The deletions of one row of one column family, as a mutation plans them.
pub(super) struct RowDeletions {
    /// True when nothing is stored for the row: no marker is read.
    new_row: bool,
    row: Level,
    supers: BTreeMap<Vec<u8>, Level>,
}

impl RowDeletions {
    /// The row's deletions: its stored marker, read unless the row is new.
    pub fn read(
        store: &RowSession<'_>,
        cf: CfRef<'_>,
        row: &EncodedRow,
        new_row: bool,
    ) -> Result<RowDeletions> {
        let stored = match new_row {
            true => None,
            false => store.get_marker(cf.layout, row, MarkerAt::Row)?,
        };
        Ok(RowDeletions {
            new_row,
            row: Level::read(stored),
            supers: BTreeMap::new(),
        })
    }

    /// The row's own deletion timestamp.
    pub fn row_deleted(&self) -> Option<i64> {
        self.row.marker.timestamp
    }

    /// The super column `name`'s level, read on first use.
    fn super_level(
        &mut self,
        store: &RowSession<'_>,
        cf: CfRef<'_>,
        row: &EncodedRow,
        name: &[u8],
    ) -> Result<&mut Level> {
        if !self.supers.contains_key(name) {
            let stored = match self.new_row {
                true => None,
                false => store.get_marker(cf.layout, row, MarkerAt::Super(name))?,
            };
            self.supers.insert(name.to_vec(), Level::read(stored));
        }
        // Looked up by reference: a subcolumn insert allocates no key once its super
        // column is known.
        self.supers
            .get_mut(name)
            .ok_or_else(|| Error::Storage("super column marker lost while planning".into()))
    }

    /// The highest timestamp of a row-level deletion hiding everything of the top-level
    /// name `name` (a column, or a whole super column): the row's own or a range over it.
    pub fn row_deleted_at(&self, cf: CfRef<'_>, name: &[u8]) -> Option<i64> {
        self.row.deleted_at(cf.def.comparator, name)
    }

    /// The highest timestamp of a deletion hiding the whole super column `name`.
    pub fn super_deleted_at(
        &mut self,
        store: &RowSession<'_>,
        cf: CfRef<'_>,
        row: &EncodedRow,
        name: &[u8],
    ) -> Result<Option<i64>> {
        let row_level = self.row_deleted_at(cf, name);
        let own = self.super_level(store, cf, row, name)?.marker.timestamp;
        Ok(row_level.max(own))
    }

    /// The highest timestamp of a deletion hiding the column (`super_column` None) or
    /// subcolumn `name`.
    pub fn cell_deleted_at(
        &mut self,
        store: &RowSession<'_>,
        cf: CfRef<'_>,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        name: &[u8],
    ) -> Result<Option<i64>> {
        match super_column {
            None => Ok(self.row_deleted_at(cf, name)),
            Some(sc) => {
                let row_level = self.row_deleted_at(cf, sc);
                let sub = cf.def.comparator_for(true);
                let level = self.super_level(store, cf, row, sc)?;
                Ok(row_level.max(level.deleted_at(sub, name)))
            }
        }
    }

    /// Deletes the row at `t` (newer than its own deletion, as the caller checked).
    pub fn delete_row(&mut self, t: i64, now: u32) {
        self.row.delete(t, now);
    }

    /// Deletes super column `name` at `t` (newer than what hides it, as checked).
    pub fn delete_super(
        &mut self,
        store: &RowSession<'_>,
        cf: CfRef<'_>,
        row: &EncodedRow,
        name: &[u8],
        t: i64,
        now: u32,
    ) -> Result<()> {
        self.super_level(store, cf, row, name)?.delete(t, now);
        Ok(())
    }

    /// Adds a range tombstone to the row (`super_column` None) or to a super column;
    /// false when one at least as new already covers it.
    pub fn add_range(
        &mut self,
        store: &RowSession<'_>,
        cf: CfRef<'_>,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        range: RangeTombstone,
    ) -> Result<bool> {
        Ok(match super_column {
            None => self.row.add_range(cf.def.comparator, range),
            Some(sc) => {
                let sub = cf.def.comparator_for(true);
                self.super_level(store, cf, row, sc)?.add_range(sub, range)
            }
        })
    }

    /// A stored super-column marker met by a deletion at `t` that hides the whole super
    /// column (the row's, a range over it, or its own): what it held at or below `t` goes.
    pub fn prune_super(&mut self, name: &[u8], stored: Marker, t: i64) {
        let level = self
            .supers
            .entry(name.to_vec())
            .or_insert_with(|| Level::read(Some(stored)));
        level.prune(t);
    }

    /// Writes every marker the mutation changed (removing those left empty), counting them
    /// in the tally as `stats` does: a marker is a tombstone, and each one written is one
    /// more for the purge to look at.
    pub fn write(self, cf: CfRef<'_>, row: &EncodedRow, writes: &mut RowWrites, tally: &mut Tally) {
        write_level(cf, row, MarkerAt::Row, self.row, writes, tally);
        for (name, level) in self.supers {
            write_level(cf, row, MarkerAt::Super(&name), level, writes, tally);
        }
    }
}

/// Writes one level's marker if the mutation changed it (see [`RowDeletions::write`]).
fn write_level(
    cf: CfRef<'_>,
    row: &EncodedRow,
    at: MarkerAt<'_>,
    level: Level,
    writes: &mut RowWrites,
    tally: &mut Tally,
) {
    if !level.changed {
        return;
    }
    let layout = cf.layout;
    let old = level.stored.as_ref().map(|m| marker_size(cf, row, at, m));
    if level.marker.is_empty() {
        if let Some(old) = old {
            writes.delete_marker(layout, row, at);
            tally.tombstones -= 1;
            tally.bytes -= old as i64;
        }
        return;
    }
    let size = writes.put_marker(layout, row, at, &level.marker);
    tally.tombstones_written += 1;
    tally.bytes += size as i64 - old.unwrap_or(0) as i64;
    if old.is_none() {
        tally.tombstones += 1;
    }
}

/// Bytes a stored marker takes (key and value), for the tally.
fn marker_size(cf: CfRef<'_>, row: &EncodedRow, at: MarkerAt<'_>, marker: &Marker) -> usize {
    let mut scratch = RowWrites::default();
    scratch.put_marker(cf.layout, row, at, marker)
}
