//! Snapshots: a consistent copy taken while writers run, listed and cleared by name, and a
//! new node started on a copy of one reads exactly what had been acknowledged before it.

use crate::harness::{insert_rows, serial, test_conf, Server, KS, ONE};
use ilion::client::TCassandraSyncClient;
use ilion::protocol::{
    Column, ColumnOrSuperColumn, ColumnParent, ColumnPath, KeyRange, SlicePredicate, SliceRange,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Copies a directory tree (the restore step of docs/admin.md: `cp -a`).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read snapshot") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every row key of Standard1 with its column count.
fn rows(server: &Server) -> Vec<(String, usize)> {
    let mut c = server.client();
    let predicate = SlicePredicate {
        column_names: None,
        slice_range: Some(SliceRange::new(vec![], vec![], false, 1000)),
    };
    let range = KeyRange {
        start_key: Some(String::new()),
        end_key: Some(String::new()),
        start_token: None,
        end_token: None,
        count: 100_000,
    };
    let parent = ColumnParent::new("Standard1".into(), None);
    c.get_range_slices(KS.into(), parent, predicate, range, ONE)
        .expect("range read")
        .into_iter()
        .map(|r| (r.key, r.columns.len()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

#[test]
fn a_snapshot_is_a_data_directory_a_node_starts_from() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    let mut c = server.client();
    insert_rows(&mut c, "before", 40);
    assert!(server
        .tool_ok(&["listsnapshots"])
        .contains("There are no snapshots"));

    // A writer keeps going while the snapshot is taken: each of its row mutations must be
    // in the copy entirely or not at all.
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let stop = Arc::clone(&stop);
        let mut w = server.client();
        std::thread::spawn(move || {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                // Two columns in one mutation: atomic, so a copy has both or neither.
                let cols = [&b"a"[..], b"b"].map(|n| ColumnOrSuperColumn {
                    column: Some(Column::new(n.to_vec(), b"v".to_vec(), 1)),
                    super_column: None,
                });
                let map = BTreeMap::from([("Standard1".to_string(), cols.to_vec())]);
                w.batch_insert(KS.into(), format!("during{i}"), map, ONE)
                    .expect("batch_insert");
                i += 1;
            }
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(200));
    let taken = server.tool_json(&["snapshot", "before-upgrade"]);
    stop.store(true, Ordering::Relaxed);
    writer.join().expect("writer");
    let snap = taken["snapshots"][0].clone();
    assert_eq!(snap["name"], "before-upgrade");
    let snap_dir = Path::new(snap["path"].as_str().expect("path")).to_path_buf();
    assert!(snap_dir.starts_with(dir.path().join("data").join("snapshots")));
    let again = server.tool(&["snapshot", "before-upgrade"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    let bad = server.tool(&["snapshot", "../escape"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad snapshot name"));

    // Changes after the snapshot are not in it.
    insert_rows(&mut c, "after", 10);
    let path = ColumnPath::new("Standard1".into(), None, None);
    c.remove(KS.into(), "before0".into(), path, 9, ONE)
        .expect("remove");
    let listed = server.tool_ok(&["listsnapshots"]);
    assert!(listed.contains("before-upgrade"), "{listed}");
    let info = server.tool_json(&["info"]);
    assert!(info["load_bytes"].as_u64().is_some());

    let restored = dir.path().join("restored");
    copy_tree(&snap_dir, &restored);
    let cleared = server.tool_json(&["clearsnapshot", "before-upgrade"]);
    assert_eq!(cleared["snapshots"][0]["name"], "before-upgrade");
    assert!(!snap_dir.exists());
    server.stop();

    let root2 = tempfile::tempdir().expect("temp dir");
    let node = Server::start_with(root2.path(), test_conf().data_directory(&restored));
    let rows = rows(&node);
    let before = rows.iter().filter(|(k, _)| k.starts_with("before")).count();
    assert_eq!(before, 40, "everything acknowledged before the snapshot");
    assert!(rows.iter().all(|(k, _)| !k.starts_with("after")));
    let during: Vec<&(String, usize)> = rows
        .iter()
        .filter(|(k, _)| k.starts_with("during"))
        .collect();
    assert!(!during.is_empty(), "the writer ran before the snapshot");
    assert!(
        during.iter().all(|(_, n)| *n == 2),
        "no half-written row: {during:?}"
    );
}
