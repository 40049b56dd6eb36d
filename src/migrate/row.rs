//! The row shape every migration path shares: one row of one column family with its
//! columns (or super columns), their tombstones, and the row's own tombstone — what a 0.6
//! SSTable row, an sstable2json row and an ilion export row all carry. Also the rule that
//! decides which of two versions of a column wins (0.6's `Column.comparePriority`).

use std::cmp::Ordering;

/// A column or subcolumn version: a value, or a tombstone when `deleted`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The name.
    pub name: Vec<u8>,
    /// For a tombstone, 0.6 stores its local deletion time here (4 bytes); it is not imported.
    pub value: Vec<u8>,
    /// The client's timestamp, kept as is.
    pub timestamp: i64,
    /// True for a tombstone.
    pub deleted: bool,
}

impl Column {
    /// Does `self` win over `other` (same name)? Higher timestamp wins; on a tie a tombstone
    /// wins over a value, and between two values (or two tombstones) the greater value
    /// (unsigned bytes) wins.
    pub fn supersedes(&self, other: &Column) -> bool {
        match self.timestamp.cmp(&other.timestamp) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => match (self.deleted, other.deleted) {
                (true, false) => true,
                (false, true) => false,
                // Two values: the greater wins (0.6). Two tombstones differ at most in their
                // deletion time, which nothing visible depends on; taking the greater too
                // makes the merge independent of file order.
                (false, false) | (true, true) => self.value > other.value,
            },
        }
    }
}

/// A super column: its tombstone (the deletion timestamp, if any) and subcolumns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuperColumn {
    /// The name.
    pub name: Vec<u8>,
    /// The super column tombstone's timestamp, if it has one.
    pub deleted_at: Option<i64>,
    /// Subcolumns, tombstones included.
    pub columns: Vec<Column>,
}

/// The top-level entries of a row: plain columns (Standard CF) or super columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowBody {
    /// A Standard CF's columns.
    Standard(Vec<Column>),
    /// A Super CF's super columns.
    Super(Vec<SuperColumn>),
}

/// One row of one column family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The client's row key.
    pub key: String,
    /// The row tombstone's timestamp (0.6's markedForDeleteAt), if the row has one.
    pub deleted_at: Option<i64>,
    /// Its columns or super columns.
    pub body: RowBody,
}

impl Row {
    /// Columns and subcolumns (tombstones included) in this row.
    pub fn column_count(&self) -> usize {
        match &self.body {
            RowBody::Standard(cols) => cols.len(),
            RowBody::Super(supers) => supers.iter().map(|s| s.columns.len()).sum(),
        }
    }

    /// Name and value bytes carried by the row (for summaries).
    pub fn payload_bytes(&self) -> usize {
        let cols =
            |cols: &[Column]| -> usize { cols.iter().map(|c| c.name.len() + c.value.len()).sum() };
        self.key.len()
            + match &self.body {
                RowBody::Standard(c) => cols(c),
                RowBody::Super(s) => s.iter().map(|s| s.name.len() + cols(&s.columns)).sum(),
            }
    }

    /// True when the row carries nothing at all: no tombstone and no entry.
    pub fn is_empty(&self) -> bool {
        self.deleted_at.is_none()
            && match &self.body {
                RowBody::Standard(c) => c.is_empty(),
                RowBody::Super(s) => s.is_empty(),
            }
    }
}

/// Timestamp sentinel 0.6 writes for "no tombstone" (`Long.MIN_VALUE`).
pub const NO_DELETION: i64 = i64::MIN;

/// 0.6's markedForDeleteAt as an option: `Long.MIN_VALUE` means none.
pub fn deletion(marked_for_delete_at: i64) -> Option<i64> {
    (marked_for_delete_at != NO_DELETION).then_some(marked_for_delete_at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(value: &[u8], timestamp: i64, deleted: bool) -> Column {
        Column {
            name: b"c".to_vec(),
            value: value.to_vec(),
            timestamp,
            deleted,
        }
    }

    #[test]
    fn priority_follows_0_6() {
        assert!(col(b"a", 2, false).supersedes(&col(b"z", 1, false)));
        assert!(!col(b"z", 1, false).supersedes(&col(b"a", 2, true)));
        assert!(col(b"", 5, true).supersedes(&col(b"a", 5, false)));
        assert!(!col(b"a", 5, false).supersedes(&col(b"", 5, true)));
        assert!(col(b"b", 5, false).supersedes(&col(b"a", 5, false)));
        assert!(!col(b"a", 5, false).supersedes(&col(b"b", 5, false)));
        assert!(col(b"a", 6, false).supersedes(&col(b"", 5, true)));
    }

    #[test]
    fn sentinel_is_no_deletion() {
        assert_eq!(deletion(i64::MIN), None);
        assert_eq!(deletion(0), Some(0));
    }
}
