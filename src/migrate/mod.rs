//! Moving data in and out: `ilion export` / `ilion import` (0.6's sstable2json text, both
//! ways, offline on a stopped data directory or over Thrift to a running server) and
//! `ilion import --from-cassandra06` (reading a Cassandra 0.6 keyspace directory's SSTables
//! directly, reconciling them as 0.6 did). `docs/migrate.md` records the decisions.
//!
//! The pieces: [`row`] is the row shape every path shares, [`shape`] checks rows against the
//! target CF, [`sstable06`] reads 0.6 data files, [`merge`] reconciles several of them,
//! [`json`] reads and writes the text, [`apply`] (the one place that builds
//! `model::RowMutation`s and reads `cf::Db`) and [`remote`] (Thrift) are the two ends a row
//! can come from or go to (reading through [`paging`]), and [`export`] / [`import`] run whole commands with [`progress`].

pub mod apply;
pub mod cli;
pub mod export;
pub mod import;
pub mod json;
pub mod merge;
pub mod paging;
pub mod progress;
pub mod remote;
pub mod row;
pub mod shape;
pub mod sstable06;

use crate::error::Result;
use row::Row;

/// Where rows are written: a column family offline, or a server over Thrift.
pub trait RowSink {
    /// Writes one row (columns, tombstones and the row tombstone), timestamps as given.
    fn write(&mut self, row: &Row) -> Result<()>;
    /// Writes anything still buffered and makes it durable.
    fn finish(&mut self) -> Result<()>;
}

/// Where rows are read from: the visible rows of a column family, in partitioner order.
pub trait RowSource {
    /// The next row with at least one visible column.
    fn next_row(&mut self) -> Result<Option<Row>>;
    /// One row by key, `None` when nothing in it is visible.
    fn get_row(&mut self, key: &str) -> Result<Option<Row>>;
}
