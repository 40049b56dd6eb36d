//! The client load whose durability the power-cut images are checked against: writer threads
//! send inserts, batch_mutate rows (Standard and Super column families together), super
//! column inserts, and removes (a column, a super column's subcolumns, a whole super column, a
//! whole row) through the real Thrift API, each request writing a value no other request
//! writes. Around every request a writer appends `Sent` and, on success, `Ack` to the
//! power-cut log, so the log orders acknowledgements against the server's syncs. The model
//! remembers what each request did to each column ("unit").

use crate::image::Rng;
use crate::log::{writer_record, K_ACK, K_SENT};
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{
    Column, ColumnOrSuperColumn, ColumnPath, ConsistencyLevel, Deletion, Mutation, SlicePredicate,
    SuperColumn,
};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub const KS: &str = "Keyspace1";
pub const STANDARD: &str = "Standard1";
pub const SUPER: &str = "Super1";
const COLS: u8 = 4;
const SCS: u8 = 2;
const KEYS: usize = 6;

/// One column: in Standard1 (`sc` None) or one subcolumn of Super1.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    pub key: String,
    pub sc: Option<u8>,
    pub col: u8,
}

/// What the load did: for every unit, in order, each request touching it and whether the
/// unit holds that request's value afterwards (true) or is absent (false).
#[derive(Debug, Default, Clone)]
pub struct Load {
    pub history: BTreeMap<Unit, Vec<(u64, bool)>>,
    /// The units each request touched.
    pub ops: HashMap<u64, Vec<Unit>>,
}

/// The unique value of request `op` (long values go to sled's blob files).
pub fn value(op: u64, long: bool) -> Vec<u8> {
    let mut v = format!("v{op}:").into_bytes();
    v.resize(if long { 40_000 } else { 40 }, b'x');
    v
}

/// The request a value was written by, if it is one of ours.
pub fn value_op(v: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(v.strip_prefix(b"v")?.split(|&b| b == b':').next()?).ok()?;
    let op = text.parse().ok()?;
    (value(op, v.len() > 40) == v).then_some(op)
}

pub fn col_name(c: u8) -> Vec<u8> {
    format!("c{c}").into_bytes()
}
pub fn sc_name(s: u8) -> Vec<u8> {
    format!("s{s}").into_bytes()
}

/// Runs `writers` writer threads against `addr` until `stop` is set or the server goes away;
/// with `long_values`, one request in 25 writes a 40 kB value (sled keeps those in blob files).
pub fn run(
    addr: SocketAddr,
    log: &Path,
    writers: usize,
    seed: u64,
    long_values: bool,
    stop: Arc<AtomicBool>,
) -> Load {
    let clock = Arc::new(AtomicI64::new(1_000_000));
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let (log, stop, clock) = (log.to_path_buf(), Arc::clone(&stop), Arc::clone(&clock));
            std::thread::spawn(move || writer(addr, &log, w, seed, long_values, &stop, &clock))
        })
        .collect();
    let mut load = Load::default();
    for t in threads {
        for (op, effects) in t.join().unwrap() {
            for (unit, present) in &effects {
                load.history
                    .entry(unit.clone())
                    .or_default()
                    .push((op, *present));
            }
            load.ops
                .insert(op, effects.into_iter().map(|e| e.0).collect());
        }
    }
    load
}

type Effects = Vec<(Unit, bool)>;

