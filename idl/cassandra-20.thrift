// ilion: the later Cassandra Thrift interface (API version 20.1.0, the one 2.2 and 3.x
// report), written for ilion from the tables of the later-API specification
// (cassandra-thrift-later-api.md §1.3-1.6). It is served on a listener of its own, beside the
// 0.6 interface in cassandra.thrift; both reach the same store. What each method does is in
// docs/api-later.md.
//
// Field ids, types, requiredness, defaults and the order of declaration are the wire
// contract and the shape of every client generated from this file: change none of them.
// Fields marked "deprecated" are still declared because older clients send them; the service
// accepts and ignores them.
//
// The Rust code in src/protocol/v20/generated.rs is produced from this file by
// scripts/gen-thrift.sh (Thrift compiler 0.17) and committed; a test checks the method table
// and the argument schema against this text.

namespace java org.apache.cassandra.thrift
namespace py cassandra
namespace rb CassandraThrift
namespace perl Cassandra
namespace php cassandra
namespace csharp Apache.Cassandra
namespace cpp org.apache.cassandra

// Reported by describe_version() (a listener may be configured to report another string).
const string VERSION = "20.1.0"


// ---------------------------------------------------------------------------------------------
// Enumerations.

// How many replicas must answer. ZERO (0) of the 0.6 interface no longer exists: 0 is not a
// level here. SERIAL and LOCAL_SERIAL are only for the condition phase of cas.
enum ConsistencyLevel {
    ONE = 1,
    QUORUM = 2,
    LOCAL_QUORUM = 3,
    EACH_QUORUM = 4,
    ALL = 5,
    ANY = 6,
    TWO = 7,
    THREE = 8,
    SERIAL = 9,
    LOCAL_SERIAL = 10,
    LOCAL_ONE = 11,
}

// The comparison in one term of a row filter.
enum IndexOperator {
    EQ = 0,
    GTE = 1,
    GT = 2,
    LTE = 3,
    LT = 4,
}

// The kind of a secondary index declared in a ColumnDef.
enum IndexType {
    KEYS = 0,
    CUSTOM = 1,
    COMPOSITES = 2,
}

// How a CQL query string is packed.
enum Compression {
    GZIP = 1,
    NONE = 2,
}

// Which part of a CqlResult is filled.
enum CqlResultType {
    ROWS = 1,
    VOID = 2,
    INT = 3,
}


// ---------------------------------------------------------------------------------------------
// Columns.

// One named value. Writes must carry value and timestamp; ttl (seconds) makes it expire.
struct Column {
    1: required binary name,
    2: optional binary value,
    3: optional i64 timestamp,
    4: optional i32 ttl,
}

// A named group of columns inside a Super column family.
struct SuperColumn {
    1: required binary name,
    2: required list<Column> columns,
}

// A counter: its name and its current total (or, for add, the increment).
struct CounterColumn {
    1: required binary name,
    2: required i64 value,
}

// A named group of counters inside a Super counter column family.
struct CounterSuperColumn {
    1: required binary name,
    2: required list<CounterColumn> columns,
}

// Exactly one of the four is set: a column, a super column, or their counter forms.
struct ColumnOrSuperColumn {
    1: optional Column column,
    2: optional SuperColumn super_column,
    3: optional CounterColumn counter_column,
    4: optional CounterSuperColumn counter_super_column,
}


// ---------------------------------------------------------------------------------------------
// Exceptions.

// get found nothing live at the requested path, or describe_keyspace an unknown keyspace.
exception NotFoundException {
}

// The request was malformed or named something unknown; `why` says which.
exception InvalidRequestException {
    1: required string why,
}

// Too few replicas are up for the requested consistency level.
exception UnavailableException {
}

// The replicas did not answer in time; the fields say how far the write got.
exception TimedOutException {
    1: optional i32 acknowledged_by,
    2: optional bool acknowledged_by_batchlog,
    3: optional bool paxos_in_progress,
}

