//! Keeps `schema.rs` honest: the Thrift compiler's JSON description of the IDL must list the
//! same methods, and every argument and reachable struct field with the same id, name, type,
//! requiredness and default. Like tests/generated_code.rs it needs the Thrift compiler.

use std::process::Command;

use serde_json::Value as Json;

use super::schema::{Req, StructDef, Ty, Value, METHODS};

fn idl_as_json() -> Json {
    let idl = concat!(env!("CARGO_MANIFEST_DIR"), "/idl/cassandra.thrift");
    let dir = tempfile::tempdir().expect("temporary directory");
    let run = Command::new("thrift")
        .args(["-gen", "json", "-out"])
        .arg(dir.path())
        .arg(idl)
        .output()
        .expect("the Thrift compiler is missing: install the Debian package thrift-compiler");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(dir.path().join("cassandra.json")).expect("json output");
    serde_json::from_str(&text).expect("valid json")
}

/// Compares a declared type with the JSON `type` description (`id` is its typeId).
fn same_type(ty: Ty, id: &Json, detail: Option<&Json>, structs: &Json, at: &str) {
    let want = match ty {
        Ty::Bool => "bool",
        Ty::I32 | Ty::Cl => "i32",
        Ty::I64 => "i64",
        Ty::Str => "string",
        Ty::Bin => "binary",
        Ty::Struct(_) => "struct",
        Ty::List(_) => "list",
        Ty::Map(..) => "map",
    };
    assert_eq!(id, want, "{at}: type");
    let detail = || detail.unwrap_or_else(|| panic!("{at}: no type detail"));
    match ty {
        Ty::Struct(def) => {
            assert_eq!(detail()["class"], def.name, "{at}: struct");
            let found = structs
                .as_array()
                .and_then(|all| all.iter().find(|s| s["name"] == def.name));
            same_struct(def, &found.expect("struct in IDL")["fields"], structs);
        }
        Ty::List(elem) => {
            let d = detail();
            same_type(*elem, &d["elemTypeId"], d.get("elemType"), structs, at);
        }
        Ty::Map(k, v) => {
            let d = detail();
            same_type(*k, &d["keyTypeId"], d.get("keyType"), structs, at);
            same_type(*v, &d["valueTypeId"], d.get("valueType"), structs, at);
        }
        _ => {}
    }
}

fn same_struct(def: &StructDef, fields: &Json, structs: &Json) {
    let fields = fields.as_array().expect("field list");
    assert_eq!(fields.len(), def.fields.len(), "{}: field count", def.name);
    assert!(def.fields.len() <= 8, "normalize tracks at most 8 fields");
    for (f, j) in def.fields.iter().zip(fields) {
        let at = format!("{}.{}", def.name, f.name);
        assert_eq!(j["key"], f.id, "{at}: id");
        assert_eq!(j["name"], f.name, "{at}: name");
        let req = match f.req {
            Req::Required => "required",
            Req::Optional => "optional",
            Req::Default => "req_out",
        };
        assert_eq!(j["required"], req, "{at}: requiredness");
        let default = match f.default {
            None => Json::Null,
            Some(Value::Bool(b)) => Json::from(i32::from(b)),
            Some(Value::I32(n)) => Json::from(n),
            Some(Value::Str(s)) => Json::from(s),
        };
        assert_eq!(
            j.get("default").unwrap_or(&Json::Null),
            &default,
            "{at}: default"
        );
        // Every default-requiredness field needs a default, or the generated Rust would
        // demand it while Java did not.
        assert!(
            f.req != Req::Default || f.default.is_some(),
            "{at}: no default"
        );
        same_type(f.ty, &j["typeId"], j.get("type"), structs, &at);
    }
}

#[test]
fn schema_matches_the_idl() {
    let idl = idl_as_json();
    let functions = idl["services"][0]["functions"]
        .as_array()
        .expect("functions");
    assert_eq!(functions.len(), METHODS.len(), "method count");
    assert_eq!(functions.len(), 21);
    for (def, f) in METHODS.iter().zip(functions) {
        let name = f["name"].as_str().expect("method name");
        assert_eq!(def.name, format!("{name}_args"));
        same_struct(def, &f["arguments"], &idl["structs"]);
    }
}

#[test]
fn method_lookup() {
    assert_eq!(
        super::schema::method("get").map(|m| m.name),
        Some("get_args")
    );
    assert!(super::schema::method("get_args").is_none());
    assert!(super::schema::method("set_keyspace").is_none());
}
