//! `ilion import` of sstable2json text: the real 0.6 output of every fixture SSTable, and
//! bad input (wrong CF type, bad hex, bad JSON) refused before anything is written.

use super::*;
use ilion::config::Config;
use ilion::migrate::merge::{drop_shadowed, merge_versions};
use ilion::migrate::row::{Row, RowBody};
use ilion::migrate::shape::CfShape;
use ilion::migrate::sstable06::{self, DataFile};

/// A merged row as expected-reads.json shows it (`None` when nothing is visible).
fn visible(row: &Row) -> Option<Value> {
    let live = |cols: &[ilion::migrate::row::Column]| -> Vec<Value> {
        cols.iter()
            .filter(|c| !c.deleted)
            .map(|c| json!([hex(&c.name), hex(&c.value), c.timestamp]))
            .collect()
    };
    let entries: Vec<Value> = match &row.body {
        RowBody::Standard(cols) => live(cols),
        RowBody::Super(supers) => supers
            .iter()
            .filter_map(|s| {
                let cols = live(&s.columns);
                (!cols.is_empty()).then(|| json!([hex(&s.name), cols]))
            })
            .collect(),
    };
    (!entries.is_empty()).then_some(Value::Array(entries))
}

/// Every row version of every SSTable of `cf`, by key.
fn versions(config: &Config, cf: &str) -> BTreeMap<String, Vec<Row>> {
    let shape = CfShape::of(config.schema.cf(KEYSPACE, cf).unwrap());
    let mut out: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for table in &sstable06::list(&keyspace_dir()).unwrap()[cf] {
        let mut file = DataFile::open(&table.data, shape, config.partitioner).unwrap();
        while let Some(r) = file.next_row().unwrap() {
            out.entry(r.row.key.clone()).or_default().push(r.row);
        }
    }
    out
}

/// What importing every fixture sstable2json file must read back: the SSTables merged with
/// their row tombstones removed (the text has none). Checks on the way that this equals what
/// Cassandra read for every row that never had a row tombstone.
fn json_model(config: &Config) -> BTreeMap<String, BTreeMap<String, Value>> {
    let expected = expected_reads();
    let mut model = BTreeMap::new();
    let mut rows_with_row_tombstones = 0;
    for cf in CFS {
        let shape = CfShape::of(config.schema.cf(KEYSPACE, cf).unwrap());
        let mut rows = BTreeMap::new();
        for (key, versions) in versions(config, cf) {
            let had_row_tombstone = versions.iter().any(|v| v.deleted_at.is_some());
            let stripped = versions
                .into_iter()
                .map(|v| Row {
                    deleted_at: None,
                    ..v
                })
                .collect();
            let row = visible(&drop_shadowed(merge_versions(stripped, shape)));
            if had_row_tombstone {
                rows_with_row_tombstones += 1;
            } else {
                // Where 0.6's text lost nothing, it reads back exactly what Cassandra read.
                assert_eq!(row.as_ref(), expected[cf].get(&key), "{cf} row {key:?}");
            }
            if let Some(row) = row {
                rows.insert(key, row);
            }
        }
        model.insert(cf.to_string(), rows);
    }
    assert!(rows_with_row_tombstones > 0);
    model
}

/// Imports every fixture sstable2json file, CF by CF in generation order, through `place`.
fn import_all_json(place: &[&str]) {
    let tables = sstable06::list(&keyspace_dir()).unwrap();
    for cf in CFS {
        for table in &tables[cf] {
            let json = table.data.with_extension("db.json");
            let args = [&["import"], place, &[KEYSPACE, cf, json.to_str().unwrap()]].concat();
            ilion_ok(&args, None);
        }
    }
}

#[test]
fn sstable2json_text_imports_as_the_sstables_without_their_row_tombstones() {
    let store = Store::fresh();
    let config = Config::load(&store.config).unwrap();
    import_all_json(&["--config", &store.config_arg()]);
    assert_same_reads(&store.reads(), &json_model(&config));
}

#[test]
fn sstable2json_text_imports_the_same_over_thrift_tombstones_included() {
    let store = Store::fresh();
    let config = Config::load(&store.config).unwrap();
    let server = store.serve();
    let port = server.addr.port().to_string();
    import_all_json(&["--host", "127.0.0.1", "--port", &port]);
    let reads = read_all(&server);
    stop(server);
    assert_same_reads(&reads, &json_model(&config));
}

fn users_import_fails(store: &Store, text: &str, via_stdin: bool) -> String {
    let path = store.dir.path().join("in.json");
    std::fs::write(&path, text).unwrap();
    let file = if via_stdin {
        "-"
    } else {
        path.to_str().unwrap()
    };
    let args = [
        "import",
        "--config",
        &store.config_arg(),
        KEYSPACE,
        "Users",
        file,
    ];
    let e = ilion_fails(&args, via_stdin.then_some(text.as_bytes()));
    let reads = store.reads();
    assert!(reads["Users"].is_empty(), "a refused import wrote rows");
    e
}

#[test]
fn bad_input_is_refused_before_anything_is_written() {
    let store = Store::fresh();
    let good = r#""a": [["6e", "76", 1, false]]"#;
    for via_stdin in [false, true] {
        let e = users_import_fails(
            &store,
            &format!("{{{good},\n\"b\": [[\"zz\", \"\", 1, false]]}}"),
            via_stdin,
        );
        assert!(e.contains("line 2") && e.contains("is not hex"), "{e}");
        let e = users_import_fails(
            &store,
            &format!("{{{good}, \"b\": [[\"6e\", \"\", 1, false]]"),
            via_stdin,
        );
        assert!(
            e.contains("expected ',' or '}'") || e.contains("ends"),
            "{e}"
        );
    }
    let posts = keyspace_dir().join("Posts-1-Data.db.json");
    let e = users_import_fails(&store, &std::fs::read_to_string(posts).unwrap(), false);
    assert!(
        e.contains("is a Super row") && e.contains("a Standard CF (BytesType)"),
        "{e}"
    );
    let e = ilion_fails(
        &[
            "import",
            "--config",
            &store.config_arg(),
            KEYSPACE,
            "Nope",
            "-",
        ],
        Some(b"{}"),
    );
    assert!(e.contains("unconfigured columnfamily Nope"), "{e}");
}
