//! Reading the registry back: counters summed over their labels, latency histograms as
//! buckets with estimated percentiles (the way Prometheus' `histogram_quantile` estimates
//! them: linear within the bucket), and the process's resident memory. The status page,
//! `ilion tool` and the series sampler all read through here, so their figures are the
//! registry's.

use super::get;
use prometheus::proto::{Metric, MetricFamily};
use serde::Serialize;
use std::collections::BTreeMap;

/// A latency histogram: per-bucket counts (not cumulative) under each upper bound in
/// seconds, plus the overflow above the last bound.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Buckets {
    /// Upper bounds of the buckets in seconds, ascending.
    pub bounds: Vec<f64>,
    /// Observations in each bucket: above the previous bound, at most this one's.
    pub counts: Vec<u64>,
    /// Observations above the last bound.
    pub overflow: u64,
    /// All observations (the counts plus the overflow).
    pub count: u64,
    /// The observed values added up, in seconds.
    pub sum: f64,
}

impl Buckets {
    fn from_metric(m: &Metric) -> Buckets {
        let h = m.get_histogram();
        let mut out = Buckets {
            count: h.get_sample_count(),
            sum: h.get_sample_sum(),
            ..Buckets::default()
        };
        let mut below = 0;
        for b in h.get_bucket() {
            out.bounds.push(b.upper_bound());
            out.counts.push(b.cumulative_count().saturating_sub(below));
            below = b.cumulative_count();
        }
        out.overflow = out.count.saturating_sub(below);
        out
    }

    /// Adds `other`'s counts (same bounds) into these.
    pub fn add(&mut self, other: &Buckets) {
        if self.bounds.is_empty() {
            *self = other.clone();
            return;
        }
        for (c, o) in self.counts.iter_mut().zip(&other.counts) {
            *c += o;
        }
        self.overflow += other.overflow;
        self.count += other.count;
        self.sum += other.sum;
    }

    /// What was recorded since `earlier` (a reading of the same histogram).
    pub fn since(&self, earlier: &Buckets) -> Buckets {
        let mut out = self.clone();
        for (c, e) in out.counts.iter_mut().zip(&earlier.counts) {
            *c = c.saturating_sub(*e);
        }
        out.overflow = out.overflow.saturating_sub(earlier.overflow);
        out.count = out.count.saturating_sub(earlier.count);
        out.sum = (out.sum - earlier.sum).max(0.0);
        out
    }

    /// The estimated `q` quantile (0–1) in seconds; None when nothing was recorded. Values in
    /// the overflow are reported as the last bound.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = q.clamp(0.0, 1.0) * self.count as f64;
        let mut below = 0u64;
        let mut lower = 0.0;
        for (bound, n) in self.bounds.iter().zip(&self.counts) {
            if *n > 0 && (below + n) as f64 >= rank {
                let within = (rank - below as f64) / *n as f64;
                return Some(lower + (bound - lower) * within.clamp(0.0, 1.0));
            }
            below += n;
            lower = *bound;
        }
        self.bounds.last().copied()
    }
}

/// One family of the registry by name.
fn family(name: &str) -> Option<MetricFamily> {
    get()
        .registry
        .gather()
        .into_iter()
        .find(|f| f.name() == name)
}

/// The value of label `label` on `m`.
fn label<'a>(m: &'a Metric, label: &str) -> &'a str {
    m.get_label()
        .iter()
        .find(|l| l.name() == label)
        .map(|l| l.value())
        .unwrap_or("")
}

/// A counter family's values keyed by the listed labels joined with '.'.
pub fn counters_by(name: &str, labels: &[&str]) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    if let Some(f) = family(name) {
        for m in f.get_metric() {
            let key: Vec<&str> = labels.iter().map(|l| label(m, l)).collect();
            *out.entry(key.join(".")).or_insert(0) += m.get_counter().get_value() as u64;
        }
    }
    out
}

/// A counter family summed over all its labels.
pub fn counter_total(name: &str) -> u64 {
    counters_by(name, &[]).values().sum()
}

/// A histogram family's buckets keyed by the listed labels joined with '.', or summed over
/// all labels with `labels` empty (key "").
pub fn histograms_by(name: &str, labels: &[&str]) -> BTreeMap<String, Buckets> {
    let mut out: BTreeMap<String, Buckets> = BTreeMap::new();
    if let Some(f) = family(name) {
        for m in f.get_metric() {
            let key: Vec<&str> = labels.iter().map(|l| label(m, l)).collect();
            out.entry(key.join("."))
                .or_default()
                .add(&Buckets::from_metric(m));
        }
    }
    out
}

/// All Thrift calls' latencies together.
pub fn all_requests() -> Buckets {
    histograms_by("ilion_request_duration_seconds", &[])
        .remove("")
        .unwrap_or_default()
}

/// The sync latency histogram.
pub fn syncs() -> Buckets {
    family("ilion_sync_duration_seconds")
        .and_then(|f| f.get_metric().first().map(Buckets::from_metric))
        .unwrap_or_default()
}

/// Resident memory of this process in bytes (`VmRSS` of /proc/self/status).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buckets(counts: &[u64]) -> Buckets {
        Buckets {
            bounds: vec![1.0, 2.0, 4.0, 8.0],
            counts: counts.to_vec(),
            overflow: 0,
            count: counts.iter().sum(),
            sum: 0.0,
        }
    }

    #[test]
    fn quantiles_interpolate_within_the_bucket() {
        let near = |got: Option<f64>, want: f64| got.is_some_and(|g| (g - want).abs() < 1e-9);
        let b = buckets(&[0, 10, 0, 0]);
        assert!(near(b.quantile(0.5), 1.5));
        assert!(near(b.quantile(1.0), 2.0));
        let b = buckets(&[90, 0, 0, 10]);
        assert!(near(b.quantile(0.5), 50.0 / 90.0));
        assert!(near(b.quantile(0.99), 7.6));
        assert_eq!(buckets(&[0, 0, 0, 0]).quantile(0.5), None);
    }

    #[test]
    fn since_subtracts_an_earlier_reading() {
        let now = buckets(&[5, 3, 0, 1]);
        let then = buckets(&[2, 3, 0, 0]);
        let d = now.since(&then);
        assert_eq!(d.counts, vec![3, 0, 0, 1]);
        assert_eq!(d.count, 4);
    }

    #[test]
    fn recorded_calls_show_up_in_the_readings() {
        let before = counters_by("ilion_requests_total", &["method"])
            .get("describe_version")
            .copied()
            .unwrap_or(0);
        drop(super::super::call("describe_version"));
        let after = counters_by("ilion_requests_total", &["method"])["describe_version"];
        assert!(after > before);
        assert!(all_requests().count >= 1);
        assert!(resident_bytes().is_some_and(|b| b > 0));
    }
}
