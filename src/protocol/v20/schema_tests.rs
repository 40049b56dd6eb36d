//! Keeps the 20.1.0 method table and `v20::schema` honest against `idl/cassandra-20.thrift`
//! read as text (the same comparisons as the 0.6 table's), and the enum numbers the
//! normalizer knows against the generated code.

use super::generated as g;
use super::methods::{find, METHODS};
use super::schema::{COMPRESSION, CONSISTENCY_LEVEL};
use crate::protocol::idl_text::{parse, Idl, Literal};
use crate::protocol::schema::{EnumDef, Ty};
use crate::protocol::schema_tests::{read_idl, same_methods, same_struct};

const FILE: &str = "cassandra-20.thrift";

fn idl() -> Idl {
    read_idl(FILE)
}

#[test]
fn method_table_matches_the_idl() {
    let idl = idl();
    assert_eq!(idl.functions.len(), 45);
    same_methods(METHODS, &idl);
}

#[test]
fn the_reader_sees_what_the_idl_says() {
    // Facts read by eye from the spec's tables (§1.3-1.6), so that a reader that lost things
    // could not pass the test above.
    let idl = idl();
    let cl = &idl.enums["ConsistencyLevel"];
    assert_eq!(cl.get("ZERO"), None);
    assert_eq!(cl.get("ONE"), Some(&1));
    assert_eq!(cl.get("LOCAL_ONE"), Some(&11));
    assert_eq!(cl.len(), 11);
    assert_eq!(idl.enum_value("IndexType.COMPOSITES"), Some(2));
    assert_eq!(idl.enum_value("Compression.NONE"), Some(2));

    let remove = &idl.functions[13];
    assert_eq!(remove.name, "remove");
    assert_eq!(remove.args[3].name, "consistency_level");
    assert_eq!(remove.args[3].req, None);
    let cas = &idl.functions[12];
    assert_eq!(cas.name, "cas");
    assert_eq!(
        (cas.args[2].name.as_str(), cas.args[2].req.as_ref()),
        ("expected", None)
    );
    let serial = Literal::Ident("ConsistencyLevel.SERIAL".into());
    assert_eq!(cas.args[4].default, Some(serial));

    let (exception, key_range) = &idl.structs["KeyRange"];
    assert!(!exception);
    let ids: Vec<i64> = key_range.iter().map(|f| f.id).collect();
    assert_eq!(
        ids,
        [1, 2, 3, 4, 6, 5],
        "row_filter is declared before count"
    );
    let (_, cf_def) = &idl.structs["CfDef"];
    assert_eq!(cf_def.len(), 41, "28 current and 13 deprecated fields");
    let dclocal = cf_def
        .iter()
        .find(|f| f.name == "dclocal_read_repair_chance");
    assert_eq!(
        dclocal.unwrap().default,
        Some(Literal::Float(0.0f64.to_bits()))
    );
    assert!(idl.structs["SchemaDisagreementException"].0);

    let ddl = &idl.functions[32];
    assert_eq!(ddl.name, "system_add_column_family");
    assert_eq!(ddl.throws[1].name, "sde");
    assert_eq!(idl.functions[44].name, "set_cql_version");
}

#[test]
fn a_changed_idl_is_noticed() {
    let path = format!("{}/idl/{FILE}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("read the IDL");
    let changes = [
        // a default
        (
            "5: optional i32 count = 1000",
            "5: optional i32 count = 999",
        ),
        // an enum number the normalizer would not know
        (
            "enum ConsistencyLevel {\n",
            "enum ConsistencyLevel {\n    ZERO = 0,\n",
        ),
        // requiredness
        (
            "6: optional ConsistencyLevel consistency_level",
            "6: required ConsistencyLevel consistency_level",
        ),
    ];
    for (from, to) in changes {
        let changed = text.replacen(from, to, 1);
        assert_ne!(changed, text, "{from:?} moved; update this test");
        let run = std::panic::catch_unwind(|| {
            let idl = parse(&changed);
            let m = find("get_multi_slice").expect("get_multi_slice");
            same_struct(m.args, &idl.functions[18].args, &idl);
        });
        assert!(run.is_err(), "{to:?} went unnoticed");
    }
}

#[test]
fn the_normalizer_knows_the_generated_enum_numbers() {
    fn numbers(def: &EnumDef) -> Vec<i32> {
        def.values.to_vec()
    }
    let generated = |values: &[i32]| values.to_vec();
    let cl: Vec<i32> = g::ConsistencyLevel::ENUM_VALUES
        .iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(numbers(&CONSISTENCY_LEVEL), generated(&cl));
    let compression: Vec<i32> = g::Compression::ENUM_VALUES.iter().map(|v| v.0).collect();
    assert_eq!(numbers(&COMPRESSION), generated(&compression));
    // IndexOperator and IndexType are reached through structs; find them there.
    let range = find("get_range_slices")
        .expect("get_range_slices")
        .args
        .fields[2]
        .ty;
    let Ty::Struct(key_range) = range else {
        panic!("range is a struct")
    };
    let Ty::List(Ty::Struct(expr)) = key_range.fields[4].ty else {
        panic!("row_filter is a list of IndexExpression")
    };
    let Ty::Enum(op) = expr.fields[1].ty else {
        panic!("op is an enum")
    };
    let ops: Vec<i32> = g::IndexOperator::ENUM_VALUES.iter().map(|v| v.0).collect();
    assert_eq!(numbers(op), ops);
    let cf_def = find("system_add_column_family").expect("ddl").args.fields[0].ty;
    let Ty::Struct(cf_def) = cf_def else {
        panic!("cf_def is a struct")
    };
    let Ty::List(Ty::Struct(column_def)) = cf_def.fields[7].ty else {
        panic!("column_metadata is a list of ColumnDef")
    };
    let Ty::Enum(index_type) = column_def.fields[2].ty else {
        panic!("index_type is an enum")
    };
    let types: Vec<i32> = g::IndexType::ENUM_VALUES.iter().map(|v| v.0).collect();
    assert_eq!(numbers(index_type), types);
}

#[test]
fn method_lookup() {
    assert_eq!(find("get").map(|m| m.args.name), Some("get_args"));
    assert!(find("set_keyspace").is_some());
    assert!(find("get_multi_slice").is_some());
    // 0.6-only methods are no 20.1.0 methods
    assert!(find("multiget").is_none());
    assert!(find("get_string_property").is_none());
    assert!(find("get_args").is_none());
}
