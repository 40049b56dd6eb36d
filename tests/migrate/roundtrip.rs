//! Export → import into an empty store → identical reads, offline (files) and over Thrift
//! (stdout → stdin); key filters; a data directory in use is refused for offline work.

use super::*;

/// A store holding the fixture, imported from the 0.6 SSTables.
fn imported() -> Store {
    let store = Store::fresh();
    let dir = keyspace_dir();
    ilion_ok(&store.import06(&dir), None);
    store
}

#[test]
fn offline_export_then_import_reads_the_same() {
    let a = imported();
    let b = Store::fresh();
    for cf in CFS {
        let file = a.dir.path().join(format!("{cf}.json"));
        let file = file.to_str().unwrap();
        ilion_ok(
            &[
                "export",
                "--config",
                &a.config_arg(),
                KEYSPACE,
                cf,
                "-o",
                file,
            ],
            None,
        );
        ilion_ok(
            &["import", "--config", &b.config_arg(), KEYSPACE, cf, file],
            None,
        );
    }
    assert_same_reads(&b.reads(), &expected_reads());
}

#[test]
fn export_over_thrift_into_import_over_thrift_reads_the_same() {
    let a = imported();
    let b = Store::fresh();
    let source = a.serve();
    // Offline work on a directory a server holds is refused, with a hint.
    let e = ilion_fails(
        &["export", "--config", &a.config_arg(), KEYSPACE, "Users"],
        None,
    );
    assert!(e.contains("in use") && e.contains("--host"), "{e}");

    let target = b.serve();
    let (sp, tp) = (
        source.addr.port().to_string(),
        target.addr.port().to_string(),
    );
    for cf in CFS {
        let text = ilion_ok(
            &["export", "--host", "127.0.0.1", "--port", &sp, KEYSPACE, cf],
            None,
        );
        let out = ilion(
            &[
                "import",
                "--host",
                "127.0.0.1",
                "--port",
                &tp,
                KEYSPACE,
                cf,
                "-",
            ],
            Some(&text),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains("imported") && stderr.contains("rows"),
            "{stderr}"
        );
    }
    let reads = read_all(&target);
    stop(source);
    stop(target);
    assert_same_reads(&reads, &expected_reads());
}

#[test]
fn key_filters_select_rows() {
    let a = imported();
    let text = ilion_ok(
        &[
            "export",
            "--config",
            &a.config_arg(),
            KEYSPACE,
            "Users",
            "-k",
            "user0001",
            "-k",
            "no-such-key",
            "-k",
            "user0002",
            "-x",
            "user0002",
        ],
        None,
    );
    let got: BTreeMap<String, Value> = serde_json::from_slice(&text).unwrap();
    assert_eq!(got.keys().collect::<Vec<_>>(), ["user0001"]);
    let want = &expected_reads()["Users"]["user0001"];
    let cols: Vec<Value> = got["user0001"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c[3], Value::Bool(false));
            json!([c[0], c[1], c[2]])
        })
        .collect();
    assert_eq!(&Value::Array(cols), want);

    let text = ilion_ok(
        &[
            "export",
            "--config",
            &a.config_arg(),
            KEYSPACE,
            "Posts",
            "-x",
            "post-00",
        ],
        None,
    );
    let got: BTreeMap<String, Value> = serde_json::from_slice(&text).unwrap();
    let want: Vec<String> = expected_reads()["Posts"]
        .keys()
        .filter(|k| *k != "post-00")
        .cloned()
        .collect();
    assert!(want.len() > 10);
    assert_eq!(got.into_keys().collect::<Vec<_>>(), want);
}
