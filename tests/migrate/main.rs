//! `ilion export` / `ilion import` and `--from-cassandra06`, driven the way a user drives
//! them: the real binary on real files and data directories, reads through a real server
//! over Thrift, checked against what Cassandra 0.6.13 itself read back from the same data
//! (`tests/fixtures/cassandra-0.6.13`).

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

mod json_import;
mod roundtrip;
mod sstables;
#[path = "../support/mod.rs"]
mod support;
mod synthetic;

use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::comparator::hex;
use ilion::protocol::{ColumnOrSuperColumn, ColumnParent, ConsistencyLevel, KeyRange};
use ilion::protocol::{SlicePredicate, SliceRange};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use support::process::ServerProcess as Served;

/// The keyspace of the fixture.
pub const KEYSPACE: &str = "Migrate";
/// Its column families.
pub const CFS: [&str; 8] = [
    "Users", "ByName", "Events", "Scores", "Ascii", "Lexical", "Posts", "Timeline",
];

/// The fixture directory in the repository.
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cassandra-0.6.13")
}

/// The fixture's keyspace directory.
pub fn keyspace_dir() -> PathBuf {
    fixture().join(KEYSPACE)
}

/// What Cassandra read back: CF → key → columns (empty rows omitted).
pub fn expected_reads() -> BTreeMap<String, BTreeMap<String, Value>> {
    let text = std::fs::read_to_string(fixture().join("expected-reads.json")).unwrap();
    let all: BTreeMap<String, BTreeMap<String, BTreeMap<String, Value>>> =
        serde_json::from_str(&text).unwrap();
    all[KEYSPACE].clone()
}

/// A data directory with the fixture's storage-conf.xml pointed at it (Thrift port 0).
pub struct Store {
    /// The temporary directory holding the data and the configuration.
    pub dir: tempfile::TempDir,
    /// The storage-conf.xml.
    pub config: PathBuf,
}

impl Store {
    /// An empty store with the fixture's configuration.
    pub fn fresh() -> Store {
        Self::with_config(|text| text)
    }

    /// A store whose configuration is the fixture's, edited by `edit`.
    pub fn with_config(edit: impl FnOnce(String) -> String) -> Store {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string(fixture().join("storage-conf.xml"))
            .unwrap()
            .replace("/var/lib/cassandra", &dir.path().display().to_string())
            .replace(
                "<ThriftPort>9261</ThriftPort>",
                "<ThriftPort>0</ThriftPort>",
            );
        let config = dir.path().join("storage-conf.xml");
        std::fs::write(&config, edit(text)).unwrap();
        Store { dir, config }
    }

    /// The configuration path as a command-line argument.
    pub fn config_arg(&self) -> String {
        self.config.display().to_string()
    }

    /// The arguments of `ilion import --from-cassandra06 DIR` into this store.
    pub fn import06(&self, dir: &Path) -> [String; 5] {
        [
            "import".into(),
            "--config".into(),
            self.config_arg(),
            "--from-cassandra06".into(),
            dir.display().to_string(),
        ]
    }

    /// Serves this store with the real binary.
    pub fn serve(&self) -> Served {
        Served::start(&self.config)
    }

    /// Every visible row of every fixture CF, read through a server on this store.
    pub fn reads(&self) -> BTreeMap<String, BTreeMap<String, Value>> {
        let server = self.serve();
        let reads = read_all(&server);
        stop(server);
        reads
    }
}

/// Stops `server` with SIGTERM and asserts a clean exit (the handlers are in place before
/// the "listening on" line).
pub fn stop(server: Served) {
    let code = server.stop("TERM");
    assert_eq!(code, Some(0), "ilion did not shut down cleanly");
}

/// Runs `ilion ARGS` with `stdin` and returns its output.
pub fn ilion<A: AsRef<OsStr> + Debug>(args: &[A], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        // Write from a thread: the child may fill its stdout pipe before reading all of stdin.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    child.wait_with_output().unwrap()
}

/// Runs `ilion ARGS`, asserting success; returns stdout.
pub fn ilion_ok<A: AsRef<OsStr> + Debug>(args: &[A], stdin: Option<&[u8]>) -> Vec<u8> {
    let out = ilion(args, stdin);
    assert!(
        out.status.success(),
        "ilion {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `ilion ARGS`, asserting failure; returns stderr.
pub fn ilion_fails<A: AsRef<OsStr> + Debug>(args: &[A], stdin: Option<&[u8]>) -> String {
    let out = ilion(args, stdin);
    assert!(!out.status.success(), "ilion {args:?} should have failed");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A strict, unframed client of `server`.
pub fn client(server: &Served) -> Client {
    let style = WireStyle {
        framed: false,
        strict: true,
    };
    Client::connect(server.addr, style, Duration::from_secs(30)).unwrap()
}

fn column_json(c: ilion::protocol::Column) -> Value {
    json!([hex(&c.name), hex(&c.value), c.timestamp])
}

fn entry_json(e: ColumnOrSuperColumn) -> Value {
    match (e.column, e.super_column) {
        (Some(c), _) => column_json(c),
        (None, Some(s)) => json!([
            hex(&s.name),
            s.columns.into_iter().map(column_json).collect::<Vec<_>>()
        ]),
        _ => panic!("empty ColumnOrSuperColumn"),
    }
}

/// Every row of `cf` with at least one visible column, as expected-reads.json writes it,
/// paging through `get_range_slices` as the fixture's generator did.
pub fn read_cf(client: &mut Client, cf: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let mut start = String::new();
    loop {
        let predicate =
            SlicePredicate::new(None, SliceRange::new(vec![], vec![], false, 1_000_000));
        let range = KeyRange::new(start.clone(), String::new(), None, None, 100);
        let page = client
            .get_range_slices(
                KEYSPACE.into(),
                ColumnParent::new(cf.to_string(), None),
                predicate,
                range,
                ConsistencyLevel::ONE,
            )
            .unwrap();
        let n = page.len();
        for slice in page {
            if slice.key == start && !start.is_empty() {
                continue;
            }
            start = slice.key.clone();
            if !slice.columns.is_empty() {
                let cols: Vec<Value> = slice.columns.into_iter().map(entry_json).collect();
                out.insert(slice.key, Value::Array(cols));
            }
        }
        if n < 100 {
            return out;
        }
    }
}

/// Every fixture CF as [`read_cf`] reads it.
pub fn read_all(server: &Served) -> BTreeMap<String, BTreeMap<String, Value>> {
    let mut c = client(server);
    CFS.iter()
        .map(|cf| (cf.to_string(), read_cf(&mut c, cf)))
        .collect()
}

/// Asserts two read sets are equal, naming the first differing row.
pub fn assert_same_reads(
    got: &BTreeMap<String, BTreeMap<String, Value>>,
    want: &BTreeMap<String, BTreeMap<String, Value>>,
) {
    for cf in CFS {
        let (g, w) = (&got[cf], &want[cf]);
        for (key, value) in w {
            assert_eq!(g.get(key), Some(value), "{cf} row {key:?}");
        }
        for key in g.keys() {
            assert!(
                w.contains_key(key),
                "{cf} row {key:?} should not be visible"
            );
        }
    }
}
