//! Crash recovery: a child process (this test binary, re-run in "writer" mode) writes row
//! mutations from several threads and reports each acknowledged one; the parent kills it with
//! SIGKILL mid-stream, reopens the store, and checks the promise of
//! `docs/durability.md#promise` (tested as `docs/durability.md#tests` lists): in batch mode
//! every acknowledged write is present, and in every mode each row mutation is all-or-nothing
//! (both column families, every column). Repeated kill/reopen cycles on one directory check
//! that recovery itself leaves a consistent store. Every test runs on both engines, sled and
//! fjall.

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

use ilion::cf::{Db, DbOptions};
use ilion::comparator::Comparator;
use ilion::config::{CfDef, ColumnType, KeyspaceDef, Schema};
use ilion::model::{
    Change, Column, ColumnOrSuper, ColumnParent, Predicate, RowMutation, SliceRange,
};
use ilion::partitioner::Partitioner;
use ilion::storage::{open_engine, EngineKind, SyncPolicy};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

const KS: &str = "Crash";
const COLUMNS: usize = 10;
const WRITERS: usize = 8;
const CHILD_ENV: &str = "ILION_CRASH_WRITER";

fn schema() -> Arc<Schema> {
    let cf = |name: &str, sub: Option<Comparator>| CfDef {
        name: name.into(),
        column_type: if sub.is_some() {
            ColumnType::Super
        } else {
            ColumnType::Standard
        },
        comparator: Comparator::Bytes,
        subcomparator: sub,
        comment: None,
        later: Default::default(),
    };
    let ks = KeyspaceDef {
        name: KS.into(),
        replication_factor: 1,
        replica_placement_strategy: "org.apache.cassandra.locator.RackUnawareStrategy".into(),
        endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".into(),
        strategy_options: Default::default(),
        durable_writes: true,
        column_families: [cf("A", None), cf("B", Some(Comparator::Bytes))]
            .into_iter()
            .map(|c| (c.name.clone(), c))
            .collect(),
    };
    Arc::new(Schema {
        keyspaces: [(KS.to_string(), ks)].into_iter().collect(),
    })
}

fn open(dir: &Path, kind: EngineKind, sync: SyncPolicy) -> Db {
    let opened = open_engine(dir, kind, 16 << 20).expect("store reopens after a crash");
    assert_eq!(opened.kind, kind, "the store keeps its engine");
    let engine = opened.engine;
    let options = DbOptions {
        partitioner: Partitioner::Random,
        sync,
        gc_grace_seconds: 864_000,
        initial_token: None,
        chunk_bytes: ilion::storage::MAX_CHUNK_BYTES,
        clock: ilion::cf::system_clock(),
    };
    Db::open(engine, schema(), options).expect("catalog loads after a crash")
}

fn policy(mode: &str) -> SyncPolicy {
    match mode {
        "batch" => SyncPolicy::Batch(Duration::from_millis(1)),
        _ => SyncPolicy::Periodic(Duration::from_millis(50)),
    }
}

/// Mutation `n` of writer `w`: row `w-n`, COLUMNS columns in A and as many subcolumns in B,
fn mutation(writer: usize, n: usize) -> RowMutation {
    let value = format!("{writer}-{n}").into_bytes();
    let mut mutation = RowMutation::new(KS, format!("{writer}-{n}"));
    for c in 0..COLUMNS {
        let column = Column {
            name: format!("c{c}").into_bytes(),
            value: value.clone(),
            timestamp: n as i64,
            ttl: None,
        };
        let standard = Change::Insert {
            super_column: None,
            column: column.clone(),
        };
        mutation.push("A", standard);
        let sub = Change::Insert {
            super_column: Some(b"sc".to_vec()),
            column,
        };
        mutation.push("B", sub);
    }
    mutation
}

