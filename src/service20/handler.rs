//! The generated 20.1.0 handler trait routed onto the session: one line per method, each
//! clearing the trace-next flag (spec G10: it covers exactly the next call) and mapping the
//! method's errors with its row of the method table (`docs/api-later.md#status` lists what
//! is served).

use super::convert;
use super::errors::to_thrift;
use super::reads::count;
use super::writes::MutationMap;
use super::Session20;
use crate::error::{Error, Result};
use crate::protocol::v20::generated::{
    AuthenticationRequest, CASResult, CassandraSyncHandler, CfDef, CfSplit, Column,
    ColumnOrSuperColumn, ColumnParent, ColumnPath, Compression, ConsistencyLevel, CounterColumn,
    CqlPreparedResult, CqlResult, IndexClause, KeyRange, KeySlice, KsDef, MultiSliceRequest,
    SlicePredicate, TokenRange,
};
use crate::protocol::v20::methods as m;
use crate::protocol::Method;
use std::collections::BTreeMap;

/// The answer of the CQL2 calls, which Cassandra 2.2 removed (spec §1.8).
const CQL2_REMOVED: &str = "CQL2 has been removed in Cassandra 2.2. Please use CQL3 instead";
/// The answer of the CQL3 calls until ilion has CQL (spec G15).
const NO_CQL: &str = "CQL is not supported yet";

impl Session20 {
    fn reply<T>(&self, method: &Method, result: Result<T>) -> thrift::Result<T> {
        self.set_trace_next(false);
        result.map_err(|e| crate::metrics::thrift_error(method.name, to_thrift(method, e)))
    }
}

impl CassandraSyncHandler for Session20 {
    fn handle_login(&self, auth_request: AuthenticationRequest) -> thrift::Result<()> {
        self.reply(&m::LOGIN, self.login(&auth_request.credentials))
    }

    fn handle_set_keyspace(&self, keyspace: String) -> thrift::Result<()> {
        self.reply(&m::SET_KEYSPACE, self.set_keyspace(keyspace))
    }

    fn handle_get(
        &self,
        key: Vec<u8>,
        path: ColumnPath,
        cl: ConsistencyLevel,
    ) -> thrift::Result<ColumnOrSuperColumn> {
        self.reply(&m::GET, self.get(&key, &path, cl))
    }

