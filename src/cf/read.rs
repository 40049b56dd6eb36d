//! Reads inside one row (spec §8.1–§8.5): get by path, names and range slices over columns,
//! super columns or one super column's subcolumns, and counts. Only live versions are
//! stored apart from column tombstones (see the module doc of `cf`), so a read is a scan
//! that skips tombstones and counts what it returns.

use super::{CfRef, Db};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::{Cell, Column, ColumnOrSuper, ColumnParent, Predicate, SliceRange, SuperColumn};
use crate::storage::encoding::{prefix_end, put_name, take_name};
use crate::storage::keys::encode_row;
use crate::storage::values::decode_cell;
use std::ops::Bound;

fn corrupt(cf: CfRef<'_>) -> Error {
    Error::Corrupt(format!("undecodable key in column family {}", cf.def.name))
}

/// Scan bounds under `prefix` for a slice range. `last` says whether names end the key
/// (columns, subcolumns) or are followed by more (super-column names).
fn name_bounds(
    prefix: &[u8],
    comparator: Comparator,
    range: &SliceRange,
    last: bool,
) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
    let (low, high) = if range.reversed {
        (&range.finish, &range.start)
    } else {
        (&range.start, &range.finish)
    };
    let with_name = |name: &[u8]| {
        let mut key = prefix.to_vec();
        put_name(&mut key, comparator, name, last);
        key
    };
    let end_of = |key: &[u8]| prefix_end(key).map_or(Bound::Unbounded, Bound::Excluded);
    let lower = if low.is_empty() {
        Bound::Included(prefix.to_vec())
    } else {
        Bound::Included(with_name(low))
    };
    let upper = match (high.is_empty(), last) {
        (true, _) => end_of(prefix),
        (false, true) => Bound::Included(with_name(high)),
        (false, false) => end_of(&with_name(high)),
    };
    (lower, upper)
}

/// Names sorted by the comparator, duplicates removed (results come in comparator order).
fn sorted_names(names: &[Vec<u8>], comparator: Comparator) -> Vec<&[u8]> {
    let mut sorted: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    sorted.sort_by(|a, b| comparator.compare(a, b));
    sorted.dedup_by(|a, b| comparator.compare(a, b).is_eq());
    sorted
}

impl Db {
    /// `get`: one column, one subcolumn, or a whole super column; NotFound when nothing live.
    pub fn get(
        &self,
        keyspace: &str,
        key: &str,
        column_family: &str,
        super_column: Option<&[u8]>,
        column: Option<&[u8]>,
    ) -> Result<ColumnOrSuper> {
        let started = std::time::Instant::now();
        let cf = self.cf(keyspace, column_family)?;
        let row = encode_row(self.partitioner(), key);
        let found = match (super_column, column) {
            (None, Some(name)) => self
                .live_column(&cf.layout.column_key(&row, name), name)?
                .map(ColumnOrSuper::Column),
            (Some(sc), Some(name)) => self
                .live_column(&cf.layout.subcolumn_key(&row, sc, name), name)?
                .map(ColumnOrSuper::Column),
            (Some(sc), None) => self.super_column(cf, &row, sc)?.map(ColumnOrSuper::Super),
            (None, None) => return Err(Error::invalid("column parameter is not optional")),
        };
        crate::metrics::rows_read(keyspace, column_family, started, 1, found.is_some().into());
        found.ok_or(Error::NotFound)
    }

    /// `get_slice`: the predicate's columns of one row (or of one super column in it).
    pub fn get_slice(
        &self,
        keyspace: &str,
        key: &str,
        parent: &ColumnParent,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        let started = std::time::Instant::now();
        let cf = self.cf(keyspace, &parent.column_family)?;
        let row = encode_row(self.partitioner(), key);
        self.slice_row(cf, &row, parent.super_column.as_deref(), predicate)
            .inspect(|c| {
                crate::metrics::rows_read(keyspace, cf.def.name.as_str(), started, 1, c.len())
            })
    }

    /// `get_count`: live columns, super columns with a live subcolumn, or live subcolumns.
    pub fn get_count(&self, keyspace: &str, key: &str, parent: &ColumnParent) -> Result<usize> {
        Ok(self
            .get_slice(keyspace, key, parent, &Predicate::Range(SliceRange::all()))?
            .len())
    }

