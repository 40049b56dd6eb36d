//! Every `ilion tool` verb run as the binary against a real node: tables by default, JSON
//! with `--json`, figures that match what was written over Thrift, and the actions' effects.

use crate::harness::{insert_rows, serial, Server, CLUSTER, KS, ONE};
use ilion::client::TCassandraSyncClient;
use ilion::protocol::ColumnPath;

fn find<'a>(stats: &'a serde_json::Value, cf: &str) -> &'a serde_json::Value {
    stats
        .as_array()
        .expect("a list")
        .iter()
        .find(|s| s["keyspace"] == KS && s["cf"] == cf)
        .unwrap_or_else(|| panic!("no {cf} in {stats}"))
}

#[test]
fn read_verbs_describe_the_node() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    // Per-CF counters are process-wide and other tests of this binary used Standard1 too.
    let baseline = server.tool_json(&["cfstats"]);
    let was = |field: &str| find(&baseline, "Standard1")[field].as_u64().expect(field);
    let histogram_writes = |h: &serde_json::Value| -> u64 {
        h["buckets"]
            .as_array()
            .expect("buckets")
            .iter()
            .map(|b| b["writes"].as_u64().unwrap_or(0))
            .sum()
    };
    let writes_before = histogram_writes(&server.tool_json(&["cfhistograms", KS, "Standard1"]));
    let mut c = server.client();
    insert_rows(&mut c, "r", 12);
    let path = ColumnPath::new("Standard1".into(), None, b"col".to_vec());
    c.remove(KS.into(), "r0".into(), path, 5, ONE)
        .expect("remove");

    let info = server.tool_json(&["info"]);
    assert_eq!(info["cluster_name"], CLUSTER);
    assert!(info["load_bytes"].as_u64() > Some(0));
    assert!(info["resident_memory_bytes"].as_u64() > Some(0));
    let table = server.tool_ok(&["info"]);
    let token = info["token"].as_str().expect("token");
    assert!(
        table.contains(&format!("Token             : {token}")),
        "{table}"
    );
    assert!(table.contains("Generation No"), "{table}");

    let ring = server.tool_json(&["ring"]);
    assert_eq!(ring[0]["token"], token);
    assert_eq!(ring[0]["owns_percent"], 100.0);
    assert!(server.tool_ok(&["ring"]).contains("Up"));

    let stats = server.tool_json(&["cfstats"]);
    let standard = find(&stats, "Standard1");
    assert_eq!(standard["live_rows"], 11, "r0's only column was removed");
    assert_eq!(standard["live_columns"], 11);
    assert_eq!(standard["tombstones"], 1);
    assert_eq!(standard["writes"].as_u64(), Some(was("writes") + 13));
    assert_eq!(
        standard["columns_written"].as_u64(),
        Some(was("columns_written") + 12)
    );
    assert!(standard["write_p99_ms"].as_f64() > Some(0.0));
    assert!(standard["bytes"].as_u64() > Some(0));
    assert_eq!(find(&stats, "Super1")["live_rows"], 0);
    let table = server.tool_ok(&["cfstats", KS, "Standard1"]);
    assert!(table.contains("Column Family: Standard1"), "{table}");
    assert!(!table.contains("Super1"), "only the CF asked for: {table}");
    let unknown = server.tool(&["cfstats", "Nowhere"]);
    assert_eq!(unknown.status.code(), Some(1));

    let tp = server.tool_json(&["tpstats"]);
    assert!(tp["connections"].as_u64() >= Some(1), "{tp}");
    assert!(tp["syncs"].as_u64() >= Some(1), "{tp}");
    assert!(server.tool_ok(&["tpstats"]).contains("ThriftConnections"));

    let h = server.tool_json(&["cfhistograms", KS, "Standard1"]);
    assert_eq!(
        histogram_writes(&h),
        writes_before + 13,
        "every write is in one bucket"
    );
    assert!(server
        .tool_ok(&["cfhistograms", KS, "Standard1"])
        .contains("WriteLatency"));
    let missing = server.tool(&["cfhistograms", KS, "Nope"]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("HTTP 404"));

    let v = server.tool_json(&["version"]);
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn flush_and_compact_act_on_the_node() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    let purged_before = server.metric("ilion_tombstones_purged_total", &[]);
    let mut c = server.client();
    insert_rows(&mut c, "d", 5);
    for i in 0..5 {
        let path = ColumnPath::new("Standard1".into(), None, None);
        c.remove(KS.into(), format!("d{i}"), path, 9, ONE)
            .expect("remove row");
    }
    let syncs = server.metric("ilion_syncs_total", &[]);
    assert!(server.tool_ok(&["flush"]).contains("durable"));
    assert!(server.metric("ilion_syncs_total", &[]) > syncs);
    let bad = server.tool(&["flush", KS, "Nope"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unconfigured columnfamily Nope"));

    // GCGraceSeconds is 0: the row tombstones expire once a second has passed. The node's
    // own purge runs every second too, so compact may find some gone already (the cf unit
    // tests drive compact with a hand-set clock); once it returns, none is left.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let done = server.tool_json(&["compact", KS, "Standard1"]);
    assert!(done["tombstones_purged"].as_u64() <= Some(5), "{done}");
    let purged = server.metric("ilion_tombstones_purged_total", &[]) - purged_before;
    assert_eq!(purged, 5.0);
    let stats = server.tool_json(&["cfstats"]);
    assert_eq!(find(&stats, "Standard1")["tombstones"], 0);
    assert_eq!(find(&stats, "Standard1")["bytes"], 0);
}

#[test]
fn drain_refuses_writes_until_restart_but_keeps_reads() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    let mut c = server.client();
    insert_rows(&mut c, "k", 3);
    // A snapshot inside the data directory must not stop the node from restarting there.
    server.tool_ok(&["snapshot", "kept"]);
    assert!(server.tool_ok(&["drain"]).contains("drained"));
    let path = ColumnPath::new("Standard1".into(), None, b"col".to_vec());
    let refused = c.insert(KS.into(), "k9".into(), path.clone(), b"v".to_vec(), 2, ONE);
    let why = format!("{:?}", refused.expect_err("writes are refused"));
    assert!(why.contains("drained"), "{why}");
    assert!(
        c.get(KS.into(), "k1".into(), path, ONE).is_ok(),
        "reads go on"
    );
    assert_eq!(server.tool_json(&["info"])["drained"], true);
    let compact = server.tool(&["compact"]);
    assert!(String::from_utf8_lossy(&compact.stderr).contains("drained"));

    // A restart on the same data serves writes again, with everything acknowledged kept.
    let root = server.dir.clone();
    server.stop();
    let again = Server::start(&root);
    let mut c = again.client();
    insert_rows(&mut c, "k", 4);
    let stats = again.tool_json(&["cfstats"]);
    assert_eq!(find(&stats, "Standard1")["live_rows"], 4);
    assert!(again.tool_ok(&["listsnapshots"]).contains("kept"));
}

#[test]
fn the_tool_finds_the_endpoint_in_the_configuration() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    // The test config asks for a free port, which only the running node knows.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(["tool", "--config"])
        .arg(&server.config_path)
        .arg("info")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --port"));
    // With the port written in a config, the tool needs nothing else.
    let port = server.admin().port();
    let named = dir.path().join("named.xml");
    let text = std::fs::read_to_string(&server.config_path).expect("config");
    let text = text.replace(
        "<ThriftPort>0</ThriftPort>",
        &format!("<ThriftPort>0</ThriftPort><AdminPort>{port}</AdminPort>"),
    );
    std::fs::write(&named, text).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ilion"))
        .arg("--config")
        .arg(&named)
        .args(["tool", "version"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ReleaseVersion"));
}
