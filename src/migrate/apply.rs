//! The offline end of a migration: a column family of a stopped data directory, opened
//! through the node's normal path (so a directory a running server holds is refused by the
//! store's lock). This is the one file that turns migration rows into
//! [`model::RowMutation`]s for [`Db::apply`] — whose write-time reconciliation applies
//! 0.6's rules against what is already stored — and reads rows back through `cf::Db`.
//!
//! Tombstones written here get the import's clock as their local deletion time (`cf` sets
//! it), so they shadow older writes for a full GCGraceSeconds after the import.

use super::row::{Column, Row, RowBody, SuperColumn};
use super::shape::CfShape;
use super::{RowSink, RowSource};
use crate::cf::Db;
use crate::config::{Config, Schema};
use crate::error::{Error, Result};
use crate::model::{self, Change, ColumnOrSuper, ColumnParent, KeyRange, Predicate, RowBounds};
use std::collections::VecDeque;
use std::sync::Arc;

/// Rows fetched per range read while exporting.
const PAGE_ROWS: usize = 100;
/// Columns (or super columns) per row in a range read: a page holds at most
/// `PAGE_ROWS × PAGE_COLUMNS` of them.
const PAGE_COLUMNS: usize = 100;
/// Columns per `get_slice` when a row is wider than `PAGE_COLUMNS`.
const SLICE_COLUMNS: usize = 1000;

/// Opens the configuration's store for offline work; a store in use is refused clearly.
pub fn open(config: &Config) -> Result<Arc<Db>> {
    crate::node::open_db(config).map_err(|e| match e {
        Error::Storage(msg) if msg.contains("in use") => Error::Storage(format!(
            "{msg}: stop the server first, or use --host/--port to go through it"
        )),
        other => other,
    })
}

/// The shape of `keyspace.cf` in `schema`, or the error 0.6 would give.
pub fn shape(schema: &Schema, keyspace: &str, cf: &str) -> Result<CfShape> {
    Ok(CfShape::of(schema.column_family(keyspace, cf)?))
}

/// One column family of an open store.
pub struct OfflineCf {
    db: Arc<Db>,
    keyspace: String,
    parent: ColumnParent,
    /// Key of the last row a range read returned (export paging).
    after: Option<String>,
    page: VecDeque<Row>,
    exhausted: bool,
}

impl OfflineCf {
    /// `keyspace.cf` of `db`; an unknown keyspace or CF is the error 0.6 gives.
    pub fn new(db: Arc<Db>, keyspace: &str, cf: &str) -> Result<OfflineCf> {
        shape(db.schema(), keyspace, cf)?;
        Ok(OfflineCf {
            db,
            keyspace: keyspace.to_string(),
            parent: ColumnParent {
                column_family: cf.to_string(),
                super_column: None,
            },
            after: None,
            page: VecDeque::new(),
            exhausted: false,
        })
    }

    fn slice(start: Vec<u8>, count: usize) -> Predicate {
        Predicate::Range(model::SliceRange {
            start,
            finish: Vec::new(),
            reversed: false,
            count,
        })
    }

    /// `entries` (the first `PAGE_COLUMNS` of a row) completed with the rest of the row,
    /// read `SLICE_COLUMNS` at a time.
    fn whole_row(&self, key: &str, mut entries: Vec<ColumnOrSuper>) -> Result<Vec<ColumnOrSuper>> {
        let mut more_to_read = entries.len() >= PAGE_COLUMNS;
        while more_to_read {
            let Some(last) = entries.last().map(|e| entry_name(e).to_vec()) else {
                break;
            };
            let more = self.db.get_slice(
                &self.keyspace,
                key,
                &self.parent,
                &Self::slice(last, SLICE_COLUMNS + 1),
            )?;
            more_to_read = more.len() > SLICE_COLUMNS;
            entries.extend(more.into_iter().skip(1));
        }
        Ok(entries)
    }

    fn fetch_page(&mut self) -> Result<()> {
        let start = self.after.clone().unwrap_or_default();
        let range = KeyRange {
            bounds: RowBounds::Keys {
                start: start.clone(),
                end: String::new(),
            },
            count: PAGE_ROWS,
        };
        let slices = self.db.get_range_slices(
            &self.keyspace,
            &self.parent,
            &Self::slice(Vec::new(), PAGE_COLUMNS),
            &range,
        )?;
        self.exhausted = slices.len() < PAGE_ROWS;
        let p = self.db.partitioner();
        let floor = self.after.as_ref().map(|k| (p.token(k), k.clone()));
        let mut progressed = false;
        for slice in slices {
            // The range starts at the last key's token, inclusive: skip what was seen.
            if let Some(floor) = &floor {
                if (p.token(&slice.key), slice.key.clone()) <= *floor {
                    continue;
                }
            }
            progressed = true;
            self.after = Some(slice.key.clone());
            if slice.columns.is_empty() {
                continue; // a range ghost: nothing visible to export
            }
            let entries = self.whole_row(&slice.key, slice.columns)?;
            self.page.push_back(to_row(slice.key, entries));
        }
        if !progressed && !self.exhausted {
            return Err(Error::Storage(format!(
                "more than {PAGE_ROWS} rows share the token of {start:?}; cannot page past them"
            )));
        }
        Ok(())
    }
}

