//! The typed row API: what `cf` reads and writes, in its own terms. A row is addressed by
//! an [`EncodedRow`], an entry by names; values come back as [`Cell`]s and deletion
//! [`Marker`]s, slices as decoded names in comparator order between [`NameRange`] bounds.
//! Every key and value byte is built and read here (through the private `keys`, `values`
//! and `encoding`), none in `cf`. Rows in ring order for range reads live in `ranges`.
//! Writes go through a [`RowSession`]: one per row mutation, or one per atomic batch of
//! several rows ([`Store::batch_session`]); [`Store::truncate`] empties a column family.

mod original;
mod ranges;

pub use original::canonical_name;
pub use ranges::RowSpan;

use super::engine::{Batch, Scan};
use super::keys::{encode_row, name_bounds, prefix_upper, CfLayout, Entry};
use super::store::{RowSession, Store};
use super::values::{decode_marker, encode_marker};
use super::Ack;
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::{Cell, SliceRange};
use crate::partitioner::Partitioner;
use original::{decode_named_cell, encode_named_cell};
use std::ops::Bound;

pub use super::values::{stored_value_len, Marker};

/// A row key in its stored form (the same for every column family of one partitioner).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedRow(Vec<u8>);

impl EncodedRow {
    /// The stored form of `key` under `partitioner`.
    pub fn new(partitioner: Partitioner, key: &[u8]) -> EncodedRow {
        EncodedRow(encode_row(partitioner, key))
    }

    fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Bounds of a slice by name: `start` and `finish` inclusive, empty for unbounded, in
/// traversal order (so `start` is the greater name when `reversed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameRange<'a> {
    /// The first name in traversal order; empty for unbounded.
    pub start: &'a [u8],
    /// The last name in traversal order; empty for unbounded.
    pub finish: &'a [u8],
    /// Descending order.
    pub reversed: bool,
}

impl NameRange<'_> {
    /// Every name, ascending.
    pub fn all() -> NameRange<'static> {
        NameRange {
            start: &[],
            finish: &[],
            reversed: false,
        }
    }

    /// (lowest, highest) name in key order.
    fn low_high(&self) -> (&[u8], &[u8]) {
        if self.reversed {
            (self.finish, self.start)
        } else {
            (self.start, self.finish)
        }
    }
}

impl<'a> From<&'a SliceRange> for NameRange<'a> {
    fn from(range: &'a SliceRange) -> NameRange<'a> {
        NameRange {
            start: &range.start,
            finish: &range.finish,
            reversed: range.reversed,
        }
    }
}

/// One entry of a Super CF row, in the order a super-column slice meets them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SuperEntry {
    /// A super column's own deletion marker.
    Marker {
        /// The super column's name.
        super_column: Vec<u8>,
    },
    /// A subcolumn version (live, expiring or tombstone).
    Cell {
        /// The super column's name.
        super_column: Vec<u8>,
        /// The subcolumn's name.
        name: Vec<u8>,
        /// The stored version.
        cell: Cell,
    },
}

impl SuperEntry {
    /// The super column the entry belongs to.
    pub fn super_column(&self) -> &[u8] {
        match self {
            SuperEntry::Marker { super_column } | SuperEntry::Cell { super_column, .. } => {
                super_column
            }
        }
    }
}

/// A stored value: a column version or a deletion marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredValue {
    /// A column or subcolumn version.
    Cell(Cell),
    /// A row or super-column deletion marker.
    Marker(Marker),
}

/// An entry as a scan found it; it can be deleted (see [`RowWrites::delete`],
/// [`Store::delete_unchanged`]).
#[derive(Debug, Clone)]
pub struct StoredEntry {
    /// The row's key.
    pub row_key: Vec<u8>,
    /// What the entry is: a row or super-column marker, a column or a subcolumn.
    pub entry: Entry,
    /// The decoded value.
    pub value: StoredValue,
    key: Vec<u8>,
    raw: Vec<u8>,
}

impl StoredEntry {
    /// Bytes of its logical key and value as stored (before packing and the engine's own
    /// overhead).
    pub fn stored_bytes(&self) -> usize {
        self.key.len() + self.raw.len()
    }