/// The child: writes forever and prints "w n" after each acknowledged mutation.
fn run_writer(dir: &Path, kind: EngineKind, mode: &str, start: usize) {
    let db = Arc::new(open(dir, kind, policy(mode)));
    let out = Arc::new(std::sync::Mutex::new(std::io::stdout()));
    let threads: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (db, out) = (Arc::clone(&db), Arc::clone(&out));
            std::thread::spawn(move || {
                for n in start.. {
                    db.apply(mutation(w, n)).unwrap().wait().unwrap();
                    let mut out = out.lock().unwrap();
                    writeln!(out, "{w} {n}").unwrap();
                    out.flush().unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
}

/// Columns of row `key` in both CFs, as (count in A, count in B, distinct values).
fn read_row(db: &Db, key: &str) -> (usize, usize, Vec<Vec<u8>>) {
    let all = Predicate::Range(SliceRange::all());
    let a = db
        .get_slice(
            KS,
            key.as_bytes(),
            &ColumnParent {
                column_family: "A".into(),
                super_column: None,
            },
            &all,
        )
        .unwrap();
    let b = db
        .get_slice(
            KS,
            key.as_bytes(),
            &ColumnParent {
                column_family: "B".into(),
                super_column: Some(b"sc".to_vec()),
            },
            &all,
        )
        .unwrap();
    let mut values: Vec<Vec<u8>> = a
        .iter()
        .chain(b.iter())
        .map(|c| match c {
            ColumnOrSuper::Column(c) => c.value.clone(),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    values.sort();
    values.dedup();
    (a.len(), b.len(), values)
}

/// Runs the child until it has acknowledged `acks` mutations, kills it, returns what it acked.
fn crash_writer(
    dir: &Path,
    kind: EngineKind,
    mode: &str,
    start: usize,
    acks: usize,
) -> Vec<(usize, usize)> {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_writer", "--nocapture", "--test-threads=1"])
        .env(
            CHILD_ENV,
            format!("{}|{}|{mode}|{start}", dir.display(), kind.name()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut acked = Vec::new();
    let reader = BufReader::new(child.stdout.take().unwrap());
    for line in reader.lines() {
        let line = line.unwrap();
        let mut parts = line.split_whitespace().map(|p| p.parse::<usize>());
        if let (Some(Ok(w)), Some(Ok(n))) = (parts.next(), parts.next()) {
            acked.push((w, n));
        }
        if acked.len() >= acks {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL: no destructors, no final sync.
    child.wait().unwrap();
    acked
}

fn check_after_crash(
    dir: &Path,
    kind: EngineKind,
    mode: &str,
    acked: &[(usize, usize)],
    start: usize,
    end: usize,
) {
    let db = open(dir, kind, policy(mode));
    for &(w, n) in acked {
        let (a, b, values) = read_row(&db, &format!("{w}-{n}"));
        if mode == "batch" {
            assert_eq!(
                (a, b),
                (COLUMNS, COLUMNS),
                "{kind:?}: acknowledged mutation {w}-{n} lost"
            );
        }
        assert!(
            values.len() <= 1,
            "{kind:?}: row {w}-{n} mixes mutations: {values:?}"
        );
    }
    // Every row ever attempted is all-or-nothing, acknowledged or not.
    for w in 0..WRITERS {
        for n in start..end {
            let (a, b, _) = read_row(&db, &format!("{w}-{n}"));
            assert!(
                (a, b) == (0, 0) || (a, b) == (COLUMNS, COLUMNS),
                "{kind:?}: row {w}-{n} is torn: A={a} B={b}"
            );
        }
    }
    db.close().unwrap();
}

#[test]
fn child_writer() {
    // Only does something when re-run by the crash tests below.
    if let Ok(spec) = std::env::var(CHILD_ENV) {
        let mut parts = spec.split('|');
        let (dir, kind, mode, start) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let kind = EngineKind::from_name(kind).unwrap();
        run_writer(Path::new(dir), kind, mode, start.parse().unwrap());
    }
}

fn crash_cycles(kind: EngineKind, mode: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut start = 0;
    for round in 0..3 {
        let acked = crash_writer(dir.path(), kind, mode, start, 150 + round * 100);
        assert!(!acked.is_empty());
        let end = acked.iter().map(|(_, n)| n + 1).max().unwrap() + 50;
        check_after_crash(dir.path(), kind, mode, &acked, start, end);
        start = end;
    }
}

#[test]
fn batch_mode_keeps_every_acknowledged_write_across_kill_9() {
    crash_cycles(EngineKind::Sled, "batch");
}

#[test]
fn periodic_mode_keeps_row_mutations_atomic_across_kill_9() {
    crash_cycles(EngineKind::Sled, "periodic");
}

#[test]
fn fjall_batch_mode_keeps_every_acknowledged_write_across_kill_9() {
    crash_cycles(EngineKind::Fjall, "batch");
}

#[test]
fn fjall_periodic_mode_keeps_row_mutations_atomic_across_kill_9() {
    crash_cycles(EngineKind::Fjall, "periodic");
}
