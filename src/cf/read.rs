//! Reads inside one row (`docs/api.md#reads`, 7.1–7.5): get by path, names and range slices
//! over columns, super columns or one super column's subcolumns, and counts. Only live versions
//! are stored apart from column tombstones and expiring columns (see the module doc of `cf`),
//! so a read is a scan that skips tombstones and columns expired at the Db clock's now, and
//! counts what it returns. Counters are collected in their plain-column form and a counter
//! CF's results turned into their counter forms (`ColumnOrSuper::Counter`) at the end.

use super::{CfRef, Db};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::{Column, ColumnOrSuper, ColumnParent, Predicate, SliceRange, SuperColumn};
use crate::storage::{EncodedRow, NameRange, SuperEntry};

/// Names sorted by the comparator, duplicates removed (results come in comparator order).
fn sorted_names(names: &[Vec<u8>], comparator: Comparator) -> Vec<&[u8]> {
    let mut sorted: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    sorted.sort_by(|a, b| comparator.compare(a, b));
    sorted.dedup_by(|a, b| comparator.compare(a, b).is_eq());
    sorted
}

/// What a read of `cf` answers with `found`: a counter CF's results in their counter forms
/// (`ColumnOrSuper::into_counters`), another CF's unchanged. Reads collect counters in
/// their column form, so slicing, paging and counting work alike for both kinds.
pub(super) fn answer(cf: CfRef<'_>, found: Vec<ColumnOrSuper>) -> Result<Vec<ColumnOrSuper>> {
    match cf.def.is_counter() {
        true => found
            .into_iter()
            .map(ColumnOrSuper::into_counters)
            .collect(),
        false => Ok(found),
    }
}

