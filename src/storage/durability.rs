//! When an applied write may be acknowledged: the `CommitLogSync` policy over an [`Engine`].
//!
//! Every applied batch takes a sequence number *after* the engine has applied it. A syncer
//! thread reads the highest number, syncs the engine, and declares everything up to that
//! number durable. In `batch` mode writers wait for that (group commit: all writers that
//! arrive while a sync is gathering or running share the next one); in `periodic` mode they
//! are acknowledged at once and the thread syncs every period. A batch-mode sync gathers
//! until as many writers have arrived as the previous sync covered (the writers it released
//! coming back), until arrivals pause, or until the window ends, whichever is first
//! (`docs/durability.md#batch`).
//!
//! [`Durability`] knows nothing of rows or packing: it applies physical batches the row
//! store has planned, and tracks when they are on disk.

use super::engine::{Batch, Engine};
use super::watermark::{generation_key, Watermark};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Shortest pause while gathering writers for a sync.
const GATHER_STEP_MIN: Duration = Duration::from_micros(50);

/// `Shared::wake_at` when no write needs to wake the syncer (it is syncing, or sleeping
/// out a period).
const NO_WAKE: u64 = u64::MAX;

/// How writes become durable.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SyncPolicy {
    /// Acknowledge at once; sync every interval.
    Periodic(Duration),
    /// Acknowledge after a sync; a sync waits up to the window for more writers to join.
    Batch(Duration),
}

#[derive(Debug, Default)]
struct SyncState {
    /// Everything up to this sequence number is durable.
    synced: u64,
    /// Set when a sync failed. After a failed fsync nothing written can be trusted to be
    /// on disk, so every later write and wait fails too (no acknowledged write is lost).
    failure: Option<String>,
    /// Set when the store is closing.
    closing: bool,
}

/// What writers and their [`Ack`]s share with the syncer. It holds no engine, so an
/// acknowledgement kept after its store failed does not keep the failed engine open.
struct Shared {
    /// Highest sequence number handed out (each applied batch takes the next one).
    written: AtomicU64,
    /// A writer whose sequence number reaches this wakes the syncer; [`NO_WAKE`] when none
    /// should. Set by the syncer before it checks `written` and waits (under the state
    /// lock), so a writer that misses the new value has already been counted.
    wake_at: AtomicU64,
    /// Syncs whose gathering ended because the writers expected had all arrived.
    gathered_in_full: AtomicU64,
    /// Mirrors `SyncState::failure.is_some()` for the write path's lock-free check.
    failed: AtomicBool,
    state: Mutex<SyncState>,
    /// Wakes the syncer (new write, or closing).
    work: Condvar,
    /// Wakes blocking waiters after each sync.
    done: Condvar,
    /// Wakes async waiters after each sync.
    done_async: Notify,
}

/// The syncer's side: the engine and where synced generations are recorded.
struct Syncer {
    shared: Arc<Shared>,
    engine: Arc<dyn Engine>,
    policy: SyncPolicy,
    /// The store's generation when it was opened; each sync stamps `base + written`.
    base_generation: u64,
    /// Where the last synced generation is recorded outside the store, if anywhere.
    watermark: Option<Watermark>,
    /// One sync at a time, so generation stamps only ever grow.
    sync_lock: Mutex<()>,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, SyncState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The outcome for sequence `seq`, or None while it is not yet synced.
    fn outcome(state: &SyncState, seq: u64) -> Option<Result<()>> {
        if let Some(why) = &state.failure {
            return Some(Err(Error::Storage(format!(
                "write not made durable: {why}"
            ))));
        }
        (state.synced >= seq).then_some(Ok(()))
    }
}

impl Syncer {
    /// Stamps the generation, syncs the engine, then (at most once a second, or when
    /// `force`d) records the generation in the watermark. Returns the sequence number that
    /// is now durable.
    fn stamp_and_sync(&self, force_watermark: bool) -> Result<u64> {
        let _one_at_a_time = self.sync_lock.lock().unwrap_or_else(|p| p.into_inner());
        let target = self.shared.written.load(Ordering::SeqCst);
        let generation = self.base_generation + target;
        let mut stamp = Batch::default();
        stamp.put(generation_key(), generation.to_be_bytes().to_vec());
        self.engine.apply(stamp)?;
        self.engine.sync()?;
        if let Some(watermark) = &self.watermark {
            watermark.advance(generation, force_watermark)?;
        }
        Ok(target)
    }

