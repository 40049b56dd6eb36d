//! Recovery of a failed store without a restart (`docs/faults.md#recovery`). After an I/O
//! error (a full or read-only disk) the durability layer or the engine refuses every write.
//! The row store keeps its engine, packing and durability together as one [`Live`] behind a
//! swappable slot; a recovery thread looks once a second whether the live store has failed,
//! and if so, once the disk takes a trial write again ([`Reopen::ready`]), closes the failed
//! engine and opens its files anew — the same path a restart takes: the engine's own
//! recovery reads what is durable, and the watermark check refuses a store that lost
//! acknowledged writes. Only then are writes accepted again, by the new [`Live`]; writes
//! acknowledged to nobody on the failed one may or may not be there, as after a restart.

use super::durability::{Durability, SyncPolicy};
use super::engine::{Engine, Reopen};
use super::packed::{Packed, Packing};
use super::EngineKind;
use crate::error::{Error, Result};
use std::fs::{self, File};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the recovery thread looks at the store.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// The longest pause between two reopens that were refused.
const MAX_PAUSE: Duration = Duration::from_secs(60);

/// How long a recovery waits for the reads and writes still running on the failed store
/// to finish before it closes it (it tries again later otherwise).
const DRAIN_WAIT: Duration = Duration::from_secs(10);

/// What a reopen must be able to write first: a trial file this large is written, synced
/// and removed (an engine's recovery writes a new log segment or journal).
pub(crate) const PROBE_BYTES: usize = 4 << 20;

/// The trial file's name inside the store directory.
pub(crate) const PROBE_FILE: &str = "ilion-probe.tmp";

/// What one recovery attempt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// The store works (or cannot be reopened): nothing to do.
    Nothing,
    /// The store failed, and cannot be reopened yet (the disk refuses a trial write, or
    /// the failed engine cannot be closed yet).
    Waiting,
    /// The files were reopened and writes are accepted again.
    Reopened,
    /// Reopening the files failed, or the reopened store was refused (below its
    /// watermark): there is no store until a later attempt succeeds.
    Refused,
}

/// One opened engine with everything built over it; replaced whole on a recovery.
pub(crate) struct Live {
    pub(crate) engine: Arc<dyn Engine>,
    pub(crate) rows: Packed,
    pub(crate) durability: Durability,
}

impl Live {
    /// Starts the syncer of `engine`; refused when the engine's store is below its
    /// watermark.
    pub(crate) fn start(
        engine: Arc<dyn Engine>,
        policy: SyncPolicy,
        packing: Packing,
    ) -> Result<Live> {
        let durability = Durability::start(Arc::clone(&engine), policy)?;
        Ok(Live {
            rows: Packed::new(Arc::clone(&engine), packing),
            engine,
            durability,
        })
    }

    /// True when writes are refused until the engine is reopened.
    pub(crate) fn failed(&self) -> bool {
        self.durability.failed() || self.engine.failed()
    }
}

/// The live store, swappable, and how to replace it.
pub(crate) struct Slot {
    /// The live store, or why there is none (a reopen under way or refused).
    live: RwLock<std::result::Result<Arc<Live>, String>>,
    policy: SyncPolicy,
    packing: Packing,
    reopen: Option<Arc<dyn Reopen>>,
    /// Set when the store closes: the recovery thread ends.
    stop: Mutex<bool>,
    wake: Condvar,
    /// Serialises recoveries with the store's close.
    recovering: Mutex<()>,
    /// The last thing logged about a recovery that did not happen, so that one stuck
    /// recovery is not logged every second.
    last_note: Mutex<String>,
}

impl Slot {
    /// A slot holding `live`, reopened with the engine's own reopener when it fails.
    pub(crate) fn new(live: Live, policy: SyncPolicy, packing: Packing) -> Slot {
        Slot {
            reopen: live.engine.reopener(),
            live: RwLock::new(Ok(Arc::new(live))),
            policy,
            packing,
            stop: Mutex::new(false),
            wake: Condvar::new(),
            recovering: Mutex::new(()),
            last_note: Mutex::new(String::new()),
        }
    }

    /// The live store, for one read or one mutation.
    pub(crate) fn current(&self) -> Result<Arc<Live>> {
        match &*self.live.read().unwrap_or_else(|p| p.into_inner()) {
            Ok(live) => Ok(Arc::clone(live)),
            Err(why) => Err(Error::Storage(format!("store is not open: {why}"))),
        }
    }

    fn set(&self, to: std::result::Result<Arc<Live>, String>) {
        *self.live.write().unwrap_or_else(|p| p.into_inner()) = to;
    }

    /// Logs `note` unless it is what was logged last.
    fn note(&self, note: String) {
        let mut last = self.last_note.lock().unwrap_or_else(|p| p.into_inner());
        if *last != note {
            tracing::warn!("{note}");
            *last = note;
        }
    }

