//! One client connection's view of the API: its login flag (`docs/api.md#auth`,
//! `docs/compatibility.md#e6`) and the acknowledgements its writes still wait for. [`Session`]
//! implements the server seam ([`Connection`]) and the generated handler trait; each handler
//! method is one line that calls the method's function (in `reads`, `writes`, `describe`) and
//! maps its error.
//!
//! A write is applied before its handler returns, but the reply may only leave once the
//! write is durable: the acknowledgements collect here and [`Connection::take_reply_gate`]
//! turns them into the wait the server performs before sending the reply.

use super::acks::PendingAcks;
use super::errors::{self, Method};
use super::Service;
use crate::cf::WriteAck as Ack;
use crate::error::{Error, Result};
use crate::protocol::{
    self, AuthenticationRequest, CassandraSyncHandler, ColumnOrSuperColumn, ColumnParent,
    ColumnPath, Connection, ConsistencyLevel, KeyRange, KeySlice, Mode, Mutation, ReplyGate,
    SlicePredicate, TokenRange, Violation,
};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

/// One connection's state: whether it has logged in, and the durability its last writes
/// still wait for.
pub struct Session {
    pub(super) service: Service,
    logged_in: Cell<bool>,
    pending: PendingAcks,
}

impl Session {
    pub(super) fn new(service: Service) -> Session {
        Session {
            service,
            logged_in: Cell::new(false),
            pending: PendingAcks::default(),
        }
    }

    /// True once a login on this connection has succeeded.
    pub fn is_logged_in(&self) -> bool {
        self.logged_in.get()
    }

    pub(super) fn set_logged_in(&self) {
        self.logged_in.set(true);
    }

    /// The check that opens every data method (`docs/api.md#auth`).
    pub(super) fn require_login(&self) -> Result<()> {
        if self.service.auth.requires_login() && !self.logged_in.get() {
            return Err(Error::invalid(
                "Login is required before any other API calls",
            ));
        }
        Ok(())
    }

    /// Remembers a write's acknowledgement: the reply waits for it.
    pub(super) fn wait_before_reply(&self, ack: Ack) {
        self.pending.push(ack);
    }

    /// The wait the reply to the last messages needs: `None` when all their writes are
    /// durable already; an error when one of them cannot be made durable.
    pub fn reply_gate(&self) -> Option<ReplyGate> {
        self.pending.reply_gate()
    }
}

impl Connection for Session {
    fn process(&mut self, message: &[u8], mode: Mode) -> Result<Vec<u8>, Violation> {
        let limits = self.service.limits;
        protocol::process(message, mode, &limits, &*self)
    }

    fn take_reply_gate(&mut self) -> Option<ReplyGate> {
        self.reply_gate()
    }
}

/// Maps a method's result onto the Thrift result.
fn reply<T>(method: Method, result: Result<T>) -> thrift::Result<T> {
    result.map_err(|e| crate::metrics::thrift_error(method.name, errors::to_thrift(method, e)))
}

type Map<V> = BTreeMap<String, V>;

impl CassandraSyncHandler for Session {
    fn handle_login(&self, keyspace: String, auth: AuthenticationRequest) -> thrift::Result<()> {
        reply(errors::LOGIN, self.login(&keyspace, &auth))
    }

    fn handle_get(
        &self,
        keyspace: String,
        key: String,
        path: ColumnPath,
        cl: ConsistencyLevel,
    ) -> thrift::Result<ColumnOrSuperColumn> {
        reply(errors::GET, self.get(&keyspace, &key, &path, cl))
    }