fn entry_name(e: &ColumnOrSuper) -> &[u8] {
    match e {
        ColumnOrSuper::Column(c) => &c.name,
        ColumnOrSuper::Super(s) => &s.name,
    }
}

fn column(c: model::Column) -> Column {
    Column {
        name: c.name,
        value: c.value,
        timestamp: c.timestamp,
        deleted: false,
    }
}

/// A read result as a migration row (visible data only: no tombstones).
fn to_row(key: String, entries: Vec<ColumnOrSuper>) -> Row {
    let is_super = matches!(entries.first(), Some(ColumnOrSuper::Super(_)));
    let body = if is_super {
        RowBody::Super(
            entries
                .into_iter()
                .filter_map(|e| match e {
                    ColumnOrSuper::Super(s) => Some(SuperColumn {
                        name: s.name,
                        deleted_at: None,
                        columns: s.columns.into_iter().map(column).collect(),
                    }),
                    ColumnOrSuper::Column(_) => None,
                })
                .collect(),
        )
    } else {
        RowBody::Standard(
            entries
                .into_iter()
                .filter_map(|e| match e {
                    ColumnOrSuper::Column(c) => Some(column(c)),
                    ColumnOrSuper::Super(_) => None,
                })
                .collect(),
        )
    };
    Row {
        key,
        deleted_at: None,
        body,
    }
}

impl RowSource for OfflineCf {
    fn next_row(&mut self) -> Result<Option<Row>> {
        while self.page.is_empty() && !self.exhausted {
            self.fetch_page()?;
        }
        Ok(self.page.pop_front())
    }

    fn get_row(&mut self, key: &str) -> Result<Option<Row>> {
        let first = self.db.get_slice(
            &self.keyspace,
            key,
            &self.parent,
            &Self::slice(Vec::new(), PAGE_COLUMNS),
        )?;
        if first.is_empty() {
            return Ok(None);
        }
        let entries = self.whole_row(key, first)?;
        Ok(Some(to_row(key.to_string(), entries)))
    }
}

/// The changes that write `row`, its tombstones included.
pub fn changes(row: &Row) -> Vec<Change> {
    let mut out = Vec::with_capacity(row.column_count() + 1);
    let mut push = |change| out.push(change);
    if let Some(timestamp) = row.deleted_at {
        push(Change::DeleteRow { timestamp });
    }
    let column_change = |super_column: Option<&[u8]>, c: &Column| {
        let super_column = super_column.map(<[u8]>::to_vec);
        if c.deleted {
            Change::DeleteColumn {
                super_column,
                name: c.name.clone(),
                timestamp: c.timestamp,
            }
        } else {
            Change::Insert {
                super_column,
                column: model::Column {
                    name: c.name.clone(),
                    value: c.value.clone(),
                    timestamp: c.timestamp,
                },
            }
        }
    };
    match &row.body {
        RowBody::Standard(cols) => cols.iter().for_each(|c| push(column_change(None, c))),
        RowBody::Super(supers) => {
            for sc in supers {
                if let Some(timestamp) = sc.deleted_at {
                    push(Change::DeleteSuper {
                        name: sc.name.clone(),
                        timestamp,
                    });
                }
                for c in &sc.columns {
                    push(column_change(Some(&sc.name), c));
                }
            }
        }
    }
    out
}

impl RowSink for OfflineCf {
    fn write(&mut self, row: &Row) -> Result<()> {
        let changes = changes(row);
        if changes.is_empty() {
            return Ok(()); // e.g. `"key": []` in JSON: nothing to write
        }
        let cf = &self.parent.column_family;
        let mutation = model::RowMutation {
            keyspace: self.keyspace.clone(),
            key: row.key.clone(),
            // The one line that knows how RowMutation groups changes by column family.
            changes: vec![(cf.clone(), changes)],
        };
        // Durability comes from the sync in `finish`; waiting per row would only slow the
        // import down in batch commit-log mode.
        self.db.apply(&mutation).map(drop)
    }

    fn finish(&mut self) -> Result<()> {
        self.db.sync()
    }
}