    /// True for a column or subcolumn version with a value, expiring or not, expired or
    /// not: what the write path's statistics count as a live column (`cf::stats`).
    pub fn holds_value(&self) -> bool {
        matches!(
            self.value,
            StoredValue::Cell(Cell::Live { .. } | Cell::Expiring { .. } | Cell::Counter { .. })
        )
    }

    /// True for a column or subcolumn version that reads see at server time `now` (seconds).
    pub fn is_live(&self, now: i64) -> bool {
        matches!(&self.value, StoredValue::Cell(cell) if cell.is_live(now))
    }
}

fn corrupt_key(layout: &CfLayout) -> Error {
    Error::Corrupt(format!(
        "undecodable key in column family with id {}",
        layout.id
    ))
}

/// Decodes a scanned entry of `layout`; `None` when the key is not one of its entries.
fn stored_entry(layout: &CfLayout, key: Vec<u8>, raw: Vec<u8>) -> Option<Result<StoredEntry>> {
    let decoded = layout.decode(&key)?;
    let value = match decoded.entry {
        Entry::RowTombstone | Entry::SuperTombstone(_) => {
            decode_marker(&raw).map(StoredValue::Marker)
        }
        Entry::Column(_) | Entry::SubColumn(..) => {
            decode_named_cell(&raw).map(|(_, cell)| StoredValue::Cell(cell))
        }
    };
    Some(value.map(|value| StoredEntry {
        row_key: decoded.row_key,
        entry: decoded.entry,
        value,
        key,
        raw,
    }))
}

/// The key of a column (`super_column` None) or subcolumn.
fn cell_key(
    layout: &CfLayout,
    row: &EncodedRow,
    super_column: Option<&[u8]>,
    name: &[u8],
) -> Vec<u8> {
    match super_column {
        None => layout.column_key(row.bytes(), name),
        Some(sc) => layout.subcolumn_key(row.bytes(), sc, name),
    }
}

/// The comparator of the names at one level: the row's, or a super column's subcolumns'.
fn level_comparator(layout: &CfLayout, super_column: Option<&[u8]>) -> Comparator {
    match super_column {
        None => layout.comparator,
        Some(_) => layout.subcomparator.unwrap_or(layout.comparator),
    }
}

/// Every entry of `layout` under `prefix`, decoded; an undecodable key is corruption.
fn entries_under<'a>(
    layout: &'a CfLayout,
    scan: Scan<'a>,
) -> impl Iterator<Item = Result<StoredEntry>> + 'a {
    scan.map(move |item| {
        let (key, raw) = item?;
        stored_entry(layout, key, raw).unwrap_or_else(|| Err(corrupt_key(layout)))
    })
}

impl Store {
    /// The stored version of a column (`super_column` None) or subcolumn.
    pub fn get_cell(
        &self,
        layout: &CfLayout,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        name: &[u8],
    ) -> Result<Option<Cell>> {
        let key = cell_key(layout, row, super_column, name);
        self.get(&key)?
            .map(|v| decode_named_cell(&v).map(|(_, cell)| cell))
            .transpose()
    }

    /// The stored version of a column (`super_column` None) or subcolumn named like `name`,
    /// with the name it was written under — which may be other bytes than `name` that
    /// compare equal to it (`original`).
    pub fn get_named_cell(
        &self,
        layout: &CfLayout,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        name: &[u8],
    ) -> Result<Option<(Vec<u8>, Cell)>> {
        let key = cell_key(layout, row, super_column, name);
        let Some(raw) = self.get(&key)? else {
            return Ok(None);
        };
        let (original, cell) = decode_named_cell(&raw)?;
        let comparator = level_comparator(layout, super_column);
        let name = original
            .or_else(|| canonical_name(comparator, name))
            .unwrap_or_else(|| name.to_vec());
        Ok(Some((name, cell)))
    }

