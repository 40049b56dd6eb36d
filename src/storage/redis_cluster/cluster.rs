//! The connection to a Redis Cluster: one multiplexed connection per primary, requests routed
//! by slot from the cluster's own slot table (`CLUSTER SLOTS`), and retries through
//! redirections and failovers up to a deadline. A pipeline sent here runs on one connection,
//! in order, so a `WAIT` placed after a write in the same pipeline covers exactly that write —
//! which the crate's own cluster client, choosing connections for itself, could not promise.

use crate::error::{Error, Result};
use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Pipeline, RedisError, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one request keeps retrying through redirections, node failures and failovers
/// before the client gets an error.
pub(super) const RETRY_FOR: Duration = Duration::from_secs(20);

/// Longest pause between two retries.
const MAX_BACKOFF: Duration = Duration::from_millis(250);

/// The Lua scripts the engine runs; each node loads them on first use (`NOSCRIPT`).
pub(super) struct Scripts {
    sources: Vec<(String, &'static str)>,
}

impl Scripts {
    pub(super) fn new(sources: &[&'static str]) -> Scripts {
        Scripts {
            sources: sources
                .iter()
                .map(|s| (redis::Script::new(s).get_hash().to_string(), *s))
                .collect(),
        }
    }

    /// The SHA-1 `EVALSHA` calls the script `source` by.
    pub(super) fn sha(&self, source: &str) -> &str {
        self.sources
            .iter()
            .find(|(_, s)| *s == source)
            .map_or("", |(sha, _)| sha.as_str())
    }
}

#[derive(Default)]
struct Routing {
    /// The primary serving each slot.
    slots: Vec<Option<Arc<str>>>,
    conns: HashMap<Arc<str>, MultiplexedConnection>,
}

/// A Redis Cluster, as seen from one process.
pub(super) struct Cluster {
    seeds: Vec<String>,
    scripts: Scripts,
    routing: Mutex<Routing>,
}

/// What to do after a failed attempt.
enum Next {
    /// The slot moved, or the cluster is between states: refresh the slot table, retry.
    Refresh,
    /// The connection is broken: drop it, refresh, retry.
    Reconnect,
    /// The node has not got the scripts (a new primary): load them, retry.
    LoadScripts,
    /// Anything else: the request fails.
    Fail,
}

fn classify(e: &RedisError) -> Next {
    match e.code() {
        Some("NOSCRIPT") => return Next::LoadScripts,
        Some(
            "MOVED" | "ASK" | "TRYAGAIN" | "CLUSTERDOWN" | "MASTERDOWN" | "LOADING" | "READONLY",
        ) => return Next::Refresh,
        _ => {}
    }
    if e.is_io_error() || e.is_connection_dropped() || e.is_timeout() || e.is_unrecoverable_error()
    {
        Next::Reconnect
    } else {
        Next::Fail
    }
}

fn redis_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Storage(format!("redis cluster: {what}: {e}"))
}

impl Cluster {
    /// A cluster reached through `seeds` (`host:port`); nothing is connected yet.
    pub(super) fn new(seeds: Vec<String>, scripts: Scripts) -> Cluster {
        Cluster {
            seeds,
            scripts,
            routing: Mutex::new(Routing::default()),
        }
    }