    /// One recovery attempt: nothing while the live store works (or while nothing can
    /// reopen it); otherwise, once the failed engine can be closed and the disk takes a
    /// trial write, the failed engine is closed and its files opened again.
    pub(crate) fn try_recover(&self) -> Attempt {
        let Some(reopen) = &self.reopen else {
            return Attempt::Nothing;
        };
        let _one = self.recovering.lock().unwrap_or_else(|p| p.into_inner());
        if *self.stop.lock().unwrap_or_else(|p| p.into_inner()) {
            return Attempt::Nothing;
        }
        let current = self.live.read().unwrap_or_else(|p| p.into_inner()).clone();
        if let Ok(live) = &current {
            if !live.failed() {
                return Attempt::Nothing;
            }
            if let Err(e) = live.engine.releasable() {
                self.note(format!("store failed and cannot be reopened in place: {e}"));
                return Attempt::Waiting;
            }
        }
        if let Err(e) = reopen.ready() {
            self.note(format!("store failed; not reopened yet: {e}"));
            return Attempt::Waiting;
        }
        if let Ok(live) = current {
            if !self.release(live) {
                return Attempt::Waiting;
            }
        }
        let reopened = reopen
            .reopen()
            .and_then(|engine| Live::start(engine, self.policy, self.packing));
        match reopened {
            Ok(live) => {
                self.set(Ok(Arc::new(live)));
                tracing::warn!("store reopened after a failure: writes are accepted again");
                self.last_note
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clear();
                Attempt::Reopened
            }
            Err(e) => {
                self.note(format!("reopening the failed store failed: {e}"));
                self.set(Err(format!("reopening it after a failure failed: {e}")));
                Attempt::Refused
            }
        }
    }

    /// Takes the failed `live` out of service and closes it once the reads and writes
    /// still holding it are done. False (and `live` put back) when they do not finish.
    fn release(&self, live: Arc<Live>) -> bool {
        self.set(Err("it is being reopened after a failure".into()));
        let deadline = Instant::now() + DRAIN_WAIT;
        while Arc::strong_count(&live) > 1 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        match Arc::try_unwrap(live) {
            Ok(live) => {
                // The failed store's final sync is refused; what it had made durable is
                // read back by the reopen.
                let _ = live.durability.close();
                drop(live);
                true
            }
            Err(live) => {
                self.set(Ok(live));
                self.note("store failed; still in use, reopened later".into());
                false
            }
        }
    }

    /// Starts the thread that looks for a failed store once a second (none when the
    /// engine cannot be reopened).
    pub(crate) fn start_recovery(self: &Arc<Self>) -> Result<Option<JoinHandle<()>>> {
        if self.reopen.is_none() {
            return Ok(None);
        }
        let slot = Arc::clone(self);
        let thread = std::thread::Builder::new()
            .name("ilion-recover".into())
            .spawn(move || {
                // After a refused reopen (a damaged store, say) the next one waits longer.
                let mut pause = CHECK_EVERY;
                loop {
                    let mut stop = slot.stop.lock().unwrap_or_else(|p| p.into_inner());
                    // A close signalled during the last attempt is seen without waiting.
                    if !*stop {
                        stop = slot
                            .wake
                            .wait_timeout(stop, pause)
                            .unwrap_or_else(|p| p.into_inner())
                            .0;
                    }
                    if *stop {
                        return;
                    }
                    drop(stop);
                    pause = match slot.try_recover() {
                        Attempt::Refused => (pause * 2).min(MAX_PAUSE),
                        _ => CHECK_EVERY,
                    };
                }
            })?;
        Ok(Some(thread))
    }

    /// Ends recoveries (waiting for one under way) and closes the live store.
    pub(crate) fn close(&self, thread: Option<JoinHandle<()>>) -> Result<()> {
        *self.stop.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.wake.notify_all();
        if let Some(thread) = thread {
            thread
                .join()
                .map_err(|_| Error::Storage("recovery thread panicked".into()))?;
        }
        let _no_recovery = self.recovering.lock().unwrap_or_else(|p| p.into_inner());
        self.current()?.durability.close()
    }
}

/// Reopens the store in a data directory with the engine that wrote it.
pub(crate) struct DirReopen {
    pub(crate) dir: PathBuf,
    pub(crate) kind: EngineKind,
    pub(crate) cache_bytes: u64,
}

impl Reopen for DirReopen {
    fn ready(&self) -> Result<()> {
        let path = self.dir.join(PROBE_FILE);
        let trial = || -> std::io::Result<()> {
            let mut file = File::create(&path)?;
            let block = vec![0u8; 64 << 10];
            for _ in 0..PROBE_BYTES / block.len() {
                file.write_all(&block)?;
            }
            file.sync_all()
        };
        let wrote = trial();
        let removed = fs::remove_file(&path);
        wrote.map_err(|e| {
            Error::Storage(format!(
                "a trial write of {} MiB in {} fails: {e}",
                PROBE_BYTES >> 20,
                self.dir.display()
            ))
        })?;
        removed?;
        Ok(())
    }

    fn reopen(&self) -> Result<Arc<dyn Engine>> {
        Ok(super::open_engine(&self.dir, self.kind, self.cache_bytes)?.engine)
    }
}

#[cfg(test)]
mod tests;