// login was refused: unknown user or wrong password.
exception AuthenticationException {
    1: required string why,
}

// The user may not do this (declared by login; refusals travel as InvalidRequestException).
exception AuthorizationException {
    1: required string why,
}

// Nodes disagreed on the schema version (declared by the schema and CQL calls).
exception SchemaDisagreementException {
}


// ---------------------------------------------------------------------------------------------
// Addressing and selection. ColumnParent and ColumnPath number their fields from 3, as the
// 0.6 interface does.

// A row's column family, optionally narrowed to one super column: where a slice is taken.
struct ColumnParent {
    3: required string column_family,
    4: optional binary super_column,
}

// The address of one column, one super column, or (for remove) a whole row.
struct ColumnPath {
    3: required string column_family,
    4: optional binary super_column,
    5: optional binary column,
}

// A contiguous run of columns between two names, in comparator order or reversed.
// Empty start/finish mean "from the beginning" / "to the end".
struct SliceRange {
    1: required binary start,
    2: required binary finish,
    3: required bool reversed = 0,
    4: required i32 count = 100,
}

// Which columns to read: a list of names, or a range.
struct SlicePredicate {
    1: optional list<binary> column_names,
    2: optional SliceRange slice_range,
}

// One term of a row filter: the named column's value compared with `value`.
struct IndexExpression {
    1: required binary column_name,
    2: required IndexOperator op,
    3: required binary value,
}

// Deprecated (use KeyRange.row_filter): rows from start_key whose columns match every term.
struct IndexClause {
    1: required list<IndexExpression> expressions,
    2: required binary start_key,
    3: required i32 count = 100,
}

// A range of rows, by keys or by tokens, optionally filtered; at most `count` rows.
struct KeyRange {
    1: optional binary start_key,
    2: optional binary end_key,
    3: optional string start_token,
    4: optional string end_token,
    6: optional list<IndexExpression> row_filter,
    5: required i32 count = 100,
}

// One row of a range read: its key and the selected columns.
struct KeySlice {
    1: required binary key,
    2: required list<ColumnOrSuperColumn> columns,
}

// A row key and a column count (declared, but no method returns it).
struct KeyCount {
    1: required binary key,
    2: required i32 count,
}

// A delete inside a batch: a row, a super column, or the predicate's columns.
struct Deletion {
    1: optional i64 timestamp,
    2: optional binary super_column,
    3: optional SlicePredicate predicate,
}

// One change inside a batch: an insert or a deletion.
struct Mutation {
    1: optional ColumnOrSuperColumn column_or_supercolumn,
    2: optional Deletion deletion,
}

// Where one replica of a token range lives.
struct EndpointDetails {
    1: string host,
    2: string datacenter,
    3: optional string rack,
}

// The outcome of cas: whether it applied, and if not the current values of the
// expected columns.
struct CASResult {
    1: required bool success,
    2: optional list<Column> current_values,
}

// A slice of the token ring and the nodes that hold it.
struct TokenRange {
    1: required string start_token,
    2: required string end_token,
    3: required list<string> endpoints,
    4: optional list<string> rpc_endpoints,
    5: optional list<EndpointDetails> endpoint_details,
}

// Credentials for login, e.g. {"username": ..., "password": ...}.
struct AuthenticationRequest {
    1: required map<string, string> credentials,
}


// ---------------------------------------------------------------------------------------------
// Schema.

// The declared validator of one column name, and optionally an index on it.
struct ColumnDef {
    1: required binary name,
    2: required string validation_class,
    3: optional IndexType index_type,
    4: optional string index_name,
    5: optional map<string, string> index_options,
}

// A trigger attached to a column family (accepted only when there are none).
struct TriggerDef {
    1: required string name,
    2: required map<string, string> options,
}

