//! `ilion stress`: a load generator for any Cassandra 0.6-API server in the manner of 0.6's
//! `contrib/py_stress/stress.py`, cheap enough on the client side to saturate a server, and
//! `ilion stress --serve-noop`, the floor server it is measured against.
//!
//! A run:
//! 1. opens `-t` connections ([`AsyncConnection`], spread over the `-h` hosts);
//! 2. starts one tokio task per connection (`worker::run`) — closed loop by default, each
//!    sending its next call as soon as the last one is answered; open loop with `--rate`,
//!    where a pacer releases operations on a fixed schedule (`schedule`) and latency counts
//!    from each operation's intended start;
//! 3. prints stress.py's CSV progress line every `-i` seconds (and a progress bar when stdout
//!    is a terminal), then a summary with percentiles, and `--json` writes it to a file.
//!
//! The summary also carries the client's own CPU time (`cpu`), since client and server often
//! share the machine's cores and the client's share bounds what the server can be given.
//!
//! Mixed load (`-o mixed`) is reads and inserts of Gaussian (or `-r` uniform) random keys,
//! half and half by default (`--read-fraction`): the simplest split that exercises both
//! paths equally.

mod args;
mod cpu;
mod keys;
pub mod noop;
mod progress;
mod report;
mod schedule;
mod worker;

pub use args::{Operation, StressArgs};
pub use keys::{KeyDist, KeyFormat, Rng};
pub use report::{csv_line, LatencySummary, Summary, CSV_HEADER};
pub use schedule::Schedule;

use crate::client::AsyncConnection;
use progress::Progress;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use worker::{Counters, Plan};

/// How often the progress bar is redrawn and the CSV interval checked.
const TICK: Duration = Duration::from_millis(250);

/// Runs `ilion stress` (or the floor server with `--serve-noop`) on its own runtime: exit 0
/// when every operation succeeded, 1 when some failed, 2 when the run could not start.
pub fn run(args: StressArgs) -> ExitCode {
    if let Err(why) = args.validate() {
        eprintln!("ilion stress: {why}");
        return ExitCode::from(2);
    }
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if args.serve_noop {
        // The floor serves on as many request threads as `ilion serve`: the same network
        // path, so that only the storage work differs between the two.
        builder.worker_threads(crate::server::request_threads());
    }
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ilion stress: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    if args.serve_noop {
        return match runtime.block_on(serve_noop(&args)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(why) => {
                eprintln!("ilion stress --serve-noop: {why}");
                ExitCode::from(2)
            }
        };
    }
    let bar = std::io::stdout().is_terminal();
    match runtime.block_on(stress(&args, &mut std::io::stdout(), bar)) {
        Ok(summary) if summary.errors == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(why) => {
            eprintln!("ilion stress: {why}");
            ExitCode::from(2)
        }
    }
}

/// Serves the floor on `-h`:`-p` until interrupted (Ctrl-C or SIGTERM).
async fn serve_noop(args: &StressArgs) -> Result<(), String> {
    let addr = args.addresses()?[0];
    let shape = noop::NoopShape {
        columns: args.columns,
        value_size: args.column_size,
        rows: args.range_count as usize,
    };
    let server = noop::start(addr, shape)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    eprintln!("listening on {}", server.local_addr());
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| e.to_string())?;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    server.shutdown(Duration::from_secs(5)).await;
    Ok(())
}