    /// The versions of a Standard row's columns (`super_column` None) or of one super
    /// column's subcolumns, with their names, within `range` in its traversal order.
    pub fn cells<'a>(
        &'a self,
        layout: &'a CfLayout,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        range: NameRange<'_>,
    ) -> impl Iterator<Item = Result<(Vec<u8>, Cell)>> + 'a {
        let (prefix, comparator) = match super_column {
            None => (layout.columns_prefix(row.bytes()), layout.comparator),
            Some(sc) => (
                layout.subcolumns_prefix(row.bytes(), sc),
                layout.subcomparator.unwrap_or(layout.comparator),
            ),
        };
        let (lower, upper) = name_bounds(&prefix, comparator, range.low_high(), true);
        let prefix_len = prefix.len();
        self.scan(lower, upper, range.reversed).map(move |item| {
            let (key, value) = item?;
            let (original, cell) = decode_named_cell(&value)?;
            let name = match original {
                Some(name) => name,
                None => layout
                    .name_after(&key, prefix_len, comparator)
                    .ok_or_else(|| corrupt_key(layout))?,
            };
            Ok((name, cell))
        })
    }

    /// The entries of a Super CF row whose super column lies within `range`, in its
    /// traversal order (each super column's marker and subcolumns together).
    pub fn super_entries<'a>(
        &'a self,
        layout: &'a CfLayout,
        row: &EncodedRow,
        range: NameRange<'_>,
    ) -> impl Iterator<Item = Result<SuperEntry>> + 'a {
        let prefix = layout.columns_prefix(row.bytes());
        let (lower, upper) = name_bounds(&prefix, layout.comparator, range.low_high(), false);
        let prefix_len = prefix.len();
        self.scan(lower, upper, range.reversed).map(move |item| {
            let (key, value) = item?;
            let (super_column, sub) = layout
                .super_entry_after(&key, prefix_len)
                .ok_or_else(|| corrupt_key(layout))?;
            Ok(match sub {
                None => SuperEntry::Marker { super_column },
                Some(name) => {
                    let (original, cell) = decode_named_cell(&value)?;
                    SuperEntry::Cell {
                        super_column,
                        name: original.unwrap_or(name),
                        cell,
                    }
                }
            })
        })
    }

    /// Every tombstone of a column family (row and super-column markers, column and
    /// subcolumn tombstones) and every expiring column (a tombstone once expired), row by
    /// row: the candidates of a purge.
    pub fn tombstones<'a>(
        &'a self,
        layout: &'a CfLayout,
    ) -> impl Iterator<Item = Result<StoredEntry>> + 'a {
        self.entries(layout).filter(|entry| {
            !matches!(
                entry,
                Ok(StoredEntry {
                    value: StoredValue::Cell(Cell::Live { .. } | Cell::Counter { .. }),
                    ..
                })
            )
        })
    }

    /// Every entry of one column family — markers, live columns and tombstones — in key
    /// order (rows in token order, each row's entries together).
    pub fn entries<'a>(
        &'a self,
        layout: &'a CfLayout,
    ) -> impl Iterator<Item = Result<StoredEntry>> + 'a {
        self.scan(Bound::Included(layout.cf_prefix()), layout.cf_end(), false)
            .filter_map(move |item| match item {
                Err(e) => Some(Err(e)),
                Ok((key, raw)) => stored_entry(layout, key, raw),
            })
    }

    /// Removes everything a column family stores — rows, columns, markers, tombstones — but
    /// nothing of other column families or of the catalog (`docs/storage.md#truncate`). The
    /// caller keeps the column family's writers out; the [`Ack`] says when the removal is
    /// durable.
    pub fn truncate(&self, layout: &CfLayout) -> Result<Ack> {
        self.remove_rows(layout.cf_prefix(), layout.cf_end())
    }

    /// Replaces the deletion markers among `entries` that are still stored as they were
    /// read with the given ones (the purge's removal of a marker's expired parts; a
    /// concurrent write may have replaced some); returns how many were replaced and the
    /// bytes that freed. The caller holds the rows' locks.
    pub fn replace_unchanged(&self, entries: Vec<(StoredEntry, Marker)>) -> Result<(usize, i64)> {
        let _leases = self.lease_rows(entries.iter().map(|(e, _)| e.key.as_slice()))?;
        let mut batch = Batch::default();
        let mut freed = 0;
        for (entry, marker) in entries {
            let is_marker = matches!(entry.value, StoredValue::Marker(_));
            if is_marker && self.get(&entry.key)?.as_deref() == Some(entry.raw.as_slice()) {
                let value = encode_marker(&marker);
                freed += entry.raw.len() as i64 - value.len() as i64;
                batch.put(entry.key, value);
            }
        }
        let replaced = batch.len();
        self.write_batch(batch)?;
        Ok((replaced, freed))
    }

    /// Deletes those of `entries` that are still stored as they were read (a concurrent
    /// write may have replaced some); returns how many were deleted and their
    /// [`StoredEntry::stored_bytes`]. The caller holds the rows' locks.
    pub fn delete_unchanged(&self, entries: Vec<StoredEntry>) -> Result<(usize, usize)> {
        // Other processes sharing the engine hold no lock of ours: lease their rows first.
        let _leases = self.lease_rows(entries.iter().map(|e| e.key.as_slice()))?;
        let mut batch = Batch::default();
        let mut bytes = 0;
        for entry in entries {
            if self.get(&entry.key)?.as_deref() == Some(entry.raw.as_slice()) {
                bytes += entry.stored_bytes();
                batch.delete(entry.key);
            }
        }
        let deleted = batch.len();
        self.write_batch(batch)?;
        Ok((deleted, bytes))
    }
}

