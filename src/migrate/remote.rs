//! The online end of a migration: a column family of a running server (ilion, or any
//! 0.6-API server), through ilion's Rust Thrift client. Export pages with `get_range_slices`
//! (continuing wide rows with `get_slice`); import sends `batch_mutate` calls of bounded size,
//! each column with its own timestamp, and tombstones as `Deletion`s. ConsistencyLevel ONE.

use super::paging::{self, Entry, Pager, SliceReader};
use super::row::{Column, Row, RowBody, SuperColumn};
use super::shape::CfShape;
use super::{RowSink, RowSource};
use crate::client::{Client, TCassandraSyncClient, WireStyle};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use crate::protocol::{
    self, ColumnOrSuperColumn, ColumnParent, ConsistencyLevel, Deletion, KeyRange, Mutation,
    SlicePredicate, SliceRange,
};
use std::collections::BTreeMap;
use std::net::ToSocketAddrs;
use std::time::Duration;

/// A `batch_mutate` is sent once it holds this many name and value bytes…
const BATCH_BYTES: usize = 4 << 20;
/// …or this many mutations, whichever comes first (well under the server's message limit).
const BATCH_MUTATIONS: usize = 10_000;
const TIMEOUT: Duration = Duration::from_secs(60);

/// A Thrift failure as a clear message (the declared exception's `why` when there is one).
fn thrift_error(call: &str, e: thrift::Error) -> Error {
    let why = match &e {
        thrift::Error::User(inner) => {
            if let Some(ire) = inner.downcast_ref::<protocol::InvalidRequestException>() {
                ire.why.clone()
            } else {
                format!("{inner:?}")
            }
        }
        other => other.to_string(),
    };
    Error::Storage(format!("{call}: {why}"))
}

/// One column family of a server.
pub struct RemoteCf {
    conn: ThriftSlices,
    shape: CfShape,
    pager: Pager,
    pending: BTreeMap<String, BTreeMap<String, Vec<Mutation>>>,
    pending_bytes: usize,
    pending_mutations: usize,
}

impl RemoteCf {
    /// Connects to `host:port` and looks the CF up with `describe_keyspace`.
    pub fn connect(host: &str, port: u16, keyspace: &str, cf: &str) -> Result<RemoteCf> {
        let addr = (host, port)
            .to_socket_addrs()
            .map_err(|e| Error::Storage(format!("cannot resolve {host}:{port}: {e}")))?
            .next()
            .ok_or_else(|| Error::Storage(format!("{host}:{port} resolves to no address")))?;
        let style = WireStyle {
            framed: false,
            strict: true,
        };
        let mut client = Client::connect(addr, style, TIMEOUT)
            .map_err(|e| Error::Storage(format!("cannot connect to {addr}: {e}")))?;
        let described = client
            .describe_keyspace(keyspace.to_string())
            .map_err(|e| thrift_error("describe_keyspace", e))?;
        let def = described
            .get(cf)
            .ok_or_else(|| Error::invalid(format!("unconfigured columnfamily {cf}")))?;
        let comparator = |field: &str| -> Result<Option<Comparator>> {
            def.get(field)
                .map(|name| {
                    Comparator::from_class_name(name).ok_or_else(|| {
                        Error::invalid(format!("{cf} uses comparator {name}, unknown to ilion"))
                    })
                })
                .transpose()
        };
        let main = comparator("CompareWith")?.unwrap_or(Comparator::Bytes);
        let shape = CfShape {
            is_super: def.get("Type").map(String::as_str) == Some("Super"),
            comparator: main,
            subcomparator: comparator("CompareSubcolumnsWith")?.unwrap_or(main),
        };
        let partitioner = client
            .describe_partitioner()
            .ok()
            .and_then(|p| Partitioner::from_class_name(&p))
            .unwrap_or(Partitioner::Random);
        Ok(RemoteCf {
            conn: ThriftSlices {
                client,
                keyspace: keyspace.to_string(),
                cf: cf.to_string(),
                partitioner,
            },
            shape,
            pager: Pager::default(),
            pending: BTreeMap::new(),
            pending_bytes: 0,
            pending_mutations: 0,
        })
    }

    /// The CF as the server describes it.
    pub fn shape(&self) -> CfShape {
        self.shape
    }

    fn push(&mut self, key: &str, mutation: Mutation, bytes: usize) -> Result<()> {
        self.pending
            .entry(key.to_string())
            .or_default()
            .entry(self.conn.cf.clone())
            .or_default()
            .push(mutation);
        self.pending_bytes += bytes;
        self.pending_mutations += 1;
        if self.pending_bytes >= BATCH_BYTES || self.pending_mutations >= BATCH_MUTATIONS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        self.pending_mutations = 0;
        self.conn
            .client
            .batch_mutate(self.conn.keyspace.clone(), batch, ConsistencyLevel::ONE)
            .map_err(|e| thrift_error("batch_mutate", e))
    }
}

