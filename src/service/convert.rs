//! Conversions between the Thrift types and `model`, for requests that have already passed
//! validation: paths and predicates into `cf` arguments, key ranges with their tokens parsed
//! (`docs/compatibility.md#d4`), writes into row changes (`docs/api.md#mutations-to-changes`),
//! and read results back into Thrift shapes. Numbers from the wire are converted with checks,
//! never with `as`.

use crate::config::CfDef;
use crate::error::{Error, Result};
use crate::model::{self, Change, ColumnOrSuper, KeyFilter, Predicate, RowBounds};
use crate::partitioner::Partitioner;
use crate::protocol::{
    Column, ColumnOrSuperColumn, ColumnPath, Deletion, KeyRange, KeySlice, SlicePredicate,
    SuperColumn,
};

/// A validated predicate (exactly one of names and range, count not negative).
pub(crate) fn predicate(predicate: &SlicePredicate) -> Result<Predicate> {
    match (&predicate.column_names, &predicate.slice_range) {
        (Some(names), _) => Ok(Predicate::Names(names.clone())),
        (None, Some(range)) => Ok(Predicate::Range(model::SliceRange {
            start: range.start.clone(),
            finish: range.finish.clone(),
            reversed: range.reversed,
            count: usize::try_from(range.count)
                .map_err(|_| Error::invalid("get_slice requires non-negative count"))?,
        })),
        (None, None) => Err(Error::invalid(
            "predicate column_names and slice_range may not both be null",
        )),
    }
}

/// A validated key range, its token strings parsed by the partitioner (D4 texts on error).
pub(crate) fn key_range(partitioner: Partitioner, range: &KeyRange) -> Result<model::KeyRange> {
    let bounds =
        match (
            &range.start_key,
            &range.end_key,
            &range.start_token,
            &range.end_token,
        ) {
            (Some(start), Some(end), _, _) => RowBounds::Keys {
                start: start.as_bytes().to_vec(),
                end: end.as_bytes().to_vec(),
            },
            (_, _, Some(start), Some(end)) => RowBounds::Tokens {
                start: partitioner.parse_token(start)?,
                end: partitioner.parse_token(end)?,
            },
            _ => return Err(Error::invalid(
                "exactly one of {start key, end key} or {start token, end token} must be specified",
            )),
        };
    let count = usize::try_from(range.count)
        .ok()
        .filter(|&count| count > 0)
        .ok_or_else(|| Error::invalid("maxRows must be positive"))?;
    // A 0.6 client addresses rows by string: rows whose key is not UTF-8 stay out of sight
    // (`docs/compatibility.md#binary-keys`).
    Ok(model::KeyRange {
        bounds,
        count,
        keys: KeyFilter::Utf8,
    })
}

fn column(c: model::Column) -> Column {
    Column::new(c.name, c.value, c.timestamp)
}

/// One read result as a ColumnOrSuperColumn.
pub(crate) fn cosc(item: ColumnOrSuper) -> ColumnOrSuperColumn {
    match item {
        ColumnOrSuper::Column(c) => ColumnOrSuperColumn::new(column(c), None),
        ColumnOrSuper::Super(sc) => ColumnOrSuperColumn::new(
            None,
            SuperColumn::new(sc.name, sc.columns.into_iter().map(column).collect()),
        ),
        // The 0.6 API never reads a counter CF (`service::validation` answers it as
        // unconfigured); were one read, its counters would show as their plain-column form.
        ColumnOrSuper::Counter(c) => ColumnOrSuperColumn::new(column(c.into_column()), None),
        ColumnOrSuper::CounterSuper(sc) => ColumnOrSuperColumn::new(
            None,
            SuperColumn::new(
                sc.name,
                sc.columns
                    .into_iter()
                    .map(|c| column(c.into_column()))
                    .collect(),
            ),
        ),
    }
}

/// A list of read results.
pub(crate) fn coscs(items: Vec<ColumnOrSuper>) -> Vec<ColumnOrSuperColumn> {
    items.into_iter().map(cosc).collect()
}

/// A range-read row; `None` for a key a 0.6 client cannot see (not UTF-8), which `cf` has
/// already left out of a [`KeyFilter::Utf8`] range.
pub(crate) fn key_slice(slice: model::KeySlice) -> Option<KeySlice> {
    let key = String::from_utf8(slice.key).ok()?;
    Some(KeySlice::new(key, coscs(slice.columns)))
}

