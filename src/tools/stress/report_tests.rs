//! Formatting of the progress line, the latency summary and the JSON output.

use super::*;

#[test]
fn csv_line_is_stress_py_shaped() {
    let line = csv_line(
        12_000,
        5_000,
        Duration::from_millis(2_500),
        Duration::from_secs(10),
        Duration::from_millis(20_400),
    );
    assert_eq!(line, "12000,500,0.000500,20");
    assert_eq!(CSV_HEADER.split(',').count(), line.split(',').count());
}

#[test]
fn an_empty_interval_has_zero_rate_and_latency() {
    let line = csv_line(7, 0, Duration::ZERO, Duration::from_secs(1), Duration::ZERO);
    assert_eq!(line, "7,0,0.000000,0");
    let line = csv_line(
        7,
        3,
        Duration::from_micros(30),
        Duration::ZERO,
        Duration::ZERO,
    );
    assert_eq!(line, "7,0,0.000010,0");
}

#[test]
fn latency_summary_reads_percentiles_in_milliseconds() {
    let mut h = new_histogram();
    for us in 1..=1000u64 {
        record(&mut h, Duration::from_micros(us));
    }
    let s = LatencySummary::of(&h);
    assert!((s.mean_ms - 0.5005).abs() < 0.001, "{s:?}");
    assert!((s.p50_ms - 0.500).abs() < 0.001, "{s:?}");
    assert!((s.p95_ms - 0.950).abs() < 0.001, "{s:?}");
    assert!((s.p99_ms - 0.990).abs() < 0.001, "{s:?}");
    assert!((s.p999_ms - 0.999).abs() < 0.001, "{s:?}");
    assert!((s.max_ms - 1.000).abs() < 0.001, "{s:?}");
}

#[test]
fn latencies_outside_the_range_are_clamped_not_lost() {
    let mut h = new_histogram();
    record(&mut h, Duration::ZERO);
    record(&mut h, Duration::from_secs(10_000));
    assert_eq!(h.len(), 2);
    assert_eq!(h.min(), 1);
    assert_eq!(LatencySummary::of(&new_histogram()).max_ms, 0.0);
}

fn sample() -> Summary {
    Summary {
        operation: "read".into(),
        connections: 50,
        framed: true,
        target_rate: Some(5000.0),
        operations: 1000,
        errors: 2,
        empty_reads: 3,
        items: 4000,
        elapsed_s: 0.5,
        ops_per_s: 2000.0,
        latency: LatencySummary {
            mean_ms: 0.25,
            p50_ms: 0.2,
            p95_ms: 0.5,
            p99_ms: 0.75,
            p999_ms: 1.5,
            max_ms: 2.0,
        },
        client_cpu_s: Some(0.25),
    }
}

#[test]
fn summary_text_names_every_figure() {
    let text = sample().text();
    for want in [
        "read (open loop at 5000 ops/s, 50 connections, framed)",
        "1000 in 0.50 s, 2 errors, 3 empty reads",
        "2000 ops/s, 8000 items/s",
        "client CPU    0.25 s, 250.0 µs per operation",
        "mean 0.250  p50 0.200  p95 0.500  p99 0.750  p99.9 1.500  max 2.000",
    ] {
        assert!(text.contains(want), "{want:?} missing from\n{text}");
    }
}

#[test]
fn json_carries_every_field() {
    let v: serde_json::Value = serde_json::from_str(&sample().json()).unwrap();
    assert_eq!(v["operation"], "read");
    assert_eq!(v["operations"], 1000);
    assert_eq!(v["errors"], 2);
    assert_eq!(v["empty_reads"], 3);
    assert_eq!(v["target_rate"], 5000.0);
    assert_eq!(v["latency"]["p999_ms"], 1.5);
    assert_eq!(v["items"], 4000);
    assert_eq!(v["client_cpu_s"], 0.25);
    let mut closed = sample();
    closed.target_rate = None;
    closed.client_cpu_s = None;
    let v: serde_json::Value = serde_json::from_str(&closed.json()).unwrap();
    assert!(v["target_rate"].is_null());
    assert!(v["client_cpu_s"].is_null());
    assert!(!closed.text().contains("client CPU"), "{}", closed.text());
}

#[test]
fn progress_bar_fills_with_the_fraction() {
    assert_eq!(
        progress_bar(50, Some(100), 0.5, 1234.4),
        "[###############---------------]  50% 50/100 ops 1234 ops/s"
    );
    assert!(
        progress_bar(0, None, 2.0, 0.0).starts_with("[##############################] 100% 0 ops")
    );
}