/// The reads of one column family of a server.
struct ThriftSlices {
    client: Client,
    keyspace: String,
    cf: String,
    partitioner: Partitioner,
}

fn slice(start: Vec<u8>, count: usize) -> SlicePredicate {
    let count = i32::try_from(count).unwrap_or(i32::MAX);
    SlicePredicate::new(None, SliceRange::new(start, Vec::new(), false, count))
}

fn from_thrift(c: protocol::Column) -> Column {
    Column {
        name: c.name,
        value: c.value,
        timestamp: c.timestamp,
        deleted: false,
    }
}

fn entries(read: Vec<ColumnOrSuperColumn>) -> Vec<Entry> {
    read.into_iter()
        .filter_map(|e| match (e.column, e.super_column) {
            (Some(c), _) => Some(Entry::Column(from_thrift(c))),
            (None, Some(s)) => Some(Entry::Super(SuperColumn {
                name: s.name,
                deleted_at: None,
                columns: s.columns.into_iter().map(from_thrift).collect(),
            })),
            (None, None) => None,
        })
        .collect()
}

impl SliceReader for ThriftSlices {
    fn partitioner(&self) -> Partitioner {
        self.partitioner
    }

    fn range(
        &mut self,
        start: &str,
        rows: usize,
        columns: usize,
    ) -> Result<Vec<(String, Vec<Entry>)>> {
        let rows = i32::try_from(rows).unwrap_or(i32::MAX);
        let range = KeyRange::new(start.to_string(), String::new(), None, None, rows);
        let slices = self
            .client
            .get_range_slices(
                self.keyspace.clone(),
                ColumnParent::new(self.cf.clone(), None),
                slice(Vec::new(), columns),
                range,
                ConsistencyLevel::ONE,
            )
            .map_err(|e| thrift_error("get_range_slices", e))?;
        Ok(slices
            .into_iter()
            .map(|s| (s.key, entries(s.columns)))
            .collect())
    }

    fn slice(&mut self, key: &str, start: Vec<u8>, count: usize) -> Result<Vec<Entry>> {
        let read = self
            .client
            .get_slice(
                self.keyspace.clone(),
                key.to_string(),
                ColumnParent::new(self.cf.clone(), None),
                slice(start, count),
                ConsistencyLevel::ONE,
            )
            .map_err(|e| thrift_error("get_slice", e))?;
        Ok(entries(read))
    }
}

impl RowSource for RemoteCf {
    fn next_row(&mut self) -> Result<Option<Row>> {
        self.pager.next_row(&mut self.conn)
    }

    fn get_row(&mut self, key: &str) -> Result<Option<Row>> {
        paging::get_row(&mut self.conn, key)
    }
}

fn names(name: &[u8]) -> SlicePredicate {
    SlicePredicate::new(vec![name.to_vec()], None)
}

impl RowSink for RemoteCf {
    fn write(&mut self, row: &Row) -> Result<()> {
        let key = &row.key;
        if let Some(ts) = row.deleted_at {
            self.push(key, Mutation::new(None, Deletion::new(ts, None, None)), 16)?;
        }
        let column =
            |c: &Column| protocol::Column::new(c.name.clone(), c.value.clone(), c.timestamp);
        match &row.body {
            RowBody::Standard(cols) => {
                for c in cols {
                    let bytes = c.name.len() + c.value.len() + 16;
                    let m = if c.deleted {
                        Mutation::new(None, Deletion::new(c.timestamp, None, names(&c.name)))
                    } else {
                        Mutation::new(ColumnOrSuperColumn::new(column(c), None), None)
                    };
                    self.push(key, m, bytes)?;
                }
            }
            RowBody::Super(supers) => {
                for sc in supers {
                    if let Some(ts) = sc.deleted_at {
                        let d = Deletion::new(ts, sc.name.clone(), None);
                        self.push(key, Mutation::new(None, d), sc.name.len() + 16)?;
                    }
                    for c in &sc.columns {
                        let bytes = sc.name.len() + c.name.len() + c.value.len() + 16;
                        let m = if c.deleted {
                            let d = Deletion::new(c.timestamp, sc.name.clone(), names(&c.name));
                            Mutation::new(None, d)
                        } else {
                            let s = protocol::SuperColumn::new(sc.name.clone(), vec![column(c)]);
                            Mutation::new(ColumnOrSuperColumn::new(None, s), None)
                        };
                        self.push(key, m, bytes)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        self.flush()
    }
}
