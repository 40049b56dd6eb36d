//! Conversions between the 20.1.0 shapes and `model` for requests that have passed
//! validation: parents and predicates into `cf` arguments, key ranges with their tokens
//! parsed, and read results back into 20.1.0 shapes. Numbers from the wire are converted
//! with checks, never with `as`.

use super::validation::CheckedBounds;
use crate::config::CfDef;
use crate::error::{Error, Result};
use crate::model::{
    self, ColumnOrSuper, Comparison, KeyFilter, Predicate, RowBounds, RowCondition,
};
use crate::partitioner::Partitioner;
use crate::protocol::v20::generated::{
    Column, ColumnOrSuperColumn, CounterColumn, CounterSuperColumn, IndexExpression, IndexOperator,
    KeySlice, SlicePredicate, SuperColumn,
};

/// A checked read predicate (exactly one of names and range, count not negative).
pub(super) fn predicate(predicate: &SlicePredicate) -> Result<Predicate> {
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

/// Checked KeyRange bounds as rows to walk, token strings parsed (F1 texts on error).
pub(super) fn bounds(partitioner: Partitioner, checked: CheckedBounds<'_>) -> Result<RowBounds> {
    Ok(match checked {
        CheckedBounds::Keys(start, end) => RowBounds::KeySpan {
            start: start.to_vec(),
            end: end.to_vec(),
        },
        CheckedBounds::KeyToToken(start, end) => RowBounds::KeyToToken {
            start: start.to_vec(),
            end,
        },
        CheckedBounds::Tokens(start, end) => RowBounds::Tokens {
            start: partitioner.parse_token(start)?,
            end: partitioner.parse_token(end)?,
        },
    })
}

/// A checked row filter as conditions, each comparing by its column's value validator.
pub(super) fn row_filter(cf: &CfDef, expressions: &[IndexExpression]) -> Result<Vec<RowCondition>> {
    expressions
        .iter()
        .map(|e| {
            let op = match e.op {
                IndexOperator::EQ => Comparison::Eq,
                IndexOperator::GTE => Comparison::Gte,
                IndexOperator::GT => Comparison::Gt,
                IndexOperator::LTE => Comparison::Lte,
                IndexOperator::LT => Comparison::Lt,
                other => {
                    return Err(Error::invalid(format!(
                        "Unknown index operator {}",
                        other.0
                    )))
                }
            };
            Ok(RowCondition {
                name: e.column_name.clone(),
                op,
                value: e.value.clone(),
                value_type: super::validators::value_validator(cf, &e.column_name)?,
            })
        })
        .collect()
}

/// A key range over every row (later clients address binary keys).
pub(super) fn key_range(bounds: RowBounds, count: i32) -> Result<model::KeyRange> {
    let count = usize::try_from(count)
        .ok()
        .filter(|&count| count > 0)
        .ok_or_else(|| Error::invalid("maxRows must be positive"))?;
    Ok(model::KeyRange {
        bounds,
        count,
        keys: KeyFilter::Any,
    })
}

/// A stored column as the later API shows it: a live expiring column with the TTL it was
/// written with.
pub(super) fn column(c: model::Column) -> Column {
    Column::new(c.name, c.value, c.timestamp, c.ttl)
}

/// One read result as a ColumnOrSuperColumn.
pub(super) fn cosc(item: ColumnOrSuper) -> ColumnOrSuperColumn {
    match item {
        ColumnOrSuper::Column(c) => ColumnOrSuperColumn::new(column(c), None, None, None),
        ColumnOrSuper::Super(sc) => ColumnOrSuperColumn::new(
            None,
            SuperColumn::new(sc.name, sc.columns.into_iter().map(column).collect()),
            None,
            None,
        ),
        ColumnOrSuper::Counter(c) => {
            ColumnOrSuperColumn::new(None, None, CounterColumn::new(c.name, c.value), None)
        }
        ColumnOrSuper::CounterSuper(sc) => ColumnOrSuperColumn::new(
            None,
            None,
            None,
            CounterSuperColumn::new(
                sc.name,
                sc.columns
                    .into_iter()
                    .map(|c| CounterColumn::new(c.name, c.value))
                    .collect(),
            ),
        ),
    }
}

/// A list of read results.
pub(super) fn coscs(items: Vec<ColumnOrSuper>) -> Vec<ColumnOrSuperColumn> {
    items.into_iter().map(cosc).collect()
}

/// A range-read row.
pub(super) fn key_slice(slice: model::KeySlice) -> KeySlice {
    KeySlice::new(slice.key, coscs(slice.columns))
}