    /// One sync, recorded: waiters up to its target are released, or on failure every
    /// waiter (and every later write) is refused. Once failed, nothing is synced again:
    /// the failure is returned at once.
    fn sync_once(&self, force_watermark: bool) -> Result<()> {
        if let Some(why) = &self.shared.state().failure {
            return Err(Error::Storage(format!("store failed earlier: {why}")));
        }
        let result = crate::metrics::timed_sync(|| self.stamp_and_sync(force_watermark));
        let mut state = self.shared.state();
        let outcome = match result {
            Ok(target) => {
                state.synced = state.synced.max(target);
                Ok(())
            }
            Err(e) => {
                tracing::error!("sync failed; refusing further writes: {e}");
                state.failure.get_or_insert(e.to_string());
                self.shared.failed.store(true, Ordering::Release);
                Err(e)
            }
        };
        drop(state);
        self.shared.done.notify_all();
        self.shared.done_async.notify_waiters();
        outcome
    }

    /// Lets writers that are still arriving join the coming sync, and returns the state
    /// lock again. Gathering ends as soon as `expected` writes are pending (the number the
    /// previous sync covered: in a closed loop, the writers it released coming back), when
    /// a step of the window passes without a new write, or when the window is over. A burst
    /// of writers woken by the previous sync then shares one sync instead of the first of
    /// them getting a sync of its own, and no sync waits out the window for writers that
    /// have all arrived.
    fn gather<'a>(
        &'a self,
        mut state: MutexGuard<'a, SyncState>,
        window: Duration,
        expected: u64,
    ) -> MutexGuard<'a, SyncState> {
        let shared = &self.shared;
        let goal = state.synced.saturating_add(expected.max(1));
        let deadline = Instant::now() + window;
        let step = (window / 8).max(GATHER_STEP_MIN);
        shared.wake_at.store(goal, Ordering::SeqCst);
        let mut seen = shared.written.load(Ordering::SeqCst);
        while seen < goal && !state.closing {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = shared
                .work
                .wait_timeout(state, step.min(left))
                .unwrap_or_else(|p| p.into_inner())
                .0;
            let now = shared.written.load(Ordering::SeqCst);
            if now == seen {
                break;
            }
            seen = now;
        }
        shared.wake_at.store(NO_WAKE, Ordering::SeqCst);
        if seen >= goal {
            shared.gathered_in_full.fetch_add(1, Ordering::Relaxed);
        }
        state
    }

    fn run_syncer(&self) {
        let shared = &self.shared;
        // How many writes the last sync covered: what the next one gathers for.
        let mut last_group = 1;
        loop {
            let mut state = shared.state();
            // After a failure nothing is pending: writes are refused, and the writes that
            // were waiting have been answered.
            let pending = |s: &SyncState| {
                s.failure.is_none() && shared.written.load(Ordering::SeqCst) > s.synced
            };
            let synced_before = state.synced;
            match self.policy {
                SyncPolicy::Batch(window) => {
                    // Any new write wakes an idle syncer.
                    shared
                        .wake_at
                        .store(state.synced.saturating_add(1), Ordering::SeqCst);
                    while !pending(&state) && !state.closing {
                        state = shared.work.wait(state).unwrap_or_else(|p| p.into_inner());
                    }
                    shared.wake_at.store(NO_WAKE, Ordering::SeqCst);
                    if !state.closing && !window.is_zero() {
                        state = self.gather(state, window, last_group);
                    }
                }
                SyncPolicy::Periodic(period) => {
                    if !state.closing {
                        state = shared
                            .work
                            .wait_timeout(state, period)
                            .unwrap_or_else(|p| p.into_inner())
                            .0;
                    }
                }
            }
            let closing = state.closing;
            let has_work = pending(&state);
            drop(state);
            if has_work || closing {
                // A failure is recorded for the waiters; the thread carries on so that they
                // (and later writers) are answered.
                let _ = self.sync_once(closing);
                let synced_now = shared.state().synced;
                last_group = synced_now.saturating_sub(synced_before).max(1);
            }
            if closing {
                return;
            }
        }
    }
}

/// Proof that a write was applied; wait on it before acknowledging the write.
#[derive(Clone)]
pub struct Ack {
    /// 0 when there is nothing to wait for.
    seq: u64,
    shared: Option<Arc<Shared>>,
}

impl Ack {
    /// An acknowledgement that is complete already (nothing was written, or periodic mode).
    pub fn done() -> Ack {
        Ack {
            seq: 0,
            shared: None,
        }
    }

    /// True when waiting would return at once.
    pub fn is_done(&self) -> bool {
        match &self.shared {
            None => true,
            Some(shared) => Shared::outcome(&shared.state(), self.seq).is_some(),
        }
    }

