//! The request half of an IDL as data: the types of fields ([`Ty`], shared by both APIs), and
//! for `idl/cassandra.thrift` every struct a method's arguments can reach, with field ids, wire
//! types, requiredness and defaults (`v20::schema` holds the same for `idl/cassandra-20.thrift`).
//! The arguments themselves are rows of the method tables; the normalizer walks them with
//! these definitions the way the Java servers read them. A test reads each IDL text and
//! compares, so they cannot drift apart.

use std::mem::size_of;

use super::generated as g;
use super::wire::{T_BOOL, T_DOUBLE, T_I32, T_I64, T_LIST, T_MAP, T_STRING, T_STRUCT};

/// A field's declared type.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ty {
    Bool,
    I32,
    I64,
    Double,
    /// Thrift `string` (UTF-8, decoded lossily).
    Str,
    /// Thrift `binary` (raw bytes).
    Bin,
    /// An enum, an i32 on the wire; Java read a number it does not list as null.
    Enum(&'static EnumDef),
    Struct(&'static StructDef),
    List(&'static Ty),
    Map(&'static Ty, &'static Ty),
}

impl Ty {
    /// Bytes one value takes in its decoded Rust form (not counting what it points to).
    pub(crate) fn rust_size(self) -> usize {
        match self {
            Ty::Bool => 1,
            Ty::I32 | Ty::Enum(_) => 4,
            Ty::I64 | Ty::Double => 8,
            Ty::Str | Ty::Bin | Ty::List(_) => size_of::<Vec<u8>>(),
            Ty::Map(..) => size_of::<std::collections::BTreeMap<String, String>>(),
            Ty::Struct(def) => def.size,
        }
    }

    /// The binary-protocol type id this type travels as.
    pub(crate) fn wire(self) -> u8 {
        match self {
            Ty::Bool => T_BOOL,
            Ty::I32 | Ty::Enum(_) => T_I32,
            Ty::I64 => T_I64,
            Ty::Double => T_DOUBLE,
            Ty::Str | Ty::Bin => T_STRING,
            Ty::Struct(_) => T_STRUCT,
            Ty::Map(..) => T_MAP,
            Ty::List(_) => T_LIST,
        }
    }
}

/// Requiredness as declared; `Default` is neither keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Req {
    Required,
    Optional,
    Default,
}

/// A default value from the IDL.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Value {
    Bool(bool),
    I32(i32),
    Double(f64),
    Str(&'static str),
}

/// An enum: the numbers it lists (any other number is no value of it). Its name is the
/// field's type in the IDL, where a test checks the numbers.
#[derive(Debug)]
pub(crate) struct EnumDef {
    pub values: &'static [i32],
}

impl EnumDef {
    /// Whether `n` is one of the listed numbers.
    pub(crate) fn knows(&self, n: i32) -> bool {
        self.values.contains(&n)
    }
}

/// One field of a struct or argument list.
#[derive(Debug)]
pub(crate) struct FieldDef {
    pub id: i16,
    pub name: &'static str,
    pub ty: Ty,
    pub req: Req,
    pub default: Option<Value>,
}

/// A struct, or a method's arguments (named `<method>_args`, as Java named them).
#[derive(Debug)]
pub(crate) struct StructDef {
    pub name: &'static str,
    pub fields: &'static [FieldDef],
    /// `size_of` the generated Rust struct (0 for arguments, which live on the stack).
    pub size: usize,
}

pub(super) const fn field(
    id: i16,
    name: &'static str,
    ty: Ty,
    req: Req,
    default: Option<Value>,
) -> FieldDef {
    FieldDef {
        id,
        name,
        ty,
        req,
        default,
    }
}

pub(super) const fn req(id: i16, name: &'static str, ty: Ty) -> FieldDef {
    field(id, name, ty, Req::Required, None)
}

pub(super) const fn opt(id: i16, name: &'static str, ty: Ty) -> FieldDef {
    field(id, name, ty, Req::Optional, None)
}

/// `consistency_level = ConsistencyLevel.ONE` at argument `id`, required unless `req` says.
pub(super) const fn cl(id: i16, req: Req) -> FieldDef {
    let ty = Ty::Enum(&CONSISTENCY_LEVEL);
    field(id, "consistency_level", ty, req, Some(Value::I32(1)))
}

/// The 0.6 levels: ZERO (0) to ANY (6).
pub(super) static CONSISTENCY_LEVEL: EnumDef = EnumDef {
    values: &[0, 1, 2, 3, 4, 5, 6],
};

/// Shorthand for the IDL's `required`.
pub(super) const REQ: Req = Req::Required;

static COLUMN: StructDef = StructDef {
    name: "Column",
    size: size_of::<g::Column>(),
    fields: &[
        req(1, "name", Ty::Bin),
        req(2, "value", Ty::Bin),
        req(3, "timestamp", Ty::I64),
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

pub(super) static COSC: StructDef = StructDef {
    name: "ColumnOrSuperColumn",
    size: size_of::<g::ColumnOrSuperColumn>(),
    fields: &[
        opt(1, "column", Ty::Struct(&COLUMN)),
        opt(2, "super_column", Ty::Struct(&SUPER_COLUMN)),
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

pub(super) static KEY_RANGE: StructDef = StructDef {
    name: "KeyRange",
    size: size_of::<g::KeyRange>(),
    fields: &[
        opt(1, "start_key", Ty::Str),
        opt(2, "end_key", Ty::Str),
        opt(3, "start_token", Ty::Str),
        opt(4, "end_token", Ty::Str),
        field(5, "count", Ty::I32, REQ, Some(Value::I32(100))),
    ],
};

static DELETION: StructDef = StructDef {
    name: "Deletion",
    size: size_of::<g::Deletion>(),
    fields: &[
        req(1, "timestamp", Ty::I64),
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

/// `1: required string keyspace`, the first argument of most methods.
pub(super) const KEYSPACE: FieldDef = req(1, "keyspace", Ty::Str);
/// `2: required string key`.
pub(super) const KEY: FieldDef = req(2, "key", Ty::Str);
/// `2: required list<string> keys`.
pub(super) const KEYS: FieldDef = req(2, "keys", Ty::List(&Ty::Str));
