// ilion: the Cassandra 0.6 Thrift interface (API version 2.2.0), written for ilion;
// the behaviour of each method and its exceptions is in docs/api.md (#methods onwards).
// Field ids, requiredness and defaults are part of the wire contract: changing any of them
// breaks existing 0.6 clients.
//
// The Rust code in src/protocol/generated.rs is produced from this file by
// scripts/gen-thrift.sh (Thrift compiler 0.17) and committed; a test checks they agree.

namespace java org.apache.cassandra.thrift
namespace py cassandra
namespace rb CassandraThrift
namespace perl Cassandra
namespace php cassandra
namespace csharp Apache.Cassandra
namespace cpp org.apache.cassandra

// Reported by describe_version() and get_string_property("version").
const string VERSION = "2.2.0"


// ---------------------------------------------------------------------------------------------
// Consistency levels. On a single node every level but ZERO behaves alike; ZERO writes return
// before the write is applied and ZERO reads are refused.

enum ConsistencyLevel {
    ZERO = 0,
    ONE = 1,
    QUORUM = 2,
    DCQUORUM = 3,
    DCQUORUMSYNC = 4,
    ALL = 5,
    ANY = 6,
}


// ---------------------------------------------------------------------------------------------
// Data structures.

// One named value with the client-chosen timestamp that decides which write wins.
struct Column {
    1: required binary name,
    2: required binary value,
    3: required i64 timestamp,
}

// A named group of columns inside a Super column family.
struct SuperColumn {
    1: required binary name,
    2: required list<Column> columns,
}

// Either a column (Standard CF) or a super column (Super CF); reads fill exactly one.
struct ColumnOrSuperColumn {
    1: optional Column column,
    2: optional SuperColumn super_column,
}


// ---------------------------------------------------------------------------------------------
// Exceptions.

// get found nothing live at the requested path.
exception NotFoundException {
}

// The request was malformed or named something unknown; `why` says which.
exception InvalidRequestException {
    1: required string why
}

// Too few replicas are up for the requested consistency level.
exception UnavailableException {
}

// The replicas did not answer within the RPC timeout.
exception TimedOutException {
}

// login was refused: unknown user or wrong password.
exception AuthenticationException {
    1: required string why
}

// The user logged in but may not use the keyspace.
exception AuthorizationException {
    1: required string why
}


// ---------------------------------------------------------------------------------------------
// Addressing and selection. ColumnParent and ColumnPath number their fields from 3: the ids
// were kept when earlier fields were dropped, so they must stay as they are.

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

// Which columns to read: a list of names, or a range (exactly one must be given).
struct SlicePredicate {
    1: optional list<binary> column_names,
    2: optional SliceRange slice_range,
}

// A range of rows, given either by keys or by tokens (one pair, not both).
struct KeyRange {
    1: optional string start_key,
    2: optional string end_key,
    3: optional string start_token,
    4: optional string end_token,
    5: required i32 count = 100
}

// One row of a range read: its key and the selected columns.
struct KeySlice {
    1: required string key,
    2: required list<ColumnOrSuperColumn> columns,
}

// A delete inside batch_mutate: the whole row/super column, or the predicate's columns.
struct Deletion {
    1: required i64 timestamp,
    2: optional binary super_column,
    3: optional SlicePredicate predicate,
}

// One change inside batch_mutate: an insert or a deletion.
struct Mutation {
    1: optional ColumnOrSuperColumn column_or_supercolumn,
    2: optional Deletion deletion,
}

// A slice of the token ring and the nodes that hold it.
struct TokenRange {
    1: required string start_token,
    2: required string end_token,
    3: required list<string> endpoints,
}

// Credentials for login, e.g. {"username": ..., "password": ...}.
struct AuthenticationRequest {
    1: required map<string, string> credentials,
}


// ---------------------------------------------------------------------------------------------
// The service. Every data call names its keyspace; consistency_level defaults to ONE.