impl Db {
    /// `get`: one column, one subcolumn, or a whole super column; NotFound when nothing live.
    pub fn get(
        &self,
        keyspace: &str,
        key: &[u8],
        column_family: &str,
        super_column: Option<&[u8]>,
        column: Option<&[u8]>,
    ) -> Result<ColumnOrSuper> {
        let started = std::time::Instant::now();
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, column_family)?;
        let row = EncodedRow::new(self.partitioner(), key);
        let found = match (super_column, column) {
            (_, Some(name)) => self
                .live_column(cf, &row, super_column, name)?
                .map(ColumnOrSuper::Column),
            (Some(sc), None) => self.super_column(cf, &row, sc)?.map(ColumnOrSuper::Super),
            (None, None) => return Err(Error::invalid("column parameter is not optional")),
        };
        crate::metrics::rows_read(keyspace, column_family, started, 1, found.is_some().into());
        let found = found.ok_or(Error::NotFound)?;
        match cf.def.is_counter() {
            true => found.into_counters(),
            false => Ok(found),
        }
    }

    /// `get_slice`: the predicate's columns of one row (or of one super column in it).
    pub fn get_slice(
        &self,
        keyspace: &str,
        key: &[u8],
        parent: &ColumnParent,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        let started = std::time::Instant::now();
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, &parent.column_family)?;
        let row = EncodedRow::new(self.partitioner(), key);
        self.slice_row(cf, &row, parent.super_column.as_deref(), predicate)
            .inspect(|c| {
                crate::metrics::rows_read(keyspace, cf.def.name.as_str(), started, 1, c.len())
            })
    }

    /// `get_count`: live columns, super columns with a live subcolumn, or live subcolumns.
    pub fn get_count(&self, keyspace: &str, key: &[u8], parent: &ColumnParent) -> Result<usize> {
        Ok(self
            .get_slice(keyspace, key, parent, &Predicate::Range(SliceRange::all()))?
            .len())
    }

    /// A slice of one encoded row; shared by single-row and range reads. A counter CF's
    /// results come in their counter forms.
    pub(crate) fn slice_row(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        let found = self.slice_cells(cf, row, super_column, predicate)?;
        answer(cf, found)
    }

    /// [`Db::slice_row`] with counters still in their column form.
    fn slice_cells(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        match (cf.def.is_super(), super_column) {
            (false, _) => self.columns(cf, row, None, predicate),
            (true, Some(sc)) => self.columns(cf, row, Some(sc), predicate),
            (true, None) => match predicate {
                Predicate::Names(names) => {
                    let mut out = Vec::new();
                    for name in sorted_names(names, cf.def.comparator) {
                        if let Some(sc) = self.super_column(cf, row, name)? {
                            out.push(ColumnOrSuper::Super(sc));
                        }
                    }
                    Ok(out)
                }
                Predicate::Range(range) => Ok(self
                    .super_columns(cf, row, range)?
                    .into_iter()
                    .map(ColumnOrSuper::Super)
                    .collect()),
            },
        }
    }

    /// The live column (or subcolumn of `super_column`) named `name`.
    fn live_column(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        name: &[u8],
    ) -> Result<Option<Column>> {
        let now = i64::from(self.now());
        // The column comes back under the name it was written with, which may be other
        // bytes than `name` that compare equal to it.
        Ok(self
            .store
            .get_named_cell(cf.layout, row, super_column, name)?
            .and_then(|(stored_name, cell)| cell.into_column(stored_name, now)))
    }

    /// Columns of a Standard row, or subcolumns of one super column.
    fn columns(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        super_column: Option<&[u8]>,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        let mut out = Vec::new();
        match predicate {
            Predicate::Names(names) => {
                let comparator = cf.def.comparator_for(super_column.is_some());
                for name in sorted_names(names, comparator) {
                    if let Some(column) = self.live_column(cf, row, super_column, name)? {
                        out.push(ColumnOrSuper::Column(column));
                    }
                }
            }
            Predicate::Range(range) => {
                if range.count == 0 {
                    return Ok(out);
                }
                let now = i64::from(self.now());
                let cells = self
                    .store
                    .cells(cf.layout, row, super_column, NameRange::from(range));
                for item in cells {
                    let (name, cell) = item?;
                    if let Some(column) = cell.into_column(name, now) {
                        out.push(ColumnOrSuper::Column(column));
                        if out.len() >= range.count {
                            break;
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// One super column with its live subcolumns, or None when it has none.
    fn super_column(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        name: &[u8],
    ) -> Result<Option<SuperColumn>> {
        let columns = self.columns(cf, row, Some(name), &Predicate::Range(SliceRange::all()))?;
        let columns: Vec<Column> = columns
            .into_iter()
            .filter_map(|c| match c {
                ColumnOrSuper::Column(c) => Some(c),
                _ => None,
            })
            .collect();
        Ok((!columns.is_empty()).then(|| SuperColumn {
            name: name.to_vec(),
            columns,
        }))
    }

    /// Super columns in a slice range, each with all its live subcolumns ascending; the
    /// count is in super columns that have a live subcolumn.
    fn super_columns(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        range: &SliceRange,
    ) -> Result<Vec<SuperColumn>> {
        let mut out = Vec::new();
        if range.count == 0 {
            return Ok(out);
        }
        let now = i64::from(self.now());
        let mut current: Option<SuperColumn> = None;
        let finish = |sc: SuperColumn, out: &mut Vec<SuperColumn>| {
            if !sc.columns.is_empty() {
                let mut sc = sc;
                if range.reversed {
                    sc.columns.reverse();
                }
                out.push(sc);
            }
        };
        for item in self
            .store
            .super_entries(cf.layout, row, NameRange::from(range))
        {
            let entry = item?;
            if current
                .as_ref()
                .is_none_or(|sc| sc.name != entry.super_column())
            {
                if let Some(done) = current.take() {
                    finish(done, &mut out);
                    if out.len() >= range.count {
                        return Ok(out);
                    }
                }
                current = Some(SuperColumn {
                    name: entry.super_column().to_vec(),
                    columns: Vec::new(),
                });
            }
            // A super column's own marker only starts it; its live subcolumns fill it.
            if let SuperEntry::Cell { name, cell, .. } = entry {
                if let (Some(sc), Some(column)) = (current.as_mut(), cell.into_column(name, now)) {
                    sc.columns.push(column);
                }
            }
        }
        if let Some(done) = current.take() {
            finish(done, &mut out);
        }
        out.truncate(range.count);
        Ok(out)
    }
}
