//! The open-loop schedule (`--rate`). Operation `i` is due at `start + i / rate`, whether or
//! not the server has kept up, and its latency is measured from that intended start: a
//! stalled server delays every operation scheduled during the stall, and each of those
//! delays is counted, where a closed loop would quietly issue fewer operations and hide them
//! (coordinated omission).
//!
//! A pacer thread hands out one semaphore permit per operation that has become due; a
//! connection takes a permit, then claims the next operation number. Permits are released
//! in schedule order and numbers claimed in order, so a claimed operation is always already
//! due, and when every connection is busy the due ones wait in line with their clocks
//! running. A plain thread sleeps with ~0.1 ms precision, where tokio's timer wheel rounds up
//! to whole milliseconds and would add that to every measured latency.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Intended start times for a fixed rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    rate: f64,
}

impl Schedule {
    /// `rate` operations per second (positive).
    pub fn new(rate: f64) -> Schedule {
        Schedule { rate }
    }

    /// When operation `index` is due, as an offset from the start.
    pub fn intended(&self, index: u64) -> Duration {
        Duration::from_secs_f64(index as f64 / self.rate)
    }

    /// How many operations are due `elapsed` after the start (operation 0 is due at once).
    pub fn due_by(&self, elapsed: Duration) -> u64 {
        (elapsed.as_secs_f64() * self.rate).floor() as u64 + 1
    }
}

/// The running pacer: releases permits as operations fall due.
pub struct Pacer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// The longest the pacer sleeps at once, so that it notices a stop promptly.
const MAX_NAP: Duration = Duration::from_millis(5);

impl Pacer {
    /// Starts releasing permits on `permits` for `total` operations on `schedule` from
    /// `start`, until `deadline` if there is one. At the end it adds `wakeups` more, so every
    /// waiting connection wakes and finds there is nothing left to do.
    pub fn start(
        schedule: Schedule,
        start: Instant,
        total: u64,
        deadline: Option<Instant>,
        permits: Arc<Semaphore>,
        wakeups: usize,
    ) -> Pacer {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut released = 0u64;
            while released < total && !stopped.load(Ordering::Relaxed) {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) {
                    break;
                }
                let due = schedule.due_by(now - start).min(total);
                if due > released {
                    permits.add_permits((due - released) as usize);
                    released = due;
                }
                let next = start + schedule.intended(released);
                std::thread::sleep(next.saturating_duration_since(Instant::now()).min(MAX_NAP));
            }
            permits.add_permits(wakeups);
        });
        Pacer {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops releasing permits and waits for the thread.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Pacer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intended_starts_follow_the_rate() {
        let s = Schedule::new(1000.0);
        assert_eq!(s.intended(0), Duration::ZERO);
        assert_eq!(s.intended(1), Duration::from_millis(1));
        assert_eq!(s.intended(2500), Duration::from_millis(2500));
        let s = Schedule::new(4.0);
        assert_eq!(s.intended(3), Duration::from_millis(750));
    }

    #[test]
    fn due_counts_include_the_operation_due_now() {
        let s = Schedule::new(1000.0);
        assert_eq!(s.due_by(Duration::ZERO), 1);
        assert_eq!(s.due_by(Duration::from_micros(999)), 1);
        assert_eq!(s.due_by(Duration::from_millis(1)), 2);
        assert_eq!(s.due_by(Duration::from_secs(1)), 1001);
    }

    #[test]
    fn every_operation_counted_as_due_has_an_intended_start_not_after_now() {
        // The claim a connection relies on: the i-th permit is released only once
        // operation i's intended start has passed.
        for rate in [0.5, 3.0, 1000.0, 123_456.7] {
            let s = Schedule::new(rate);
            for micros in [0u64, 1, 999, 1_000, 123_457, 5_000_000] {
                let elapsed = Duration::from_micros(micros);
                let due = s.due_by(elapsed);
                assert!(s.intended(due - 1) <= elapsed, "rate {rate} at {elapsed:?}");
                assert!(s.intended(due) > elapsed, "rate {rate} at {elapsed:?}");
            }
        }
    }

    #[test]
    fn the_pacer_releases_exactly_the_operations_plus_the_wakeups() {
        let permits = Arc::new(Semaphore::new(0));
        let pacer = Pacer::start(
            Schedule::new(1e9),
            Instant::now() - Duration::from_secs(1),
            1000,
            None,
            Arc::clone(&permits),
            7,
        );
        // Everything is due at once: the thread ends by itself.
        if let Some(t) = pacer.thread.as_ref() {
            while !t.is_finished() {
                std::thread::yield_now();
            }
        }
        pacer.stop();
        assert_eq!(permits.available_permits(), 1007);
    }
}
