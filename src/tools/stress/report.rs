//! What `ilion stress` prints: stress.py's CSV progress line
//! (`total,interval_op_rate,avg_latency,elapsed_time`, latency in seconds), a progress bar
//! when stdout is a terminal, and the final summary — throughput, latency mean and
//! percentiles from an HDR histogram of microseconds, errors — as text and as JSON.

use hdrhistogram::Histogram;
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Duration;

/// The CSV header stress.py printed before its first progress line.
pub const CSV_HEADER: &str = "total,interval_op_rate,avg_latency,elapsed_time";

/// A latency histogram in microseconds, 1 µs to 1 hour, 3 significant digits.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

/// Records one latency, clamped into the histogram's range.
pub fn record(h: &mut Histogram<u64>, latency: Duration) {
    let micros = latency.as_micros().clamp(1, u128::from(h.high())) as u64;
    h.saturating_record(micros);
}

/// One progress line: `total` operations so far, the rate and mean latency of the last
/// interval (`ops` operations taking `latency_sum` together over `interval`), and the
/// whole seconds elapsed.
pub fn csv_line(
    total: u64,
    ops: u64,
    latency_sum: Duration,
    interval: Duration,
    elapsed: Duration,
) -> String {
    let rate = match interval.as_secs_f64() {
        s if s > 0.0 => (ops as f64 / s).round() as u64,
        _ => 0,
    };
    let avg = match ops {
        0 => 0.0,
        n => latency_sum.as_secs_f64() / n as f64,
    };
    format!("{total},{rate},{avg:.6},{}", elapsed.as_secs())
}

/// Latency figures in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatencySummary {
    /// Mean.
    pub mean_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 95th percentile.
    pub p95_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Largest.
    pub max_ms: f64,
}

impl LatencySummary {
    /// The figures of a histogram of microseconds (all zero when it is empty).
    pub fn of(h: &Histogram<u64>) -> LatencySummary {
        let ms = |us: u64| us as f64 / 1000.0;
        if h.is_empty() {
            return LatencySummary {
                mean_ms: 0.0,
                p50_ms: 0.0,
                p95_ms: 0.0,
                p99_ms: 0.0,
                p999_ms: 0.0,
                max_ms: 0.0,
            };
        }
        LatencySummary {
            mean_ms: h.mean() / 1000.0,
            p50_ms: ms(h.value_at_quantile(0.50)),
            p95_ms: ms(h.value_at_quantile(0.95)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            p999_ms: ms(h.value_at_quantile(0.999)),
            max_ms: ms(h.max()),
        }
    }
}

/// The outcome of one run, as printed and as written by `--json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The operation (`insert`, `read`, ...).
    pub operation: String,
    /// Connections used.
    pub connections: usize,
    /// Whether the transport was framed.
    pub framed: bool,
    /// The open-loop rate asked for, if any.
    pub target_rate: Option<f64>,
    /// Operations finished (with or without error).
    pub operations: u64,
    /// Operations that failed: exceptions, broken connections, bad replies.
    pub errors: u64,
    /// Reads that found no columns (or range slices no rows); not counted as errors.
    pub empty_reads: u64,
    /// Items the reads returned in all: columns (read), super columns (read-super), rows
    /// (rangeslice); 0 for inserts.
    pub items: u64,
    /// Wall time of the run in seconds.
    pub elapsed_s: f64,
    /// Operations per second over the run.
    pub ops_per_s: f64,
    /// Latency figures (from the intended start under `--rate`).
    pub latency: LatencySummary,
    /// CPU seconds the stress process itself used during the run (all its threads), where
    /// the platform says.
    pub client_cpu_s: Option<f64>,
}

impl Summary {
    /// The summary as aligned text lines.
    pub fn text(&self) -> String {
        let l = &self.latency;
        let mut s = String::new();
        let mode = match self.target_rate {
            Some(r) => format!("open loop at {r} ops/s"),
            None => "closed loop".to_string(),
        };
        let framing = if self.framed { "framed" } else { "unframed" };
        let _ = writeln!(
            s,
            "operation     {} ({mode}, {} connections, {framing})",
            self.operation, self.connections
        );
        let _ = writeln!(
            s,
            "operations    {} in {:.2} s, {} errors, {} empty reads",
            self.operations, self.elapsed_s, self.errors, self.empty_reads
        );
        let _ = writeln!(
            s,
            "throughput    {:.0} ops/s, {:.0} items/s",
            self.ops_per_s,
            self.items as f64 / self.elapsed_s.max(1e-9)
        );
        let _ = writeln!(
            s,
            "latency ms    mean {:.3}  p50 {:.3}  p95 {:.3}  p99 {:.3}  p99.9 {:.3}  max {:.3}",
            l.mean_ms, l.p50_ms, l.p95_ms, l.p99_ms, l.p999_ms, l.max_ms
        );
        if let Some(cpu) = self.client_cpu_s {
            let per_op = cpu * 1e6 / self.operations.max(1) as f64;
            let _ = writeln!(s, "client CPU    {cpu:.2} s, {per_op:.1} µs per operation");
        }
        s
    }

    /// The summary as pretty-printed JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a summary always serializes")
    }
}

/// A one-line progress bar (to be drawn after `\r`): done/total and the current rate.
/// `total` is `None` for a run bounded by time, shown by `fraction` of it elapsed.
pub fn progress_bar(done: u64, total: Option<u64>, fraction: f64, rate: f64) -> String {
    const WIDTH: usize = 30;
    let fraction = fraction.clamp(0.0, 1.0);
    let filled = (fraction * WIDTH as f64).round() as usize;
    let count = match total {
        Some(t) => format!("{done}/{t}"),
        None => format!("{done}"),
    };
    format!(
        "[{}{}] {:3.0}% {count} ops {rate:.0} ops/s",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
        fraction * 100.0
    )
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
