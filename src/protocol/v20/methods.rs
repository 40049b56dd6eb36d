//! The 20.1.0 method table: one row per method of `idl/cassandra-20.thrift`'s
//! `service Cassandra`, in IDL order, and the only place its method names are written. Rows
//! have the shared [`Method`] type: name, `throws`, arguments (their
//! types are in `v20::schema`) and, for dispatch, the generated process function.
//!
//! The later-API service maps its errors with a row's `throws` and dispatch finds a call's
//! row here. A test reads `idl/cassandra-20.thrift` and checks every row against it: names,
//! order, arguments and throws.

use super::generated::{CassandraSyncHandler, TCassandraProcessFunctions};
use super::schema::{
    cl, cl_one, AUTH_REQUEST, CF_DEF, COLUMN, COLUMN_PARENT, COLUMN_PATH, COMPRESSION,
    COUNTER_COLUMN, INDEX_CLAUSE, KEY, KEYS, KEY_RANGE, KS_DEF, MULTI_SLICE_REQUEST, MUTATION,
    SLICE_PREDICATE,
};
use crate::protocol::methods::{method_table, Method, Throws, DATA, NONE};
use crate::protocol::schema::{field, req, FieldDef, Req, Ty};

/// `InvalidRequestException` only.
const IRE: Throws = Throws {
    invalid_request: true,
    ..NONE
};

/// A schema change: (ire, sde).
const SCHEMA: Throws = Throws {
    invalid_request: true,
    schema_disagreement: true,
    ..NONE
};

/// A CQL execution: (ire, ue, te, sde).
const CQL: Throws = Throws {
    schema_disagreement: true,
    ..DATA
};

const PARENT: FieldDef = req(2, "column_parent", Ty::Struct(&COLUMN_PARENT));
const PREDICATE: FieldDef = req(3, "predicate", Ty::Struct(&SLICE_PREDICATE));
const KEYSPACE: FieldDef = req(1, "keyspace", Ty::Str);
const QUERY: FieldDef = req(1, "query", Ty::Bin);
const COMPRESSION_ARG: FieldDef = req(2, "compression", Ty::Enum(&COMPRESSION));
/// Column family -> its mutations, the value type of `mutation_map`.
static MUTATIONS_BY_CF: Ty = Ty::Map(&Ty::Str, &Ty::List(&Ty::Struct(&MUTATION)));
const MUTATION_MAP: FieldDef = req(1, "mutation_map", Ty::Map(&Ty::Bin, &MUTATIONS_BY_CF));
const CF_NAME: FieldDef = req(1, "cfName", Ty::Str);
const START_TOKEN: FieldDef = req(2, "start_token", Ty::Str);
const END_TOKEN: FieldDef = req(3, "end_token", Ty::Str);
const KEYS_PER_SPLIT: FieldDef = req(4, "keys_per_split", Ty::I32);
const ITEM_ID: FieldDef = req(1, "itemId", Ty::I32);
const VALUES: FieldDef = req(2, "values", Ty::List(&Ty::Bin));

/// The method called `name`, `None` for a name the 20.1.0 service does not have.
pub fn find(name: &str) -> Option<&'static Method> {
    METHODS.iter().copied().find(|m| m.name == name)
}

