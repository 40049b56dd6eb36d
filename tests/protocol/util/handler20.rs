//! A test implementation of the generated 20.1.0 handler trait: it records each call's
//! arguments (as Debug text, and the decoded schema structs whole) and answers a few calls by
//! their arguments to exercise every reply kind; the others answer an application error.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Debug;

use ilion::protocol::v20::AuthenticationRequest;
use ilion::protocol::v20::{
    CASResult, CassandraSyncHandler, CfDef, CfSplit, Column, ColumnOrSuperColumn, ColumnParent,
    ColumnPath, Compression, ConsistencyLevel, CounterColumn, CqlPreparedResult, CqlResult,
    IndexClause, InvalidRequestException, KeyRange, KeySlice, KsDef, MultiSliceRequest, Mutation,
    NotFoundException, SchemaDisagreementException, SlicePredicate, TokenRange, VERSION,
};
use thrift::{ApplicationError, ApplicationErrorKind};

#[derive(Default)]
pub struct Recorder20 {
    pub calls: RefCell<Vec<String>>,
    pub cf_defs: RefCell<Vec<CfDef>>,
    pub ks_defs: RefCell<Vec<KsDef>>,
    pub multi_slices: RefCell<Vec<MultiSliceRequest>>,
}

impl Recorder20 {
    fn note(&self, name: &str, args: impl Debug) {
        self.calls.borrow_mut().push(format!("{name}{args:?}"));
    }

    /// The last call's Debug text.
    pub fn last(&self) -> String {
        self.calls.borrow().last().cloned().unwrap_or_default()
    }
}

type R<T> = thrift::Result<T>;

fn not_served(name: &str) -> thrift::Error {
    thrift::Error::Application(ApplicationError::new(
        ApplicationErrorKind::InternalError,
        format!("{name} is not served by the test handler"),
    ))
}

fn user(e: impl std::error::Error + Send + Sync + 'static) -> thrift::Error {
    thrift::Error::User(Box::new(e))
}

