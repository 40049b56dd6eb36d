//! Watching a run: at every whole multiple of `-i` seconds print a CSV line computed from
//! the shared counters' growth since the last one, redraw the progress bar four times a
//! second (terminals only), collect each worker's histogram as it finishes, and print a
//! last CSV line for the tail.

use super::report::{csv_line, new_histogram, progress_bar, CSV_HEADER};
use super::worker::Counters;
use super::{StressArgs, TICK};
use hdrhistogram::Histogram;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;

/// What the watcher prints and when.
pub(super) struct Progress {
    interval: Duration,
    bar: bool,
    start: Instant,
    total: Option<u64>,
    duration: Option<Duration>,
}

/// Counter values at the last CSV line.
#[derive(Default)]
struct Mark {
    done: u64,
    latency_ns: u64,
    at: Duration,
}

/// Clears the terminal line the bar is drawn on.
const CLEAR: &str = "\r\x1b[2K";

impl Progress {
    pub(super) fn new(args: &StressArgs, bar: bool, start: Instant) -> Progress {
        Progress {
            interval: Duration::from_secs(args.interval),
            bar,
            start,
            total: args.duration.is_none().then_some(args.operations()),
            duration: args.duration,
        }
    }

    /// Prints progress until every worker has finished; their histograms merged.
    pub(super) async fn watch(
        &self,
        c: &Counters,
        workers: &mut JoinSet<Histogram<u64>>,
        out: &mut (dyn Write + Send),
    ) -> Result<Histogram<u64>, String> {
        let io = |e: std::io::Error| e.to_string();
        writeln!(out, "{CSV_HEADER}").map_err(io)?;
        let mut hist = new_histogram();
        let mut mark = Mark::default();
        // Lines at whole multiples of the interval, so elapsed times stay regular.
        let first = tokio::time::Instant::from_std(self.start + self.interval);
        let mut lines = tokio::time::interval_at(first, self.interval);
        lines.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut bar = tokio::time::interval(TICK);
        loop {
            tokio::select! {
                joined = workers.join_next() => match joined {
                    Some(Ok(h)) => hist.add(&h).map_err(|e| e.to_string())?,
                    Some(Err(e)) => return Err(format!("a connection task failed: {e}")),
                    None => break,
                },
                _ = lines.tick() => self.line(c, &mut mark, self.start.elapsed(), out).map_err(io)?,
                _ = bar.tick(), if self.bar => self.draw(c, self.start.elapsed(), out).map_err(io)?,
            }
        }
        // The tail since the last line (or the whole of a short run).
        if mark.at.is_zero() || c.done.load(Ordering::Relaxed) > mark.done {
            self.line(c, &mut mark, self.start.elapsed(), out)
                .map_err(io)?;
        }
        Ok(hist)
    }

    fn line(
        &self,
        c: &Counters,
        mark: &mut Mark,
        now: Duration,
        out: &mut (dyn Write + Send),
    ) -> std::io::Result<()> {
        let done = c.done.load(Ordering::Relaxed);
        let latency_ns = c.latency_ns.load(Ordering::Relaxed);
        let line = csv_line(
            done,
            done - mark.done,
            Duration::from_nanos(latency_ns - mark.latency_ns),
            now - mark.at,
            now,
        );
        if self.bar {
            write!(out, "{CLEAR}")?;
        }
        writeln!(out, "{line}")?;
        *mark = Mark {
            done,
            latency_ns,
            at: now,
        };
        out.flush()
    }

    fn draw(
        &self,
        c: &Counters,
        now: Duration,
        out: &mut (dyn Write + Send),
    ) -> std::io::Result<()> {
        let done = c.done.load(Ordering::Relaxed);
        let fraction = match (self.total, self.duration) {
            (Some(total), _) => done as f64 / total as f64,
            (None, Some(d)) => now.as_secs_f64() / d.as_secs_f64(),
            (None, None) => 0.0,
        };
        let rate = done as f64 / now.as_secs_f64().max(1e-9);
        write!(
            out,
            "{CLEAR}{}",
            progress_bar(done, self.total, fraction, rate)
        )?;
        out.flush()
    }
}
