//! The later API's reads (`docs/api-later.md#reads`): get, get_slice, get_count,
//! multiget_slice, multiget_count, get_range_slices, get_paged_slice, get_multi_slice and
//! get_indexed_slices. Each runs the session checks, the later validations in the later
//! order (spec §6.0), the level check, availability, then the `cf` calls, and converts the
//! result back.

use super::consistency::{check_read_available, check_read_level, check_serial_rows};
use super::convert;
use super::mutations::commutative;
use super::validation::later_type;
use super::validation::{
    invalid, out_of_order, validate_bounds, validate_column_parent, validate_column_path,
    validate_key, validate_key_range, validate_predicate, validate_row_filter,
};
use super::Session20;
use crate::error::Result;
use crate::model::{self, ColumnOrSuper, Predicate, RowBounds};
use crate::protocol::v20::generated::IndexOperator;
use crate::protocol::v20::generated::{
    ColumnOrSuperColumn, ColumnParent, ColumnPath, ConsistencyLevel as Cl, IndexClause, KeyRange,
    KeySlice, MultiSliceRequest, SlicePredicate,
};
use std::collections::BTreeMap;

/// get_multi_slice's defaults for its optional fields (spec §6.7).
const MULTI_SLICE_COUNT: i32 = 1000;

impl Session20 {
    /// `get`: one column, subcolumn or super column; NotFoundException when nothing is live.
    pub(super) fn get(&self, key: &[u8], path: &ColumnPath, cl: Cl) -> Result<ColumnOrSuperColumn> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &path.column_family)?;
        let (sc, column) = (path.super_column.as_deref(), path.column.as_deref());
        validate_column_path(cf, sc, column)?;
        check_read_level(cl)?;
        validate_key(self.partitioner(), cf, key)?;
        check_read_available(ks, cl, 1)?;
        let found = self.service.db.get(&ks.name, key, &cf.name, sc, column)?;
        Ok(convert::cosc(found))
    }

    /// `get_slice` and `multiget_slice`: the predicate's columns of each distinct key.
    pub(super) fn slices(
        &self,
        keys: &[Vec<u8>],
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        cl: Cl,
    ) -> Result<BTreeMap<Vec<u8>, Vec<ColumnOrSuper>>> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &parent.column_family)?;
        let sc = parent.super_column.as_deref();
        validate_column_parent(cf, sc)?;
        validate_predicate(cf, sc, predicate)?;
        check_read_level(cl)?;
        let partitioner = self.partitioner();
        keys.iter()
            .try_for_each(|key| validate_key(partitioner, cf, key))?;
        let distinct: std::collections::BTreeSet<&Vec<u8>> = keys.iter().collect();
        check_serial_rows(cl, distinct.len())?;
        check_read_available(ks, cl, distinct.len())?;
        let model_parent = model::ColumnParent::new(&cf.name, sc);
        let model_predicate = convert::predicate(predicate)?;
        let mut rows = BTreeMap::new();
        for key in distinct {
            let row = self
                .service
                .db
                .get_slice(&ks.name, key, &model_parent, &model_predicate)?;
            rows.insert(key.clone(), row);
        }
        Ok(rows)
    }

    /// `get_slice`: [`Self::slices`] of one key.
    pub(super) fn get_slice(
        &self,
        key: Vec<u8>,
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        cl: Cl,
    ) -> Result<Vec<ColumnOrSuperColumn>> {
        let mut rows = self.slices(std::slice::from_ref(&key), parent, predicate, cl)?;
        Ok(convert::coscs(rows.remove(&key).unwrap_or_default()))
    }

    /// `get_count`: the length of the same `get_slice` (validated as get_slice, spec F6).
    pub(super) fn get_count(
        &self,
        key: Vec<u8>,
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        cl: Cl,
    ) -> Result<i32> {
        let rows = self.slices(std::slice::from_ref(&key), parent, predicate, cl)?;
        Ok(count(rows.get(&key).map_or(0, Vec::len)))
    }

    /// `get_range_slices`: rows in ring order within the KeyRange, each sliced by the
    /// predicate, ghosts included.
    pub(super) fn get_range_slices(
        &self,
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        range: &KeyRange,
        cl: Cl,
    ) -> Result<Vec<KeySlice>> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &parent.column_family)?;
        let sc = parent.super_column.as_deref();
        validate_column_parent(cf, sc)?;
        validate_predicate(cf, sc, predicate)?;
        let partitioner = self.partitioner();
        let checked = validate_key_range(partitioner, cf, sc, range)?;
        check_read_level(cl)?;
        let bounds = convert::bounds(partitioner, checked)?;
        let conditions = convert::row_filter(cf, range.row_filter.as_deref().unwrap_or_default())?;
        if !conditions.is_empty() && cf.is_counter() {
            // A filter compares column values; a counter's total is not one (ilion, G18).
            return invalid("row filters on counter column families are not supported by ilion");
        }
        check_read_available(ks, cl, 1)?;
        let db = &self.service.db;
        let (parent, predicate) = (
            model::ColumnParent::new(&cf.name, sc),
            convert::predicate(predicate)?,
        );
        let range = convert::key_range(bounds, range.count)?;
        let rows = match conditions.is_empty() {
            true => db.get_range_slices(&ks.name, &parent, &predicate, &range)?,
            false => {
                db.get_filtered_range_slices(&ks.name, &parent, &predicate, &range, &conditions)?
            }
        };
        Ok(rows.into_iter().map(convert::key_slice).collect())
    }

    /// `get_paged_slice` (spec §6.5): rows and columns from a start key and column, at
    /// most `range.count` columns in all.
    pub(super) fn get_paged_slice(
        &self,
        column_family: &str,
        range: &KeyRange,
        start_column: &[u8],
        cl: Cl,
    ) -> Result<Vec<KeySlice>> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, column_family)?;
        let partitioner = self.partitioner();
        let checked = validate_key_range(partitioner, cf, None, range)?;
        check_read_level(cl)?;
        let bounds = convert::bounds(partitioner, checked)?;
        if range.row_filter.as_ref().is_some_and(|f| !f.is_empty()) {
            return invalid("Cross-row paging is not supported along with index clauses");
        }
        check_read_available(ks, cl, 1)?;
        let rows = self.service.db.get_paged_slice(
            &ks.name,
            &cf.name,
            &convert::key_range(bounds, range.count)?,
            start_column,
        )?;
        Ok(rows.into_iter().map(convert::key_slice).collect())
    }

    /// `get_multi_slice` (spec §6.7): several slices of one row, merged, in comparator
    /// order (descending when reversed), at most `count` columns.
    pub(super) fn get_multi_slice(
        &self,
        request: &MultiSliceRequest,
    ) -> Result<Vec<ColumnOrSuperColumn>> {
        let schema = self.service.db.schema();
        self.session_keyspace(&schema)?;
        let Some(parent) = &request.column_parent else {
            return invalid("column_parent is required");
        };
        let (ks, cf) = self.column_family(&schema, &parent.column_family)?;
        if cf.is_super() {
            return invalid("get_multi_slice does not support super columns");
        }
        validate_column_parent(cf, parent.super_column.as_deref())?;
        let cl = request.consistency_level.unwrap_or(Cl::ONE);
        check_read_level(cl)?;
        let reversed = request.reversed.unwrap_or(false);
        let count = request.count.unwrap_or(MULTI_SLICE_COUNT);
        if count < 0 {
            return invalid("get_slice requires non-negative count");
        }
        let slices = request.column_slices.as_deref().unwrap_or_default();
        let mut ranges = Vec::with_capacity(slices.len());
        for (i, slice) in slices.iter().enumerate() {
            let start = slice.start.clone().unwrap_or_default();
            let finish = slice.finish.clone().unwrap_or_default();
            validate_bounds(cf, None, &start, &finish)?;
            if out_of_order(cf.comparator, &start, &finish, reversed) {
                return invalid(match reversed {
                    false => format!("Column slice at index {i} had start greater than finish"),
                    true => {
                        format!("Reversed column slice at index {i} had start less than finish")
                    }
                });
            }
            ranges.push((start, finish));
        }
        let key = request.key.as_deref().unwrap_or_default();
        validate_key(self.partitioner(), cf, key)?;
        check_read_available(ks, cl, 1)?;
        let limit = usize::try_from(count).unwrap_or(0);
        let model_parent = model::ColumnParent::new(&cf.name, None);
        // Each slice read alone, at most `limit` columns each; merged by name, the
        // overlaps collapse. A counter CF's slices hold counters.
        let mut merged: Vec<(Vec<u8>, ColumnOrSuper)> = Vec::new();
        for (start, finish) in ranges {
            let predicate = Predicate::Range(model::SliceRange {
                start,
                finish,
                reversed,
                count: limit,
            });
            let found = self
                .service
                .db
                .get_slice(&ks.name, key, &model_parent, &predicate)?;
            merged.extend(found.into_iter().filter_map(|item| match &item {
                ColumnOrSuper::Column(c) => Some((c.name.clone(), item)),
                ColumnOrSuper::Counter(c) => Some((c.name.clone(), item)),
                _ => None,
            }));
        }
        let comparator = cf.comparator;
        merged.sort_by(|a, b| match reversed {
            false => comparator.compare(&a.0, &b.0),
            true => comparator.compare(&b.0, &a.0),
        });
        merged.dedup_by(|a, b| comparator.compare(&a.0, &b.0).is_eq());
        merged.truncate(limit);
        Ok(merged
            .into_iter()
            .map(|(_, item)| convert::cosc(item))
            .collect())
    }

    /// `get_indexed_slices` (spec §6.6): the clause is checked, one EQ expression must name
    /// a column with a KEYS index, then it reads as `get_range_slices` from `start_key` to
    /// the end of the ring with the expressions as row filter (the range is scanned; an
    /// index only changes which clauses are accepted, never the rows found).
    pub(super) fn get_indexed_slices(
        &self,
        parent: &ColumnParent,
        clause: &IndexClause,
        predicate: &SlicePredicate,
        cl: Cl,
    ) -> Result<Vec<KeySlice>> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &parent.column_family)?;
        if cf.is_counter() {
            return Err(commutative(cf));
        }
        let sc = parent.super_column.as_deref();
        validate_column_parent(cf, sc)?;
        validate_predicate(cf, sc, predicate)?;
        if clause.expressions.is_empty() {
            return invalid("index clause list may not be empty");
        }
        validate_row_filter(cf, &clause.expressions)?;
        if sc.is_some() || cf.is_super() {
            return invalid("super columns are not supported for indexing");
        }
        if clause.count <= 0 {
            return invalid("maxRows must be positive");
        }
        check_read_level(cl)?;
        let names = later_type(cf.comparator);
        let indexed = clause.expressions.iter().any(|e| {
            e.op == IndexOperator::EQ
                && cf.later.column_metadata.iter().any(|m| {
                    m.index_type.is_some()
                        && names.compare(&m.name, &e.column_name) == std::cmp::Ordering::Equal
                })
        });
        if !indexed {
            return invalid("No indexed columns present in index clause with operator EQ");
        }
        let conditions = convert::row_filter(cf, &clause.expressions)?;
        check_read_available(ks, cl, 1)?;
        let bounds = RowBounds::KeySpan {
            start: clause.start_key.clone(),
            end: Vec::new(),
        };
        let range = convert::key_range(bounds, clause.count)?;
        let (parent, predicate) = (
            model::ColumnParent::new(&cf.name, None),
            convert::predicate(predicate)?,
        );
        let rows = self.service.db.get_filtered_range_slices(
            &ks.name,
            &parent,
            &predicate,
            &range,
            &conditions,
        )?;
        Ok(rows.into_iter().map(convert::key_slice).collect())
    }
}

/// A count on the wire, saturating at i32::MAX.
pub(super) fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}