method_table! {
    handler CassandraSyncHandler, functions TCassandraProcessFunctions;

    /// `login(auth_request)`.
    LOGIN = login(process_login),
        throws Throws { authentication: true, authorization: true, ..NONE },
        args [req(1, "auth_request", Ty::Struct(&AUTH_REQUEST))];
    /// `set_keyspace(keyspace)`.
    SET_KEYSPACE = set_keyspace(process_set_keyspace), throws IRE, args [KEYSPACE];
    /// `get(key, column_path, consistency_level)`.
    GET = get(process_get),
        throws Throws { not_found: true, ..DATA },
        args [KEY, req(2, "column_path", Ty::Struct(&COLUMN_PATH)), cl_one(3)];
    /// `get_slice(key, column_parent, predicate, consistency_level)`.
    GET_SLICE = get_slice(process_get_slice),
        throws DATA, args [KEY, PARENT, PREDICATE, cl_one(4)];
    /// `get_count(key, column_parent, predicate, consistency_level)`.
    GET_COUNT = get_count(process_get_count),
        throws DATA, args [KEY, PARENT, PREDICATE, cl_one(4)];
    /// `multiget_slice(keys, column_parent, predicate, consistency_level)`.
    MULTIGET_SLICE = multiget_slice(process_multiget_slice),
        throws DATA, args [KEYS, PARENT, PREDICATE, cl_one(4)];
    /// `multiget_count(keys, column_parent, predicate, consistency_level)`.
    MULTIGET_COUNT = multiget_count(process_multiget_count),
        throws DATA, args [KEYS, PARENT, PREDICATE, cl_one(4)];
    /// `get_range_slices(column_parent, predicate, range, consistency_level)`.
    GET_RANGE_SLICES = get_range_slices(process_get_range_slices),
        throws DATA,
        args [
            req(1, "column_parent", Ty::Struct(&COLUMN_PARENT)),
            req(2, "predicate", Ty::Struct(&SLICE_PREDICATE)),
            req(3, "range", Ty::Struct(&KEY_RANGE)),
            cl_one(4),
        ];
    /// `get_paged_slice(column_family, range, start_column, consistency_level)`.
    GET_PAGED_SLICE = get_paged_slice(process_get_paged_slice),
        throws DATA,
        args [
            req(1, "column_family", Ty::Str),
            req(2, "range", Ty::Struct(&KEY_RANGE)),
            req(3, "start_column", Ty::Bin),
            cl_one(4),
        ];
    /// `get_indexed_slices(column_parent, index_clause, column_predicate, consistency_level)`.
    GET_INDEXED_SLICES = get_indexed_slices(process_get_indexed_slices),
        throws DATA,
        args [
            req(1, "column_parent", Ty::Struct(&COLUMN_PARENT)),
            req(2, "index_clause", Ty::Struct(&INDEX_CLAUSE)),
            req(3, "column_predicate", Ty::Struct(&SLICE_PREDICATE)),
            cl_one(4),
        ];
    /// `insert(key, column_parent, column, consistency_level)`.
    INSERT = insert(process_insert),
        throws DATA,
        args [KEY, PARENT, req(3, "column", Ty::Struct(&COLUMN)), cl_one(4)];
    /// `add(key, column_parent, column, consistency_level)`.
    ADD = add(process_add),
        throws DATA,
        args [KEY, PARENT, req(3, "column", Ty::Struct(&COUNTER_COLUMN)), cl_one(4)];
    /// `cas(key, column_family, expected, updates, serial_consistency_level,
    /// commit_consistency_level)`; `expected` and `updates` are not `required`.
    CAS = cas(process_cas),
        throws DATA,
        args [
            KEY,
            req(2, "column_family", Ty::Str),
            field(3, "expected", Ty::List(&Ty::Struct(&COLUMN)), Req::Default, None),
            field(4, "updates", Ty::List(&Ty::Struct(&COLUMN)), Req::Default, None),
            cl(5, "serial_consistency_level", Req::Required, 9),
            cl(6, "commit_consistency_level", Req::Required, 2),
        ];
    /// `remove(key, column_path, timestamp, consistency_level)`; the level is not `required`
    /// (an unknown number reaches the service: F7).
    REMOVE = remove(process_remove),
        throws DATA,
        args [
            KEY,
            req(2, "column_path", Ty::Struct(&COLUMN_PATH)),
            req(3, "timestamp", Ty::I64),
            cl(4, "consistency_level", Req::Default, 1),
        ];
    /// `remove_counter(key, path, consistency_level)`.
    REMOVE_COUNTER = remove_counter(process_remove_counter),
        throws DATA,
        args [KEY, req(2, "path", Ty::Struct(&COLUMN_PATH)), cl_one(3)];
    /// `batch_mutate(mutation_map, consistency_level)`.
    BATCH_MUTATE = batch_mutate(process_batch_mutate),
        throws DATA, args [MUTATION_MAP, cl_one(2)];
    /// `atomic_batch_mutate(mutation_map, consistency_level)`.
    ATOMIC_BATCH_MUTATE = atomic_batch_mutate(process_atomic_batch_mutate),
        throws DATA, args [MUTATION_MAP, cl_one(2)];
    /// `truncate(cfname)`.
    TRUNCATE = truncate(process_truncate), throws DATA, args [req(1, "cfname", Ty::Str)];
    /// `get_multi_slice(request)`.
    GET_MULTI_SLICE = get_multi_slice(process_get_multi_slice),
        throws DATA, args [req(1, "request", Ty::Struct(&MULTI_SLICE_REQUEST))];
    /// `describe_schema_versions()`.
    DESCRIBE_SCHEMA_VERSIONS = describe_schema_versions(process_describe_schema_versions),
        throws IRE, args [];
    /// `describe_keyspaces()`.
    DESCRIBE_KEYSPACES = describe_keyspaces(process_describe_keyspaces), throws IRE, args [];
    /// `describe_cluster_name()`.
    DESCRIBE_CLUSTER_NAME = describe_cluster_name(process_describe_cluster_name),
        throws NONE, args [];
    /// `describe_version()`.
    DESCRIBE_VERSION = describe_version(process_describe_version), throws NONE, args [];
    /// `describe_ring(keyspace)`.
    DESCRIBE_RING = describe_ring(process_describe_ring), throws IRE, args [KEYSPACE];
    /// `describe_local_ring(keyspace)`.
    DESCRIBE_LOCAL_RING = describe_local_ring(process_describe_local_ring),
        throws IRE, args [KEYSPACE];
    /// `describe_token_map()`.
    DESCRIBE_TOKEN_MAP = describe_token_map(process_describe_token_map), throws IRE, args [];
    /// `describe_partitioner()`.
    DESCRIBE_PARTITIONER = describe_partitioner(process_describe_partitioner),
        throws NONE, args [];
    /// `describe_snitch()`.
    DESCRIBE_SNITCH = describe_snitch(process_describe_snitch), throws NONE, args [];
    /// `describe_keyspace(keyspace)`.
    DESCRIBE_KEYSPACE = describe_keyspace(process_describe_keyspace),
        throws Throws { not_found: true, ..IRE },
        args [KEYSPACE];
    /// `describe_splits(cfName, start_token, end_token, keys_per_split)`.
    DESCRIBE_SPLITS = describe_splits(process_describe_splits),
        throws IRE, args [CF_NAME, START_TOKEN, END_TOKEN, KEYS_PER_SPLIT];
    /// `trace_next_query()`.
    TRACE_NEXT_QUERY = trace_next_query(process_trace_next_query), throws NONE, args [];
    /// `describe_splits_ex(cfName, start_token, end_token, keys_per_split)`.
    DESCRIBE_SPLITS_EX = describe_splits_ex(process_describe_splits_ex),
        throws IRE, args [CF_NAME, START_TOKEN, END_TOKEN, KEYS_PER_SPLIT];
    /// `system_add_column_family(cf_def)`.
    SYSTEM_ADD_COLUMN_FAMILY = system_add_column_family(process_system_add_column_family),
        throws SCHEMA, args [req(1, "cf_def", Ty::Struct(&CF_DEF))];
    /// `system_drop_column_family(column_family)`.
    SYSTEM_DROP_COLUMN_FAMILY = system_drop_column_family(process_system_drop_column_family),
        throws SCHEMA, args [req(1, "column_family", Ty::Str)];
    /// `system_add_keyspace(ks_def)`.
    SYSTEM_ADD_KEYSPACE = system_add_keyspace(process_system_add_keyspace),
        throws SCHEMA, args [req(1, "ks_def", Ty::Struct(&KS_DEF))];
    /// `system_drop_keyspace(keyspace)`.
    SYSTEM_DROP_KEYSPACE = system_drop_keyspace(process_system_drop_keyspace),
        throws SCHEMA, args [KEYSPACE];
    /// `system_update_keyspace(ks_def)`.
    SYSTEM_UPDATE_KEYSPACE = system_update_keyspace(process_system_update_keyspace),
        throws SCHEMA, args [req(1, "ks_def", Ty::Struct(&KS_DEF))];
    /// `system_update_column_family(cf_def)`.
    SYSTEM_UPDATE_COLUMN_FAMILY =
        system_update_column_family(process_system_update_column_family),
        throws SCHEMA, args [req(1, "cf_def", Ty::Struct(&CF_DEF))];
    /// `execute_cql_query(query, compression)` (CQL 2, removed).
    EXECUTE_CQL_QUERY = execute_cql_query(process_execute_cql_query),
        throws CQL, args [QUERY, COMPRESSION_ARG];
    /// `execute_cql3_query(query, compression, consistency)`.
    EXECUTE_CQL3_QUERY = execute_cql3_query(process_execute_cql3_query),
        throws CQL, args [QUERY, COMPRESSION_ARG, cl(3, "consistency", Req::Required, 1)];
    /// `prepare_cql_query(query, compression)` (CQL 2, removed).
    PREPARE_CQL_QUERY = prepare_cql_query(process_prepare_cql_query),
        throws IRE, args [QUERY, COMPRESSION_ARG];
    /// `prepare_cql3_query(query, compression)`.
    PREPARE_CQL3_QUERY = prepare_cql3_query(process_prepare_cql3_query),
        throws IRE, args [QUERY, COMPRESSION_ARG];
    /// `execute_prepared_cql_query(itemId, values)` (CQL 2, removed).
    EXECUTE_PREPARED_CQL_QUERY = execute_prepared_cql_query(process_execute_prepared_cql_query),
        throws CQL, args [ITEM_ID, VALUES];
    /// `execute_prepared_cql3_query(itemId, values, consistency)`.
    EXECUTE_PREPARED_CQL3_QUERY =
        execute_prepared_cql3_query(process_execute_prepared_cql3_query),
        throws CQL, args [ITEM_ID, VALUES, cl(3, "consistency", Req::Required, 1)];
    /// `set_cql_version(version)`.
    SET_CQL_VERSION = set_cql_version(process_set_cql_version),
        throws IRE, args [req(1, "version", Ty::Str)];
}
