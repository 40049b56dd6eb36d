//! Reconciling the SSTables of one column family as 0.6 did on read
//! (`docs/migrate.md#how-several-sstables-combine`): the files are walked together in partitioner
//! order, the versions of a row found in several files are merged (row and super-column tombstones:
//! the latest; columns: the version with the higher priority, [`Column::supersedes`]), then
//! everything a tombstone hides is dropped. What remains — live data and the tombstones that still
//! matter — is what an import writes, so deleted data is never imported while tombstones keep
//! shadowing older writes.
//!
//! Correctness does not depend on pairing versions up: should two versions of a row not meet
//! here (ilion cannot reproduce Java's collation order for non-ASCII keys under COPP), both
//! are written and the store's own write-time reconciliation applies the same rules.

use super::row::{Column, Row, RowBody, SuperColumn};
use super::shape::CfShape;
use super::sstable06::{DataFile, FileRow, SsTable};
use crate::comparator::Comparator;
use crate::error::Result;
use crate::partitioner::Partitioner;

/// The merged rows of one CF's SSTables, in partitioner order.
pub struct CfMerge {
    files: Vec<DataFile>,
    heads: Vec<Option<FileRow>>,
    shape: CfShape,
}

impl CfMerge {
    /// Opens every data file of `tables`.
    pub fn open(tables: &[SsTable], shape: CfShape, partitioner: Partitioner) -> Result<CfMerge> {
        let mut files = Vec::with_capacity(tables.len());
        let mut heads = Vec::with_capacity(tables.len());
        for table in tables {
            let mut file = DataFile::open(&table.data, shape, partitioner)?;
            heads.push(file.next_row()?);
            files.push(file);
        }
        Ok(CfMerge {
            files,
            heads,
            shape,
        })
    }

    /// Bytes of all data files together.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(DataFile::len).sum()
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.files.iter().map(DataFile::position).sum()
    }

    /// The next merged row that still carries anything (data or a tombstone).
    pub fn next_row(&mut self) -> Result<Option<Row>> {
        loop {
            let Some(first) = self.min_head() else {
                return Ok(None);
            };
            let order = self.heads[first].as_ref().map(|h| h.order.clone());
            let mut versions = Vec::new();
            for i in 0..self.heads.len() {
                if self.heads[i].as_ref().map(|h| &h.order) == order.as_ref() {
                    if let Some(head) = self.heads[i].take() {
                        versions.push(head.row);
                    }
                    self.heads[i] = self.files[i].next_row()?;
                }
            }
            let row = drop_shadowed(merge_versions(versions, self.shape));
            if !row.is_empty() {
                return Ok(Some(row));
            }
        }
    }

    fn min_head(&self) -> Option<usize> {
        self.heads
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.as_ref().map(|h| (i, &h.order)))
            .min_by(|a, b| a.1.cmp(b.1))
            .map(|(i, _)| i)
    }
}

/// Merges versions of one row (same key) into one (`docs/migrate.md#how-several-sstables-combine`).
pub fn merge_versions(versions: Vec<Row>, shape: CfShape) -> Row {
    let mut versions = versions.into_iter();
    let Some(mut merged) = versions.next() else {
        return Row {
            key: String::new(),
            deleted_at: None,
            body: RowBody::Standard(Vec::new()),
        };
    };
    for version in versions {
        merged.deleted_at = merged.deleted_at.max(version.deleted_at);
        merged.body = match (merged.body, version.body) {
            (RowBody::Standard(mut a), RowBody::Standard(b)) => {
                a.extend(b);
                RowBody::Standard(a)
            }
            (RowBody::Super(mut a), RowBody::Super(b)) => {
                a.extend(b);
                RowBody::Super(a)
            }
            // The reader checks every row against one shape, so kinds never mix.
            (a, _) => a,
        };
    }
    merged.body = match merged.body {
        RowBody::Standard(cols) => RowBody::Standard(merge_columns(cols, shape.comparator)),
        RowBody::Super(supers) => RowBody::Super(merge_supers(supers, shape)),
    };
    merged
}

/// Sorts by name and keeps, for each name, the version that wins.
fn merge_columns(mut cols: Vec<Column>, comparator: Comparator) -> Vec<Column> {
    cols.sort_by(|a, b| comparator.compare(&a.name, &b.name));
    let mut out: Vec<Column> = Vec::with_capacity(cols.len());
    for col in cols {
        match out.last_mut() {
            Some(last) if last.name == col.name => {
                if col.supersedes(last) {
                    *last = col;
                }
            }
            _ => out.push(col),
        }
    }
    out
}

fn merge_supers(mut supers: Vec<SuperColumn>, shape: CfShape) -> Vec<SuperColumn> {
    supers.sort_by(|a, b| shape.comparator.compare(&a.name, &b.name));
    let mut out: Vec<SuperColumn> = Vec::with_capacity(supers.len());
    for sc in supers {
        match out.last_mut() {
            Some(last) if last.name == sc.name => {
                last.deleted_at = last.deleted_at.max(sc.deleted_at);
                last.columns.extend(sc.columns);
            }
            _ => out.push(sc),
        }
    }
    for sc in &mut out {
        sc.columns = merge_columns(std::mem::take(&mut sc.columns), shape.subcomparator);
    }
    out
}

/// True when a version at `timestamp` is hidden by a deletion at `deleted_at`.
fn hidden(deleted_at: Option<i64>, timestamp: i64) -> bool {
    deleted_at.is_some_and(|d| timestamp <= d)
}

/// Drops what the row's own tombstones hide (`docs/migrate.md#how-several-sstables-combine`):
/// columns (live or tombstones) with a timestamp ≤ the row tombstone or their super column's
/// tombstone, super-column tombstones the row tombstone covers, and super columns left with
/// nothing.
pub fn drop_shadowed(mut row: Row) -> Row {
    let row_deleted = row.deleted_at;
    match &mut row.body {
        RowBody::Standard(cols) => cols.retain(|c| !hidden(row_deleted, c.timestamp)),
        RowBody::Super(supers) => {
            for sc in supers.iter_mut() {
                if hidden(row_deleted, sc.deleted_at.unwrap_or(i64::MIN)) {
                    sc.deleted_at = None;
                }
                let deleted = row_deleted.max(sc.deleted_at);
                sc.columns.retain(|c| !hidden(deleted, c.timestamp));
            }
            supers.retain(|sc| sc.deleted_at.is_some() || !sc.columns.is_empty());
        }
    }
    row
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
