//! One connection's loop: claim the next operation number, build the call for it, send it,
//! time it, count it. Operation numbers come from one shared counter, so `-n` operations are
//! done exactly once in all; inserts write key `first + i mod (n - first)` (each key once in a
//! fixed-count run, as stress.py's inserters did), reads and range slices pick keys at random.
//!
//! Counters shared with the progress reporter are a handful of relaxed atomics; each worker
//! keeps its own latency histogram, merged at the end, so recording needs no lock.

use super::args::Operation;
use super::keys::{KeyDist, KeyFormat, Rng};
use super::report::{new_histogram, record};
use super::schedule::Schedule;
use crate::client::calls::{Call, InsertShape, Outcome};
use crate::client::{AsyncConnection, CallError};
use crate::protocol::ConsistencyLevel;
use hdrhistogram::Histogram;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::Semaphore;

/// How many error messages are printed before they are only counted.
const ERRORS_SHOWN: u64 = 10;

/// Counters the workers share with the progress reporter.
#[derive(Debug, Default)]
pub struct Counters {
    /// The next operation number to claim.
    pub next: AtomicU64,
    /// Operations finished.
    pub done: AtomicU64,
    /// Operations failed.
    pub errors: AtomicU64,
    /// Reads that came back empty.
    pub empty: AtomicU64,
    /// Items the reads returned: columns, super columns, or rows of a range slice.
    pub items: AtomicU64,
    /// Sum of latencies in nanoseconds.
    pub latency_ns: AtomicU64,
}

/// Everything a worker needs, shared by all of them.
pub struct Plan {
    /// What to do.
    pub operation: Operation,
    /// Operations in all (`u64::MAX` for a timed run).
    pub total: u64,
    /// Keys in the key space.
    pub keys: u64,
    /// The first key inserts write.
    pub first_key: u64,
    /// Random key choice.
    pub dist: KeyDist,
    /// Key spelling.
    pub format: KeyFormat,
    /// Reads among mixed operations.
    pub read_fraction: f64,
    /// Column family.
    pub column_family: String,
    /// Column names C0..
    pub columns: Vec<Vec<u8>>,
    /// Super column names S0.. (insert-super and read-super; empty otherwise).
    pub supers: Vec<Vec<u8>>,
    /// The value written to every column.
    pub value: Vec<u8>,
    /// Rows per range slice.
    pub range_rows: i32,
    /// Keyspace.
    pub keyspace: String,
    /// Consistency level.
    pub consistency: ConsistencyLevel,
    /// Framed transport.
    pub framed: bool,
    /// When the run started (intended starts count from here).
    pub start: Instant,
    /// When a timed run stops.
    pub deadline: Option<Instant>,
    /// The open-loop schedule and its permits, if `--rate` was given.
    pub open_loop: Option<(Schedule, Arc<Semaphore>)>,
    /// Shared counters.
    pub counters: Counters,
}

/// The current time in microseconds since the epoch: the usual column timestamp.
fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// Runs one connection until the plan is done; returns its latency histogram.
pub async fn run(
    plan: Arc<Plan>,
    addr: SocketAddr,
    mut conn: Option<AsyncConnection>,
    seed: u64,
) -> Histogram<u64> {
    let mut hist = new_histogram();
    let mut rng = Rng::new(seed);
    let mut key = String::new();
    let c = &plan.counters;
    loop {
        if let Some((_, permits)) = &plan.open_loop {
            match permits.acquire().await {
                Ok(p) => p.forget(),
                Err(_) => break,
            }
        }
        if plan.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let i = c.next.fetch_add(1, Ordering::Relaxed);
        if i >= plan.total {
            break;
        }
        let intended = match &plan.open_loop {
            Some((schedule, _)) => plan.start + schedule.intended(i),
            None => Instant::now(),
        };
        let insert = match plan.operation {
            Operation::Insert | Operation::InsertSuper => {
                let span = plan.keys - plan.first_key;
                plan.format.write(plan.first_key + i % span, &mut key);
                true
            }
            Operation::Mixed => {
                plan.format.write(plan.dist.sample(&mut rng), &mut key);
                rng.unit() >= plan.read_fraction
            }
            Operation::Read | Operation::Rangeslice | Operation::ReadSuper => {
                plan.format.write(plan.dist.sample(&mut rng), &mut key);
                false
            }
        };
        let call = match (insert, plan.operation) {
            (true, _) => Call::BatchInsert {
                key: &key,
                shape: InsertShape {
                    column_family: &plan.column_family,
                    columns: &plan.columns,
                    value: &plan.value,
                    supers: &plan.supers,
                    timestamp: now_micros(),
                },
            },
            (false, Operation::Rangeslice) => Call::GetRangeSlices {
                start_key: &key,
                end_key: "",
                column_family: &plan.column_family,
                columns: plan.columns.len() as i32,
                rows: plan.range_rows,
            },
            (false, Operation::ReadSuper) => Call::GetSlice {
                key: &key,
                column_family: &plan.column_family,
                count: plan.supers.len() as i32,
            },
            (false, _) => Call::GetSlice {
                key: &key,
                column_family: &plan.column_family,
                count: plan.columns.len() as i32,
            },
        };
        let result = match conn.as_mut() {
            Some(conn) => conn.call(&call).await,
            None => Err(CallError::Io(std::io::ErrorKind::NotConnected.into())),
        };
        let latency = intended.elapsed();
        record(&mut hist, latency);
        c.latency_ns
            .fetch_add(latency.as_nanos() as u64, Ordering::Relaxed);
        match result {
            Ok(Outcome::Ok { items }) => {
                if !insert && items == 0 {
                    c.empty.fetch_add(1, Ordering::Relaxed);
                }
                c.items.fetch_add(u64::from(items), Ordering::Relaxed);
            }
            Ok(Outcome::ServerError(why)) => error(c, &why),
            Err(e) => {
                error(c, &e.to_string());
                conn = reconnect(&plan, addr).await;
            }
        }
        c.done.fetch_add(1, Ordering::Relaxed);
    }
    hist
}

fn error(c: &Counters, why: &str) {
    if c.errors.fetch_add(1, Ordering::Relaxed) < ERRORS_SHOWN {
        eprintln!("error: {why}");
    }
}

/// A fresh connection after a failure, after a pause so a dead server is not hammered.
async fn reconnect(plan: &Plan, addr: SocketAddr) -> Option<AsyncConnection> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    AsyncConnection::connect(addr, plan.framed, &plan.keyspace, plan.consistency)
        .await
        .ok()
}
