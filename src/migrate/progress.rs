//! What a running export or import shows: a progress bar with rows/s and an ETA on stderr
//! when stderr is a terminal (nothing otherwise, so scripts and logs stay clean), and the
//! one-line summary every run ends with.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

/// Counts of what was moved.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// Rows.
    pub rows: u64,
    /// Columns and subcolumns, tombstones included.
    pub columns: u64,
    /// Key, name and value bytes.
    pub bytes: u64,
}

impl Totals {
    /// Counts one row.
    pub fn add(&mut self, row: &super::row::Row) {
        self.rows += 1;
        self.columns += row.column_count() as u64;
        self.bytes += row.payload_bytes() as u64;
    }
}

/// A progress display for one pass over some input.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// What has gone through so far.
    pub totals: Totals,
}

impl Progress {
    /// A bar over `total` input bytes (ETA from bytes), or a spinner when the size is unknown.
    pub fn new(label: &str, total: Option<u64>) -> Progress {
        let bar = match total {
            Some(n) => ProgressBar::new(n).with_style(
                ProgressStyle::with_template(
                    "{prefix} [{bar:30}] {bytes}/{total_bytes} {msg} ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{prefix} {spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        bar.set_draw_target(target);
        bar.set_prefix(label.to_string());
        Progress {
            bar,
            started: Instant::now(),
            totals: Totals::default(),
        }
    }

    /// Records one row, and (when known) how far into the input the run is.
    pub fn row(&mut self, row: &super::row::Row, position: Option<u64>) {
        self.totals.add(row);
        if let Some(p) = position {
            self.bar.set_position(p);
        }
        if self.totals.rows % 64 == 1 {
            let secs = self.started.elapsed().as_secs_f64().max(1e-3);
            self.bar.set_message(format!(
                "{} rows, {:.0} rows/s",
                self.totals.rows,
                self.totals.rows as f64 / secs
            ));
            self.bar.tick();
        }
    }

    /// Clears the bar and returns the summary line.
    pub fn finish(self, verb: &str) -> String {
        self.bar.finish_and_clear();
        summary(verb, self.totals, self.started.elapsed().as_secs_f64())
    }
}

/// "imported 3 rows, 7 columns, 120 bytes in 0.01 s"
pub fn summary(verb: &str, t: Totals, secs: f64) -> String {
    format!(
        "{verb} {} rows, {} columns, {} bytes in {secs:.2} s",
        t.rows, t.columns, t.bytes
    )
}