fn writer(
    addr: SocketAddr,
    log: &Path,
    w: usize,
    seed: u64,
    long_values: bool,
    stop: &AtomicBool,
    clock: &AtomicI64,
) -> Vec<(u64, Effects)> {
    let mut client = Client::connect(addr, WireStyle::ALL[w % 4], Duration::from_secs(10)).unwrap();
    let mut out = std::fs::OpenOptions::new().append(true).open(log).unwrap();
    let mut rng = Rng::new(seed ^ ((w as u64 + 1) * 7919));
    let mut done = Vec::new();
    for n in 0u64.. {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let op = ((w as u64) << 40) | n;
        let key = format!("w{w}-k{}", rng.range(0, KEYS));
        let ts = clock.fetch_add(1, Ordering::SeqCst);
        let long = long_values && rng.range(0, 25) == 0;
        let v = value(op, long);
        let col = rng.range(0, COLS as usize) as u8;
        let sc = rng.range(0, SCS as usize) as u8;
        let unit = |sc: Option<u8>, col: u8| Unit {
            key: key.clone(),
            sc,
            col,
        };
        let one = ConsistencyLevel::ONE;
        let column = |c: u8| Column::new(col_name(c), v.clone(), ts);
        let mut effects: Effects = Vec::new();
        out.write_all(&writer_record(K_SENT, op)).unwrap();
        let result = match rng.range(0, 100) {
            0..=29 => {
                effects.push((unit(None, col), true));
                let path = ColumnPath::new(STANDARD.into(), None, col_name(col));
                client.insert(KS.into(), key.clone(), path, v.clone(), ts, one)
            }
            30..=54 => {
                // One row mutation over both column families.
                let mut cols: Vec<u8> = (0..COLS).filter(|_| rng.range(0, 2) == 0).collect();
                let subs: Vec<u8> = (0..COLS).filter(|_| rng.range(0, 2) == 0).collect();
                if cols.is_empty() {
                    cols.push(col);
                }
                let mut std_m = Vec::new();
                for &c in &cols {
                    effects.push((unit(None, c), true));
                    std_m.push(Mutation::new(
                        ColumnOrSuperColumn::new(column(c), None),
                        None,
                    ));
                }
                for &c in &subs {
                    effects.push((unit(Some(sc), c), true));
                }
                let sup = SuperColumn::new(sc_name(sc), subs.iter().map(|&c| column(c)).collect());
                let sup_m = vec![Mutation::new(ColumnOrSuperColumn::new(None, sup), None)];
                let mut cfs = BTreeMap::new();
                if !std_m.is_empty() {
                    cfs.insert(STANDARD.to_string(), std_m);
                }
                if !subs.is_empty() {
                    cfs.insert(SUPER.to_string(), sup_m);
                }
                client.batch_mutate(KS.into(), BTreeMap::from([(key.clone(), cfs)]), one)
            }
            55..=64 => {
                effects.push((unit(Some(sc), col), true));
                let path = ColumnPath::new(SUPER.into(), sc_name(sc), col_name(col));
                client.insert(KS.into(), key.clone(), path, v.clone(), ts, one)
            }
            65..=76 => {
                effects.push((unit(None, col), false));
                let path = ColumnPath::new(STANDARD.into(), None, col_name(col));
                client.remove(KS.into(), key.clone(), path, ts, one)
            }
            77..=84 => {
                // Delete some subcolumns and insert a Standard column in one row mutation.
                let mut subs: Vec<u8> = (0..COLS).filter(|_| rng.range(0, 2) == 0).collect();
                if subs.is_empty() {
                    subs.push(col);
                }
                effects.extend(subs.iter().map(|&c| (unit(Some(sc), c), false)));
                effects.push((unit(None, col), true));
                let names: Vec<Vec<u8>> = subs.iter().map(|&c| col_name(c)).collect();
                let del = Deletion::new(ts, sc_name(sc), SlicePredicate::new(names, None));
                let cfs = BTreeMap::from([
                    (SUPER.to_string(), vec![Mutation::new(None, del)]),
                    (
                        STANDARD.to_string(),
                        vec![Mutation::new(
                            ColumnOrSuperColumn::new(column(col), None),
                            None,
                        )],
                    ),
                ]);
                client.batch_mutate(KS.into(), BTreeMap::from([(key.clone(), cfs)]), one)
            }
            85..=91 => {
                effects.extend((0..COLS).map(|c| (unit(Some(sc), c), false)));
                let path = ColumnPath::new(SUPER.into(), sc_name(sc), None);
                client.remove(KS.into(), key.clone(), path, ts, one)
            }
            _ => {
                effects.extend((0..COLS).map(|c| (unit(None, c), false)));
                let path = ColumnPath::new(STANDARD.into(), None, None);
                client.remove(KS.into(), key.clone(), path, ts, one)
            }
        };
        // Sent requests count even when unanswered: the server may have applied them.
        done.push((op, effects));
        if result.is_err() {
            break;
        }
        out.write_all(&writer_record(K_ACK, op)).unwrap();
    }
    done
}
