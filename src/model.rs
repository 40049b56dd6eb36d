//! Domain values shared by `service`, `cf` and `storage`: columns and super columns, the
//! changes a row mutation carries, slice predicates and key ranges — and the two rules every
//! layer agrees on: the reconcile rule (`docs/api.md#reconcile`) that decides which of two
//! versions of a column survives, and 0.6's rules for keys and names (`docs/api.md#keys`,
//! `#names`) with their exact messages, which `service` checks on every request and `cf`
//! re-checks on what it is given.

use crate::error::{Error, Result};
use crate::partitioner::Token;
use std::cmp::Ordering;

/// A live column as clients see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The column name, as the comparator of its level orders it.
    pub name: Vec<u8>,
    /// The value: any bytes, possibly empty.
    pub value: Vec<u8>,
    /// The client's timestamp; the higher one wins a reconcile.
    pub timestamp: i64,
}

/// A super column with its live subcolumns, ascending by the subcolumn comparator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuperColumn {
    /// The super column's name.
    pub name: Vec<u8>,
    /// Its live subcolumns.
    pub columns: Vec<Column>,
}

/// One element of a read result: a column (Standard CF, or a subcolumn when reading inside a
/// super column) or a whole super column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnOrSuper {
    /// A column or subcolumn.
    Column(Column),
    /// A super column with its live subcolumns.
    Super(SuperColumn),
}

/// A stored version of one column: a value or a tombstone (`docs/api.md#stored-objects`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// A value written at `timestamp`.
    Live {
        /// The column's value.
        value: Vec<u8>,
        /// The client's timestamp.
        timestamp: i64,
    },
    /// A deletion at `timestamp`.
    Tombstone {
        /// The delete's client timestamp.
        timestamp: i64,
        /// The server's clock (seconds) at delete time, used only for the purge.
        local_deletion_time: u32,
    },
}

impl Cell {
    /// The client-supplied timestamp of this version.
    pub fn timestamp(&self) -> i64 {
        match self {
            Cell::Live { timestamp, .. } | Cell::Tombstone { timestamp, .. } => *timestamp,
        }
    }

    /// True for a tombstone.
    pub fn is_tombstone(&self) -> bool {
        matches!(self, Cell::Tombstone { .. })
    }

    /// `docs/api.md#reconcile`: does `new` replace `old`? Higher timestamp wins; on a tie a
    /// tombstone wins (and between two tombstones the existing one stays); between two live
    /// values the greater value (unsigned bytes) wins. The result never depends on arrival
    /// order except where both sides are observably identical.
    pub fn supersedes(new: &Cell, old: &Cell) -> bool {
        match new.timestamp().cmp(&old.timestamp()) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => match (new, old) {
                (Cell::Tombstone { .. }, Cell::Live { .. }) => true,
                (Cell::Live { .. }, Cell::Tombstone { .. }) => false,
                (Cell::Tombstone { .. }, Cell::Tombstone { .. }) => false,
                (Cell::Live { value: n, .. }, Cell::Live { value: o, .. }) => n > o,
            },
        }
    }
}

/// One change to one column family of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Write a column, or a subcolumn when `super_column` is set.
    Insert {
        /// The super column the subcolumn goes into.
        super_column: Option<Vec<u8>>,
        /// The column to write.
        column: Column,
    },
    /// Delete one column, or one subcolumn when `super_column` is set.
    DeleteColumn {
        /// The super column holding the subcolumn.
        super_column: Option<Vec<u8>>,
        /// The column or subcolumn name.
        name: Vec<u8>,
        /// The delete's timestamp.
        timestamp: i64,
    },
    /// Delete a whole super column.
    DeleteSuper {
        /// The super column's name.
        name: Vec<u8>,
        /// The delete's timestamp.
        timestamp: i64,
    },
    /// Delete the whole row in this column family.
    DeleteRow {
        /// The delete's timestamp.
        timestamp: i64,
    },
}

/// Everything one request does to one row key of one keyspace: applied atomically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowMutation {
    /// The keyspace of every change.
    pub keyspace: String,
    /// The row key: any bytes (the 0.6 API's string keys are their UTF-8).
    pub key: Vec<u8>,
    /// The changes of each column family, the column families in request order, each
    /// once, none without changes ([`RowMutation::push`] keeps this); order does not affect
    /// the outcome.
    pub changes: Vec<(String, Vec<Change>)>,
}

impl RowMutation {
    /// A mutation of row `key` in `keyspace` with no changes yet.
    pub fn new(keyspace: impl Into<String>, key: impl Into<Vec<u8>>) -> RowMutation {
        RowMutation {
            keyspace: keyspace.into(),
            key: key.into(),
            changes: Vec::new(),
        }
    }

