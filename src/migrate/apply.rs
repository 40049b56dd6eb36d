//! The offline end of a migration: a column family of a stopped data directory, opened
//! through the node's normal path (so a directory a running server holds is refused by the
//! store's lock). This is the one file that turns migration rows into
//! [`model::RowMutation`]s for [`Db::apply`] — whose write-time reconciliation applies
//! 0.6's rules against what is already stored — and reads rows back through `cf::Db`.
//!
//! Tombstones written here get the import's clock as their local deletion time (`cf` sets
//! it), so they shadow older writes for a full GCGraceSeconds after the import.

use super::paging::{self, Entry, Pager, SliceReader};
use super::row::{Column, Row, RowBody, SuperColumn};
use super::shape::CfShape;
use super::{RowSink, RowSource};
use crate::cf::Db;
use crate::config::{Config, Schema};
use crate::error::{Error, Result};
use crate::model::{
    self, Change, ColumnOrSuper, ColumnParent, KeyFilter, KeyRange, Predicate, RowBounds,
};
use crate::partitioner::Partitioner;
use std::sync::Arc;

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
    cf: DbSlices,
    pager: Pager,
}

/// The reads of one column family of `cf::Db`.
struct DbSlices {
    db: Arc<Db>,
    keyspace: String,
    parent: ColumnParent,
}

impl OfflineCf {
    /// `keyspace.cf` of `db`; an unknown keyspace or CF is the error 0.6 gives.
    pub fn new(db: Arc<Db>, keyspace: &str, cf: &str) -> Result<OfflineCf> {
        shape(&db.schema(), keyspace, cf)?;
        let cf = DbSlices {
            db,
            keyspace: keyspace.to_string(),
            parent: ColumnParent {
                column_family: cf.to_string(),
                super_column: None,
            },
        };
        Ok(OfflineCf {
            cf,
            pager: Pager::default(),
        })
    }
}

fn slice(start: Vec<u8>, count: usize) -> Predicate {
    Predicate::Range(model::SliceRange {
        start,
        finish: Vec::new(),
        reversed: false,
        count,
    })
}

/// A read column as 0.6's row shape: 0.6 has no TTL, so a live expiring column becomes a
/// plain one (an expired one is never read: like a tombstone, it is not exported).
fn column(c: model::Column) -> Column {
    Column {
        name: c.name,
        value: c.value,
        timestamp: c.timestamp,
        deleted: false,
    }
}

fn entry(e: ColumnOrSuper) -> Entry {
    match e {
        ColumnOrSuper::Column(c) => Entry::Column(column(c)),
        ColumnOrSuper::Super(s) => Entry::Super(SuperColumn {
            name: s.name,
            deleted_at: None,
            columns: s.columns.into_iter().map(column).collect(),
        }),
        // 0.6's row shape has no counters: a counter exports as its plain-column form.
        ColumnOrSuper::Counter(c) => Entry::Column(column(c.into_column())),
        ColumnOrSuper::CounterSuper(s) => Entry::Super(SuperColumn {
            name: s.name,
            deleted_at: None,
            columns: s
                .columns
                .into_iter()
                .map(|c| column(c.into_column()))
                .collect(),
        }),
    }
}

impl SliceReader for DbSlices {
    fn partitioner(&self) -> Partitioner {
        self.db.partitioner()
    }

    fn range(
        &mut self,
        start: &str,
        rows: usize,
        columns: usize,
    ) -> Result<Vec<(String, Vec<Entry>)>> {
        // 0.6's formats hold string keys: a migration sees the rows a 0.6 client sees
        // (`docs/migrate.md`).
        let range = KeyRange {
            bounds: RowBounds::Keys {
                start: start.as_bytes().to_vec(),
                end: Vec::new(),
            },
            count: rows,
            keys: KeyFilter::Utf8,
        };
        let slices = self.db.get_range_slices(
            &self.keyspace,
            &self.parent,
            &slice(Vec::new(), columns),
            &range,
        )?;
        Ok(slices
            .into_iter()
            .filter_map(|s| {
                let key = String::from_utf8(s.key).ok()?;
                Some((key, s.columns.into_iter().map(entry).collect()))
            })
            .collect())
    }

    fn slice(&mut self, key: &str, start: Vec<u8>, count: usize) -> Result<Vec<Entry>> {
        let entries = self.db.get_slice(
            &self.keyspace,
            key.as_bytes(),
            &self.parent,
            &slice(start, count),
        )?;
        Ok(entries.into_iter().map(entry).collect())
    }
}

impl RowSource for OfflineCf {
    fn next_row(&mut self) -> Result<Option<Row>> {
        self.pager.next_row(&mut self.cf)
    }

    fn get_row(&mut self, key: &str) -> Result<Option<Row>> {
        paging::get_row(&mut self.cf, key)
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
                    ttl: None,
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
        let cf = &self.cf.parent.column_family;
        let mutation = model::RowMutation {
            keyspace: self.cf.keyspace.clone(),
            key: row.key.clone().into_bytes(),
            // The one line that knows how RowMutation groups changes by column family.
            changes: vec![(cf.clone(), changes)],
        };
        // Durability comes from the sync in `finish`; waiting per row would only slow the
        // import down in batch commit-log mode.
        self.cf.db.apply(mutation).map(drop)
    }

    fn finish(&mut self) -> Result<()> {
        self.cf.db.sync()
    }
}
