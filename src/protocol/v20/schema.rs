//! The request half of `idl/cassandra-20.thrift` as data: every enum and struct a 20.1.0
//! method's arguments can reach, with field ids, wire types, requiredness and defaults, for
//! the shared normalizer (`normalize`). Types the server only sends (KeySlice, KsDef in
//! replies, CqlResult, ...) are not here unless a request carries them too. A test reads the
//! IDL text and compares (`v20::schema_tests`).

use std::mem::size_of;

use super::generated as g;
use crate::protocol::schema::{field, opt, req, EnumDef, FieldDef, Req, StructDef, Ty, Value};

const REQ: Req = Req::Required;
const OPT: Req = Req::Optional;

/// ONE (1) to LOCAL_ONE (11); 0, the 0.6 ZERO, is no level here.
pub(super) static CONSISTENCY_LEVEL: EnumDef = EnumDef {
    values: &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};

static INDEX_OPERATOR: EnumDef = EnumDef {
    values: &[0, 1, 2, 3, 4],
};

static INDEX_TYPE: EnumDef = EnumDef { values: &[0, 1, 2] };

pub(super) static COMPRESSION: EnumDef = EnumDef { values: &[1, 2] };

/// A consistency level argument `id` called `name`, defaulting to the level numbered `level`.
pub(super) const fn cl(id: i16, name: &'static str, req: Req, level: i32) -> FieldDef {
    let ty = Ty::Enum(&CONSISTENCY_LEVEL);
    field(id, name, ty, req, Some(Value::I32(level)))
}

/// `consistency_level = ConsistencyLevel.ONE`, required.
pub(super) const fn cl_one(id: i16) -> FieldDef {
    cl(id, "consistency_level", REQ, 1)
}

pub(super) static COLUMN: StructDef = StructDef {
    name: "Column",
    size: size_of::<g::Column>(),
    fields: &[
        req(1, "name", Ty::Bin),
        opt(2, "value", Ty::Bin),
        opt(3, "timestamp", Ty::I64),
        opt(4, "ttl", Ty::I32),
    ],
};

static SUPER_COLUMN: StructDef = StructDef {
    name: "SuperColumn",
    size: size_of::<g::SuperColumn>(),
    fields: &[
        req(1, "name", Ty::Bin),
        req(2, "columns", Ty::List(&Ty::Struct(&COLUMN))),
    ],
};

pub(super) static COUNTER_COLUMN: StructDef = StructDef {
    name: "CounterColumn",
    size: size_of::<g::CounterColumn>(),
    fields: &[req(1, "name", Ty::Bin), req(2, "value", Ty::I64)],
};

static COUNTER_SUPER_COLUMN: StructDef = StructDef {
    name: "CounterSuperColumn",
    size: size_of::<g::CounterSuperColumn>(),
    fields: &[
        req(1, "name", Ty::Bin),
        req(2, "columns", Ty::List(&Ty::Struct(&COUNTER_COLUMN))),
    ],
};

static COSC: StructDef = StructDef {
    name: "ColumnOrSuperColumn",
    size: size_of::<g::ColumnOrSuperColumn>(),
    fields: &[
        opt(1, "column", Ty::Struct(&COLUMN)),
        opt(2, "super_column", Ty::Struct(&SUPER_COLUMN)),
        opt(3, "counter_column", Ty::Struct(&COUNTER_COLUMN)),
        opt(4, "counter_super_column", Ty::Struct(&COUNTER_SUPER_COLUMN)),
    ],
};

pub(super) static COLUMN_PARENT: StructDef = StructDef {
    name: "ColumnParent",
    size: size_of::<g::ColumnParent>(),
    fields: &[
        req(3, "column_family", Ty::Str),
        opt(4, "super_column", Ty::Bin),
    ],
};

pub(super) static COLUMN_PATH: StructDef = StructDef {
    name: "ColumnPath",
    size: size_of::<g::ColumnPath>(),
    fields: &[
        req(3, "column_family", Ty::Str),
        opt(4, "super_column", Ty::Bin),
        opt(5, "column", Ty::Bin),
    ],
};