    /// Adds a change to column family `cf`'s group (a new group at the end for a new CF).
    pub fn push(&mut self, cf: &str, change: Change) {
        match self.changes.iter_mut().find(|(name, _)| name == cf) {
            Some((_, changes)) => changes.push(change),
            None => self.changes.push((cf.to_string(), vec![change])),
        }
    }

    /// Adds a group of changes to column family `cf` (appended to its group when it has one
    /// already); an empty group adds nothing.
    pub fn push_group(&mut self, cf: String, mut changes: Vec<Change>) {
        if changes.is_empty() {
            return;
        }
        match self.changes.iter_mut().find(|(name, _)| *name == cf) {
            Some((_, group)) => group.append(&mut changes),
            None => self.changes.push((cf, changes)),
        }
    }

    /// True when there is nothing to apply.
    pub fn is_empty(&self) -> bool {
        self.changes.iter().all(|(_, changes)| changes.is_empty())
    }
}

/// `IColumn.MAX_NAME_LENGTH`: the longest column or super-column name.
pub const MAX_NAME_LENGTH: usize = 0xFFFF;

/// The level of a name, as 0.6's messages call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameLevel {
    /// A column or subcolumn name ("column").
    Column,
    /// A super column name ("supercolumn").
    SuperColumn,
}

impl NameLevel {
    fn as_str(self) -> &'static str {
        match self {
            NameLevel::Column => "column",
            NameLevel::SuperColumn => "supercolumn",
        }
    }
}

/// A row key is not empty (`docs/api.md#keys`), with 0.6's message.
pub fn check_key_present(key: &[u8]) -> Result<()> {
    if key.is_empty() {
        return Err(Error::invalid("Key may not be empty"));
    }
    Ok(())
}

/// A column or super-column name is at most [`MAX_NAME_LENGTH`] bytes, then not empty
/// (`docs/api.md#names`), with 0.6's messages. The comparator's check (`Comparator::validate`)
/// is separate: 0.6 applies it to a super column's name at another point of its order.
pub fn check_name_length(level: NameLevel, name: &[u8]) -> Result<()> {
    let what = level.as_str();
    if name.len() > MAX_NAME_LENGTH {
        return Err(Error::invalid(format!(
            "{what} name length must not be greater than 65535"
        )));
    }
    if name.is_empty() {
        return Err(Error::invalid(format!("{what} name must not be empty")));
    }
    Ok(())
}

/// A contiguous run of names: both ends inclusive; empty means unbounded
/// (`docs/api.md#slice-range`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceRange {
    /// Where the walk starts; empty for the first (or, reversed, the last) name.
    pub start: Vec<u8>,
    /// Where it ends; empty for no end.
    pub finish: Vec<u8>,
    /// Walk in descending comparator order.
    pub reversed: bool,
    /// Most live entries to return (columns, or super columns at the top of a Super CF).
    pub count: usize,
}

impl SliceRange {
    /// Everything, ascending: what get_count reads.
    pub fn all() -> SliceRange {
        SliceRange {
            start: Vec::new(),
            finish: Vec::new(),
            reversed: false,
            count: usize::MAX,
        }
    }
}

/// Which names a read wants (`docs/api.md#names-predicate`, `#slice-range`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Predicate {
    /// These names, those that exist, in comparator order.
    Names(Vec<Vec<u8>>),
    /// A run of names.
    Range(SliceRange),
}

/// Where a read or delete points inside a row: the CF and, for Super CFs, maybe one super
/// column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnParent {
    /// The column family's name.
    pub column_family: String,
    /// The super column, on a Super CF.
    pub super_column: Option<Vec<u8>>,
}

/// Which rows a range read walks (`docs/api.md#key-ranges`, `docs/api-later.md#key-ranges`).
/// Rows are ordered by (token, key bytes) as `docs/api.md#key-order` says; `Keys` bounds by
/// token alone (0.6), `KeySpan` and `KeyToToken` by row (the later API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowBounds {
    /// `[token(start_key), token(end_key)]`, both inclusive; an empty end means "to the end".
    Keys {
        /// The first key's token starts the range; empty for the start of the ring.
        start: Vec<u8>,
        /// The last key's token ends it; empty for the end of the ring.
        end: Vec<u8>,
    },
    /// `(start, end]`; wraps around the ring when start ≥ end, unless end is the minimum.
    Tokens {
        /// Exclusive start.
        start: Token,
        /// Inclusive end.
        end: Token,
    },
    /// The later API's key + key range: the rows from row `start` to row `end`, both
    /// inclusive, in row order — a row whose token ties with `start`'s (or `end`'s) is
    /// inside only when its key falls between them too. Never wraps (the service refuses
    /// start after end).
    KeySpan {
        /// The first row; empty for the start of the ring.
        start: Vec<u8>,
        /// The last row; empty for the end of the ring.
        end: Vec<u8>,
    },
    /// The later API's key + token range: from row `start` inclusive to the last row whose
    /// token is ≤ `end`. Never wraps.
    KeyToToken {
        /// The first row; empty for the start of the ring.
        start: Vec<u8>,
        /// The last token; the partitioner's minimum for the end of the ring.
        end: Token,
    },
}