// A column family's definition. Ids 4, 7, 10, 35 and 36 were never used. The second block
// holds fields that are deprecated: older clients still send them, and they are ignored.
struct CfDef {
    1: required string keyspace,
    2: required string name,
    3: optional string column_type = "Standard",
    5: optional string comparator_type = "BytesType",
    6: optional string subcomparator_type,
    8: optional string comment,
    12: optional double read_repair_chance,
    13: optional list<ColumnDef> column_metadata,
    14: optional i32 gc_grace_seconds,
    15: optional string default_validation_class,
    16: optional i32 id,
    17: optional i32 min_compaction_threshold,
    18: optional i32 max_compaction_threshold,
    26: optional string key_validation_class,
    28: optional binary key_alias,
    29: optional string compaction_strategy,
    30: optional map<string, string> compaction_strategy_options,
    32: optional map<string, string> compression_options,
    33: optional double bloom_filter_fp_chance,
    34: optional string caching = "keys_only",
    37: optional double dclocal_read_repair_chance = 0.0,
    39: optional i32 memtable_flush_period_in_ms,
    40: optional i32 default_time_to_live,
    42: optional string speculative_retry = "NONE",
    43: optional list<TriggerDef> triggers,
    44: optional string cells_per_row_to_cache = "100",
    45: optional i32 min_index_interval,
    46: optional i32 max_index_interval,

    // deprecated
    9: optional double row_cache_size,
    11: optional double key_cache_size,
    19: optional i32 row_cache_save_period_in_seconds,
    20: optional i32 key_cache_save_period_in_seconds,
    21: optional i32 memtable_flush_after_mins,
    22: optional i32 memtable_throughput_in_mb,
    23: optional double memtable_operations_in_millions,
    24: optional bool replicate_on_write,
    25: optional double merge_shards_chance,
    27: optional string row_cache_provider,
    31: optional i32 row_cache_keys_to_save,
    38: optional bool populate_io_cache_on_flush,
    41: optional i32 index_interval,
}

// A keyspace's definition: its replica placement and its column families.
// replication_factor is deprecated (placement options carry it now).
struct KsDef {
    1: required string name,
    2: required string strategy_class,
    3: optional map<string, string> strategy_options,
    4: optional i32 replication_factor,
    5: required list<CfDef> cf_defs,
    6: optional bool durable_writes = 1,
}


// ---------------------------------------------------------------------------------------------
// CQL results.

// One row of a CQL result.
struct CqlRow {
    1: required binary key,
    2: required list<Column> columns,
}

// The types of a CQL result's names and values, by column name, with fallbacks.
struct CqlMetadata {
    1: required map<binary, string> name_types,
    2: required map<binary, string> value_types,
    3: required string default_name_type,
    4: required string default_value_type,
}

// What a CQL query returned: rows, a number, or nothing.
struct CqlResult {
    1: required CqlResultType type,
    2: optional list<CqlRow> rows,
    3: optional i32 num,
    4: optional CqlMetadata schema,
}

// A prepared CQL statement: its id and its bind markers.
struct CqlPreparedResult {
    1: required i32 itemId,
    2: required i32 count,
    3: optional list<string> variable_types,
    4: optional list<string> variable_names,
}


// ---------------------------------------------------------------------------------------------
// Splits and multi-slices.

// One piece of a token range and about how many rows it holds.
struct CfSplit {
    1: required string start_token,
    2: required string end_token,
    3: required i64 row_count,
}

// One of the column ranges of a multi-slice; absent bounds are open.
struct ColumnSlice {
    1: optional binary start,
    2: optional binary finish,
}

// The request of get_multi_slice: several column ranges of one row read at once.
struct MultiSliceRequest {
    1: optional binary key,
    2: optional ColumnParent column_parent,
    3: optional list<ColumnSlice> column_slices,
    4: optional bool reversed = 0,
    5: optional i32 count = 1000,
    6: optional ConsistencyLevel consistency_level = ConsistencyLevel.ONE,
}


// ---------------------------------------------------------------------------------------------
// The service. The keyspace is chosen per connection with set_keyspace; consistency levels
// default to ONE.

