//! Request checks of the later API's writes (`docs/api-later.md#validation`): a column's
//! data (TTL, value, timestamp), a ColumnOrSuperColumn, a Mutation and a Deletion, with the
//! later texts in the later order — and the conversion of a checked write into `model`
//! changes (with the CF's default TTL). A counter CF takes only counter shapes and a
//! non-counter CF only the others (`docs/api-later.md#counters`); a Deletion on a counter CF
//! is timed by the server's clock.

use super::validation::{invalid, validate_column_path, validate_names, validate_slice_range};
use super::validators::{check_indexed_value, effective_ttl, validate_value};
use crate::config::CfDef;
use crate::error::{Error, Result};
use crate::model::{self, Change};
use crate::protocol::v20::generated::{Column, ColumnOrSuperColumn, Deletion, Mutation};

/// The longest TTL, 20 years in seconds.
pub(super) const MAX_TTL: i32 = 630_720_000;

/// The refusal of a counter operation on a column family that holds no counters.
pub(super) fn non_commutative(cf: &CfDef) -> Error {
    Error::invalid(format!(
        "invalid operation for non commutative table {}",
        cf.name
    ))
}

/// The refusal of a non-counter operation on a counter column family.
pub(super) fn commutative(cf: &CfDef) -> Error {
    Error::invalid(format!(
        "invalid operation for commutative table {}",
        cf.name
    ))
}

/// The server's clock in milliseconds: the timestamp of a counter deletion (spec §6.9; the
/// client's is ignored). Counters reconcile below every timestamp, so it only orders the
/// tombstones of a counter among themselves.
pub(super) fn server_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A column's TTL (spec §4.2): absent, or 1 … 20 years.
pub(super) fn validate_ttl(column: &Column) -> Result<()> {
    match column.ttl {
        Some(ttl) if ttl <= 0 => invalid("ttl must be positive"),
        Some(ttl) if ttl > MAX_TTL => invalid(format!(
            "ttl is too large. requested ({ttl}) maximum ({MAX_TTL})"
        )),
        _ => Ok(()),
    }
}

/// `validateColumnData` (spec §4.1): TTL, value, timestamp, then the value validator.
pub(super) fn validate_column_data(keyspace: &str, cf: &CfDef, column: &Column) -> Result<()> {
    validate_ttl(column)?;
    let Some(value) = &column.value else {
        return invalid("Column value is required");
    };
    if column.timestamp.is_none() {
        return invalid("Column timestamp is required");
    }
    validate_value(keyspace, cf, &column.name, value)?;
    check_indexed_value(keyspace, cf, &column.name, value)
}

/// `validateColumnOrSuperColumn` (spec §6.11): exactly one of the four parts, each checked
/// as a path and as column data.
pub(super) fn validate_cosc(keyspace: &str, cf: &CfDef, cosc: &ColumnOrSuperColumn) -> Result<()> {
    let parts = [
        cosc.column.is_some(),
        cosc.super_column.is_some(),
        cosc.counter_column.is_some(),
        cosc.counter_super_column.is_some(),
    ];
    if parts.iter().filter(|&&set| set).count() != 1 {
        return invalid(
            "ColumnOrSuperColumn must have one (and only one) of column, super_column, counter and counter_super_column",
        );
    }
    let counter_part = cosc.counter_column.is_some() || cosc.counter_super_column.is_some();
    match (cf.is_counter(), counter_part) {
        (true, false) => return Err(commutative(cf)),
        (false, true) => return Err(non_commutative(cf)),
        _ => {}
    }
    if let Some(counter) = &cosc.counter_column {
        validate_column_path(cf, None, Some(&counter.name))?;
    }
    if let Some(sc) = &cosc.counter_super_column {
        for counter in &sc.columns {
            validate_column_path(cf, Some(&sc.name), Some(&counter.name))?;
        }
    }
    if let Some(column) = &cosc.column {
        validate_ttl(column)?;
        validate_column_path(cf, None, Some(&column.name))?;
        validate_column_data(keyspace, cf, column)?;
    }
    if let Some(sc) = &cosc.super_column {
        for column in &sc.columns {
            validate_column_path(cf, Some(&sc.name), Some(&column.name))?;
            validate_column_data(keyspace, cf, column)?;
        }
    }
    Ok(())
}

