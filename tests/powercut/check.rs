//! The checker: starts the real `ilion serve` on a power-cut image, reads every column back
//! through Thrift, and judges what it serves against the load's model and the log
//! (docs/powercut.md#checks): nothing required is lost, nothing is served that was never
//! written, no row mutation is torn; or the store is refused with a message; never a panic.

use crate::image::Timeline;
use crate::load::{col_name, sc_name, Load, Unit, KS, STANDARD, SUPER};
use crate::log::{Rec, SyncKind};
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{ColumnParent, ConsistencyLevel, KeyRange, SlicePredicate, SliceRange};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// What one image came to.
#[derive(Debug)]
pub enum Outcome {
    /// Served, and the data passed: `required` acknowledged requests were checked present.
    Passed {
        required: usize,
    },
    /// Served, but the data is wrong.
    Failed(Report),
    /// The server refused to start on it, with this message.
    Refused(String),
    Panic(String),
    /// The server stopped at start without saying why (or said nothing and exited 0).
    Unclear(String),
    /// Served, but a read failed.
    ReadError(String),
}

/// What was wrong with served data.
#[derive(Debug, Default)]
pub struct Report {
    pub lost: Vec<String>,
    pub fabricated: Vec<String>,
    pub torn: Vec<String>,
    pub required: usize,
}

impl Report {
    pub fn clean(&self) -> bool {
        self.lost.is_empty() && self.fabricated.is_empty() && self.torn.is_empty()
    }
}

/// The name of ilion's syncer thread, whose syncs are the ones periodic mode promises by.
const SYNCER: &str = "ilion-sync";

/// Acknowledgements before this record must survive a cut at `cut`. Batch mode: all of
/// them. Periodic mode: those acknowledged before the end of the syncer's commit-log sync
/// preceding its last completed one (the syncer's syncs run one after another, so the last
/// one started writing after the one before it ended, and covers everything acknowledged by
/// then). Syncs on other threads — sled's own `fsync` after each log-buffer write — cover
/// only what was written out, not every acknowledged write, so they promise nothing here.
pub fn required_before(t: &Timeline, cut: usize, mode: &str) -> usize {
    if mode == "batch" {
        return cut;
    }
    let mut by_thread: HashMap<i32, Vec<usize>> = HashMap::new();
    for s in &t.syncs {
        let real = matches!(s.kind, SyncKind::Fsync | SyncKind::Fdatasync) && s.thread == SYNCER;
        if let (true, true, true, Some(end)) = (real, s.commit_log, s.ok, s.end) {
            if end < cut {
                by_thread.entry(s.tid).or_default().push(end);
            }
        }
    }
    by_thread
        .values_mut()
        .filter(|ends| ends.len() >= 2)
        .map(|ends| {
            ends.sort_unstable();
            ends[ends.len() - 2]
        })
        .max()
        .unwrap_or(0)
}

/// Judges `observed` (each unit's value, as the request that wrote it) at cut `cut`.
pub fn judge(
    load: &Load,
    recs: &[Rec],
    cut: usize,
    required_before: usize,
    observed: &BTreeMap<Unit, u64>,
    strays: &[String],
) -> Report {
    let mut sent = HashMap::new();
    let mut acked = HashMap::new();
    for (pos, r) in recs.iter().enumerate() {
        match r {
            Rec::Sent(op) => {
                sent.insert(*op, pos);
            }
            Rec::Ack(op) => {
                acked.insert(*op, pos);
            }
            _ => {}
        }
    }
    let was_sent = |op: u64| sent.get(&op).is_some_and(|&p| p < cut);
    let required = |op: u64| acked.get(&op).is_some_and(|&p| p < required_before);
    let mut report = Report {
        fabricated: strays.to_vec(),
        ..Report::default()
    };
    report.required = acked.values().filter(|&&p| p < required_before).count();
    // Each unit's observed position in its history: Some(j), or None for "absent".
    let mut position: HashMap<&Unit, Option<usize>> = HashMap::new();
    let empty = Vec::new();
    for unit in load.history.keys().chain(observed.keys()) {
        let hist = load.history.get(unit).unwrap_or(&empty);
        let must = hist.iter().rposition(|&(op, _)| required(op));
        match observed.get(unit) {
            Some(&op) => match hist.iter().position(|&(o, present)| o == op && present) {
                Some(j) if was_sent(op) => {
                    if must.is_some_and(|m| m > j) {
                        report.lost.push(format!(
                            "{unit:?} holds request {op}'s value, but request {} after it was \
                             acknowledged in time",
                            hist[must.unwrap_or(0)].0
                        ));
                    }
                    position.insert(unit, Some(j));
                }
                _ => report.fabricated.push(format!(
                    "{unit:?} holds the value of request {op}, which never wrote it before the cut"
                )),
            },
            None => {
                let ok = match must {
                    None => true,
                    Some(m) => hist[m..]
                        .iter()
                        .any(|&(o, present)| !present && was_sent(o)),
                };
                if !ok {
                    let op = hist[must.unwrap_or(0)].0;
                    report
                        .lost
                        .push(format!("{unit:?} is missing request {op}'s value"));
                }
                position.insert(unit, None);
            }
        }
    }
    // A row mutation is whole: if one unit shows request g's value, no other unit g touched
    // may show a state older than g.
    for (&op, units) in &load.ops {
        let shows = units.iter().any(|u| observed.get(u) == Some(&op));
        if !shows || units.len() < 2 {
            continue;
        }
        for u in units {
            let hist = &load.history[u];
            let k = hist.iter().position(|&(o, _)| o == op).unwrap_or(0);
            let newer_or_same = match position.get(u).copied().flatten() {
                Some(j) => j >= k,
                // Absent: fine if g itself or a later sent request removed it.
                None => hist[k..]
                    .iter()
                    .any(|&(o, present)| !present && was_sent(o)),
            };
            if !newer_or_same {
                report.torn.push(format!(
                    "request {op} is applied to some columns but not {u:?}"
                ));
            }
        }
    }
    report
}