service Cassandra {
    // Authenticate this connection; the login lasts until the connection closes.
    void login(1: required AuthenticationRequest auth_request)
        throws (1: AuthenticationException authnx,
                2: AuthorizationException authzx),

    // Choose the keyspace the following calls of this connection work in.
    void set_keyspace(1: required string keyspace)
        throws (1: InvalidRequestException ire),

    // Read one column or super column.
    ColumnOrSuperColumn get(1: required binary key,
                            2: required ColumnPath column_path,
                            3: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: NotFoundException nfe,
                3: UnavailableException ue,
                4: TimedOutException te),

    // Read the predicate's columns of one row.
    list<ColumnOrSuperColumn> get_slice(1: required binary key,
                                        2: required ColumnParent column_parent,
                                        3: required SlicePredicate predicate,
                                        4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Count the columns get_slice would return.
    i32 get_count(1: required binary key,
                  2: required ColumnParent column_parent,
                  3: required SlicePredicate predicate,
                  4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // get_slice for many keys at once.
    map<binary, list<ColumnOrSuperColumn>> multiget_slice(1: required list<binary> keys,
                                                          2: required ColumnParent column_parent,
                                                          3: required SlicePredicate predicate,
                                                          4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // get_count for many keys at once.
    map<binary, i32> multiget_count(1: required list<binary> keys,
                                    2: required ColumnParent column_parent,
                                    3: required SlicePredicate predicate,
                                    4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Read the predicate's columns from each row of a key or token range.
    list<KeySlice> get_range_slices(1: required ColumnParent column_parent,
                                    2: required SlicePredicate predicate,
                                    3: required KeyRange range,
                                    4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Page through a column family: rows of the range, all columns, the first row from
    // start_column on; `range.count` counts columns.
    list<KeySlice> get_paged_slice(1: required string column_family,
                                   2: required KeyRange range,
                                   3: required binary start_column,
                                   4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Deprecated (use get_range_slices with a row filter): rows matching an index clause.
    list<KeySlice> get_indexed_slices(1: required ColumnParent column_parent,
                                      2: required IndexClause index_clause,
                                      3: required SlicePredicate column_predicate,
                                      4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Write one column.
    void insert(1: required binary key,
                2: required ColumnParent column_parent,
                3: required Column column,
                4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Add to a counter.
    void add(1: required binary key,
             2: required ColumnParent column_parent,
             3: required CounterColumn column,
             4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Compare-and-set: apply `updates` to one row only if its columns are as `expected`.
    CASResult cas(1: required binary key,
                  2: required string column_family,
                  3: list<Column> expected,
                  4: list<Column> updates,
                  5: required ConsistencyLevel serial_consistency_level = ConsistencyLevel.SERIAL,
                  6: required ConsistencyLevel commit_consistency_level = ConsistencyLevel.QUORUM)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Delete a column, a super column or a whole row, as of `timestamp`. The consistency level
    // is not `required` here, unlike every other argument of its kind.
    void remove(1: required binary key,
                2: required ColumnPath column_path,
                3: required i64 timestamp,
                4: ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Delete a counter or a super column of counters.
    void remove_counter(1: required binary key,
                        2: required ColumnPath path,
                        3: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Apply inserts and deletions to many rows: row key -> column family -> mutations.
    void batch_mutate(1: required map<binary, map<string, list<Mutation>>> mutation_map,
                      2: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // batch_mutate, all or nothing.
    void atomic_batch_mutate(1: required map<binary, map<string, list<Mutation>>> mutation_map,
                             2: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Remove every row of a column family.
    void truncate(1: required string cfname)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Read several column ranges of one row.
    list<ColumnOrSuperColumn> get_multi_slice(1: required MultiSliceRequest request)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Schema version -> the nodes that hold it.
    map<string, list<string>> describe_schema_versions()
        throws (1: InvalidRequestException ire),

    // Every keyspace with its column families.
    list<KsDef> describe_keyspaces()
        throws (1: InvalidRequestException ire),

    // The configured cluster name.
    string describe_cluster_name(),

    // The interface version, VERSION above unless the listener reports another.
    string describe_version(),

    // The token ranges of a keyspace and the endpoints that hold them.
    list<TokenRange> describe_ring(1: required string keyspace)
        throws (1: InvalidRequestException ire),

    // describe_ring limited to this node's data centre.
    list<TokenRange> describe_local_ring(1: required string keyspace)
        throws (1: InvalidRequestException ire),

    // Token -> the node that owns it.
    map<string, string> describe_token_map()
        throws (1: InvalidRequestException ire),

    // The partitioner's Java class name.
    string describe_partitioner(),

    // The snitch's Java class name.
    string describe_snitch(),

    // One keyspace with its column families.
    KsDef describe_keyspace(1: required string keyspace)
        throws (1: NotFoundException nfe,
                2: InvalidRequestException ire),

    // Deprecated (use describe_splits_ex): tokens cutting a range into pieces of about
    // keys_per_split rows.
    list<string> describe_splits(1: required string cfName,
                                 2: required string start_token,
                                 3: required string end_token,
                                 4: required i32 keys_per_split)
        throws (1: InvalidRequestException ire),

    // Ask for the next query of this connection to be traced; returns the session id.
    binary trace_next_query(),

    // describe_splits with each piece's row count.
    list<CfSplit> describe_splits_ex(1: required string cfName,
                                     2: required string start_token,
                                     3: required string end_token,
                                     4: required i32 keys_per_split)
        throws (1: InvalidRequestException ire),

    // Schema changes; each returns the new schema version.
    string system_add_column_family(1: required CfDef cf_def)
        throws (1: InvalidRequestException ire,
                2: SchemaDisagreementException sde),

    string system_drop_column_family(1: required string column_family)
        throws (1: InvalidRequestException ire,
                2: SchemaDisagreementException sde),

    string system_add_keyspace(1: required KsDef ks_def)
        throws (1: InvalidRequestException ire,
                2: SchemaDisagreementException sde),

    string system_drop_keyspace(1: required string keyspace)
        throws (1: InvalidRequestException ire,
                2: SchemaDisagreementException sde),

    string system_update_keyspace(1: required KsDef ks_def)
        throws (1: InvalidRequestException ire,
                2: SchemaDisagreementException sde),

    string system_update_column_family(1: required CfDef cf_def)
        throws (1: InvalidRequestException ire,
                2: SchemaDisagreementException sde),

    // CQL 2: removed, always refused.
    CqlResult execute_cql_query(1: required binary query,
                                2: required Compression compression)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te,
                4: SchemaDisagreementException sde),

    // Run one CQL 3 statement.
    CqlResult execute_cql3_query(1: required binary query,
                                 2: required Compression compression,
                                 3: required ConsistencyLevel consistency = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te,
                4: SchemaDisagreementException sde),

    // CQL 2: removed, always refused.
    CqlPreparedResult prepare_cql_query(1: required binary query,
                                        2: required Compression compression)
        throws (1: InvalidRequestException ire),

    // Prepare one CQL 3 statement for repeated execution.
    CqlPreparedResult prepare_cql3_query(1: required binary query,
                                         2: required Compression compression)
        throws (1: InvalidRequestException ire),

    // CQL 2: removed, always refused.
    CqlResult execute_prepared_cql_query(1: required i32 itemId,
                                         2: required list<binary> values)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te,
                4: SchemaDisagreementException sde),

    // Run a prepared CQL 3 statement with these bound values.
    CqlResult execute_prepared_cql3_query(1: required i32 itemId,
                                          2: required list<binary> values,
                                          3: required ConsistencyLevel consistency = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te,
                4: SchemaDisagreementException sde),

    // Accepted and ignored (the CQL version is no longer chosen per connection).
    void set_cql_version(1: required string version)
        throws (1: InvalidRequestException ire),
}