    /// Blocks until the write is durable (or its sync failed).
    pub fn wait(&self) -> Result<()> {
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        let mut state = shared.state();
        loop {
            if let Some(outcome) = Shared::outcome(&state, self.seq) {
                return outcome;
            }
            state = shared.done.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Waits without blocking a thread until the write is durable (or its sync failed).
    pub async fn wait_async(&self) -> Result<()> {
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        loop {
            // Created before the check, so a sync finishing in between still wakes us.
            let notified = shared.done_async.notified();
            if let Some(outcome) = Shared::outcome(&shared.state(), self.seq) {
                return outcome;
            }
            notified.await;
        }
    }
}

/// The syncer of one engine: applies physical batches and hands out their [`Ack`]s.
pub(crate) struct Durability {
    syncer: Arc<Syncer>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Durability {
    /// Starts the syncer of `engine` under `policy`. A store whose generation is below its
    /// watermark has lost durable writes and is refused.
    pub(crate) fn start(engine: Arc<dyn Engine>, policy: SyncPolicy) -> Result<Durability> {
        let base_generation = match engine.get(&generation_key())? {
            Some(bytes) => u64::from_be_bytes(
                bytes
                    .as_slice()
                    .try_into()
                    .map_err(|_| Error::Corrupt("bad store generation".into()))?,
            ),
            None => 0,
        };
        let watermark = engine.watermark();
        if let Some(watermark) = &watermark {
            watermark.check(base_generation)?;
        }
        let shared = Arc::new(Shared {
            written: AtomicU64::new(0),
            wake_at: AtomicU64::new(NO_WAKE),
            gathered_in_full: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            state: Mutex::new(SyncState::default()),
            work: Condvar::new(),
            done: Condvar::new(),
            done_async: Notify::new(),
        });
        let syncer = Arc::new(Syncer {
            shared,
            engine,
            policy,
            base_generation,
            watermark,
            sync_lock: Mutex::new(()),
        });
        let for_thread = Arc::clone(&syncer);
        let thread = std::thread::Builder::new()
            .name("ilion-sync".into())
            .spawn(move || for_thread.run_syncer())?;
        Ok(Durability {
            syncer,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Applies physical writes and hands out their acknowledgement.
    pub(crate) fn commit(&self, batch: Batch) -> Result<Ack> {
        if batch.is_empty() {
            return Ok(Ack::done());
        }
        let shared = &self.syncer.shared;
        if shared.failed.load(Ordering::Acquire) {
            return Err(Error::Storage(
                "store refuses writes after a failed sync (it is reopened once the disk \
                 takes writes again)"
                    .into(),
            ));
        }
        self.syncer.engine.apply(batch)?;
        let seq = shared.written.fetch_add(1, Ordering::SeqCst) + 1;
        match self.syncer.policy {
            SyncPolicy::Periodic(_) => Ok(Ack::done()),
            SyncPolicy::Batch(_) => {
                if seq >= shared.wake_at.load(Ordering::SeqCst) {
                    // Taking the lock orders this wake-up after the syncer's check of
                    // `written` and its wait.
                    drop(shared.state());
                    shared.work.notify_one();
                }
                Ok(Ack {
                    seq,
                    shared: Some(Arc::clone(shared)),
                })
            }
        }
    }

    /// True once a sync has failed: nothing is accepted or synced any more.
    pub(crate) fn failed(&self) -> bool {
        self.syncer.shared.failed.load(Ordering::Acquire)
    }

    /// Makes everything written so far durable now.
    pub(crate) fn sync(&self) -> Result<()> {
        self.syncer.sync_once(false)
    }

    /// Stops the syncer after a final sync (none after a failure: that is reported
    /// instead). Idempotent; also run on drop.
    pub(crate) fn close(&self) -> Result<()> {
        self.stop()?;
        self.syncer.sync_once(true)
    }

    /// How many batch-mode syncs ended their gathering because every writer expected had
    /// arrived (for tests).
    #[cfg(test)]
    pub(crate) fn gathered_in_full(&self) -> u64 {
        self.syncer.shared.gathered_in_full.load(Ordering::Relaxed)
    }

    /// Stops the syncer thread (after its last sync).
    fn stop(&self) -> Result<()> {
        let handle = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(handle) = handle {
            self.syncer.shared.state().closing = true;
            self.syncer.shared.work.notify_all();
            handle
                .join()
                .map_err(|_| Error::Storage("sync thread panicked".into()))?;
        }
        Ok(())
    }
}

impl Drop for Durability {
    fn drop(&mut self) {
        // A failed store's failure was logged when it happened.
        let closed = if self.failed() {
            self.stop()
        } else {
            self.close()
        };
        if let Err(e) = closed {
            tracing::error!("final sync failed: {e}");
        }
    }
}

#[cfg(test)]
mod tests;
