//! The 0.6 method table: one row per method of `idl/cassandra.thrift`'s `service Cassandra`,
//! in IDL order, and the only place its method names are written. A row ([`Method`]) gives
//! the name, the generated function that decodes the arguments and calls the handler, the
//! exceptions the `throws` clause declares, and the arguments (for the normalizer; their types
//! are in `schema`). The row type and the macro that builds a table are shared with the
//! 20.1.0 table (`v20::methods`).
//!
//! Dispatch finds a call's row here, `service` maps errors with a row's [`Throws`], and the
//! load client names its calls from it. A test reads `idl/cassandra.thrift` and checks every
//! row against it: names, order, arguments and throws.

use thrift::protocol::{TInputProtocol, TOutputProtocol};

use super::generated::{CassandraSyncHandler, TCassandraProcessFunctions};
use super::schema::{
    cl, field, req, Req, StructDef, Ty, Value, AUTH_REQUEST, COLUMN_PARENT, COLUMN_PATH, COSC, KEY,
    KEYS, KEYSPACE, KEY_RANGE, MUTATION, REQ, SLICE_PREDICATE,
};

/// The exceptions a method's `throws` clause declares. The generated result struct has a
/// field for each of them and for nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throws {
    /// `InvalidRequestException`.
    pub invalid_request: bool,
    /// `NotFoundException`.
    pub not_found: bool,
    /// `UnavailableException`.
    pub unavailable: bool,
    /// `TimedOutException`.
    pub timed_out: bool,
    /// `AuthenticationException`.
    pub authentication: bool,
    /// `AuthorizationException`.
    pub authorization: bool,
    /// `SchemaDisagreementException` (only in the 20.1.0 IDL).
    pub schema_disagreement: bool,
}

/// Declares nothing.
pub(crate) const NONE: Throws = Throws {
    invalid_request: false,
    not_found: false,
    unavailable: false,
    timed_out: false,
    authentication: false,
    authorization: false,
    schema_disagreement: false,
};

/// A data read or write: (ire, ue, te).
pub(crate) const DATA: Throws = Throws {
    invalid_request: true,
    unavailable: true,
    timed_out: true,
    ..NONE
};

/// One method of the service.
#[derive(Debug, Clone, Copy)]
pub struct Method {
    /// The name on the wire, as in `Internal error processing <name>`.
    pub name: &'static str,
    /// What its `throws` clause declares.
    pub throws: Throws,
    /// Its arguments, named `<name>_args` as Java named them.
    pub(crate) args: &'static StructDef,
}

/// A generated per-method process function: decodes the arguments, calls the handler and
/// writes the reply.
pub(crate) type ProcessFn<H> =
    fn(&H, i32, &mut dyn TInputProtocol, &mut dyn TOutputProtocol) -> thrift::Result<()>;

