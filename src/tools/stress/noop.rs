//! The floor: a server with ilion's own network path — [`RunningServer`], framing detection,
//! the splitter, argument normalization, the generated dispatch and the reply encoder — and
//! a handler that keeps nothing. `batch_insert` succeeds, `get_slice` returns as many canned
//! columns as the predicate asks for (up to the configured width), `get_range_slices` as
//! many canned rows. The ratio of ilion's throughput to this one's is what storage and
//! Cassandra semantics cost; everything below that ratio is shared.
//!
//! The other methods answer with valid empty replies (`get` a NotFoundException), so a
//! generic 0.6 client can talk to it too.

use crate::protocol::generated::{
    AuthenticationRequest, CassandraSyncHandler, Column, ColumnOrSuperColumn, ColumnParent,
    ColumnPath, ConsistencyLevel, KeyRange, KeySlice, Mutation, NotFoundException, SlicePredicate,
    TokenRange,
};
use crate::protocol::{process, Connection, ConnectionFactory, Limits, Mode, ReplyGate, Violation};
use crate::server::{RunningServer, ServerSettings};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::Arc;

/// What the canned replies hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoopShape {
    /// Columns per row at most (C0, C1, ...).
    pub columns: usize,
    /// Bytes per column value.
    pub value_size: usize,
    /// Rows per range slice at most.
    pub rows: usize,
}

/// A [`CassandraSyncHandler`] answering from canned data.
pub struct NoopHandler {
    columns: Vec<ColumnOrSuperColumn>,
    rows: Vec<String>,
}

type R<T> = thrift::Result<T>;

impl NoopHandler {
    /// Canned columns and row keys of `shape`.
    pub fn new(shape: NoopShape) -> NoopHandler {
        let value = vec![b'x'; shape.value_size];
        let columns = (0..shape.columns)
            .map(|i| {
                let column = Column::new(format!("C{i}").into_bytes(), value.clone(), 0);
                ColumnOrSuperColumn::new(column, None)
            })
            .collect();
        let width = shape.rows.to_string().len();
        let rows = (0..shape.rows).map(|i| format!("{i:0width$}")).collect();
        NoopHandler { columns, rows }
    }

    /// The columns a predicate selects: the named ones, or the first `count`.
    fn slice(&self, predicate: &SlicePredicate) -> Vec<ColumnOrSuperColumn> {
        match (&predicate.column_names, &predicate.slice_range) {
            (Some(names), _) => names
                .iter()
                .zip(self.columns.iter().cycle())
                .map(|(name, c)| {
                    let value = c.column.as_ref().map(|c| c.value.clone());
                    let column = Column::new(name.clone(), value.unwrap_or_default(), 0);
                    ColumnOrSuperColumn::new(column, None)
                })
                .collect(),
            (None, Some(range)) => {
                let n = usize::try_from(range.count).unwrap_or(0);
                self.columns[..n.min(self.columns.len())].to_vec()
            }
            (None, None) => Vec::new(),
        }
    }
}

