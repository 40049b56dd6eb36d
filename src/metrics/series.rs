//! The recent history behind the status page's charts: every few seconds a sample of the
//! total Thrift call count and the call latency histogram; a chart point is the difference
//! of two neighbouring samples (calls per second, and the 99th percentile of the calls in
//! between). Ten minutes of samples are kept.

use super::read::{self, Buckets};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds between two samples.
pub const SAMPLE_SECONDS: u64 = 2;

/// Samples kept: ten minutes.
const KEPT: usize = 300;

struct Sample {
    unix_ms: u64,
    calls: Buckets,
}

/// One point of the charts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Point {
    /// End of the interval, milliseconds since the epoch.
    pub unix_ms: u64,
    /// Thrift calls per second over the interval.
    pub ops_per_sec: f64,
    /// 99th percentile call latency in the interval, milliseconds (None without calls).
    pub p99_ms: Option<f64>,
}

/// A ring of samples.
#[derive(Default)]
pub struct Series {
    samples: Mutex<VecDeque<Sample>>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Series {
    /// Takes a sample of the registry now.
    pub fn sample(&self) {
        self.push(now_ms(), read::all_requests());
    }

    fn push(&self, unix_ms: u64, calls: Buckets) {
        let mut samples = self.samples.lock().unwrap_or_else(|p| p.into_inner());
        if samples.len() == KEPT {
            samples.pop_front();
        }
        samples.push_back(Sample { unix_ms, calls });
    }

    /// The chart points, oldest first.
    pub fn points(&self) -> Vec<Point> {
        let samples = self.samples.lock().unwrap_or_else(|p| p.into_inner());
        samples
            .iter()
            .zip(samples.iter().skip(1))
            .map(|(a, b)| {
                let d = b.calls.since(&a.calls);
                let secs = (b.unix_ms.saturating_sub(a.unix_ms) as f64 / 1000.0).max(1e-3);
                Point {
                    unix_ms: b.unix_ms,
                    ops_per_sec: d.count as f64 / secs,
                    p99_ms: d.quantile(0.99).map(|s| s * 1000.0),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(counts: &[u64]) -> Buckets {
        Buckets {
            bounds: vec![0.001, 0.002, 0.004],
            counts: counts.to_vec(),
            overflow: 0,
            count: counts.iter().sum(),
            sum: 0.0,
        }
    }

    #[test]
    fn points_are_differences_of_neighbouring_samples() {
        let s = Series::default();
        s.push(1_000, calls(&[0, 0, 0]));
        s.push(3_000, calls(&[10, 0, 0]));
        s.push(5_000, calls(&[10, 0, 4]));
        let p = s.points();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].ops_per_sec, 5.0);
        assert!(p[0].p99_ms.is_some_and(|ms| ms <= 1.0));
        assert_eq!(p[1].ops_per_sec, 2.0);
        assert!(p[1].p99_ms.is_some_and(|ms| ms > 2.0 && ms <= 4.0));
    }

    #[test]
    fn only_ten_minutes_are_kept() {
        let s = Series::default();
        for i in 0..(KEPT as u64 + 50) {
            s.push(i * 2000, calls(&[i, 0, 0]));
        }
        assert_eq!(s.points().len(), KEPT - 1);
    }
}