impl CassandraSyncHandler for Recorder20 {
    fn handle_get(
        &self,
        key: Vec<u8>,
        column_path: ColumnPath,
        consistency_level: ConsistencyLevel,
    ) -> R<ColumnOrSuperColumn> {
        self.note("get", (&key, &column_path, &consistency_level));
        match &key[..] {
            b"nf" => Err(user(NotFoundException::new())),
            b"ire" => Err(user(InvalidRequestException::new("bad".to_owned()))),
            b"panic" => panic!("handler bug (expected by the test)"),
            _ => {
                let name = column_path.column.unwrap_or_default();
                let column = Column::new(name, key, 7, None);
                Ok(ColumnOrSuperColumn::new(column, None, None, None))
            }
        }
    }
    fn handle_describe_version(&self) -> R<String> {
        self.note("describe_version", ());
        Ok(VERSION.to_owned())
    }
    fn handle_system_add_column_family(&self, cf_def: CfDef) -> R<String> {
        self.note("system_add_column_family", (&cf_def.name,));
        let sde = cf_def.name == "sde";
        self.cf_defs.borrow_mut().push(cf_def);
        match sde {
            true => Err(user(SchemaDisagreementException::new())),
            false => Ok("a-schema-version".to_owned()),
        }
    }
    fn handle_system_add_keyspace(&self, ks_def: KsDef) -> R<String> {
        self.note("system_add_keyspace", (&ks_def.name,));
        self.ks_defs.borrow_mut().push(ks_def);
        Ok("a-schema-version".to_owned())
    }
    fn handle_get_multi_slice(&self, request: MultiSliceRequest) -> R<Vec<ColumnOrSuperColumn>> {
        self.note("get_multi_slice", ());
        self.multi_slices.borrow_mut().push(request);
        Ok(Vec::new())
    }
    fn handle_login(&self, auth_request: AuthenticationRequest) -> R<()> {
        self.note("login", (&auth_request,));
        Ok(())
    }
    fn handle_set_keyspace(&self, keyspace: String) -> R<()> {
        self.note("set_keyspace", (&keyspace,));
        Ok(())
    }
    fn handle_get_slice(
        &self,
        key: Vec<u8>,
        column_parent: ColumnParent,
        predicate: SlicePredicate,
        consistency_level: ConsistencyLevel,
    ) -> R<Vec<ColumnOrSuperColumn>> {
        self.note(
            "get_slice",
            (&key, &column_parent, &predicate, &consistency_level),
        );
        Err(not_served("get_slice"))
    }
    fn handle_get_count(
        &self,
        key: Vec<u8>,
        column_parent: ColumnParent,
        predicate: SlicePredicate,
        consistency_level: ConsistencyLevel,
    ) -> R<i32> {
        self.note(
            "get_count",
            (&key, &column_parent, &predicate, &consistency_level),
        );
        Err(not_served("get_count"))
    }
    fn handle_multiget_slice(
        &self,
        keys: Vec<Vec<u8>>,
        column_parent: ColumnParent,
        predicate: SlicePredicate,
        consistency_level: ConsistencyLevel,
    ) -> R<BTreeMap<Vec<u8>, Vec<ColumnOrSuperColumn>>> {
        self.note(
            "multiget_slice",
            (&keys, &column_parent, &predicate, &consistency_level),
        );
        Err(not_served("multiget_slice"))
    }
    fn handle_multiget_count(
        &self,
        keys: Vec<Vec<u8>>,
        column_parent: ColumnParent,
        predicate: SlicePredicate,
        consistency_level: ConsistencyLevel,
    ) -> R<BTreeMap<Vec<u8>, i32>> {
        self.note(
            "multiget_count",
            (&keys, &column_parent, &predicate, &consistency_level),
        );
        Err(not_served("multiget_count"))
    }
    fn handle_get_range_slices(
        &self,
        column_parent: ColumnParent,
        predicate: SlicePredicate,
        range: KeyRange,
        consistency_level: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        self.note(
            "get_range_slices",
            (&column_parent, &predicate, &range, &consistency_level),
        );
        Err(not_served("get_range_slices"))
    }
    fn handle_get_paged_slice(
        &self,
        column_family: String,
        range: KeyRange,
        start_column: Vec<u8>,
        consistency_level: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        self.note(
            "get_paged_slice",
            (&column_family, &range, &start_column, &consistency_level),
        );
        Err(not_served("get_paged_slice"))
    }
    fn handle_get_indexed_slices(
        &self,
        column_parent: ColumnParent,
        index_clause: IndexClause,
        column_predicate: SlicePredicate,
        consistency_level: ConsistencyLevel,
    ) -> R<Vec<KeySlice>> {
        self.note(
            "get_indexed_slices",
            (
                &column_parent,
                &index_clause,
                &column_predicate,
                &consistency_level,
            ),
        );
        Err(not_served("get_indexed_slices"))
    }
    fn handle_insert(
        &self,
        key: Vec<u8>,
        column_parent: ColumnParent,
        column: Column,
        consistency_level: ConsistencyLevel,
    ) -> R<()> {
        self.note(
            "insert",
            (&key, &column_parent, &column, &consistency_level),
        );
        Ok(())
    }
    fn handle_add(
        &self,
        key: Vec<u8>,
        column_parent: ColumnParent,
        column: CounterColumn,
        consistency_level: ConsistencyLevel,
    ) -> R<()> {
        self.note("add", (&key, &column_parent, &column, &consistency_level));
        Ok(())
    }
    fn handle_cas(
        &self,
        key: Vec<u8>,
        column_family: String,
        expected: Vec<Column>,
        updates: Vec<Column>,
        serial_consistency_level: ConsistencyLevel,
        commit_consistency_level: ConsistencyLevel,
    ) -> R<CASResult> {
        self.note(
            "cas",
            (
                &key,
                &column_family,
                &expected,
                &updates,
                &serial_consistency_level,
                &commit_consistency_level,
            ),
        );
        Err(not_served("cas"))
    }
    fn handle_remove(
        &self,
        key: Vec<u8>,
        column_path: ColumnPath,
        timestamp: i64,
        consistency_level: ConsistencyLevel,
    ) -> R<()> {
        self.note(
            "remove",
            (&key, &column_path, &timestamp, &consistency_level),
        );
        Ok(())
    }
    fn handle_remove_counter(
        &self,
        key: Vec<u8>,
        path: ColumnPath,
        consistency_level: ConsistencyLevel,
    ) -> R<()> {
        self.note("remove_counter", (&key, &path, &consistency_level));
        Ok(())
    }
    fn handle_batch_mutate(
        &self,
        mutation_map: BTreeMap<Vec<u8>, BTreeMap<String, Vec<Mutation>>>,
        consistency_level: ConsistencyLevel,
    ) -> R<()> {
        self.note("batch_mutate", (&mutation_map, &consistency_level));
        Ok(())
    }
    fn handle_atomic_batch_mutate(
        &self,
        mutation_map: BTreeMap<Vec<u8>, BTreeMap<String, Vec<Mutation>>>,
        consistency_level: ConsistencyLevel,
    ) -> R<()> {
        self.note("atomic_batch_mutate", (&mutation_map, &consistency_level));
        Ok(())
    }
    fn handle_truncate(&self, cfname: String) -> R<()> {
        self.note("truncate", (&cfname,));
        Ok(())
    }
    fn handle_describe_schema_versions(&self) -> R<BTreeMap<String, Vec<String>>> {
        self.note("describe_schema_versions", ());
        Err(not_served("describe_schema_versions"))
    }
    fn handle_describe_keyspaces(&self) -> R<Vec<KsDef>> {
        self.note("describe_keyspaces", ());
        Err(not_served("describe_keyspaces"))
    }
    fn handle_describe_cluster_name(&self) -> R<String> {
        self.note("describe_cluster_name", ());
        Err(not_served("describe_cluster_name"))
    }
    fn handle_describe_ring(&self, keyspace: String) -> R<Vec<TokenRange>> {
        self.note("describe_ring", (&keyspace,));
        Err(not_served("describe_ring"))
    }
    fn handle_describe_local_ring(&self, keyspace: String) -> R<Vec<TokenRange>> {
        self.note("describe_local_ring", (&keyspace,));
        Err(not_served("describe_local_ring"))
    }
    fn handle_describe_token_map(&self) -> R<BTreeMap<String, String>> {
        self.note("describe_token_map", ());
        Err(not_served("describe_token_map"))
    }
    fn handle_describe_partitioner(&self) -> R<String> {
        self.note("describe_partitioner", ());
        Err(not_served("describe_partitioner"))
    }
    fn handle_describe_snitch(&self) -> R<String> {
        self.note("describe_snitch", ());
        Err(not_served("describe_snitch"))
    }
    fn handle_describe_keyspace(&self, keyspace: String) -> R<KsDef> {
        self.note("describe_keyspace", (&keyspace,));
        Err(not_served("describe_keyspace"))
    }
    fn handle_describe_splits(
        &self,
        cf_name: String,
        start_token: String,
        end_token: String,
        keys_per_split: i32,
    ) -> R<Vec<String>> {
        self.note(
            "describe_splits",
            (&cf_name, &start_token, &end_token, &keys_per_split),
        );
        Err(not_served("describe_splits"))
    }
    fn handle_trace_next_query(&self) -> R<Vec<u8>> {
        self.note("trace_next_query", ());
        Err(not_served("trace_next_query"))
    }
    fn handle_describe_splits_ex(
        &self,
        cf_name: String,
        start_token: String,
        end_token: String,
        keys_per_split: i32,
    ) -> R<Vec<CfSplit>> {
        self.note(
            "describe_splits_ex",
            (&cf_name, &start_token, &end_token, &keys_per_split),
        );
        Err(not_served("describe_splits_ex"))
    }
    fn handle_system_drop_column_family(&self, column_family: String) -> R<String> {
        self.note("system_drop_column_family", (&column_family,));
        Err(not_served("system_drop_column_family"))
    }
    fn handle_system_drop_keyspace(&self, keyspace: String) -> R<String> {
        self.note("system_drop_keyspace", (&keyspace,));
        Err(not_served("system_drop_keyspace"))
    }
    fn handle_system_update_keyspace(&self, ks_def: KsDef) -> R<String> {
        self.note("system_update_keyspace", (&ks_def,));
        Err(not_served("system_update_keyspace"))
    }
    fn handle_system_update_column_family(&self, cf_def: CfDef) -> R<String> {
        self.note("system_update_column_family", (&cf_def,));
        Err(not_served("system_update_column_family"))
    }
    fn handle_execute_cql_query(&self, query: Vec<u8>, compression: Compression) -> R<CqlResult> {
        self.note("execute_cql_query", (&query, &compression));
        Err(not_served("execute_cql_query"))
    }
    fn handle_execute_cql3_query(
        &self,
        query: Vec<u8>,
        compression: Compression,
        consistency: ConsistencyLevel,
    ) -> R<CqlResult> {
        self.note("execute_cql3_query", (&query, &compression, &consistency));
        Err(not_served("execute_cql3_query"))
    }
    fn handle_prepare_cql_query(
        &self,
        query: Vec<u8>,
        compression: Compression,
    ) -> R<CqlPreparedResult> {
        self.note("prepare_cql_query", (&query, &compression));
        Err(not_served("prepare_cql_query"))
    }
    fn handle_prepare_cql3_query(
        &self,
        query: Vec<u8>,
        compression: Compression,
    ) -> R<CqlPreparedResult> {
        self.note("prepare_cql3_query", (&query, &compression));
        Err(not_served("prepare_cql3_query"))
    }
    fn handle_execute_prepared_cql_query(
        &self,
        item_id: i32,
        values: Vec<Vec<u8>>,
    ) -> R<CqlResult> {
        self.note("execute_prepared_cql_query", (&item_id, &values));
        Err(not_served("execute_prepared_cql_query"))
    }
    fn handle_execute_prepared_cql3_query(
        &self,
        item_id: i32,
        values: Vec<Vec<u8>>,
        consistency: ConsistencyLevel,
    ) -> R<CqlResult> {
        self.note(
            "execute_prepared_cql3_query",
            (&item_id, &values, &consistency),
        );
        Err(not_served("execute_prepared_cql3_query"))
    }
    fn handle_set_cql_version(&self, version: String) -> R<()> {
        self.note("set_cql_version", (&version,));
        Ok(())
    }
}