    /// A slice of one encoded row; shared by single-row and range reads.
    pub(crate) fn slice_row(
        &self,
        cf: CfRef<'_>,
        row: &[u8],
        super_column: Option<&[u8]>,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        let layout = cf.layout;
        match (cf.def.is_super(), super_column) {
            (false, _) => {
                let prefix = layout.columns_prefix(row);
                self.columns(cf, &prefix, cf.def.comparator, predicate)
            }
            (true, Some(sc)) => {
                let prefix = layout.subcolumns_prefix(row, sc);
                self.columns(cf, &prefix, cf.def.comparator_for(true), predicate)
            }
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

    /// The live column stored at `key`, named `name`.
    fn live_column(&self, key: &[u8], name: &[u8]) -> Result<Option<Column>> {
        Ok(
            match self.store.get(key)?.map(|v| decode_cell(&v)).transpose()? {
                Some(Cell::Live { value, timestamp }) => Some(Column {
                    name: name.to_vec(),
                    value,
                    timestamp,
                }),
                _ => None,
            },
        )
    }

    /// Columns (or subcolumns) under `prefix`, where names end the key.
    fn columns(
        &self,
        cf: CfRef<'_>,
        prefix: &[u8],
        comparator: Comparator,
        predicate: &Predicate,
    ) -> Result<Vec<ColumnOrSuper>> {
        let mut out = Vec::new();
        match predicate {
            Predicate::Names(names) => {
                for name in sorted_names(names, comparator) {
                    let mut key = prefix.to_vec();
                    put_name(&mut key, comparator, name, true);
                    if let Some(column) = self.live_column(&key, name)? {
                        out.push(ColumnOrSuper::Column(column));
                    }
                }
            }
            Predicate::Range(range) => {
                if range.count == 0 {
                    return Ok(out);
                }
                let (lower, upper) = name_bounds(prefix, comparator, range, true);
                for item in self.store.scan(lower, upper, range.reversed) {
                    let (key, value) = item?;
                    if let Cell::Live { value, timestamp } = decode_cell(&value)? {
                        let suffix = key.get(prefix.len()..).ok_or_else(|| corrupt(cf))?;
                        let (name, _) =
                            take_name(suffix, comparator, true).ok_or_else(|| corrupt(cf))?;
                        out.push(ColumnOrSuper::Column(Column {
                            name,
                            value,
                            timestamp,
                        }));
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
    fn super_column(&self, cf: CfRef<'_>, row: &[u8], name: &[u8]) -> Result<Option<SuperColumn>> {
        let prefix = cf.layout.subcolumns_prefix(row, name);
        let columns = self.columns(
            cf,
            &prefix,
            cf.def.comparator_for(true),
            &Predicate::Range(SliceRange::all()),
        )?;
        let columns: Vec<Column> = columns
            .into_iter()
            .filter_map(|c| match c {
                ColumnOrSuper::Column(c) => Some(c),
                ColumnOrSuper::Super(_) => None,
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
        row: &[u8],
        range: &SliceRange,
    ) -> Result<Vec<SuperColumn>> {
        let mut out = Vec::new();
        if range.count == 0 {
            return Ok(out);
        }
        let prefix = cf.layout.columns_prefix(row);
        let (comparator, subcomparator) = (cf.def.comparator, cf.def.comparator_for(true));
        let (lower, upper) = name_bounds(&prefix, comparator, range, false);
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
        for item in self.store.scan(lower, upper, range.reversed) {
            let (key, value) = item?;
            let suffix = key.get(prefix.len()..).ok_or_else(|| corrupt(cf))?;
            let (name, rest) = take_name(suffix, comparator, false).ok_or_else(|| corrupt(cf))?;
            if current.as_ref().is_none_or(|sc| sc.name != name) {
                if let Some(done) = current.take() {
                    finish(done, &mut out);
                    if out.len() >= range.count {
                        return Ok(out);
                    }
                }
                current = Some(SuperColumn {
                    name,
                    columns: Vec::new(),
                });
            }
            // A subcolumn entry is `01 | name`; the super column's own marker is `00`.
            if let Some((1, sub)) = rest.split_first() {
                if let Cell::Live { value, timestamp } = decode_cell(&value)? {
                    let (sub_name, _) =
                        take_name(sub, subcomparator, true).ok_or_else(|| corrupt(cf))?;
                    if let Some(sc) = current.as_mut() {
                        sc.columns.push(Column {
                            name: sub_name,
                            value,
                            timestamp,
                        });
                    }
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