/// One stress run against the servers `args` names, printing progress and the summary to
/// `out` (with a progress bar when `bar`), and writing `--json` if asked. `Err` when it
/// could not start (bad arguments, no connection, unwritable JSON file).
pub async fn stress(
    args: &StressArgs,
    out: &mut (dyn Write + Send),
    bar: bool,
) -> Result<Summary, String> {
    args.validate()?;
    let addrs = args.addresses()?;
    let mut conns = Vec::with_capacity(args.threads);
    for i in 0..args.threads {
        let addr = addrs[i % addrs.len()];
        let conn = AsyncConnection::connect(addr, args.framed, &args.keyspace, args.consistency)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        conns.push((addr, conn));
    }

    let cpu_before = cpu::process_seconds();
    let start = Instant::now();
    let deadline = args.duration.map(|d| start + d);
    let total = match args.duration {
        Some(_) => u64::MAX,
        None => args.operations(),
    };
    let open_loop = args
        .rate
        .map(|rate| (Schedule::new(rate), Arc::new(Semaphore::new(0))));
    let plan = Arc::new(plan(args, total, start, deadline, open_loop.clone()));
    let pacer = open_loop.map(|(schedule, permits)| {
        schedule::Pacer::start(schedule, start, total, deadline, permits, args.threads)
    });
    let seed = args.seed.unwrap_or_else(|| {
        let now = SystemTime::now().duration_since(UNIX_EPOCH);
        now.map_or(0, |d| d.as_nanos() as u64)
    });
    let mut workers = JoinSet::new();
    for (i, (addr, conn)) in conns.into_iter().enumerate() {
        let worker_seed = seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        workers.spawn(worker::run(
            Arc::clone(&plan),
            addr,
            Some(conn),
            worker_seed,
        ));
    }

    let progress = Progress::new(args, bar, start);
    let hist = progress.watch(&plan.counters, &mut workers, out).await?;
    if let Some(pacer) = pacer {
        pacer.stop();
    }

    let c = &plan.counters;
    let elapsed = start.elapsed().as_secs_f64();
    let operations = c.done.load(std::sync::atomic::Ordering::Relaxed);
    let summary = Summary {
        operation: operation_name(args.operation).to_string(),
        connections: args.threads,
        framed: args.framed,
        target_rate: args.rate,
        operations,
        errors: c.errors.load(std::sync::atomic::Ordering::Relaxed),
        empty_reads: c.empty.load(std::sync::atomic::Ordering::Relaxed),
        items: c.items.load(std::sync::atomic::Ordering::Relaxed),
        elapsed_s: elapsed,
        ops_per_s: operations as f64 / elapsed.max(1e-9),
        latency: LatencySummary::of(&hist),
        client_cpu_s: cpu::process_seconds().map(|s| s - cpu_before.unwrap_or(0.0)),
    };
    write!(out, "{}", summary.text()).map_err(|e| e.to_string())?;
    if let Some(path) = &args.json {
        std::fs::write(path, summary.json() + "\n")
            .map_err(|e| format!("--json {}: {e}", path.display()))?;
    }
    Ok(summary)
}

/// The `-o` spelling of an operation.
fn operation_name(op: Operation) -> &'static str {
    match op {
        Operation::Insert => "insert",
        Operation::Read => "read",
        Operation::Rangeslice => "rangeslice",
        Operation::InsertSuper => "insert-super",
        Operation::ReadSuper => "read-super",
        Operation::Mixed => "mixed",
    }
}

fn plan(
    args: &StressArgs,
    total: u64,
    start: Instant,
    deadline: Option<Instant>,
    open_loop: Option<(Schedule, Arc<Semaphore>)>,
) -> Plan {
    let names = |prefix: char, n: usize| -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| format!("{prefix}{i}").into_bytes())
            .collect()
    };
    // A printable value, different for each column size, the same in every run.
    let value = (0..args.column_size)
        .map(|i| b"0123456789abcdef"[(i * 7 + args.column_size) % 16])
        .collect();
    Plan {
        operation: args.operation,
        total,
        keys: args.num_keys,
        first_key: args.first_key,
        dist: args.key_dist(),
        format: args.key_format(),
        read_fraction: args.read_fraction,
        column_family: args.column_family().to_string(),
        columns: names('C', args.columns),
        supers: match args.operation {
            Operation::InsertSuper | Operation::ReadSuper => names('S', args.supercolumns),
            _ => Vec::new(),
        },
        value,
        range_rows: args.range_count,
        keyspace: args.keyspace.clone(),
        consistency: args.consistency,
        framed: args.framed,
        start,
        deadline,
        open_loop,
        counters: Counters::default(),
    }
}
