//! Stores written before issue 11 (`tests/fixtures/ilion-pre-issue-11`: an ilion of commit
//! 3d5b33d wrote them through the 0.6 API, one on sled under RandomPartitioner, one on fjall
//! under OrderPreservingPartitioner) open with today's code and serve: every row reads back
//! through the 0.6 API exactly as it read then (tombstones, range ghosts, wide rows, super
//! columns, every comparator), the later API reads the same rows, new writes of both APIs
//! (an expiring column among them) land beside the old ones, and the store opens again.

use crate::cases::ONE;
use crate::cross_api::later;
use crate::support::node::InProcessNode;
use ilion::client::{Client, TCassandraSyncClient as _, WireStyle};
use ilion::config::Config;
use ilion::protocol::v20::generated as v20;
use ilion::protocol::{self as p06};
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;
use std::time::Duration;
use v20::TCassandraSyncClient as _;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ilion-pre-issue-11")
}

/// Copies `from` into `to`, unpacking the `.gz` files the fixture keeps packed.
fn copy_store(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (source, name) = (entry.path(), entry.file_name().into_string().unwrap());
        if entry.file_type().unwrap().is_dir() {
            copy_store(&source, &to.join(&name));
        } else if let Some(stem) = name.strip_suffix(".gz") {
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&source).unwrap())
                .read_to_end(&mut bytes)
                .unwrap();
            std::fs::write(to.join(stem), bytes).unwrap();
        } else {
            std::fs::copy(&source, to.join(&name)).unwrap();
        }
    }
}