/// Where deletion markers sit.
#[derive(Debug, Clone, Copy)]
pub enum MarkerAt<'a> {
    /// The row's marker in one column family.
    Row,
    /// One super column's marker.
    Super(&'a [u8]),
}

impl Store {
    /// A session for the row mutations of one atomic batch, written together by one
    /// [`RowSession::write`]: the caller holds every row's lock, and the leases of the rows
    /// (any column family of each; a lease covers the row in all) are taken now, in row
    /// order.
    pub fn batch_session(&self, rows: &[(&CfLayout, &EncodedRow)]) -> Result<RowSession<'_>> {
        let keys = rows
            .iter()
            .map(|(layout, row)| layout.row_prefix(row.bytes()))
            .collect();
        self.leased_session(keys)
    }
}

impl RowSession<'_> {
    /// True when the row has nothing stored in `layout`'s column family — no column, no
    /// marker, no tombstone — so a write to it needs no lookups (one point read, shared
    /// with the write's own planning).
    pub fn row_is_empty(&self, layout: &CfLayout, row: &EncodedRow) -> Result<bool> {
        self.row_absent(&layout.row_prefix(row.bytes()))
    }

    /// The stored version of a column (`super_column` None) or subcolumn.
    pub fn get_cell(
        &self,
        layout: &CfLayout,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        name: &[u8],
    ) -> Result<Option<Cell>> {
        let key = cell_key(layout, row, super_column, name);
        self.get(&key)?
            .map(|v| decode_named_cell(&v).map(|(_, cell)| cell))
            .transpose()
    }

    /// The deletion marker at `at`, if any.
    pub fn get_marker(
        &self,
        layout: &CfLayout,
        row: &EncodedRow,
        at: MarkerAt<'_>,
    ) -> Result<Option<Marker>> {
        let key = match at {
            MarkerAt::Row => layout.row_tombstone_key(row.bytes()),
            MarkerAt::Super(name) => layout.super_tombstone_key(row.bytes(), name),
        };
        self.get(&key)?.map(|v| decode_marker(&v)).transpose()
    }

    /// What a deletion at `at` covers: for the row, every column, super-column marker and
    /// subcolumn (not the row marker); for a super column, its marker and subcolumns.
    pub fn entries_under<'a>(
        &'a self,
        layout: &'a CfLayout,
        row: &EncodedRow,
        at: MarkerAt<'_>,
    ) -> impl Iterator<Item = Result<StoredEntry>> + 'a {
        let prefix = match at {
            MarkerAt::Row => layout.columns_prefix(row.bytes()),
            MarkerAt::Super(name) => layout.super_prefix(row.bytes(), name),
        };
        let upper = prefix_upper(&prefix);
        entries_under(layout, self.scan(Bound::Included(prefix), upper, false))
    }

    /// The entries under `at` whose names lie from `low` to `high` (both inclusive, empty
    /// for unbounded) under their level's comparator: what a range tombstone of that level
    /// covers. For the row of a Standard CF its columns in range; for the row of a Super CF
    /// every super column in range, marker and subcolumns; for a super column its
    /// subcolumns in range (not its marker).
    pub fn entries_in<'a>(
        &'a self,
        layout: &'a CfLayout,
        row: &EncodedRow,
        at: MarkerAt<'_>,
        (low, high): (&[u8], &[u8]),
    ) -> impl Iterator<Item = Result<StoredEntry>> + 'a {
        let (prefix, comparator, last) = match at {
            MarkerAt::Row => (
                layout.columns_prefix(row.bytes()),
                layout.comparator,
                layout.subcomparator.is_none(),
            ),
            MarkerAt::Super(name) => (
                layout.subcolumns_prefix(row.bytes(), name),
                layout.subcomparator.unwrap_or(layout.comparator),
                true,
            ),
        };
        let (lower, upper) = name_bounds(&prefix, comparator, (low, high), last);
        entries_under(layout, self.scan(lower, upper, false))
    }

    /// Applies the mutation's writes — of one row, or of every row of a
    /// [`Store::batch_session`] — atomically (see [`Store::row_session`]).
    pub fn write(self, writes: RowWrites) -> Result<Ack> {
        self.write_batch(writes.batch)
    }
}

