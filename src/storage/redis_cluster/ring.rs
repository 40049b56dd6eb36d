//! The registry of live front ends, for `describe_ring`: each ilion server over the cluster
//! announces its endpoint with an expiry and renews it every [`HEARTBEAT`]; the list read
//! back holds those not expired, by the cluster's clock (`TIME` in the script), so the front
//! ends' clocks need not agree. One small sorted set per namespace.

use super::{bytes, scripts, storage_error, RedisEngine};
use crate::error::Result;
use std::sync::Arc;
use std::time::Duration;

/// How often a front end renews its entry.
pub(super) const HEARTBEAT: Duration = Duration::from_secs(2);

/// How long an entry lives without renewal: a front end that stopped drops out after this.
pub(super) const EXPIRY_MS: u64 = 6_000;

impl RedisEngine {
    /// Runs the registry script: registers `endpoint` (nothing when empty) and returns
    /// every live endpoint, sorted.
    fn registry(&self, endpoint: &str) -> Result<Vec<String>> {
        let (key, tag) = self.layout.front_ends();
        let expiry = EXPIRY_MS.to_string();
        let pipe = self.script(
            scripts::RING,
            &[&key],
            &[endpoint.as_bytes(), expiry.as_bytes(), b"0"],
        );
        let replies = self.run(&tag, pipe)?;
        let Some(redis::Value::Array(members)) = replies.first() else {
            return Err(storage_error(
                "unexpected reply from the front-end registry",
            ));
        };
        let mut live = members
            .iter()
            .map(|m| bytes(m).map(|b| String::from_utf8_lossy(&b).into_owned()))
            .collect::<Result<Vec<_>>>()?;
        live.sort();
        Ok(live)
    }

    /// Registers `endpoint` as a live front end and keeps renewing it while the engine is
    /// open.
    pub(super) fn announce_front_end(&self, endpoint: &str) -> Result<()> {
        self.registry(endpoint)?;
        *self.announced.lock().unwrap_or_else(|p| p.into_inner()) = Some(endpoint.to_string());
        let Some(runtime) = &self.runtime else {
            return Ok(());
        };
        let cluster = Arc::clone(&self.cluster);
        let (key, tag) = self.layout.front_ends();
        let sha = self.cluster.scripts().sha(scripts::RING).to_string();
        let endpoint = endpoint.to_string();
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(HEARTBEAT).await;
                let mut pipe = redis::pipe();
                pipe.cmd("EVALSHA")
                    .arg(&sha)
                    .arg(1)
                    .arg(&key)
                    .arg(&endpoint)
                    .arg(EXPIRY_MS)
                    .arg(0);
                if let Err(e) = cluster.run(super::slot(&tag), &pipe).await {
                    tracing::warn!("front-end heartbeat: {e}");
                }
            }
        });
        Ok(())
    }

    /// Every live front end's endpoint, sorted.
    pub(super) fn live_front_ends(&self) -> Result<Vec<String>> {
        self.registry("")
    }

    /// Takes this front end out of the registry (at close), waiting at most a second: an
    /// unreachable cluster must not hold the shutdown up, and the entry expires anyway.
    pub(super) fn withdraw_front_end(&self) {
        let announced = self
            .announced
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let Some(endpoint) = announced else {
            return;
        };
        let (key, tag) = self.layout.front_ends();
        let mut pipe = redis::pipe();
        pipe.cmd("EVALSHA")
            .arg(self.cluster.scripts().sha(scripts::RING))
            .arg(1)
            .arg(&key)
            .arg(&endpoint)
            .arg(EXPIRY_MS)
            .arg(1);
        let cluster = Arc::clone(&self.cluster);
        let slot = super::slot(&tag);
        let outcome = self.block(async move {
            tokio::time::timeout(Duration::from_secs(1), cluster.run(slot, &pipe))
                .await
                .map_err(|_| storage_error("timed out"))?
        });
        if let Err(e) = outcome {
            tracing::warn!("leaving the front-end registry: {e}");
        }
    }
}
