//! Bounds the log lines that clients can cause at will. Without it a flood of connections past
//! the limit, or of connections that break the wire rules, costs one line each: a write to
//! stderr on a thread that also serves the well-behaved clients, and a log that grows as fast
//! as an attacker likes. Each kind of event gets a few lines a second; the rest are counted,
//! and the next line that gets through says how many were left out.

use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(1);

/// At most `per_second` admitted events per second, the rest counted.
pub(super) struct LogLimit {
    per_second: u32,
    state: Mutex<State>,
}

struct State {
    window_start: Option<Instant>,
    lines: u32,
    left_out: u64,
}

impl LogLimit {
    pub(super) const fn new(per_second: u32) -> LogLimit {
        LogLimit {
            per_second,
            state: Mutex::new(State {
                window_start: None,
                lines: 0,
                left_out: 0,
            }),
        }
    }

    /// `Some(n)` when this event is to be logged, `n` being how many were left out since the
    /// last one that was; `None` when it is only counted.
    pub(super) fn admit(&self) -> Option<u64> {
        self.admit_at(Instant::now())
    }

    fn admit_at(&self, now: Instant) -> Option<u64> {
        // Held only to count, never across I/O. A panic cannot happen while it is held, but
        // if the lock were poisoned the counts would still be good.
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if s.window_start
            .is_none_or(|start| now.duration_since(start) >= WINDOW)
        {
            s.window_start = Some(now);
            s.lines = 0;
        }
        if s.lines < self.per_second {
            s.lines += 1;
            Some(std::mem::take(&mut s.left_out))
        } else {
            s.left_out += 1;
            None
        }
    }
}

/// " (N more since the last line)" for a line that follows left-out ones, else nothing.
pub(super) fn left_out_note(n: u64) -> String {
    match n {
        0 => String::new(),
        n => format!(" ({n} more not logged since the last such line)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_a_few_a_second_and_counts_the_rest() {
        let limit = LogLimit::new(3);
        let t0 = Instant::now();
        let first: Vec<_> = (0..10).map(|_| limit.admit_at(t0)).collect();
        assert_eq!(first[..3], [Some(0), Some(0), Some(0)]);
        assert!(first[3..].iter().all(Option::is_none));
        // Still the same second: counted.
        assert_eq!(limit.admit_at(t0 + Duration::from_millis(999)), None);
        // A new second: the first line reports the eight left out, the next ones none.
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!(limit.admit_at(t1), Some(8));
        assert_eq!(limit.admit_at(t1), Some(0));
    }

    #[test]
    fn the_note_names_the_count() {
        assert_eq!(left_out_note(0), "");
        assert_eq!(
            left_out_note(41),
            " (41 more not logged since the last such line)"
        );
    }
}