/// The logical size of a stored entry (before packing), as [`StoredEntry::stored_bytes`]
/// counts it.
#[derive(Debug, Clone, Copy)]
pub struct StoredSize {
    /// Bytes of the logical key.
    pub key: usize,
    /// Bytes of the encoded value.
    pub value: usize,
}

impl StoredSize {
    /// Key and value together.
    pub fn total(self) -> usize {
        self.key + self.value
    }
}

/// The writes of one row mutation (or of every row of an atomic batch), applied together
/// by [`RowSession::write`].
#[derive(Debug, Default)]
pub struct RowWrites {
    batch: Batch,
}

impl RowWrites {
    /// Stores a version of a column (`super_column` None) or subcolumn; its name's own bytes
    /// are kept when they are not the canonical ones (`original`).
    pub fn put_cell(
        &mut self,
        layout: &CfLayout,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        name: &[u8],
        cell: &Cell,
    ) -> StoredSize {
        let comparator = level_comparator(layout, super_column);
        let key = cell_key(layout, row, super_column, name);
        let value = encode_named_cell(comparator, name, cell);
        let size = StoredSize {
            key: key.len(),
            value: value.len(),
        };
        self.batch.put(key, value);
        size
    }

    /// Stores the deletion marker at `at`.
    pub fn put_marker(
        &mut self,
        layout: &CfLayout,
        row: &EncodedRow,
        at: MarkerAt<'_>,
        marker: &Marker,
    ) -> usize {
        let key = match at {
            MarkerAt::Row => layout.row_tombstone_key(row.bytes()),
            MarkerAt::Super(name) => layout.super_tombstone_key(row.bytes(), name),
        };
        let value = encode_marker(marker);
        let size = key.len() + value.len();
        self.batch.put(key, value);
        size
    }

    /// Removes the deletion marker at `at` (one that no longer deletes anything).
    pub fn delete_marker(&mut self, layout: &CfLayout, row: &EncodedRow, at: MarkerAt<'_>) {
        let key = match at {
            MarkerAt::Row => layout.row_tombstone_key(row.bytes()),
            MarkerAt::Super(name) => layout.super_tombstone_key(row.bytes(), name),
        };
        self.batch.delete(key);
    }

    /// Removes an entry a scan found.
    pub fn delete(&mut self, entry: &StoredEntry) {
        self.batch.delete(entry.key.clone());
    }
}

impl CfLayout {
    /// The logical key and value a Standard column is stored as before packing: benchmarks
    /// write them to a bare engine to compare against.
    pub fn column_entry(&self, row_key: &[u8], name: &[u8], cell: &Cell) -> (Vec<u8>, Vec<u8>) {
        let row = EncodedRow::new(self.partitioner, row_key);
        let value = encode_named_cell(self.comparator, name, cell);
        (cell_key(self, &row, None, name), value)
    }
}

#[cfg(test)]
mod tests;
