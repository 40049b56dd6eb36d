//! `ilion stress` end to end against the no-op floor server, in-process on 127.0.0.1:0:
//! every operation, both framings, the CSV progress line, the summary and the JSON file.
//! Counts only, never timings.

use clap::Parser;
use ilion::tools::stress::noop::{self, NoopShape};
use ilion::tools::stress::{stress, StressArgs, Summary, CSV_HEADER};
use std::net::SocketAddr;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: StressArgs,
}

fn args(port: u16, extra: &[&str], json: &std::path::Path) -> StressArgs {
    let port = port.to_string();
    let json = json.to_str().unwrap();
    let base = ["stress", "-h", "127.0.0.1", "-p", &port, "--json", json];
    Cli::try_parse_from(base.iter().chain(extra)).unwrap().args
}

/// Runs one stress against a fresh floor server; returns the printed text and the summary.
async fn run(extra: &[&str]) -> (String, Summary, serde_json::Value) {
    let shape = NoopShape {
        columns: 5,
        value_size: 34,
        rows: 1000,
    };
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let server = noop::start(addr, shape).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("summary.json");
    let mut out = Vec::new();
    let summary = stress(
        &args(server.local_addr().port(), extra, &json),
        &mut out,
        false,
    )
    .await
    .unwrap();
    server.shutdown(std::time::Duration::from_secs(5)).await;
    let written = std::fs::read_to_string(&json).unwrap();
    (
        String::from_utf8(out).unwrap(),
        summary,
        serde_json::from_str(&written).unwrap(),
    )
}

/// The CSV lines of a run's output, checked against the header's shape.
fn csv_lines(text: &str) -> Vec<Vec<f64>> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(CSV_HEADER), "{text}");
    let rows: Vec<Vec<f64>> = lines
        .take_while(|l| !l.starts_with("operation"))
        .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect())
        .collect();
    assert!(!rows.is_empty(), "no progress line in\n{text}");
    assert!(rows.iter().all(|r| r.len() == 4), "{rows:?}");
    rows
}

fn check(text: &str, summary: &Summary, json: &serde_json::Value, ops: u64, op: &str) {
    assert_eq!(summary.operations, ops, "{text}");
    assert_eq!(summary.errors, 0, "{text}");
    assert_eq!(summary.operation, op);
    let rows = csv_lines(text);
    assert_eq!(rows.last().unwrap()[0], ops as f64, "last line's total");
    assert!(text.contains("throughput"), "{text}");
    assert!(text.contains("p99.9"), "{text}");
    assert_eq!(json["operations"], ops);
    assert_eq!(json["errors"], 0);
    assert_eq!(json["operation"], op);
    assert!(json["latency"]["p99_ms"].as_f64().unwrap() > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insert_read_and_rangeslice_over_both_framings() {
    for framing in [&[][..], &["--framed"][..]] {
        for op in ["insert", "read", "rangeslice", "insert-super", "mixed"] {
            // Range slices of 50 rows are heavier: fewer of them.
            let (n, ops) = if op == "rangeslice" {
                ("100", 100)
            } else {
                ("2000", 2000)
            };
            let mut extra = vec!["-n", n, "-t", "4", "-o", op, "-g", "50", "--seed", "1"];
            extra.extend(framing);
            let (text, summary, json) = run(&extra).await;
            check(&text, &summary, &json, ops, op);
            assert_eq!(summary.framed, !framing.is_empty());
            // The floor has every key: no read comes back empty.
            assert_eq!(summary.empty_reads, 0, "{op}: {text}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_loop_runs_every_scheduled_operation() {
    let (text, summary, json) =
        run(&["-n", "300", "-t", "3", "-o", "read", "--rate", "3000"]).await;
    check(&text, &summary, &json, 300, "read");
    assert_eq!(json["target_rate"], 3000.0);
    assert!(text.contains("open loop at 3000 ops/s"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_run_stops_by_itself() {
    let (text, summary, _) = run(&["-n", "10", "-t", "2", "--duration", "0.3", "-o", "read"]).await;
    assert!(summary.operations > 0, "{text}");
    assert_eq!(summary.errors, 0, "{text}");
    csv_lines(&text);
    let (text, summary, _) = run(&["-t", "2", "--duration", "0.3", "--rate", "200"]).await;
    assert!(summary.operations > 0, "{text}");
    assert_eq!(summary.errors, 0, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_server_is_an_error_not_a_hang() {
    // A port that was just free.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let a = args(port, &["-n", "10", "-t", "2"], &dir.path().join("x.json"));
    let why = stress(&a, &mut Vec::new(), false).await.unwrap_err();
    assert!(why.contains("cannot connect"), "{why}");
}
