//! Keeps the 0.6 method table and `schema.rs` honest: `idl/cassandra.thrift`, read as text,
//! must list the same methods in the same order with the same `throws` clauses, and every
//! argument and reachable struct field with the same id, name, type, requiredness and default.
//! No Thrift compiler is needed; scripts/test-all.sh checks `generated.rs` against the
//! compiler. The comparisons are shared with `v20::schema_tests`.

use super::idl_text::{parse, Field, Idl, Literal, Type};
use super::methods::{find, Method, Throws, METHODS, NONE};
use super::schema::{Req, StructDef, Ty, Value};

/// `idl/<file>`, read.
pub(super) fn read_idl(file: &str) -> Idl {
    let path = format!("{}/idl/{file}", env!("CARGO_MANIFEST_DIR"));
    parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}")))
}

fn idl() -> Idl {
    read_idl("cassandra.thrift")
}

/// Compares a declared type with the IDL's.
fn same_type(ty: Ty, idl_ty: &Type, idl: &Idl, at: &str) {
    let named = |want: &str| assert_eq!(idl_ty, &Type::Named(want.into()), "{at}: type");
    match ty {
        Ty::Bool => named("bool"),
        Ty::I32 => named("i32"),
        Ty::I64 => named("i64"),
        Ty::Double => named("double"),
        Ty::Str => named("string"),
        Ty::Bin => named("binary"),
        Ty::Enum(def) => {
            let Type::Named(name) = idl_ty else {
                panic!("{at}: not an enum: {idl_ty:?}");
            };
            let values = idl.enums.get(name);
            let values = values.unwrap_or_else(|| panic!("{at}: {name} is not an enum"));
            let mut want: Vec<i64> = values.values().copied().collect();
            want.sort_unstable();
            let have: Vec<i64> = def.values.iter().map(|&n| i64::from(n)).collect();
            assert_eq!(have, want, "{at}: the numbers of {name}, ascending");
        }
        Ty::Struct(def) => {
            named(def.name);
            let found = idl.structs.get(def.name);
            let (exception, fields) = found.unwrap_or_else(|| panic!("{at}: struct in IDL"));
            assert!(!exception, "{at}: {} is an exception", def.name);
            same_struct(def, fields, idl);
        }
        Ty::List(elem) => {
            let Type::List(idl_elem) = idl_ty else {
                panic!("{at}: not a list: {idl_ty:?}");
            };
            same_type(*elem, idl_elem, idl, at);
        }
        Ty::Map(k, v) => {
            let Type::Map(idl_k, idl_v) = idl_ty else {
                panic!("{at}: not a map: {idl_ty:?}");
            };
            same_type(*k, idl_k, idl, at);
            same_type(*v, idl_v, idl, at);
        }
    }
}

/// Compares a struct (or a method's arguments) with the IDL's fields, and what it reaches.
pub(super) fn same_struct(def: &StructDef, fields: &[Field], idl: &Idl) {
    assert_eq!(fields.len(), def.fields.len(), "{}: field count", def.name);
    assert!(def.fields.len() <= 64, "normalize tracks at most 64 fields");
    for (f, j) in def.fields.iter().zip(fields) {
        let at = format!("{}.{}", def.name, f.name);
        assert_eq!(j.id, i64::from(f.id), "{at}: id");
        assert_eq!(j.name, f.name, "{at}: name");
        let req = match f.req {
            Req::Required => Some("required"),
            Req::Optional => Some("optional"),
            Req::Default => None,
        };
        assert_eq!(j.req.as_deref(), req, "{at}: requiredness");
        let idl_default = j.default.as_ref().map(|d| match d {
            Literal::Ident(name) => Literal::Int(
                idl.enum_value(name)
                    .unwrap_or_else(|| panic!("{at}: unknown constant {name}")),
            ),
            other => other.clone(),
        });
        let default = f.default.map(|d| match d {
            Value::Bool(b) => Literal::Int(i64::from(b)),
            Value::I32(n) => Literal::Int(i64::from(n)),
            Value::Double(x) => Literal::Float(x.to_bits()),
            Value::Str(s) => Literal::Str(s.to_string()),
        });
        assert_eq!(idl_default, default, "{at}: default");
        // Every default-requiredness field needs a default, or the generated Rust would
        // demand it while Java did not; the normalizer supplies an empty list for a list.
        assert!(
            f.req != Req::Default || f.default.is_some() || matches!(f.ty, Ty::List(_)),
            "{at}: no default"
        );
        same_type(f.ty, &j.ty, idl, &at);
    }
}