/// The fixture's configuration with its engine and partitioner, over `dir`.
fn config(dir: &Path, engine: &str, partitioner: &str) -> Config {
    let text = std::fs::read_to_string(fixture().join("storage-conf.xml")).unwrap();
    let text = text.replace("RandomPartitioner", partitioner).replace(
        "</Storage>",
        &format!("  <StorageEngine>{engine}</StorageEngine>\n</Storage>"),
    );
    Config::from_xml(&text, dir, dir).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every row of `ks/cf` through the 0.6 API, shaped as make.py recorded it.
fn rows06(client: &mut Client, ks: &str, cf: &str) -> Value {
    let everything =
        p06::SlicePredicate::new(None, p06::SliceRange::new(vec![], vec![], false, 1000));
    let range = p06::KeyRange::new(String::new(), String::new(), None, None, 1000);
    let parent = p06::ColumnParent::new(cf.to_string(), None);
    let rows = client
        .get_range_slices(ks.into(), parent, everything, range, ONE)
        .unwrap();
    let column = |c: p06::Column| json!([hex(&c.name), hex(&c.value), c.timestamp]);
    Value::Array(
        rows.into_iter()
            .map(|row| {
                let items: Vec<Value> = row
                    .columns
                    .into_iter()
                    .map(|item| match (item.column, item.super_column) {
                        (Some(c), _) => column(c),
                        (None, Some(sc)) => json!([
                            hex(&sc.name),
                            sc.columns.into_iter().map(column).collect::<Vec<_>>()
                        ]),
                        (None, None) => Value::Null,
                    })
                    .collect();
                json!([row.key, items])
            })
            .collect(),
    )
}

/// The same through the later API.
fn rows20(client: &mut crate::cross_api::Later, ks: &str, cf: &str) -> Value {
    client.set_keyspace(ks.into()).unwrap();
    let everything =
        v20::SlicePredicate::new(None, v20::SliceRange::new(vec![], vec![], false, 1000));
    let range = v20::KeyRange::new(vec![], vec![], None, None, 1000, None);
    let parent = v20::ColumnParent::new(cf.to_string(), None);
    let rows = client
        .get_range_slices(parent, everything, range, v20::ConsistencyLevel::ONE)
        .unwrap();
    let column = |c: v20::Column| {
        assert_eq!(c.ttl, None, "old columns never expire");
        json!([hex(&c.name), hex(&c.value.unwrap()), c.timestamp.unwrap()])
    };
    Value::Array(
        rows.into_iter()
            .map(|row| {
                let items: Vec<Value> = row
                    .columns
                    .into_iter()
                    .map(|item| match (item.column, item.super_column) {
                        (Some(c), _) => column(c),
                        (None, Some(sc)) => json!([
                            hex(&sc.name),
                            sc.columns.into_iter().map(column).collect::<Vec<_>>()
                        ]),
                        _ => Value::Null,
                    })
                    .collect();
                json!([String::from_utf8(row.key).unwrap(), items])
            })
            .collect(),
    )
}

fn check_old_rows(node: &InProcessNode, expected: &Value, label: &str) {
    let mut old = Client::connect(node.addr(), WireStyle::ALL[0], Duration::from_secs(10)).unwrap();
    let mut new = later(node.later_addr().expect("the later listener is on"));
    let rows = expected["rows"].as_object().unwrap();
    assert_eq!(rows.len(), 12, "{label}: every column family was recorded");
    for (name, want) in rows {
        let (ks, cf) = name.split_once('/').unwrap();
        assert_eq!(
            &rows06(&mut old, ks, cf),
            want,
            "{label}: {name} through the 0.6 API"
        );
        assert_eq!(
            &rows20(&mut new, ks, cf),
            want,
            "{label}: {name} through the later API"
        );
    }
}

fn old_store_opens_and_serves(engine: &str) {
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture().join(engine).join("expected.json")).unwrap(),
    )
    .unwrap();
    let partitioner = expected["partitioner"].as_str().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    copy_store(
        &fixture().join(engine).join("data"),
        &dir.path().join("data"),
    );
    let label = format!("{engine} store of 3d5b33d");

    let node = InProcessNode::start(config(dir.path(), engine, &partitioner));
    check_old_rows(&node, &expected, &label);
    // New writes beside the old rows: a 0.6 column, and a later one with a TTL.
    let mut old = Client::connect(node.addr(), WireStyle::ALL[1], Duration::from_secs(10)).unwrap();
    let path = p06::ColumnPath::new("Standard1".into(), None, b"new".to_vec());
    old.insert(
        "Keyspace1".into(),
        "Standard1-row0".into(),
        path,
        b"06".to_vec(),
        5000,
        ONE,
    )
    .unwrap();
    let mut new = later(node.later_addr().unwrap());
    let column = v20::Column::new(b"expiring".to_vec(), b"20".to_vec(), 5000, 3600);
    let parent = v20::ColumnParent::new("Standard1".into(), None);
    new.insert(
        b"Standard1-row0".to_vec(),
        parent,
        column,
        v20::ConsistencyLevel::ONE,
    )
    .unwrap();
    drop((old, new));
    drop(node);

    // It opens again after the new code wrote to it, with the old rows and the new columns.
    let node = InProcessNode::start(config(dir.path(), engine, &partitioner));
    let mut new = later(node.later_addr().unwrap());
    let path = v20::ColumnPath::new("Standard1".into(), None, b"expiring".to_vec());
    let got = new
        .get(b"Standard1-row0".to_vec(), path, v20::ConsistencyLevel::ONE)
        .unwrap()
        .column
        .unwrap();
    assert_eq!(
        (got.value.unwrap(), got.ttl),
        (b"20".to_vec(), Some(3600)),
        "{label}"
    );
    let path = v20::ColumnPath::new("Standard1".into(), None, b"new".to_vec());
    let got = new
        .get(b"Standard1-row0".to_vec(), path, v20::ConsistencyLevel::ONE)
        .unwrap()
        .column
        .unwrap();
    assert_eq!(got.value.unwrap(), b"06".to_vec(), "{label}");
    // Every other recorded row is as it was.
    let mut expected = expected;
    let standard1 = expected["rows"]["Keyspace1/Standard1"]
        .as_array_mut()
        .unwrap();
    standard1.retain(|row| row[0] != "Standard1-row0");
    let mut old = Client::connect(node.addr(), WireStyle::ALL[0], Duration::from_secs(10)).unwrap();
    let mut now = rows06(&mut old, "Keyspace1", "Standard1");
    now.as_array_mut()
        .unwrap()
        .retain(|row| row[0] != "Standard1-row0");
    assert_eq!(&now, &expected["rows"]["Keyspace1/Standard1"], "{label}");
}

#[test]
fn a_sled_store_written_before_issue_11_opens_and_serves() {
    old_store_opens_and_serves("sled");
}

#[test]
fn a_fjall_store_written_before_issue_11_opens_and_serves() {
    old_store_opens_and_serves("fjall");
}