/// `validateMutation`: exactly one of an insert and a deletion.
pub(super) fn validate_mutation(keyspace: &str, cf: &CfDef, mutation: &Mutation) -> Result<()> {
    match (&mutation.column_or_supercolumn, &mutation.deletion) {
        (Some(cosc), None) => validate_cosc(keyspace, cf, cosc),
        (None, Some(deletion)) => validate_deletion(keyspace, cf, deletion),
        _ => invalid("mutation must have one and only one of column_or_supercolumn or deletion"),
    }
}

/// `validateDeletion` (spec §6.11): the super column's name, the predicate, the level, then
/// the timestamp.
pub(super) fn validate_deletion(keyspace: &str, cf: &CfDef, deletion: &Deletion) -> Result<()> {
    let super_column = deletion.super_column.as_deref();
    if let Some(name) = super_column {
        validate_names(cf, None, &[name])?;
    }
    if let Some(predicate) = &deletion.predicate {
        if predicate.column_names.is_none() && predicate.slice_range.is_none() {
            return invalid(
                "A SlicePredicate must be given a list of Columns, a SliceRange, or both",
            );
        }
        if let Some(range) = &predicate.slice_range {
            validate_slice_range(cf, super_column, range)?;
        }
        if let Some(names) = &predicate.column_names {
            validate_names(cf, super_column, names)?;
        }
    }
    if !cf.is_super() && super_column.is_some() {
        return invalid(format!(
            "Deletion of super columns is not possible on a standard table (KeySpace={keyspace} Table={} Deletion={deletion:?})",
            cf.name
        ));
    }
    if deletion.timestamp.is_none() && !cf.is_counter() {
        return invalid(format!(
            "Deletion timestamp is not optional for non commutative table {}",
            cf.name
        ));
    }
    Ok(())
}

/// A checked column as a stored one, with the CF's default TTL if it has none (§4.2).
pub(super) fn model_column(cf: &CfDef, column: Column) -> model::Column {
    model::Column {
        ttl: effective_ttl(cf, column.ttl),
        name: column.name,
        value: column.value.unwrap_or_default(),
        timestamp: column.timestamp.unwrap_or_default(),
    }
}

/// The inserts (or increments) of a checked ColumnOrSuperColumn. An empty super column
/// writes nothing.
pub(super) fn cosc_changes(cf: &CfDef, cosc: ColumnOrSuperColumn, out: &mut Vec<Change>) {
    if let Some(counter) = cosc.counter_column {
        out.push(Change::Add {
            super_column: None,
            name: counter.name,
            delta: counter.value,
        });
    }
    if let Some(sc) = cosc.counter_super_column {
        out.extend(sc.columns.into_iter().map(|counter| Change::Add {
            super_column: Some(sc.name.clone()),
            name: counter.name,
            delta: counter.value,
        }));
    }
    if let Some(column) = cosc.column {
        out.push(Change::Insert {
            super_column: None,
            column: model_column(cf, column),
        });
    }
    if let Some(sc) = cosc.super_column {
        out.extend(sc.columns.into_iter().map(|column| Change::Insert {
            super_column: Some(sc.name.clone()),
            column: model_column(cf, column),
        }));
    }
}