/// Starts `ilion serve` on the image in `root` (storage-conf.xml beside `data/`) and reads
/// everything back. Returns the units read, stray values, or the outcome that ended it.
pub fn serve_and_read(root: &Path) -> Result<(BTreeMap<Unit, u64>, Vec<String>), Outcome> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(["serve", "--config", "storage-conf.xml"])
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ilion");
    let stderr = child.stderr.take().expect("stderr");
    let text = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel();
    let reader = {
        let text = Arc::clone(&text);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(addr) = line.split("listening on ").nth(1) {
                    let _ = tx.send(addr.trim().to_string());
                }
                let mut t = text.lock().unwrap();
                t.push_str(&line);
                t.push('\n');
            }
        })
    };
    let started = Instant::now();
    let addr = loop {
        if let Ok(addr) = rx.recv_timeout(Duration::from_millis(20)) {
            break addr;
        }
        if let Some(status) = child.try_wait().unwrap() {
            reader.join().unwrap();
            let log = text.lock().unwrap().clone();
            if log.contains("panicked") {
                return Err(Outcome::Panic(log));
            }
            let message = log
                .lines()
                .rev()
                .find(|l| l.contains("ERROR") || l.starts_with("ilion: "))
                .unwrap_or("")
                .trim();
            return Err(if message.is_empty() || status.success() {
                Outcome::Unclear(format!("{status} without an error message: {log}"))
            } else {
                Outcome::Refused(message.to_string())
            });
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Outcome::ReadError(
                "the server neither listened nor exited".into(),
            ));
        }
    };
    let read = read_all(addr.parse().expect("address"));
    let _ = child.kill();
    let _ = child.wait();
    reader.join().unwrap();
    let log = text.lock().unwrap().clone();
    if log.contains("panicked") {
        return Err(Outcome::Panic(log));
    }
    read.map_err(Outcome::ReadError)
}

fn read_all(addr: std::net::SocketAddr) -> Result<(BTreeMap<Unit, u64>, Vec<String>), String> {
    let mut client = Client::connect(addr, WireStyle::ALL[0], Duration::from_secs(20))
        .map_err(|e| e.to_string())?;
    let mut units = BTreeMap::new();
    let mut strays = Vec::new();
    let everything = SlicePredicate::new(None, SliceRange::new(vec![], vec![], false, 10_000));
    for cf in [STANDARD, SUPER] {
        let range = KeyRange::new(String::new(), String::new(), None, None, 100_000);
        let rows = client
            .get_range_slices(
                KS.into(),
                ColumnParent::new(cf.to_string(), None),
                everything.clone(),
                range,
                ConsistencyLevel::ONE,
            )
            .map_err(|e| format!("get_range_slices {cf}: {e}"))?;
        for row in rows {
            for c in row.columns {
                let mut put = |sc: Option<Vec<u8>>, col: ilion::protocol::Column| {
                    let sc_idx = sc.as_ref().map(|n| (0..4).find(|&i| &sc_name(i) == n));
                    let col_idx = (0..4).find(|&i| col_name(i) == col.name);
                    match (sc_idx, col_idx, crate::load::value_op(&col.value)) {
                        (None | Some(Some(_)), Some(ci), Some(op)) => {
                            let unit = Unit {
                                key: row.key.clone(),
                                sc: sc_idx.flatten(),
                                col: ci,
                            };
                            units.insert(unit, op);
                        }
                        _ => strays.push(format!(
                            "{cf} row {} holds {:?}={:?} that no request wrote",
                            row.key,
                            String::from_utf8_lossy(&col.name),
                            String::from_utf8_lossy(&col.value[..col.value.len().min(60)])
                        )),
                    }
                };
                if let Some(col) = c.column {
                    put(None, col);
                }
                if let Some(sup) = c.super_column {
                    for col in sup.columns {
                        put(Some(sup.name.clone()), col);
                    }
                }
            }
        }
    }
    Ok((units, strays))
}
