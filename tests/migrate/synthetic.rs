//! Small 0.6 keyspace directories written here byte by byte (the layout of
//! `docs/migrate.md`), for what the fixture does not cover: the two order-preserving
//! partitioners, rows interleaved over three SSTables per CF, a compacted generation, and
//! files refused for being in another partitioner's order.

use super::*;
use ilion::partitioner::Partitioner;
use ilion::protocol::ColumnPath;

/// The keyspace definition that replaces the fixture's.
const KEYSPACES: &str = r#"<Keyspaces>
    <Keyspace Name="Migrate">
      <ColumnFamily Name="S" CompareWith="BytesType"/>
      <ColumnFamily Name="P" ColumnType="Super" CompareWith="BytesType" CompareSubcolumnsWith="BytesType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>"#;

/// A column: name, value, timestamp, tombstone?
type Col = (&'static str, &'static str, i64, bool);

enum Body {
    Standard(Vec<Col>),
    /// (name, super column tombstone, subcolumns)
    Super(Vec<(&'static str, Option<i64>, Vec<Col>)>),
}

fn put_column(out: &mut Vec<u8>, (name, value, ts, deleted): &Col) {
    out.extend_from_slice(&(name.len() as u16).to_be_bytes());
    out.extend_from_slice(name.as_bytes());
    out.push(u8::from(*deleted));
    out.extend_from_slice(&ts.to_be_bytes());
    let value: &[u8] = if *deleted {
        &[0, 0, 0, 1]
    } else {
        value.as_bytes()
    };
    out.extend_from_slice(&(value.len() as i32).to_be_bytes());
    out.extend_from_slice(value);
}

/// A data file with `rows` (key, row tombstone, body), sorted into `p`'s order first.
fn data_file(p: Partitioner, mut rows: Vec<(&str, Option<i64>, Body)>) -> Vec<u8> {
    rows.sort_by(|a, b| (p.token(a.0.as_bytes()), a.0).cmp(&(p.token(b.0.as_bytes()), b.0)));
    let mut out = Vec::new();
    for (key, deleted_at, body) in rows {
        let disk_key = match p {
            Partitioner::Random => format!("{}:{key}", p.token(key.as_bytes())),
            _ => key.to_string(),
        };
        let mut b = Vec::new();
        b.extend_from_slice(&0i32.to_be_bytes()); // an empty stand-in bloom filter
        b.extend_from_slice(&0i32.to_be_bytes()); // no column index
        b.extend_from_slice(
            &(if deleted_at.is_some() {
                1_700_000_000
            } else {
                i32::MIN
            })
            .to_be_bytes(),
        );
        b.extend_from_slice(&deleted_at.unwrap_or(i64::MIN).to_be_bytes());
        match body {
            Body::Standard(cols) => {
                b.extend_from_slice(&(cols.len() as i32).to_be_bytes());
                cols.iter().for_each(|c| put_column(&mut b, c));
            }
            Body::Super(supers) => {
                b.extend_from_slice(&(supers.len() as i32).to_be_bytes());
                for (name, deleted_at, cols) in supers {
                    b.extend_from_slice(&(name.len() as u16).to_be_bytes());
                    b.extend_from_slice(name.as_bytes());
                    let ldt = if deleted_at.is_some() {
                        1_700_000_000
                    } else {
                        i32::MIN
                    };
                    b.extend_from_slice(&ldt.to_be_bytes());
                    b.extend_from_slice(&deleted_at.unwrap_or(i64::MIN).to_be_bytes());
                    b.extend_from_slice(&(cols.len() as i32).to_be_bytes());
                    cols.iter().for_each(|c| put_column(&mut b, c));
                }
            }
        }
        out.extend_from_slice(&(disk_key.len() as u16).to_be_bytes());
        out.extend_from_slice(disk_key.as_bytes());
        out.extend_from_slice(&(b.len() as i32).to_be_bytes());
        out.extend_from_slice(&b);
    }
    out
}

fn std_row(
    key: &'static str,
    deleted_at: Option<i64>,
    cols: Vec<Col>,
) -> (&'static str, Option<i64>, Body) {
    (key, deleted_at, Body::Standard(cols))
}

/// Writes the scenario's keyspace directory for partitioner `p`.
fn keyspace(p: Partitioner, root: &Path) -> PathBuf {
    let dir = root.join(KEYSPACE);
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, rows| std::fs::write(dir.join(name), data_file(p, rows)).unwrap();
    write(
        "S-1-Data.db",
        vec![
            std_row(
                "a",
                None,
                vec![("x", "1", 10, false), ("y", "1", 10, false)],
            ),
            std_row("b", None, vec![("x", "1", 10, false)]),
            std_row("B", None, vec![("x", "upper", 3, false)]),
            std_row("c", None, vec![("x", "1", 10, false)]),
        ],
    );
    write(
        "S-2-Data.db",
        vec![
            std_row("a", Some(10), vec![]),
            std_row("c", None, vec![("x", "", 11, true)]),
            std_row("d", None, vec![("x", "2", 5, false)]),
        ],
    );
    write(
        "S-3-Data.db",
        vec![
            std_row("a", None, vec![("y", "3", 11, false)]),
            std_row("b", None, vec![("x", "new", 10, false)]),
        ],
    );
    // A generation a compaction replaced: its rows must not come back.
    write(
        "S-4-Data.db",
        vec![std_row("zombie", None, vec![("x", "z", 99, false)])],
    );
    std::fs::write(dir.join("S-4-Compacted"), b"").unwrap();
    write(
        "P-1-Data.db",
        vec![(
            "k",
            None,
            Body::Super(vec![
                ("s1", None, vec![("a", "1", 1, false), ("b", "1", 2, false)]),
                ("s2", None, vec![("a", "1", 1, false)]),
            ]),
        )],
    );
    write(
        "P-2-Data.db",
        vec![
            (
                "k",
                None,
                Body::Super(vec![
                    ("s1", Some(1), vec![]),
                    ("s2", None, vec![("a", "", 1, true)]),
                ]),
            ),
            (
                "m",
                Some(5),
                Body::Super(vec![("s1", None, vec![("a", "6", 6, false)])]),
            ),
        ],
    );
    write(
        "P-3-Data.db",
        vec![(
            "m",
            None,
            Body::Super(vec![
                ("s1", None, vec![("b", "4", 4, false)]),
                ("s3", None, vec![]),
            ]),
        )],
    );
    dir
}

fn h(s: &str) -> String {
    hex(s.as_bytes())
}

/// A store whose configuration is the fixture's with the keyspace above, under `p`.
fn store_for(p: Partitioner) -> Store {
    Store::with_config(|text| {
        let start = text.find("<Keyspaces>").unwrap();
        let end = text.find("</Keyspaces>").unwrap() + "</Keyspaces>".len();
        format!("{}{KEYSPACES}{}", &text[..start], &text[end..])
            .replace("RandomPartitioner", p.short_name())
    })
}

#[test]
fn every_partitioner_merges_three_sstables_as_0_6_did() {
    for p in Partitioner::ALL {
        let root = tempfile::tempdir().unwrap();
        let dir = keyspace(p, root.path());
        let store = store_for(p);
        ilion_ok(&store.import06(&dir), None);
        let server = store.serve();
        let mut client = client(&server);
        let s = read_cf(&mut client, "S");
        let p_rows = read_cf(&mut client, "P");
        // The imported tombstones keep shadowing older writes: a row tombstone (a@10), a
        // column tombstone (c/x@11), a super column tombstone (k/s1@1) and a subcolumn
        // tombstone (k/s2/a@1). Each write below is older and must stay invisible.
        let mut write = |key: &str, cf: &str, sc: Option<&str>, col: &str, ts: i64| {
            let path = ColumnPath::new(
                cf.to_string(),
                sc.map(|s| s.as_bytes().to_vec()),
                col.as_bytes().to_vec(),
            );
            client
                .insert(
                    KEYSPACE.into(),
                    key.into(),
                    path,
                    b"late".to_vec(),
                    ts,
                    ConsistencyLevel::ONE,
                )
                .unwrap();
        };
        write("a", "S", None, "z", 9);
        write("c", "S", None, "x", 11);
        write("k", "P", Some("s1"), "q", 1);
        write("k", "P", Some("s2"), "a", 1);
        assert_eq!(read_cf(&mut client, "S"), s, "{p:?}: a tombstone was lost");
        assert_eq!(
            read_cf(&mut client, "P"),
            p_rows,
            "{p:?}: a tombstone was lost"
        );
        stop(server);
        let want_s: BTreeMap<String, Value> = [
            ("a", json!([[h("y"), h("3"), 11]])),
            ("b", json!([[h("x"), h("new"), 10]])),
            ("B", json!([[h("x"), h("upper"), 3]])),
            ("d", json!([[h("x"), h("2"), 5]])),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(s, want_s, "{p:?}");
        let want_p: BTreeMap<String, Value> = [
            ("k", json!([[h("s1"), [[h("b"), h("1"), 2]]]])),
            ("m", json!([[h("s1"), [[h("a"), h("6"), 6]]]])),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(p_rows, want_p, "{p:?}");
    }
}

#[test]
fn files_in_another_partitioners_order_are_refused() {
    // "B" < "a" in OrderPreserving order, but "a" < "b" < "B" when collated.
    let root = tempfile::tempdir().unwrap();
    let dir = keyspace(Partitioner::OrderPreserving, root.path());
    let store = store_for(Partitioner::CollatingOrderPreserving);
    let e = ilion_fails(&store.import06(&dir), None);
    assert!(
        e.contains("out of CollatingOrderPreservingPartitioner order"),
        "{e}"
    );
    let store = store_for(Partitioner::Random);
    let e = ilion_fails(&store.import06(&dir), None);
    assert!(e.contains("has no `<token>:` prefix"), "{e}");
}