static SLICE_RANGE: StructDef = StructDef {
    name: "SliceRange",
    size: size_of::<g::SliceRange>(),
    fields: &[
        req(1, "start", Ty::Bin),
        req(2, "finish", Ty::Bin),
        field(3, "reversed", Ty::Bool, REQ, Some(Value::Bool(false))),
        field(4, "count", Ty::I32, REQ, Some(Value::I32(100))),
    ],
};

pub(super) static SLICE_PREDICATE: StructDef = StructDef {
    name: "SlicePredicate",
    size: size_of::<g::SlicePredicate>(),
    fields: &[
        opt(1, "column_names", Ty::List(&Ty::Bin)),
        opt(2, "slice_range", Ty::Struct(&SLICE_RANGE)),
    ],
};

static INDEX_EXPRESSION: StructDef = StructDef {
    name: "IndexExpression",
    size: size_of::<g::IndexExpression>(),
    fields: &[
        req(1, "column_name", Ty::Bin),
        req(2, "op", Ty::Enum(&INDEX_OPERATOR)),
        req(3, "value", Ty::Bin),
    ],
};

pub(super) static INDEX_CLAUSE: StructDef = StructDef {
    name: "IndexClause",
    size: size_of::<g::IndexClause>(),
    fields: &[
        req(1, "expressions", Ty::List(&Ty::Struct(&INDEX_EXPRESSION))),
        req(2, "start_key", Ty::Bin),
        field(3, "count", Ty::I32, REQ, Some(Value::I32(100))),
    ],
};

pub(super) static KEY_RANGE: StructDef = StructDef {
    name: "KeyRange",
    size: size_of::<g::KeyRange>(),
    fields: &[
        opt(1, "start_key", Ty::Bin),
        opt(2, "end_key", Ty::Bin),
        opt(3, "start_token", Ty::Str),
        opt(4, "end_token", Ty::Str),
        opt(6, "row_filter", Ty::List(&Ty::Struct(&INDEX_EXPRESSION))),
        field(5, "count", Ty::I32, REQ, Some(Value::I32(100))),
    ],
};

static DELETION: StructDef = StructDef {
    name: "Deletion",
    size: size_of::<g::Deletion>(),
    fields: &[
        opt(1, "timestamp", Ty::I64),
        opt(2, "super_column", Ty::Bin),
        opt(3, "predicate", Ty::Struct(&SLICE_PREDICATE)),
    ],
};

pub(super) static MUTATION: StructDef = StructDef {
    name: "Mutation",
    size: size_of::<g::Mutation>(),
    fields: &[
        opt(1, "column_or_supercolumn", Ty::Struct(&COSC)),
        opt(2, "deletion", Ty::Struct(&DELETION)),
    ],
};

pub(super) static AUTH_REQUEST: StructDef = StructDef {
    name: "AuthenticationRequest",
    size: size_of::<g::AuthenticationRequest>(),
    fields: &[req(1, "credentials", Ty::Map(&Ty::Str, &Ty::Str))],
};

const STR_MAP: Ty = Ty::Map(&Ty::Str, &Ty::Str);

static COLUMN_DEF: StructDef = StructDef {
    name: "ColumnDef",
    size: size_of::<g::ColumnDef>(),
    fields: &[
        req(1, "name", Ty::Bin),
        req(2, "validation_class", Ty::Str),
        opt(3, "index_type", Ty::Enum(&INDEX_TYPE)),
        opt(4, "index_name", Ty::Str),
        opt(5, "index_options", STR_MAP),
    ],
};

static TRIGGER_DEF: StructDef = StructDef {
    name: "TriggerDef",
    size: size_of::<g::TriggerDef>(),
    fields: &[req(1, "name", Ty::Str), req(2, "options", STR_MAP)],
};

/// An optional string field with a default.
const fn opt_str(id: i16, name: &'static str, default: &'static str) -> FieldDef {
    field(id, name, Ty::Str, OPT, Some(Value::Str(default)))
}

