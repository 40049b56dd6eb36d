//! Paging across rows and columns at once (`docs/api-later.md#paged-slice`): rows in ring
//! order within any row bounds, the start row from a given column, and one budget of columns
//! for the whole walk, which stops as soon as the budget is spent. Rows are read by lazy
//! scans bounded by what is left of the budget, never whole.

use super::{CfRef, Db};
use crate::error::Result;
use crate::model::{ColumnOrSuper, KeyRange, KeySlice, Predicate, SliceRange, SuperColumn};
use crate::storage::{EncodedRow, NameRange, SuperEntry};

impl Db {
    /// `get_paged_slice`: rows in ring order within `range.bounds` (rows `range.keys` hides
    /// are skipped), the row whose key is the bounds' start key from `start_column`
    /// (inclusive; empty for its first), every other row from its first column, until
    /// `range.count` columns have been returned in all — the last row may be cut. A row
    /// without live columns comes back with none and counts nothing. On a Super CF the
    /// items are super columns with their live subcolumns, the count counts subcolumns, and
    /// a super column the count cuts comes back with the subcolumns that fit.
    pub fn get_paged_slice(
        &self,
        keyspace: &str,
        column_family: &str,
        range: &KeyRange,
        start_column: &[u8],
    ) -> Result<Vec<KeySlice>> {
        let started = std::time::Instant::now();
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, column_family)?;
        let start_key = range.bounds.start_key();
        let mut left = range.count;
        let mut out = Vec::new();
        let mut columns_read = 0;
        if left > 0 {
            for item in self.store.rows(cf.layout, &range.bounds) {
                let (row, key) = item?;
                if !range.keys.admits(&key) {
                    continue;
                }
                let from = match start_key {
                    Some(start) if start == key.as_slice() => start_column,
                    _ => &[],
                };
                let (columns, used) = match cf.def.is_super() {
                    false => self.paged_columns(cf, &row, from, left)?,
                    true => self.paged_super_columns(cf, &row, from, left)?,
                };
                columns_read += used;
                left -= used;
                out.push(KeySlice { key, columns });
                if left == 0 {
                    break;
                }
            }
        }
        crate::metrics::rows_read(keyspace, column_family, started, out.len(), columns_read);
        Ok(out)
    }

    /// Up to `budget` live columns of a Standard row from `from`; with how many.
    fn paged_columns(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        from: &[u8],
        budget: usize,
    ) -> Result<(Vec<ColumnOrSuper>, usize)> {
        let predicate = Predicate::Range(SliceRange {
            start: from.to_vec(),
            finish: Vec::new(),
            reversed: false,
            count: budget,
        });
        let columns = self.slice_row(cf, row, None, &predicate)?;
        let used = columns.len();
        Ok((columns, used))
    }

    /// Super columns of a row from `from`, each with its live subcolumns, until `budget`
    /// subcolumns are taken (the last super column may be cut); with how many were taken.
    /// Super columns without a live subcolumn are left out.
    fn paged_super_columns(
        &self,
        cf: CfRef<'_>,
        row: &EncodedRow,
        from: &[u8],
        budget: usize,
    ) -> Result<(Vec<ColumnOrSuper>, usize)> {
        let mut out = Vec::new();
        let mut used = 0;
        let mut current: Option<SuperColumn> = None;
        let now = i64::from(self.now());
        let range = NameRange {
            start: from,
            finish: &[],
            reversed: false,
        };
        for item in self.store.super_entries(cf.layout, row, range) {
            if used == budget {
                break;
            }
            let entry = item?;
            if current
                .as_ref()
                .is_none_or(|sc| sc.name != entry.super_column())
            {
                if let Some(done) = current.take().filter(|sc| !sc.columns.is_empty()) {
                    out.push(ColumnOrSuper::Super(done));
                }
                current = Some(SuperColumn {
                    name: entry.super_column().to_vec(),
                    columns: Vec::new(),
                });
            }
            if let SuperEntry::Cell { name, cell, .. } = entry {
                // Expired columns are skipped like tombstones (`docs/api-later.md#ttl`).
                if let (Some(sc), Some(column)) = (current.as_mut(), cell.into_column(name, now)) {
                    sc.columns.push(column);
                    used += 1;
                }
            }
        }
        if let Some(done) = current.filter(|sc| !sc.columns.is_empty()) {
            out.push(ColumnOrSuper::Super(done));
        }
        Ok((super::read::answer(cf, out)?, used))
    }
}