    fn handle_get_slice(
        &self,
        key: Vec<u8>,
        parent: ColumnParent,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<ColumnOrSuperColumn>> {
        let result = self.get_slice(key, &parent, &predicate, cl);
        self.reply(&m::GET_SLICE, result)
    }

    fn handle_get_count(
        &self,
        key: Vec<u8>,
        parent: ColumnParent,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<i32> {
        let result = self.get_count(key, &parent, &predicate, cl);
        self.reply(&m::GET_COUNT, result)
    }

    fn handle_multiget_slice(
        &self,
        keys: Vec<Vec<u8>>,
        parent: ColumnParent,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<BTreeMap<Vec<u8>, Vec<ColumnOrSuperColumn>>> {
        let result = self.slices(&keys, &parent, &predicate, cl).map(|rows| {
            rows.into_iter()
                .map(|(key, row)| (key, convert::coscs(row)))
                .collect()
        });
        self.reply(&m::MULTIGET_SLICE, result)
    }

    fn handle_multiget_count(
        &self,
        keys: Vec<Vec<u8>>,
        parent: ColumnParent,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<BTreeMap<Vec<u8>, i32>> {
        let result = self.slices(&keys, &parent, &predicate, cl).map(|rows| {
            rows.into_iter()
                .map(|(key, row)| (key, count(row.len())))
                .collect()
        });
        self.reply(&m::MULTIGET_COUNT, result)
    }

    fn handle_get_range_slices(
        &self,
        parent: ColumnParent,
        predicate: SlicePredicate,
        range: KeyRange,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<KeySlice>> {
        let result = self.get_range_slices(&parent, &predicate, &range, cl);
        self.reply(&m::GET_RANGE_SLICES, result)
    }

    fn handle_get_paged_slice(
        &self,
        cf: String,
        range: KeyRange,
        start_column: Vec<u8>,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<KeySlice>> {
        let result = self.get_paged_slice(&cf, &range, &start_column, cl);
        self.reply(&m::GET_PAGED_SLICE, result)
    }

    fn handle_get_indexed_slices(
        &self,
        parent: ColumnParent,
        clause: IndexClause,
        predicate: SlicePredicate,
        cl: ConsistencyLevel,
    ) -> thrift::Result<Vec<KeySlice>> {
        let result = self.get_indexed_slices(&parent, &clause, &predicate, cl);
        self.reply(&m::GET_INDEXED_SLICES, result)
    }

    fn handle_insert(
        &self,
        key: Vec<u8>,
        parent: ColumnParent,
        column: Column,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        self.reply(&m::INSERT, self.insert(key, &parent, column, cl))
    }

    fn handle_add(
        &self,
        key: Vec<u8>,
        parent: ColumnParent,
        column: CounterColumn,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        self.reply(&m::ADD, self.add(key, &parent, column, cl))
    }

    fn handle_cas(
        &self,
        key: Vec<u8>,
        cf: String,
        expected: Vec<Column>,
        updates: Vec<Column>,
        serial: ConsistencyLevel,
        commit: ConsistencyLevel,
    ) -> thrift::Result<CASResult> {
        let result = self.cas(key, &cf, &expected, updates, serial, commit);
        self.reply(&m::CAS, result)
    }

    fn handle_remove(
        &self,
        key: Vec<u8>,
        path: ColumnPath,
        timestamp: i64,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        self.reply(&m::REMOVE, self.remove(key, &path, timestamp, cl))
    }

    fn handle_remove_counter(
        &self,
        key: Vec<u8>,
        path: ColumnPath,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        let result = self.remove_counter(key, &path, cl);
        self.reply(&m::REMOVE_COUNTER, result)
    }

    fn handle_batch_mutate(&self, map: MutationMap, cl: ConsistencyLevel) -> thrift::Result<()> {
        self.reply(&m::BATCH_MUTATE, self.batch_mutate(map, cl, false))
    }

    fn handle_atomic_batch_mutate(
        &self,
        map: MutationMap,
        cl: ConsistencyLevel,
    ) -> thrift::Result<()> {
        let result = self.batch_mutate(map, cl, true);
        self.reply(&m::ATOMIC_BATCH_MUTATE, result)
    }

    fn handle_truncate(&self, cf: String) -> thrift::Result<()> {
        self.reply(&m::TRUNCATE, self.truncate(&cf))
    }

    fn handle_get_multi_slice(
        &self,
        request: MultiSliceRequest,
    ) -> thrift::Result<Vec<ColumnOrSuperColumn>> {
        self.reply(&m::GET_MULTI_SLICE, self.get_multi_slice(&request))
    }

    fn handle_describe_schema_versions(&self) -> thrift::Result<BTreeMap<String, Vec<String>>> {
        self.reply(
            &m::DESCRIBE_SCHEMA_VERSIONS,
            Ok(self.describe_schema_versions()),
        )
    }

    fn handle_describe_keyspaces(&self) -> thrift::Result<Vec<KsDef>> {
        self.reply(&m::DESCRIBE_KEYSPACES, self.describe_keyspaces())
    }

    fn handle_describe_cluster_name(&self) -> thrift::Result<String> {
        self.reply(&m::DESCRIBE_CLUSTER_NAME, Ok(self.describe_cluster_name()))
    }

    fn handle_describe_version(&self) -> thrift::Result<String> {
        self.reply(&m::DESCRIBE_VERSION, Ok(self.describe_version()))
    }

    fn handle_describe_ring(&self, keyspace: String) -> thrift::Result<Vec<TokenRange>> {
        self.reply(&m::DESCRIBE_RING, self.describe_ring(&keyspace))
    }

    fn handle_describe_local_ring(&self, keyspace: String) -> thrift::Result<Vec<TokenRange>> {
        self.reply(&m::DESCRIBE_LOCAL_RING, self.describe_ring(&keyspace))
    }

    fn handle_describe_token_map(&self) -> thrift::Result<BTreeMap<String, String>> {
        self.reply(&m::DESCRIBE_TOKEN_MAP, Ok(self.describe_token_map()))
    }

    fn handle_describe_partitioner(&self) -> thrift::Result<String> {
        self.reply(&m::DESCRIBE_PARTITIONER, Ok(self.describe_partitioner()))
    }

    fn handle_describe_snitch(&self) -> thrift::Result<String> {
        let snitch = super::describe::SNITCH.to_string();
        self.reply(&m::DESCRIBE_SNITCH, Ok(snitch))
    }

    fn handle_describe_keyspace(&self, keyspace: String) -> thrift::Result<KsDef> {
        self.reply(&m::DESCRIBE_KEYSPACE, self.describe_keyspace(&keyspace))
    }

    fn handle_describe_splits(
        &self,
        cf: String,
        start: String,
        end: String,
        keys_per_split: i32,
    ) -> thrift::Result<Vec<String>> {
        let result = self.describe_splits(&cf, &start, &end, keys_per_split);
        self.reply(&m::DESCRIBE_SPLITS, result)
    }

    fn handle_trace_next_query(&self) -> thrift::Result<Vec<u8>> {
        let id = self.trace_next_query();
        // Not `reply`: that would clear the flag this call has just set.
        Ok(id)
    }

    fn handle_describe_splits_ex(
        &self,
        cf: String,
        start: String,
        end: String,
        keys_per_split: i32,
    ) -> thrift::Result<Vec<CfSplit>> {
        let result = self.describe_splits_ex(&cf, &start, &end, keys_per_split);
        self.reply(&m::DESCRIBE_SPLITS_EX, result)
    }

    fn handle_system_add_column_family(&self, cf_def: CfDef) -> thrift::Result<String> {
        let result = self.system_add_column_family(&cf_def);
        self.reply(&m::SYSTEM_ADD_COLUMN_FAMILY, result)
    }

    fn handle_system_drop_column_family(&self, cf: String) -> thrift::Result<String> {
        let result = self.system_drop_column_family(&cf);
        self.reply(&m::SYSTEM_DROP_COLUMN_FAMILY, result)
    }

    fn handle_system_add_keyspace(&self, ks_def: KsDef) -> thrift::Result<String> {
        let result = self.system_add_keyspace(&ks_def);
        self.reply(&m::SYSTEM_ADD_KEYSPACE, result)
    }

    fn handle_system_drop_keyspace(&self, keyspace: String) -> thrift::Result<String> {
        let result = self.system_drop_keyspace(&keyspace);
        self.reply(&m::SYSTEM_DROP_KEYSPACE, result)
    }

    fn handle_system_update_keyspace(&self, ks_def: KsDef) -> thrift::Result<String> {
        let result = self.system_update_keyspace(&ks_def);
        self.reply(&m::SYSTEM_UPDATE_KEYSPACE, result)
    }

    fn handle_system_update_column_family(&self, cf_def: CfDef) -> thrift::Result<String> {
        let result = self.system_update_column_family(&cf_def);
        self.reply(&m::SYSTEM_UPDATE_COLUMN_FAMILY, result)
    }

    fn handle_execute_cql_query(
        &self,
        _query: Vec<u8>,
        _compression: Compression,
    ) -> thrift::Result<CqlResult> {
        self.reply(&m::EXECUTE_CQL_QUERY, Err(Error::invalid(CQL2_REMOVED)))
    }

    fn handle_execute_cql3_query(
        &self,
        _query: Vec<u8>,
        _compression: Compression,
        _cl: ConsistencyLevel,
    ) -> thrift::Result<CqlResult> {
        self.reply(&m::EXECUTE_CQL3_QUERY, Err(Error::invalid(NO_CQL)))
    }

    fn handle_prepare_cql_query(
        &self,
        _query: Vec<u8>,
        _compression: Compression,
    ) -> thrift::Result<CqlPreparedResult> {
        self.reply(&m::PREPARE_CQL_QUERY, Err(Error::invalid(CQL2_REMOVED)))
    }

    fn handle_prepare_cql3_query(
        &self,
        _query: Vec<u8>,
        _compression: Compression,
    ) -> thrift::Result<CqlPreparedResult> {
        self.reply(&m::PREPARE_CQL3_QUERY, Err(Error::invalid(NO_CQL)))
    }

    fn handle_execute_prepared_cql_query(
        &self,
        _item_id: i32,
        _values: Vec<Vec<u8>>,
    ) -> thrift::Result<CqlResult> {
        self.reply(
            &m::EXECUTE_PREPARED_CQL_QUERY,
            Err(Error::invalid(CQL2_REMOVED)),
        )
    }

    fn handle_execute_prepared_cql3_query(
        &self,
        _item_id: i32,
        _values: Vec<Vec<u8>>,
        _cl: ConsistencyLevel,
    ) -> thrift::Result<CqlResult> {
        self.reply(&m::EXECUTE_PREPARED_CQL3_QUERY, Err(Error::invalid(NO_CQL)))
    }

    fn handle_set_cql_version(&self, _version: String) -> thrift::Result<()> {
        // A no-op since 2.2: any version is accepted (spec §1.8).
        self.reply(&m::SET_CQL_VERSION, Ok(()))
    }
}