pub(super) static CF_DEF: StructDef = StructDef {
    name: "CfDef",
    size: size_of::<g::CfDef>(),
    fields: &[
        req(1, "keyspace", Ty::Str),
        req(2, "name", Ty::Str),
        opt_str(3, "column_type", "Standard"),
        opt_str(5, "comparator_type", "BytesType"),
        opt(6, "subcomparator_type", Ty::Str),
        opt(8, "comment", Ty::Str),
        opt(12, "read_repair_chance", Ty::Double),
        opt(13, "column_metadata", Ty::List(&Ty::Struct(&COLUMN_DEF))),
        opt(14, "gc_grace_seconds", Ty::I32),
        opt(15, "default_validation_class", Ty::Str),
        opt(16, "id", Ty::I32),
        opt(17, "min_compaction_threshold", Ty::I32),
        opt(18, "max_compaction_threshold", Ty::I32),
        opt(26, "key_validation_class", Ty::Str),
        opt(28, "key_alias", Ty::Bin),
        opt(29, "compaction_strategy", Ty::Str),
        opt(30, "compaction_strategy_options", STR_MAP),
        opt(32, "compression_options", STR_MAP),
        opt(33, "bloom_filter_fp_chance", Ty::Double),
        opt_str(34, "caching", "keys_only"),
        field(
            37,
            "dclocal_read_repair_chance",
            Ty::Double,
            OPT,
            Some(Value::Double(0.0)),
        ),
        opt(39, "memtable_flush_period_in_ms", Ty::I32),
        opt(40, "default_time_to_live", Ty::I32),
        opt_str(42, "speculative_retry", "NONE"),
        opt(43, "triggers", Ty::List(&Ty::Struct(&TRIGGER_DEF))),
        opt_str(44, "cells_per_row_to_cache", "100"),
        opt(45, "min_index_interval", Ty::I32),
        opt(46, "max_index_interval", Ty::I32),
        // Deprecated: still sent by older clients, read and ignored.
        opt(9, "row_cache_size", Ty::Double),
        opt(11, "key_cache_size", Ty::Double),
        opt(19, "row_cache_save_period_in_seconds", Ty::I32),
        opt(20, "key_cache_save_period_in_seconds", Ty::I32),
        opt(21, "memtable_flush_after_mins", Ty::I32),
        opt(22, "memtable_throughput_in_mb", Ty::I32),
        opt(23, "memtable_operations_in_millions", Ty::Double),
        opt(24, "replicate_on_write", Ty::Bool),
        opt(25, "merge_shards_chance", Ty::Double),
        opt(27, "row_cache_provider", Ty::Str),
        opt(31, "row_cache_keys_to_save", Ty::I32),
        opt(38, "populate_io_cache_on_flush", Ty::Bool),
        opt(41, "index_interval", Ty::I32),
    ],
};

pub(super) static KS_DEF: StructDef = StructDef {
    name: "KsDef",
    size: size_of::<g::KsDef>(),
    fields: &[
        req(1, "name", Ty::Str),
        req(2, "strategy_class", Ty::Str),
        opt(3, "strategy_options", STR_MAP),
        opt(4, "replication_factor", Ty::I32),
        req(5, "cf_defs", Ty::List(&Ty::Struct(&CF_DEF))),
        field(6, "durable_writes", Ty::Bool, OPT, Some(Value::Bool(true))),
    ],
};

static COLUMN_SLICE: StructDef = StructDef {
    name: "ColumnSlice",
    size: size_of::<g::ColumnSlice>(),
    fields: &[opt(1, "start", Ty::Bin), opt(2, "finish", Ty::Bin)],
};

pub(super) static MULTI_SLICE_REQUEST: StructDef = StructDef {
    name: "MultiSliceRequest",
    size: size_of::<g::MultiSliceRequest>(),
    fields: &[
        opt(1, "key", Ty::Bin),
        opt(2, "column_parent", Ty::Struct(&COLUMN_PARENT)),
        opt(3, "column_slices", Ty::List(&Ty::Struct(&COLUMN_SLICE))),
        field(4, "reversed", Ty::Bool, OPT, Some(Value::Bool(false))),
        field(5, "count", Ty::I32, OPT, Some(Value::I32(1000))),
        cl(6, "consistency_level", OPT, 1),
    ],
};

/// `1: required binary key`, the first argument of most data methods.
pub(super) const KEY: FieldDef = req(1, "key", Ty::Bin);
/// `1: required list<binary> keys`.
pub(super) const KEYS: FieldDef = req(1, "keys", Ty::List(&Ty::Bin));