/// `insert`: a column, or a subcolumn when the path names a super column.
pub(crate) fn insert(path: &ColumnPath, name: Vec<u8>, value: Vec<u8>, timestamp: i64) -> Change {
    Change::Insert {
        super_column: path.super_column.clone(),
        column: model::Column {
            name,
            value,
            timestamp,
            ttl: None,
        },
    }
}

/// `remove`: a tombstone at the level the path stops at (`docs/api.md#mutations-to-changes`).
pub(crate) fn remove(path: &ColumnPath, timestamp: i64) -> Change {
    match (&path.super_column, &path.column) {
        (super_column, Some(name)) => Change::DeleteColumn {
            super_column: super_column.clone(),
            name: name.clone(),
            timestamp,
        },
        (Some(name), None) => Change::DeleteSuper {
            name: name.clone(),
            timestamp,
        },
        (None, None) => Change::DeleteRow { timestamp },
    }
}

/// The inserts of a ColumnOrSuperColumn: the column when there is one (batch_mutate stores
/// just the column when both are set), else every subcolumn of the super column.
pub(crate) fn cosc_changes(cosc: &ColumnOrSuperColumn, out: &mut Vec<Change>) {
    match (&cosc.column, &cosc.super_column) {
        (Some(c), _) => out.push(Change::Insert {
            super_column: None,
            column: model::Column {
                name: c.name.clone(),
                value: c.value.clone(),
                timestamp: c.timestamp,
                ttl: None,
            },
        }),
        (None, Some(sc)) => out.extend(sc.columns.iter().map(|c| Change::Insert {
            super_column: Some(sc.name.clone()),
            column: model::Column {
                name: c.name.clone(),
                value: c.value.clone(),
                timestamp: c.timestamp,
                ttl: None,
            },
        })),
        (None, None) => {}
    }
}

/// [`cosc_changes`] for a request that is no longer needed: names and values are moved, not
/// copied (a super column's name is shared by its subcolumns, so it is copied for all but one).
pub(crate) fn cosc_into_changes(cosc: ColumnOrSuperColumn, out: &mut Vec<Change>) {
    match (cosc.column, cosc.super_column) {
        (Some(c), _) => out.push(Change::Insert {
            super_column: None,
            column: model::Column {
                name: c.name,
                value: c.value,
                timestamp: c.timestamp,
                ttl: None,
            },
        }),
        (None, Some(sc)) => {
            let mut name = Some(sc.name);
            let last = sc.columns.len().saturating_sub(1);
            out.extend(sc.columns.into_iter().enumerate().map(|(i, c)| {
                let super_column = if i == last { name.take() } else { name.clone() };
                Change::Insert {
                    super_column,
                    column: model::Column {
                        name: c.name,
                        value: c.value,
                        timestamp: c.timestamp,
                        ttl: None,
                    },
                }
            }));
        }
        (None, None) => {}
    }
}

/// Whether `name` passes the name checks for a top-level name of `cf` (`docs/api.md#names`).
fn is_storable_name(cf: &CfDef, name: &[u8]) -> bool {
    model::check_name_length(model::NameLevel::Column, name).is_ok()
        && cf.comparator.validate(name).is_ok()
}

/// The tombstones of a validated Deletion (`docs/api.md#mutations-to-changes`): per named
/// column, subcolumn or super column; without names, the super column or the whole row.
pub(crate) fn deletion_changes(cf: &CfDef, deletion: &Deletion, out: &mut Vec<Change>) {
    let timestamp = deletion.timestamp;
    let names = deletion
        .predicate
        .as_ref()
        .and_then(|p| p.column_names.as_ref());
    match (names, &deletion.super_column) {
        (Some(names), super_column) => out.extend(names.iter().map(|name| match super_column {
            None if cf.is_super() => Change::DeleteSuper {
                name: name.clone(),
                timestamp,
            },
            _ => Change::DeleteColumn {
                super_column: super_column.clone(),
                name: name.clone(),
                timestamp,
            },
        })),
        // 0.6 does not validate this name. A super column that fails the name checks can
        // never have been inserted, so its tombstone would hide nothing: write none.
        (None, Some(name)) if !is_storable_name(cf, name) => {}
        (None, Some(name)) => out.push(Change::DeleteSuper {
            name: name.clone(),
            timestamp,
        }),
        (None, None) => out.push(Change::DeleteRow { timestamp }),
    }
}