service Cassandra {
    // Authenticate this connection for a keyspace; the login lasts until the connection closes.
    void login(1: required string keyspace,
               2: required AuthenticationRequest auth_request)
        throws (1: AuthenticationException authnx,
                2: AuthorizationException authzx),

    // Read one column or super column.
    ColumnOrSuperColumn get(1: required string keyspace,
                            2: required string key,
                            3: required ColumnPath column_path,
                            4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: NotFoundException nfe,
                3: UnavailableException ue,
                4: TimedOutException te),

    // Read the predicate's columns of one row.
    list<ColumnOrSuperColumn> get_slice(1: required string keyspace,
                                        2: required string key,
                                        3: required ColumnParent column_parent,
                                        4: required SlicePredicate predicate,
                                        5: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Deprecated: get for many keys at once.
    map<string, ColumnOrSuperColumn> multiget(1: required string keyspace,
                                              2: required list<string> keys,
                                              3: required ColumnPath column_path,
                                              4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // get_slice for many keys at once.
    map<string, list<ColumnOrSuperColumn>> multiget_slice(1: required string keyspace,
                                                          2: required list<string> keys,
                                                          3: required ColumnParent column_parent,
                                                          4: required SlicePredicate predicate,
                                                          5: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Count the live columns (or super columns) under a parent.
    i32 get_count(1: required string keyspace,
                  2: required string key,
                  3: required ColumnParent column_parent,
                  4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Deprecated: get_range_slices with the range given as start/finish keys and a row count.
    list<KeySlice> get_range_slice(1: required string keyspace,
                                   2: required ColumnParent column_parent,
                                   3: required SlicePredicate predicate,
                                   4: required string start_key = "",
                                   5: required string finish_key = "",
                                   6: required i32 row_count = 100,
                                   7: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Read the predicate's columns from each row of a key or token range.
    list<KeySlice> get_range_slices(1: required string keyspace,
                                    2: required ColumnParent column_parent,
                                    3: required SlicePredicate predicate,
                                    4: required KeyRange range,
                                    5: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Write one column.
    void insert(1: required string keyspace,
                2: required string key,
                3: required ColumnPath column_path,
                4: required binary value,
                5: required i64 timestamp,
                6: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Deprecated: write columns to several column families of one row.
    void batch_insert(1: required string keyspace,
                      2: required string key,
                      3: required map<string, list<ColumnOrSuperColumn>> cfmap,
                      4: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Delete a column, a super column or a whole row, as of `timestamp`. The consistency level
    // is deliberately not `required` here, as in the 0.6 interface.
    void remove(1: required string keyspace,
                2: required string key,
                3: required ColumnPath column_path,
                4: required i64 timestamp,
                5: ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Apply inserts and deletions to many rows: row key -> column family -> mutations.
    void batch_mutate(1: required string keyspace,
                      2: required map<string, map<string, list<Mutation>>> mutation_map,
                      3: required ConsistencyLevel consistency_level = ConsistencyLevel.ONE)
        throws (1: InvalidRequestException ire,
                2: UnavailableException ue,
                3: TimedOutException te),

    // Deprecated: a named server property as a string.
    string get_string_property(1: required string property),

    // Deprecated: a named server property as a list of strings.
    list<string> get_string_list_property(1: required string property),

    // The names of the configured keyspaces.
    set<string> describe_keyspaces(),

    // The configured cluster name.
    string describe_cluster_name(),

    // The interface version, VERSION above.
    string describe_version(),

    // The token ranges of a keyspace and the endpoints that hold them.
    list<TokenRange> describe_ring(1: required string keyspace)
        throws (1: InvalidRequestException ire),

    // The partitioner's Java class name.
    string describe_partitioner(),

    // Column family name -> its description properties.
    map<string, map<string, string>> describe_keyspace(1: required string keyspace)
        throws (1: NotFoundException nfe),

    // Experimental: tokens splitting a range into pieces of about keys_per_split keys.
    list<string> describe_splits(1: required string start_token,
                                 2: required string end_token,
                                 3: required i32 keys_per_split),
}
