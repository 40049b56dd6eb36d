//! Durability through the wire, against the real binary (`docs/durability.md#tests`): a clean
//! SIGTERM keeps everything and restarts to identical reads; `kill -9` while several clients
//! write in batch mode loses no acknowledged write, and every batch_mutate row is
//! all-or-nothing.

use crate::support::process::ServerProcess;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{
    Column, ColumnOrSuperColumn, ColumnParent, ConsistencyLevel, KeyRange, Mutation,
    SlicePredicate, SliceRange,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const KS: &str = "Keyspace1";
const TIMEOUT: Duration = Duration::from_secs(10);

fn connect(server: &ServerProcess, style: WireStyle) -> Client {
    Client::connect(server.addr, style, TIMEOUT).unwrap()
}

fn everything() -> SlicePredicate {
    SlicePredicate::new(None, SliceRange::new(vec![], vec![], false, 1000))
}

fn all_rows(client: &mut Client, cf: &str) -> Vec<ilion::protocol::KeySlice> {
    let range = KeyRange::new(String::new(), String::new(), None, None, 100_000);
    client
        .get_range_slices(
            KS.into(),
            ColumnParent::new(cf.to_string(), None),
            everything(),
            range,
            ConsistencyLevel::ONE,
        )
        .unwrap()
}

/// One row mutation writing `columns` columns to Standard1 and as many subcolumns to Super1.
fn row_mutation(key: &str, columns: usize) -> BTreeMap<String, BTreeMap<String, Vec<Mutation>>> {
    let insert = |c: Column| Mutation::new(ColumnOrSuperColumn::new(c, None), None);
    let cols: Vec<Column> = (0..columns)
        .map(|i| Column::new(format!("c{i}").into_bytes(), key.as_bytes().to_vec(), 1))
        .collect();
    let standard = cols.iter().cloned().map(insert).collect();
    let sup = vec![Mutation::new(
        ColumnOrSuperColumn::new(
            None,
            ilion::protocol::SuperColumn::new(b"sc".to_vec(), cols),
        ),
        None,
    )];
    let cfs = BTreeMap::from([
        ("Standard1".to_string(), standard),
        ("Super1".to_string(), sup),
    ]);
    BTreeMap::from([(key.to_string(), cfs)])
}

#[test]
fn sigterm_then_restart_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start_in(dir.path(), "periodic");
    let mut client = connect(&server, WireStyle::ALL[1]);
    for i in 0..200 {
        client
            .batch_mutate(
                KS.into(),
                row_mutation(&format!("row{i:03}"), 3),
                ConsistencyLevel::ONE,
            )
            .unwrap();
    }
    let before = (
        all_rows(&mut client, "Standard1"),
        all_rows(&mut client, "Super1"),
    );
    assert_eq!(before.0.len(), 200);
    drop(client);
    let config = server.config.clone();
    assert_eq!(server.stop("TERM"), Some(0), "a clean shutdown exits 0");

    let server = ServerProcess::start(&config);
    let mut client = connect(&server, WireStyle::ALL[2]);
    let after = (
        all_rows(&mut client, "Standard1"),
        all_rows(&mut client, "Super1"),
    );
    assert!(after == before, "reads differ after a clean restart");
}

#[test]
fn kill_9_in_batch_mode_keeps_every_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start_in(dir.path(), "batch");
    let acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = WireStyle::ALL
        .iter()
        .chain(WireStyle::ALL.iter())
        .enumerate()
        .map(|(w, style)| {
            let mut client = connect(&server, *style);
            let (acked, stop) = (Arc::clone(&acked), Arc::clone(&stop));
            std::thread::spawn(move || {
                for n in 0.. {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let key = format!("w{w}-{n:06}");
                    // Any error (the server died mid-call) ends this writer; only replies count.
                    if client
                        .batch_mutate(KS.into(), row_mutation(&key, 5), ConsistencyLevel::ONE)
                        .is_err()
                    {
                        return;
                    }
                    acked.lock().unwrap().push(key);
                }
            })
        })
        .collect();
    // Let the writers get going, then pull the plug while they write.
    while acked.lock().unwrap().len() < 400 {
        std::thread::sleep(Duration::from_millis(10));
    }
    let config = server.config.clone();
    server.stop("KILL");
    stop.store(true, Ordering::SeqCst);
    for w in writers {
        w.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();

    let server = ServerProcess::start(&config);
    let mut client = connect(&server, WireStyle::ALL[0]);
    let standard = all_rows(&mut client, "Standard1");
    let supers = all_rows(&mut client, "Super1");
    let count = |rows: &[ilion::protocol::KeySlice], key: &str| -> usize {
        rows.iter()
            .find(|r| r.key == key)
            .map_or(0, |r| match r.columns.first() {
                Some(ColumnOrSuperColumn {
                    super_column: Some(sc),
                    ..
                }) => sc.columns.len(),
                _ => r.columns.len(),
            })
    };
    for key in &acked {
        assert_eq!(
            (count(&standard, key), count(&supers, key)),
            (5, 5),
            "acknowledged row {key} lost or torn"
        );
    }
    // Rows written but never acknowledged are whole or absent.
    for row in standard.iter().chain(supers.iter()) {
        let (a, b) = (count(&standard, &row.key), count(&supers, &row.key));
        assert!(
            (a, b) == (5, 5) || (a, b) == (0, 0),
            "row {} is torn: {a}/{b}",
            row.key
        );
    }
}
