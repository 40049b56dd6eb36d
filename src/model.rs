//! Domain values shared by `service`, `cf` and `storage`: columns and super columns, the
//! changes a row mutation carries, slice predicates and key ranges — and the two rules every
//! layer agrees on: the reconcile rule (`docs/api.md#reconcile`, extended to expiring columns
//! in `docs/api-later.md#ttl`) that decides which of two versions of a column survives and
//! when an expiring one is live, and 0.6's rules for keys and names (`docs/api.md#keys`,
//! `#names`) with their exact messages, which `service` checks on every request and `cf`
//! re-checks on what it is given.

use crate::error::{Error, Result};
use crate::partitioner::Token;
use std::cmp::Ordering;

mod counters;
pub use counters::{CounterColumn, CounterSuperColumn};

/// A live column as clients see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The column name, as the comparator of its level orders it.
    pub name: Vec<u8>,
    /// The value: any bytes, possibly empty.
    pub value: Vec<u8>,
    /// The client's timestamp; the higher one wins a reconcile.
    pub timestamp: i64,
    /// Seconds the column lives after it is written (`docs/api-later.md#ttl`): on a write,
    /// None for a column that never expires; on a read, the TTL it was written with (not the
    /// time left). The 0.6 API writes None and ignores it on reads.
    pub ttl: Option<i32>,
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
/// super column) or a whole super column — or, from a counter CF, their counter forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnOrSuper {
    /// A column or subcolumn.
    Column(Column),
    /// A super column with its live subcolumns.
    Super(SuperColumn),
    /// A counter or subcounter.
    Counter(CounterColumn),
    /// A super column of counters with its live subcounters.
    CounterSuper(CounterSuperColumn),
}

/// A stored version of one column: a value, an expiring value or a tombstone
/// (`docs/api.md#stored-objects`, `docs/api-later.md#ttl`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// A value written at `timestamp` that never expires.
    Live {
        /// The column's value.
        value: Vec<u8>,
        /// The client's timestamp.
        timestamp: i64,
    },
    /// A value that is live while the server's clock is below `expires_at`, and afterwards
    /// acts as a tombstone at `timestamp` deleted at its write time (`expires_at - ttl`).
    Expiring {
        /// The column's value.
        value: Vec<u8>,
        /// The client's timestamp.
        timestamp: i64,
        /// The TTL it was written with (seconds, positive): what reads return.
        ttl: i32,
        /// The server's clock (seconds) at write time plus `ttl`; 64 bits, so no 2038 cap.
        expires_at: i64,
    },
    /// A counter's total (`docs/api-later.md#counters`). It has no timestamp of its own: it
    /// counts as the lowest one ([`COUNTER_TIMESTAMP`]), so every tombstone over it hides it
    /// and an increment never supersedes a tombstone — a deletion is final until purged.
    Counter {
        /// The sum of every increment, wrapping at 64 bits.
        total: i64,
    },
    /// A deletion at `timestamp`.
    Tombstone {
        /// The delete's client timestamp.
        timestamp: i64,
        /// The server's clock (seconds) at delete time, used only for the purge.
        local_deletion_time: u32,
    },
}

/// The timestamp a counter reconciles with: the lowest possible, so that every tombstone
/// (column, super column, row or range) hides it whatever the delete's timestamp.
pub const COUNTER_TIMESTAMP: i64 = i64::MIN;

impl Cell {
    /// The version an insert stores at server time `now` (seconds): expiring when it has a
    /// TTL. The TTL must be positive (`cf` checks it first).
    pub fn written(value: Vec<u8>, timestamp: i64, ttl: Option<i32>, now: i64) -> Cell {
        match ttl {
            None => Cell::Live { value, timestamp },
            Some(ttl) => Cell::Expiring {
                value,
                timestamp,
                ttl,
                expires_at: now.saturating_add(i64::from(ttl)),
            },
        }
    }

    /// The client-supplied timestamp of this version.
    pub fn timestamp(&self) -> i64 {
        match self {
            Cell::Live { timestamp, .. }
            | Cell::Expiring { timestamp, .. }
            | Cell::Tombstone { timestamp, .. } => *timestamp,
            Cell::Counter { .. } => COUNTER_TIMESTAMP,
        }
    }

    /// True for a version stored as a tombstone (an expired cell is not one: see
    /// [`Cell::is_live`]).
    pub fn is_tombstone(&self) -> bool {
        matches!(self, Cell::Tombstone { .. })
    }

    /// True when reads see this version at server time `now` (seconds): a value that has not
    /// expired.
    pub fn is_live(&self, now: i64) -> bool {
        match self {
            Cell::Live { .. } | Cell::Counter { .. } => true,
            Cell::Expiring { expires_at, .. } => now < *expires_at,
            Cell::Tombstone { .. } => false,
        }
    }

    /// The column a read returns for this version at server time `now`, or None when it is
    /// not live. A counter comes back in its column form inside `cf` (the total as 8
    /// big-endian bytes at [`COUNTER_TIMESTAMP`]), which `cf` turns into
    /// [`ColumnOrSuper::Counter`] with [`ColumnOrSuper::into_counters`] before it answers.
    pub fn into_column(self, name: Vec<u8>, now: i64) -> Option<Column> {
        match self {
            Cell::Counter { total } => Some(Column {
                name,
                value: total.to_be_bytes().to_vec(),
                timestamp: COUNTER_TIMESTAMP,
                ttl: None,
            }),
            Cell::Live { value, timestamp } => Some(Column {
                name,
                value,
                timestamp,
                ttl: None,
            }),
            Cell::Expiring {
                value,
                timestamp,
                ttl,
                expires_at,
            } if now < expires_at => Some(Column {
                name,
                value,
                timestamp,
                ttl: Some(ttl),
            }),
            Cell::Expiring { .. } | Cell::Tombstone { .. } => None,
        }
    }