    fn handle_get_slice(
        &self,
        keyspace: String,
        key: String,
        parent: ColumnParent,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<ColumnOrSuperColumn>> {
        let result = self.get_slice(&keyspace, &key, &parent, &predicate, cl);
        reply(errors::GET_SLICE, result)
    }

    fn handle_multiget(
        &self,
        keyspace: String,
        keys: Vec<String>,
        path: ColumnPath,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Map<ColumnOrSuperColumn>> {
        reply(errors::MULTIGET, self.multiget(&keyspace, &keys, &path, cl))
    }

    fn handle_multiget_slice(
        &self,
        keyspace: String,
        keys: Vec<String>,
        parent: ColumnParent,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Map<Vec<ColumnOrSuperColumn>>> {
        let result = self.multiget_slice(&keyspace, &keys, &parent, &predicate, cl);
        reply(errors::MULTIGET_SLICE, result)
    }

    fn handle_get_count(
        &self,
        keyspace: String,
        key: String,
        parent: ColumnParent,
        cl: ConsistencyLevel,
    ) -> thrift::Result<i32> {
        reply(
            errors::GET_COUNT,
            self.get_count(&keyspace, &key, &parent, cl),
        )
    }

    fn handle_get_range_slice(
        &self,
        keyspace: String,
        parent: ColumnParent,
        predicate: SlicePredicate,
        start_key: String,
        finish_key: String,
        row_count: i32,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<KeySlice>> {
        let range = KeyRange {
            start_key: Some(start_key),
            end_key: Some(finish_key),
            start_token: None,
            end_token: None,
            count: row_count,
        };
        let result = self.get_range_slices(&keyspace, &parent, &predicate, &range, cl);
        reply(errors::GET_RANGE_SLICE, result)
    }

    fn handle_get_range_slices(
        &self,
        keyspace: String,
        parent: ColumnParent,
        predicate: SlicePredicate,
        range: KeyRange,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<KeySlice>> {
        let result = self.get_range_slices(&keyspace, &parent, &predicate, &range, cl);
        reply(errors::GET_RANGE_SLICES, result)
    }

    fn handle_insert(
        &self,
        keyspace: String,
        key: String,
        path: ColumnPath,
        value: Vec<u8>,
        timestamp: i64,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        let result = self.insert(&keyspace, &key, &path, value, timestamp, cl);
        reply(errors::INSERT, result)
    }

    fn handle_batch_insert(
        &self,
        keyspace: String,
        key: String,
        cfmap: Map<Vec<ColumnOrSuperColumn>>,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        let result = self.batch_insert(&keyspace, key, cfmap, cl);
        reply(errors::BATCH_INSERT, result)
    }

    fn handle_remove(
        &self,
        keyspace: String,
        key: String,
        path: ColumnPath,
        timestamp: i64,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        let result = self.remove(&keyspace, &key, &path, timestamp, cl);
        reply(errors::REMOVE, result)
    }

    fn handle_batch_mutate(
        &self,
        keyspace: String,
        mutation_map: Map<Map<Vec<Mutation>>>,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        let result = self.batch_mutate(&keyspace, &mutation_map, cl);
        reply(errors::BATCH_MUTATE, result)
    }

    fn handle_get_string_property(&self, property: String) -> thrift::Result<String> {
        Ok(self.get_string_property(&property))
    }

    fn handle_get_string_list_property(&self, property: String) -> thrift::Result<Vec<String>> {
        Ok(self.get_string_list_property(&property))
    }

    fn handle_describe_keyspaces(&self) -> thrift::Result<BTreeSet<String>> {
        Ok(self.describe_keyspaces())
    }

    fn handle_describe_cluster_name(&self) -> thrift::Result<String> {
        Ok(self.describe_cluster_name())
    }

    fn handle_describe_version(&self) -> thrift::Result<String> {
        Ok(self.describe_version())
    }

    fn handle_describe_ring(&self, keyspace: String) -> thrift::Result<Vec<TokenRange>> {
        reply(errors::DESCRIBE_RING, self.describe_ring(&keyspace))
    }

    fn handle_describe_partitioner(&self) -> thrift::Result<String> {
        Ok(self.describe_partitioner())
    }

    fn handle_describe_keyspace(&self, keyspace: String) -> thrift::Result<Map<Map<String>>> {
        reply(errors::DESCRIBE_KEYSPACE, self.describe_keyspace(&keyspace))
    }

    fn handle_describe_splits(
        &self,
        start_token: String,
        end_token: String,
        keys_per_split: i32,
    ) -> thrift::Result<Vec<String>> {
        self.describe_splits(&start_token, &end_token, keys_per_split)
    }
}
