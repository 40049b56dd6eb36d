//! Row leases: the cross-process half of a row's write lock. `cf` serialises writers of a
//! row inside one process; across front ends a writer first takes the row's lease
//! (`SET lease token NX PX`), reads, and writes with a script that refuses the write unless
//! the lease still holds that token — so a writer whose lease expired (a stall longer than
//! [`LEASE_MS`]) cannot overwrite what another writer did meanwhile. Leases held are
//! remembered per thread: the reads and the write of one row mutation run on one thread.

use super::{scripts, storage_error, RedisEngine};
use crate::error::Result;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long a lease lasts unless given up: far longer than any row mutation.
pub(super) const LEASE_MS: u64 = 10_000;

/// How long a writer waits for another's lease before its write fails.
const WAIT_FOR_LEASE: Duration = Duration::from_secs(15);

thread_local! {
    /// Leases this thread holds: lease key → token.
    static HELD: RefCell<HashMap<Vec<u8>, String>> = RefCell::new(HashMap::new());
}

/// The tokens of one engine: unique across processes and within one.
pub(super) struct Leases {
    instance: String,
    next: AtomicU64,
}

impl Leases {
    pub(super) fn new() -> Leases {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Leases {
            instance: format!("{:x}-{:x}", std::process::id(), nanos),
            next: AtomicU64::new(0),
        }
    }

    /// The token of the lease `key` if this thread holds it.
    pub(super) fn held(&self, key: &[u8]) -> Option<String> {
        HELD.with(|held| held.borrow().get(key).cloned())
    }

    fn token(&self) -> String {
        format!(
            "{}-{}",
            self.instance,
            self.next.fetch_add(1, Ordering::Relaxed)
        )
    }
}

/// A lease this thread holds; dropping it gives the lease up.
pub(super) struct Held {
    key: Vec<u8>,
    tag: String,
    token: String,
    engine_cluster: Arc<super::Cluster>,
    runtime: Option<tokio::runtime::Handle>,
    release_sha: String,
}

impl Held {
    pub(super) fn token(&self) -> &str {
        &self.token
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        HELD.with(|held| held.borrow_mut().remove(&self.key));
        // Given up in the background: the next writer retries its `SET NX` until then.
        let Some(runtime) = &self.runtime else {
            return;
        };
        let mut pipe = redis::pipe();
        pipe.cmd("EVALSHA")
            .arg(&self.release_sha)
            .arg(1)
            .arg(&self.key)
            .arg(&self.token);
        let cluster = Arc::clone(&self.engine_cluster);
        let slot = super::slot(&self.tag);
        runtime.spawn(async move {
            if let Err(e) = cluster.run(slot, &pipe).await {
                tracing::debug!("releasing a row lease: {e} (it expires by itself)");
            }
        });
    }
}

impl RedisEngine {
    /// Takes the lease of the place `keys` belong to, waiting while another writer holds it.
    pub(super) fn acquire(&self, keys: super::PlaceKeys) -> Result<Held> {
        let token = self.leases.token();
        let deadline = Instant::now() + WAIT_FOR_LEASE;
        let mut pause = Duration::from_micros(200);
        loop {
            let mut pipe = redis::pipe();
            pipe.cmd("SET")
                .arg(&keys.lease)
                .arg(&token)
                .arg("NX")
                .arg("PX")
                .arg(LEASE_MS);
            let replies = self.run(&keys.tag, pipe)?;
            let granted = match replies.first() {
                Some(redis::Value::Okay) => true,
                Some(redis::Value::SimpleString(s)) => s == "OK",
                _ => false,
            };
            if granted {
                HELD.with(|held| held.borrow_mut().insert(keys.lease.clone(), token.clone()));
                return Ok(Held {
                    key: keys.lease,
                    tag: keys.tag,
                    token,
                    engine_cluster: Arc::clone(&self.cluster),
                    runtime: self.runtime.as_ref().map(|r| r.handle().clone()),
                    release_sha: self.cluster.scripts().sha(scripts::RELEASE).to_string(),
                });
            }
            if Instant::now() >= deadline {
                return Err(storage_error(format!(
                    "a row stayed locked by another writer for {} s",
                    WAIT_FOR_LEASE.as_secs()
                )));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        }
    }
}