    /// `docs/api-later.md#ttl` (which extends `docs/api.md#reconcile`): does `new` replace
    /// `old` when it is written at server time `now`? Higher timestamp wins. On a tie a
    /// version that is not live at `now` (tombstone or expired) wins over a live one; then
    /// the greater value (unsigned bytes; a tombstone has the empty value); then the later
    /// expiry, no expiry counting as latest (so a tombstone beats an expired empty value);
    /// then the greater TTL. Only versions that are observably identical tie, and then the
    /// existing one stays, so the result never depends on arrival order.
    pub fn supersedes(new: &Cell, old: &Cell, now: i64) -> bool {
        match new.timestamp().cmp(&old.timestamp()) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => new.tie_rank(now) > old.tie_rank(now),
        }
    }

    /// The order among versions with equal timestamps (see [`Cell::supersedes`]).
    fn tie_rank(&self, now: i64) -> (bool, &[u8], i64, i32) {
        let dead = !self.is_live(now);
        match self {
            Cell::Live { value, .. } => (dead, value, i64::MAX, 0),
            Cell::Expiring {
                value,
                ttl,
                expires_at,
                ..
            } => (dead, value, *expires_at, *ttl),
            Cell::Tombstone { .. } | Cell::Counter { .. } => (dead, &[], i64::MAX, 0),
        }
    }

    /// Merges increment `delta` into this version when both are counters (wrapping at 64
    /// bits): how two increments of one counter, in one batch or against the stored total,
    /// add up. None when either is not a counter (then [`Cell::supersedes`] decides).
    pub fn add_counter(&self, delta: &Cell) -> Option<Cell> {
        match (self, delta) {
            (Cell::Counter { total }, Cell::Counter { total: more }) => Some(Cell::Counter {
                total: total.wrapping_add(*more),
            }),
            _ => None,
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
    /// Add `delta` to a counter (or subcounter when `super_column` is set) of a counter CF,
    /// creating it at 0 first; wraps at 64 bits (`docs/api-later.md#counters`). Invisible
    /// while a tombstone covers the counter.
    Add {
        /// The super column holding the counter.
        super_column: Option<Vec<u8>>,
        /// The counter's name.
        name: Vec<u8>,
        /// What to add (may be negative or 0).
        delta: i64,
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
    /// A range tombstone (`docs/api-later.md#data`): delete every column whose name lies in
    /// [`start`, `finish`] under the level's comparator, both inclusive, an empty bound
    /// unbounded on its side — the subcolumns of `super_column` when it is set, or on a
    /// Super CF without it the super columns whose names lie in the range (as a
    /// super-column tombstone over each would). It hides versions with timestamp ≤
    /// `timestamp`, also ones written later. `start` must not come after `finish` (the
    /// caller normalises a reversed slice).
    DeleteRange {
        /// The super column whose subcolumns are deleted.
        super_column: Option<Vec<u8>>,
        /// The lowest name deleted; empty for unbounded.
        start: Vec<u8>,
        /// The highest name deleted; empty for unbounded.
        finish: Vec<u8>,
        /// The delete's timestamp.
        timestamp: i64,
    },
    /// Delete the whole row in this column family.
    DeleteRow {
        /// The delete's timestamp.
        timestamp: i64,
    },
}

/// A stored range tombstone: names from `start` to `finish` (inclusive, empty for
/// unbounded) deleted at `timestamp` — a [`Change::DeleteRange`] as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeTombstone {
    /// The lowest name covered; empty for unbounded.
    pub start: Vec<u8>,
    /// The highest name covered; empty for unbounded.
    pub finish: Vec<u8>,
    /// The delete's timestamp: it hides versions at or below it.
    pub timestamp: i64,
    /// The server's clock (seconds) at delete time, used only for the purge.
    pub local_deletion_time: u32,
}

impl RangeTombstone {
    /// True when `name` lies in the range under `comparator`.
    pub fn covers(&self, comparator: crate::comparator::Comparator, name: &[u8]) -> bool {
        (self.start.is_empty() || comparator.compare(&self.start, name) != Ordering::Greater)
            && (self.finish.is_empty()
                || comparator.compare(name, &self.finish) != Ordering::Greater)
    }

    /// True when this range covers every name `other` covers, under `comparator`.
    pub fn contains(
        &self,
        comparator: crate::comparator::Comparator,
        other: &RangeTombstone,
    ) -> bool {
        let low = self.start.is_empty()
            || (!other.start.is_empty()
                && comparator.compare(&self.start, &other.start) != Ordering::Greater);
        let high = self.finish.is_empty()
            || (!other.finish.is_empty()
                && comparator.compare(&other.finish, &self.finish) != Ordering::Greater);
        low && high
    }
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

impl ColumnParent {
    /// Column family `column_family`, or super column `super_column` in it.
    pub fn new(column_family: &str, super_column: Option<&[u8]>) -> ColumnParent {
        ColumnParent {
            column_family: column_family.to_string(),
            super_column: super_column.map(<[u8]>::to_vec),
        }
    }
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
    /// The column's value validator, whose order compares the values; `None` for BytesType
    /// (unsigned bytes).
    pub value_type: Option<crate::types::DataType>,
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
mod tests;