    pub(super) fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    fn routing(&self) -> std::sync::MutexGuard<'_, Routing> {
        self.routing.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn connect(addr: &str) -> std::result::Result<MultiplexedConnection, RedisError> {
        let client = redis::Client::open(format!("redis://{addr}/"))?;
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(10)));
        client
            .get_multiplexed_async_connection_with_config(&config)
            .await
    }

    /// The connection to `addr`, opened if needed.
    async fn conn(
        &self,
        addr: &Arc<str>,
    ) -> std::result::Result<MultiplexedConnection, RedisError> {
        if let Some(conn) = self.routing().conns.get(addr) {
            return Ok(conn.clone());
        }
        let conn = Self::connect(addr).await?;
        Ok(self
            .routing()
            .conns
            .entry(Arc::clone(addr))
            .or_insert(conn)
            .clone())
    }

    /// Reloads the slot table from the first node (known primary or seed) that answers.
    pub(super) async fn refresh(&self) -> Result<()> {
        let mut candidates: Vec<String> = {
            let routing = self.routing();
            let mut known: Vec<String> = routing.conns.keys().map(|a| a.to_string()).collect();
            known.sort();
            known
        };
        candidates.extend(self.seeds.iter().cloned());
        let mut last = String::from("no seed configured");
        for addr in candidates {
            let addr: Arc<str> = addr.into();
            let reply = match self.conn(&addr).await {
                Ok(mut conn) => {
                    redis::cmd("CLUSTER")
                        .arg("SLOTS")
                        .query_async(&mut conn)
                        .await
                }
                Err(e) => Err(e),
            };
            match reply {
                Ok(value) => match parse_slots(&value) {
                    Some(slots) if slots.iter().all(Option::is_some) => {
                        self.routing().slots = slots;
                        return Ok(());
                    }
                    _ => last = format!("{addr} reports slots without a primary"),
                },
                Err(e) => {
                    last = format!("{addr}: {e}");
                    if !matches!(classify(&e), Next::Fail) {
                        self.routing().conns.remove(&addr);
                    }
                }
            }
        }
        Err(redis_error("cannot read the slot table", last))
    }

    /// The primary serving `slot`, loading the slot table when it is not known yet.
    async fn primary(&self, slot: u16) -> Result<Arc<str>> {
        let known = self
            .routing()
            .slots
            .get(usize::from(slot))
            .cloned()
            .flatten();
        if let Some(addr) = known {
            return Ok(addr);
        }
        self.refresh().await?;
        self.routing()
            .slots
            .get(usize::from(slot))
            .cloned()
            .flatten()
            .ok_or_else(|| redis_error("no primary", format!("slot {slot}")))
    }

    /// Runs `pipe` (whose keys all hash to `slot`) on the slot's primary, in order on one
    /// connection, retrying through redirections and failovers for up to [`RETRY_FOR`].
    pub(super) async fn run(&self, slot: u16, pipe: &Pipeline) -> Result<Vec<Value>> {
        let deadline = Instant::now() + RETRY_FOR;
        let mut backoff = Duration::from_millis(5);
        loop {
            let addr = match self.primary(slot).await {
                Ok(addr) => addr,
                Err(e) if Instant::now() < deadline => {
                    tracing::debug!("{e}; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let reply = match self.conn(&addr).await {
                Ok(mut conn) => pipe.query_async::<Vec<Value>>(&mut conn).await,
                Err(e) => Err(e),
            };
            let e = match reply {
                Ok(values) => return Ok(values),
                Err(e) => e,
            };
            let next = classify(&e);
            if matches!(next, Next::Fail) || Instant::now() >= deadline {
                return Err(redis_error(&format!("request to {addr} failed"), e));
            }
            tracing::debug!("redis cluster: {addr}: {e}; retrying");
            match next {
                Next::LoadScripts => {
                    self.load_scripts(&addr).await?;
                    continue;
                }
                Next::Reconnect => {
                    self.routing().conns.remove(&addr);
                }
                Next::Refresh | Next::Fail => {}
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
            if let Err(e) = self.refresh().await {
                tracing::debug!("{e}");
            }
        }
    }

    async fn load_scripts(&self, addr: &Arc<str>) -> Result<()> {
        let mut conn = self
            .conn(addr)
            .await
            .map_err(|e| redis_error("cannot connect", e))?;
        for (_, source) in &self.scripts.sources {
            let _: String = redis::cmd("SCRIPT")
                .arg("LOAD")
                .arg(*source)
                .query_async(&mut conn)
                .await
                .map_err(|e| redis_error("cannot load a script", e))?;
        }
        Ok(())
    }
}

fn as_int(value: &Value) -> Option<i64> {
    match value {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}

fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::BulkString(b) => String::from_utf8(b.clone()).ok(),
        Value::SimpleString(s) => Some(s.clone()),
        _ => None,
    }
}

/// The primary of each slot from a `CLUSTER SLOTS` reply.
fn parse_slots(value: &Value) -> Option<Vec<Option<Arc<str>>>> {
    let Value::Array(ranges) = value else {
        return None;
    };
    let mut slots: Vec<Option<Arc<str>>> = vec![None; 16384];
    for range in ranges {
        let Value::Array(fields) = range else {
            return None;
        };
        let start = usize::try_from(as_int(fields.first()?)?).ok()?;
        let end = usize::try_from(as_int(fields.get(1)?)?).ok()?;
        let Value::Array(primary) = fields.get(2)? else {
            return None;
        };
        let host = as_text(primary.first()?)?;
        let port = as_int(primary.get(1)?)?;
        let addr: Arc<str> = format!("{host}:{port}").into();
        for slot in slots.get_mut(start..=end)? {
            *slot = Some(Arc::clone(&addr));
        }
    }
    Some(slots)
}