/// Makes a table's rows, its `METHODS` and its `lookup` from one list; `$handler` is the
/// generated handler trait and `$functions` the generated process functions of the IDL.
macro_rules! method_table {
    (
        handler $handler:path, functions $functions:path;
        $(
            $(#[$doc:meta])*
            $row:ident = $name:ident($process:ident), throws $throws:expr,
                args [$($arg:expr),* $(,)?];
        )*
    ) => {
        $(
            $(#[$doc])*
            pub static $row: $crate::protocol::methods::Method = $crate::protocol::methods::Method {
                name: stringify!($name),
                throws: $throws,
                args: &$crate::protocol::schema::StructDef {
                    name: concat!(stringify!($name), "_args"),
                    size: 0,
                    fields: &[$($arg),*],
                },
            };
        )*

        /// Every method of the service, in IDL order.
        pub static METHODS: &[&$crate::protocol::methods::Method] = &[$(&$row),*];

        /// The method called `name` and its generated process function, `None` for a name
        /// the service does not have.
        pub(crate) fn lookup<H: $handler>(
            name: &str,
        ) -> Option<(
            &'static $crate::protocol::methods::Method,
            $crate::protocol::methods::ProcessFn<H>,
        )> {
            use $functions as P;
            match name {
                $(stringify!($name) => Some((
                    &$row,
                    P::$process as $crate::protocol::methods::ProcessFn<H>,
                )),)*
                _ => None,
            }
        }
    };
}
pub(crate) use method_table;

/// The method called `name`, `None` for a name the service does not have.
pub fn find(name: &str) -> Option<&'static Method> {
    METHODS.iter().copied().find(|m| m.name == name)
}

method_table! {
    handler CassandraSyncHandler, functions TCassandraProcessFunctions;

    /// `login(keyspace, auth_request)`.
    LOGIN = login(process_login),
        throws Throws { authentication: true, authorization: true, ..NONE },
        args [KEYSPACE, req(2, "auth_request", Ty::Struct(&AUTH_REQUEST))];
    /// `get(keyspace, key, column_path, consistency_level)`.
    GET = get(process_get),
        throws Throws { not_found: true, ..DATA },
        args [KEYSPACE, KEY, req(3, "column_path", Ty::Struct(&COLUMN_PATH)), cl(4, REQ)];
    /// `get_slice(keyspace, key, column_parent, predicate, consistency_level)`.
    GET_SLICE = get_slice(process_get_slice),
        throws DATA,
        args [
            KEYSPACE,
            KEY,
            req(3, "column_parent", Ty::Struct(&COLUMN_PARENT)),
            req(4, "predicate", Ty::Struct(&SLICE_PREDICATE)),
            cl(5, REQ),
        ];
    /// `multiget(keyspace, keys, column_path, consistency_level)`.
    MULTIGET = multiget(process_multiget),
        throws DATA,
        args [KEYSPACE, KEYS, req(3, "column_path", Ty::Struct(&COLUMN_PATH)), cl(4, REQ)];
    /// `multiget_slice(keyspace, keys, column_parent, predicate, consistency_level)`.
    MULTIGET_SLICE = multiget_slice(process_multiget_slice),
        throws DATA,
        args [
            KEYSPACE,
            KEYS,
            req(3, "column_parent", Ty::Struct(&COLUMN_PARENT)),
            req(4, "predicate", Ty::Struct(&SLICE_PREDICATE)),
            cl(5, REQ),
        ];
    /// `get_count(keyspace, key, column_parent, consistency_level)`.
    GET_COUNT = get_count(process_get_count),
        throws DATA,
        args [KEYSPACE, KEY, req(3, "column_parent", Ty::Struct(&COLUMN_PARENT)), cl(4, REQ)];
    /// `get_range_slice(keyspace, column_parent, predicate, start_key, finish_key, row_count,
    /// consistency_level)`.
    GET_RANGE_SLICE = get_range_slice(process_get_range_slice),
        throws DATA,
        args [
            KEYSPACE,
            req(2, "column_parent", Ty::Struct(&COLUMN_PARENT)),
            req(3, "predicate", Ty::Struct(&SLICE_PREDICATE)),
            field(4, "start_key", Ty::Str, REQ, Some(Value::Str(""))),
            field(5, "finish_key", Ty::Str, REQ, Some(Value::Str(""))),
            field(6, "row_count", Ty::I32, REQ, Some(Value::I32(100))),
            cl(7, REQ),
        ];
    /// `get_range_slices(keyspace, column_parent, predicate, range, consistency_level)`.
    GET_RANGE_SLICES = get_range_slices(process_get_range_slices),
        throws DATA,
        args [
            KEYSPACE,
            req(2, "column_parent", Ty::Struct(&COLUMN_PARENT)),
            req(3, "predicate", Ty::Struct(&SLICE_PREDICATE)),
            req(4, "range", Ty::Struct(&KEY_RANGE)),
            cl(5, REQ),
        ];
    /// `insert(keyspace, key, column_path, value, timestamp, consistency_level)`.
    INSERT = insert(process_insert),
        throws DATA,
        args [
            KEYSPACE,
            KEY,
            req(3, "column_path", Ty::Struct(&COLUMN_PATH)),
            req(4, "value", Ty::Bin),
            req(5, "timestamp", Ty::I64),
            cl(6, REQ),
        ];
    /// `batch_insert(keyspace, key, cfmap, consistency_level)`.
    BATCH_INSERT = batch_insert(process_batch_insert),
        throws DATA,
        args [
            KEYSPACE,
            KEY,
            req(3, "cfmap", Ty::Map(&Ty::Str, &Ty::List(&Ty::Struct(&COSC)))),
            cl(4, REQ),
        ];
    /// `remove(keyspace, key, column_path, timestamp, consistency_level)`; the level is the
    /// one argument that is not `required`.
    REMOVE = remove(process_remove),
        throws DATA,
        args [
            KEYSPACE,
            KEY,
            req(3, "column_path", Ty::Struct(&COLUMN_PATH)),
            req(4, "timestamp", Ty::I64),
            cl(5, Req::Default),
        ];
    /// `batch_mutate(keyspace, mutation_map, consistency_level)`.
    BATCH_MUTATE = batch_mutate(process_batch_mutate),
        throws DATA,
        args [
            KEYSPACE,
            req(
                2,
                "mutation_map",
                Ty::Map(&Ty::Str, &Ty::Map(&Ty::Str, &Ty::List(&Ty::Struct(&MUTATION)))),
            ),
            cl(3, REQ),
        ];
    /// `get_string_property(property)`.
    GET_STRING_PROPERTY = get_string_property(process_get_string_property),
        throws NONE,
        args [req(1, "property", Ty::Str)];
    /// `get_string_list_property(property)`.
    GET_STRING_LIST_PROPERTY = get_string_list_property(process_get_string_list_property),
        throws NONE,
        args [req(1, "property", Ty::Str)];
    /// `describe_keyspaces()`.
    DESCRIBE_KEYSPACES = describe_keyspaces(process_describe_keyspaces),
        throws NONE,
        args [];
    /// `describe_cluster_name()`.
    DESCRIBE_CLUSTER_NAME = describe_cluster_name(process_describe_cluster_name),
        throws NONE,
        args [];
    /// `describe_version()`.
    DESCRIBE_VERSION = describe_version(process_describe_version),
        throws NONE,
        args [];
    /// `describe_ring(keyspace)`.
    DESCRIBE_RING = describe_ring(process_describe_ring),
        throws Throws { invalid_request: true, ..NONE },
        args [KEYSPACE];
    /// `describe_partitioner()`.
    DESCRIBE_PARTITIONER = describe_partitioner(process_describe_partitioner),
        throws NONE,
        args [];
    /// `describe_keyspace(keyspace)`.
    DESCRIBE_KEYSPACE = describe_keyspace(process_describe_keyspace),
        throws Throws { not_found: true, ..NONE },
        args [KEYSPACE];
    /// `describe_splits(start_token, end_token, keys_per_split)`.
    DESCRIBE_SPLITS = describe_splits(process_describe_splits),
        throws NONE,
        args [
            req(1, "start_token", Ty::Str),
            req(2, "end_token", Ty::Str),
            req(3, "keys_per_split", Ty::I32),
        ];
}