impl RowBounds {
    /// The key of the row the bounds start at, when they start at a key (not for token
    /// ranges, nor for an empty start key).
    pub fn start_key(&self) -> Option<&[u8]> {
        match self {
            RowBounds::Keys { start, .. }
            | RowBounds::KeySpan { start, .. }
            | RowBounds::KeyToToken { start, .. } => (!start.is_empty()).then_some(start),
            RowBounds::Tokens { .. } => None,
        }
    }
}

/// Which rows a range read may return, by key (`docs/compatibility.md#binary-keys`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFilter {
    /// Every row.
    Any,
    /// Only rows whose key is valid UTF-8: the rows a 0.6 client can address. The others
    /// are skipped as if absent, so they do not count towards the row limit.
    Utf8,
}

impl KeyFilter {
    /// True when a row with this key is returned.
    pub fn admits(self, key: &[u8]) -> bool {
        match self {
            KeyFilter::Any => true,
            KeyFilter::Utf8 => std::str::from_utf8(key).is_ok(),
        }
    }
}

/// A validated key range with its row limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRange {
    /// Which rows.
    pub bounds: RowBounds,
    /// The most rows to return (positive).
    pub count: usize,
    /// Which keys are visible to the caller.
    pub keys: KeyFilter,
}

/// How a row filter compares a column's value with the filter's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// Equal.
    Eq,
    /// Greater than or equal.
    Gte,
    /// Greater.
    Gt,
    /// Less than or equal.
    Lte,
    /// Less.
    Lt,
}

/// One condition of a row filter: the row has a live column `name` whose value compares
/// with `value` as `op` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowCondition {
    /// The column's name.
    pub name: Vec<u8>,
    /// The comparison.
    pub op: Comparison,
    /// The value compared with.
    pub value: Vec<u8>,
}

/// One row of a range read: its key and the selected columns (possibly none: a "range ghost").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySlice {
    /// The row key.
    pub key: Vec<u8>,
    /// The row's columns (or super columns) the predicate selected.
    pub columns: Vec<ColumnOrSuper>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(v: &[u8], ts: i64) -> Cell {
        Cell::Live {
            value: v.to_vec(),
            timestamp: ts,
        }
    }
    fn dead(ts: i64) -> Cell {
        Cell::Tombstone {
            timestamp: ts,
            local_deletion_time: 0,
        }
    }

    #[test]
    fn name_and_key_rules_say_what_0_6_says() {
        let message = |r: Result<()>| match r {
            Err(Error::InvalidRequest(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            message(check_name_length(NameLevel::Column, b"")),
            "column name must not be empty"
        );
        assert_eq!(
            message(check_name_length(NameLevel::SuperColumn, &[b'a'; 65536])),
            "supercolumn name length must not be greater than 65535"
        );
        assert!(check_name_length(NameLevel::Column, &[b'a'; 65535]).is_ok());
        assert_eq!(message(check_key_present(b"")), "Key may not be empty");
        assert!(check_key_present(b"k").is_ok());
        assert!(check_key_present(&[0xFF]).is_ok());
    }

    #[test]
    fn mutations_group_changes_by_column_family_in_order() {
        let delete = |timestamp| Change::DeleteRow { timestamp };
        let mut m = RowMutation::new("ks", "k");
        assert!(m.is_empty());
        m.push("B", delete(1));
        m.push("A", delete(2));
        m.push("B", delete(3));
        assert_eq!(
            m.changes,
            vec![
                ("B".to_string(), vec![delete(1), delete(3)]),
                ("A".to_string(), vec![delete(2)]),
            ]
        );
        assert!(!m.is_empty());
    }

    #[test]
    fn reconcile_table() {
        assert!(Cell::supersedes(&live(b"a", 2), &live(b"z", 1)));
        assert!(!Cell::supersedes(&live(b"z", 1), &live(b"a", 2)));
        assert!(Cell::supersedes(&dead(5), &live(b"a", 5)));
        assert!(!Cell::supersedes(&live(b"a", 5), &dead(5)));
        assert!(!Cell::supersedes(&dead(5), &dead(5)));
        assert!(Cell::supersedes(&live(b"b", 5), &live(b"a", 5)));
        assert!(!Cell::supersedes(&live(b"a", 5), &live(b"b", 5)));
        assert!(Cell::supersedes(&live(b"ab", 5), &live(b"a", 5)));
        assert!(Cell::supersedes(&live(b"a", 6), &dead(5)));
    }
}