/// The flags a `throws` clause amounts to; every exception in it must be one the table knows.
fn throws_of(clause: &[Field], idl: &Idl, at: &str) -> Throws {
    let mut t = NONE;
    for f in clause {
        let Type::Named(name) = &f.ty else {
            panic!("{at}: throws a {:?}", f.ty);
        };
        assert!(
            matches!(idl.structs.get(name), Some((true, _))),
            "{at}: {name} is not an exception"
        );
        let flag = match name.as_str() {
            "InvalidRequestException" => &mut t.invalid_request,
            "NotFoundException" => &mut t.not_found,
            "UnavailableException" => &mut t.unavailable,
            "TimedOutException" => &mut t.timed_out,
            "AuthenticationException" => &mut t.authentication,
            "AuthorizationException" => &mut t.authorization,
            "SchemaDisagreementException" => &mut t.schema_disagreement,
            other => panic!("{at}: the method table has no flag for {other}"),
        };
        assert!(!*flag, "{at}: {name} twice");
        *flag = true;
    }
    t
}

/// Every row of `methods` against the IDL's functions: names, order, throws and arguments.
pub(super) fn same_methods(methods: &[&Method], idl: &Idl) {
    assert_eq!(idl.functions.len(), methods.len(), "method count");
    for (m, f) in methods.iter().zip(&idl.functions) {
        assert_eq!(m.name, f.name, "method order");
        assert_eq!(m.args.name, format!("{}_args", f.name));
        assert_eq!(
            m.throws,
            throws_of(&f.throws, idl, m.name),
            "{}: throws",
            m.name
        );
        same_struct(m.args, &f.args, idl);
    }
}

#[test]
fn method_table_matches_the_idl() {
    let idl = idl();
    assert_eq!(idl.functions.len(), 21);
    same_methods(METHODS, &idl);
}

#[test]
fn the_reader_sees_what_the_idl_says() {
    // A few facts read by eye, so that a reader that lost things could not pass the test above.
    let idl = idl();
    assert_eq!(idl.enum_value("ConsistencyLevel.ONE"), Some(1));
    assert_eq!(idl.enum_value("ConsistencyLevel.ANY"), Some(6));
    let remove = &idl.functions[10];
    assert_eq!(remove.name, "remove");
    assert_eq!(remove.args[4].name, "consistency_level");
    assert_eq!(remove.args[4].req, None);
    assert_eq!(remove.throws.len(), 3);
    let (exception, fields) = &idl.structs["KeyRange"];
    assert!(!exception);
    assert_eq!(fields[4].default, Some(Literal::Int(100)));
    assert!(idl.structs["NotFoundException"].0);
    let splits = &idl.functions[20];
    assert_eq!(splits.name, "describe_splits");
    assert!(splits.throws.is_empty());
}

#[test]
fn a_changed_idl_is_noticed() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/idl/cassandra.thrift"))
            .expect("read the IDL");
    let changed = text.replace("5: required i32 count = 100", "5: required i32 count = 50");
    assert_ne!(changed, text, "the KeyRange line moved; update this test");
    let run = std::panic::catch_unwind(|| {
        let idl = parse(&changed);
        let m = find("get_range_slices").expect("get_range_slices");
        same_struct(m.args, &idl.functions[7].args, &idl);
    });
    assert!(run.is_err(), "a changed default went unnoticed");
}

#[test]
fn method_lookup() {
    assert_eq!(find("get").map(|m| m.args.name), Some("get_args"));
    assert!(find("get_args").is_none());
    assert!(find("set_keyspace").is_none());
}
