//! Range reads with a row filter (`docs/api-later.md#data`): the rows of a key range whose
//! live columns meet every condition, each sliced by the predicate. Without secondary
//! indexes every row of the range is examined; a row that fails the filter is skipped
//! entirely (no range ghost) and does not count towards the row limit.

use super::Db;
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::{
    Column, ColumnOrSuper, ColumnParent, Comparison, KeyRange, KeySlice, Predicate, RowCondition,
};
use std::cmp::Ordering;

impl Db {
    /// `get_range_slices` with a row filter: up to `range.count` rows, in ring order, that
    /// meet every one of `conditions`. Values compare by each condition's value type
    /// (unsigned bytes for BytesType).
    /// Standard column families only.
    pub fn get_filtered_range_slices(
        &self,
        keyspace: &str,
        parent: &ColumnParent,
        predicate: &Predicate,
        range: &KeyRange,
        conditions: &[RowCondition],
    ) -> Result<Vec<KeySlice>> {
        let started = std::time::Instant::now();
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, &parent.column_family)?;
        if cf.def.is_super() || parent.super_column.is_some() {
            return Err(Error::invalid(
                "super columns are not supported for indexing",
            ));
        }
        let probe = Predicate::Names(conditions.iter().map(|c| c.name.clone()).collect());
        let mut out = Vec::new();
        if range.count == 0 {
            return Ok(out);
        }
        for item in self.store.rows(cf.layout, &range.bounds) {
            let (row, key) = item?;
            if !range.keys.admits(&key) {
                continue;
            }
            let found: Vec<Column> = self
                .slice_row(cf, &row, None, &probe)?
                .into_iter()
                .filter_map(|item| match item {
                    ColumnOrSuper::Column(c) => Some(c),
                    _ => None,
                })
                .collect();
            if !conditions
                .iter()
                .all(|c| meets(cf.def.comparator, c, &found))
            {
                continue;
            }
            let columns = self.slice_row(cf, &row, None, predicate)?;
            out.push(KeySlice { key, columns });
            if out.len() == range.count {
                break;
            }
        }
        let columns = out.iter().map(|r| r.columns.len()).sum();
        crate::metrics::rows_read(keyspace, &parent.column_family, started, out.len(), columns);
        Ok(out)
    }
}

/// Whether the live columns `found` meet `condition`: a column of its name (under the
/// comparator: a read returns the stored bytes, which may differ from the condition's)
/// whose value compares as the condition says; a missing column meets nothing.
fn meets(comparator: Comparator, condition: &RowCondition, found: &[Column]) -> bool {
    let Some(column) = found
        .iter()
        .find(|c| comparator.compare(&c.name, &condition.name).is_eq())
    else {
        return false;
    };
    let order = match &condition.value_type {
        Some(t) => t.compare(&column.value, &condition.value),
        None => column.value.as_slice().cmp(condition.value.as_slice()),
    };
    match condition.op {
        Comparison::Eq => order == Ordering::Equal,
        Comparison::Gte => order != Ordering::Less,
        Comparison::Gt => order == Ordering::Greater,
        Comparison::Lte => order != Ordering::Greater,
        Comparison::Lt => order == Ordering::Less,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(name: &[u8], value: &[u8]) -> Column {
        Column {
            name: name.to_vec(),
            value: value.to_vec(),
            timestamp: 0,
            ttl: None,
        }
    }

    fn condition(op: Comparison, value: &[u8]) -> RowCondition {
        RowCondition {
            name: b"c".to_vec(),
            op,
            value: value.to_vec(),
            value_type: None,
        }
    }

    #[test]
    fn each_comparison_compares_the_stored_value_with_the_given_one() {
        let found = [column(b"c", b"m")];
        let table = [
            (Comparison::Eq, [false, true, false]),
            (Comparison::Gte, [true, true, false]),
            (Comparison::Gt, [true, false, false]),
            (Comparison::Lte, [false, true, true]),
            (Comparison::Lt, [false, false, true]),
        ];
        for (op, expected) in table {
            let got: Vec<bool> = [b"a", b"m", b"z"]
                .iter()
                .map(|v| meets(Comparator::Bytes, &condition(op, *v), &found))
                .collect();
            assert_eq!(got, expected, "{op:?}");
        }
    }

    #[test]
    fn a_missing_column_meets_nothing_and_bytes_compare_unsigned() {
        assert!(!meets(
            Comparator::Bytes,
            &condition(Comparison::Lt, b"z"),
            &[column(b"d", b"a")]
        ));
        assert!(meets(
            Comparator::Bytes,
            &condition(Comparison::Gt, b"\x7f"),
            &[column(b"c", b"\x80")]
        ));
        // The column is found by the comparator, whatever bytes the condition names it by.
        let integer = Comparator::of_type(&crate::types::DataType::Integer);
        let found = [column(b"\x00\x05", b"m")];
        let mut by_other_bytes = condition(Comparison::Eq, b"m");
        by_other_bytes.name = b"\x05".to_vec();
        assert!(meets(integer, &by_other_bytes, &found));
        assert!(!meets(Comparator::Bytes, &by_other_bytes, &found));
        // Shorter prefix first.
        assert!(meets(
            Comparator::Bytes,
            &condition(Comparison::Lt, b"ab"),
            &[column(b"c", b"a")]
        ));
    }
}