/// The tombstones of a checked Deletion (spec §6.11's table). A predicate with both parts
/// deletes its names. A slice range is a range tombstone over the row's columns, a Super
/// CF's super columns, or the given super column's subcolumns: its count is ignored, an
/// empty bound is unbounded, and a reversed slice deletes [finish, start] (spec F11).
pub(super) fn deletion_changes(
    cf: &CfDef,
    deletion: Deletion,
    out: &mut Vec<Change>,
) -> Result<()> {
    let timestamp = match cf.is_counter() {
        true => server_millis(),
        false => deletion.timestamp.unwrap_or_default(),
    };
    let (names, range) = match deletion.predicate {
        Some(p) => (p.column_names, p.slice_range),
        None => (None, None),
    };
    match (names, range, deletion.super_column) {
        (Some(names), _, super_column) => {
            out.extend(names.into_iter().map(|name| match &super_column {
                None if cf.is_super() => Change::DeleteSuper { name, timestamp },
                _ => Change::DeleteColumn {
                    super_column: super_column.clone(),
                    name,
                    timestamp,
                },
            }))
        }
        (None, Some(range), super_column) => {
            let (start, finish) = match range.reversed {
                true => (range.finish, range.start),
                false => (range.start, range.finish),
            };
            out.push(Change::DeleteRange {
                super_column,
                start,
                finish,
                timestamp,
            });
        }
        (None, None, Some(name)) => out.push(Change::DeleteSuper { name, timestamp }),
        (None, None, None) => out.push(Change::DeleteRow { timestamp }),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comparator::Comparator;
    use crate::config::ColumnType;
    use crate::protocol::v20::generated::{SlicePredicate, SliceRange};

    fn cf(sub: Option<Comparator>) -> CfDef {
        CfDef {
            name: "C".into(),
            column_type: match sub {
                Some(_) => ColumnType::Super,
                None => ColumnType::Standard,
            },
            comparator: Comparator::Bytes,
            subcomparator: sub,
            comment: None,
            later: Default::default(),
        }
    }

    fn by_range(sc: Option<&[u8]>, start: &[u8], finish: &[u8], reversed: bool) -> Deletion {
        let range = SliceRange::new(start.to_vec(), finish.to_vec(), reversed, 1);
        Deletion {
            timestamp: Some(7),
            super_column: sc.map(<[u8]>::to_vec),
            predicate: Some(SlicePredicate {
                column_names: None,
                slice_range: Some(range),
            }),
        }
    }

    fn changes(cf: &CfDef, deletion: Deletion) -> Vec<Change> {
        let mut out = Vec::new();
        deletion_changes(cf, deletion, &mut out).unwrap();
        out
    }

    fn range(sc: Option<&[u8]>, start: &[u8], finish: &[u8]) -> Change {
        Change::DeleteRange {
            super_column: sc.map(<[u8]>::to_vec),
            start: start.to_vec(),
            finish: finish.to_vec(),
            timestamp: 7,
        }
    }

    #[test]
    fn a_slice_range_deletion_is_a_range_tombstone_in_ascending_order() {
        let standard = cf(None);
        let sup = cf(Some(Comparator::Bytes));
        assert_eq!(
            changes(&standard, by_range(None, b"a", b"c", false)),
            [range(None, b"a", b"c")],
            "the count is ignored"
        );
        assert_eq!(
            changes(&standard, by_range(None, b"c", b"a", true)),
            [range(None, b"a", b"c")],
            "reversed: [finish, start] (F11)"
        );
        assert_eq!(
            changes(&standard, by_range(None, b"c", b"", true)),
            [range(None, b"", b"c")],
            "an empty bound stays unbounded on its side"
        );
        assert_eq!(
            changes(&sup, by_range(None, b"", b"", false)),
            [range(None, b"", b"")],
            "over the super columns"
        );
        assert_eq!(
            changes(&sup, by_range(Some(b"s"), b"y", b"x", true)),
            [range(Some(b"s"), b"x", b"y")],
            "over one super column's subcolumns"
        );
        // With both parts the names win, as before.
        let mut both = by_range(None, b"a", b"c", false);
        if let Some(p) = both.predicate.as_mut() {
            p.column_names = Some(vec![b"n".to_vec()]);
        }
        assert_eq!(
            changes(&standard, both),
            [Change::DeleteColumn {
                super_column: None,
                name: b"n".to_vec(),
                timestamp: 7
            }]
        );
    }
}