impl CassandraSyncHandler for NoopHandler {
    fn handle_login(&self, _: String, _: AuthenticationRequest) -> R<()> {
        Ok(())
    }
    fn handle_get(
        &self,
        _: String,
        _: String,
        _: ColumnPath,
        _: ConsistencyLevel,
    ) -> R<ColumnOrSuperColumn> {
        Err(thrift::Error::User(Box::new(NotFoundException::new())))
    }
    fn handle_get_slice(
        &self,
        _: String,
        _: String,
        _: ColumnParent,
        predicate: SlicePredicate,
        _: ConsistencyLevel,
    ) -> R<Vec<ColumnOrSuperColumn>> {
        Ok(self.slice(&predicate))
    }
    fn handle_multiget(
        &self,
        _: String,
        _: Vec<String>,
        _: ColumnPath,
        _: ConsistencyLevel,
    ) -> R<BTreeMap<String, ColumnOrSuperColumn>> {
        Ok(BTreeMap::new())
    }
    fn handle_multiget_slice(
        &self,
        _: String,
        keys: Vec<String>,
        _: ColumnParent,
        predicate: SlicePredicate,
        _: ConsistencyLevel,
    ) -> R<BTreeMap<String, Vec<ColumnOrSuperColumn>>> {
        Ok(keys
            .into_iter()
            .map(|k| (k, self.slice(&predicate)))
            .collect())
    }
    fn handle_get_count(
        &self,
        _: String,
        _: String,
        _: ColumnParent,
        _: ConsistencyLevel,
    ) -> R<i32> {
        Ok(0)
    }
    fn handle_get_range_slice(
        &self,
        _: String,
        _: ColumnParent,
        _: SlicePredicate,
        _: String,
        _: String,
        _: i32,
        _: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        Ok(Vec::new())
    }
    fn handle_get_range_slices(
        &self,
        _: String,
        _: ColumnParent,
        predicate: SlicePredicate,
        range: KeyRange,
        _: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        let n = usize::try_from(range.count).unwrap_or(0);
        let rows = self.rows.iter().take(n);
        Ok(rows
            .map(|key| KeySlice::new(key.clone(), self.slice(&predicate)))
            .collect())
    }
    fn handle_insert(
        &self,
        _: String,
        _: String,
        _: ColumnPath,
        _: Vec<u8>,
        _: i64,
        _: ConsistencyLevel,
    ) -> R<()> {
        Ok(())
    }
    fn handle_batch_insert(
        &self,
        _: String,
        _: String,
        _: BTreeMap<String, Vec<ColumnOrSuperColumn>>,
        _: ConsistencyLevel,
    ) -> R<()> {
        Ok(())
    }
    fn handle_remove(
        &self,
        _: String,
        _: String,
        _: ColumnPath,
        _: i64,
        _: ConsistencyLevel,
    ) -> R<()> {
        Ok(())
    }
    fn handle_batch_mutate(
        &self,
        _: String,
        _: BTreeMap<String, BTreeMap<String, Vec<Mutation>>>,
        _: ConsistencyLevel,
    ) -> R<()> {
        Ok(())
    }
    fn handle_get_string_property(&self, _: String) -> R<String> {
        Ok(String::new())
    }
    fn handle_get_string_list_property(&self, _: String) -> R<Vec<String>> {
        Ok(Vec::new())
    }
    fn handle_describe_keyspaces(&self) -> R<BTreeSet<String>> {
        Ok(BTreeSet::new())
    }
    fn handle_describe_cluster_name(&self) -> R<String> {
        Ok("ilion noop".to_string())
    }
    fn handle_describe_version(&self) -> R<String> {
        Ok(crate::protocol::VERSION.to_string())
    }
    fn handle_describe_ring(&self, _: String) -> R<Vec<TokenRange>> {
        Ok(Vec::new())
    }
    fn handle_describe_partitioner(&self) -> R<String> {
        Ok("org.apache.cassandra.dht.RandomPartitioner".to_string())
    }
    fn handle_describe_keyspace(&self, _: String) -> R<BTreeMap<String, BTreeMap<String, String>>> {
        Ok(BTreeMap::new())
    }
    fn handle_describe_splits(&self, start: String, end: String, _: i32) -> R<Vec<String>> {
        Ok(vec![start, end])
    }
}

/// One connection to the floor server: no state but the shared handler.
struct NoopConnection {
    handler: Arc<NoopHandler>,
    limits: Limits,
}

impl Connection for NoopConnection {
    fn process(&mut self, message: &[u8], mode: Mode) -> Result<Vec<u8>, Violation> {
        process(message, mode, &self.limits, &*self.handler)
    }

    fn take_reply_gate(&mut self) -> Option<ReplyGate> {
        None
    }
}

/// Opens `NoopConnection`s over one shared handler.
pub struct NoopFactory {
    handler: Arc<NoopHandler>,
    limits: Limits,
}

impl NoopFactory {
    /// A factory whose connections answer with `shape`'s canned data.
    pub fn new(shape: NoopShape, limits: Limits) -> NoopFactory {
        NoopFactory {
            handler: Arc::new(NoopHandler::new(shape)),
            limits,
        }
    }
}

impl ConnectionFactory for NoopFactory {
    fn connect(&self, _peer: SocketAddr) -> Box<dyn Connection> {
        Box::new(NoopConnection {
            handler: Arc::clone(&self.handler),
            limits: self.limits,
        })
    }
}

/// Starts the floor server on `addr` (port 0 picks one) with default server settings.
pub async fn start(addr: SocketAddr, shape: NoopShape) -> std::io::Result<RunningServer> {
    let settings = ServerSettings::default();
    let factory = Arc::new(NoopFactory::new(shape, settings.limits));
    RunningServer::start(addr, factory, settings).await
}
