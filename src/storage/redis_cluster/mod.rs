//! The `redis-cluster` engine: the ordered key-value [`Engine`] kept in a Redis Cluster, so
//! that several stateless ilion front ends serve one data set (docs/redis.md).
//!
//! Packing, the row API and the catalog run above it unchanged. What changes is what an
//! in-process engine gets for free: a row's read-modify-write is protected by a **row lease**
//! in the cluster (taken by the row session at its first read, checked by the write script,
//! which refuses a write whose lease expired), writes of one row are applied by one script on
//! the row's primary, and in batch mode each write is followed on the same connection by
//! `WAIT 1`, so it is acknowledged only once a replica has it.

mod cluster;
mod layout;
mod lease;
mod ring;
mod scan;
mod scripts;

use self::cluster::{Cluster, Scripts};
use self::layout::{slot, Layout, Place, PlaceKeys};
use super::engine::{Batch, Engine, RowLease, Scan};
use super::keys::prefix_upper;
use super::watermark::generation_key;
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use redis::{Pipeline, Value};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::ops::Bound;
use std::sync::{Arc, Mutex};

/// How long a batch-mode write waits for a replica to confirm it.
const WAIT_MS: u64 = 2000;

/// How the engine reaches its cluster and when a write counts as done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisOptions {
    /// Nodes to learn the cluster's layout from, `host:port`.
    pub seeds: Vec<String>,
    /// Prefix of every key, so several ilion clusters share one Redis Cluster.
    pub namespace: String,
    /// Batch mode: a write returns only after `WAIT 1` confirmed a replica has it.
    pub wait_for_replica: bool,
}

/// The engine over a Redis Cluster.
pub struct RedisEngine {
    runtime: Option<tokio::runtime::Runtime>,
    cluster: Arc<Cluster>,
    layout: Layout,
    options: RedisOptions,
    /// Index buckets known to be listed in the bucket directory (it only ever grows).
    listed_buckets: Mutex<HashSet<[u8; 5]>>,
    leases: lease::Leases,
    /// This front end's endpoint in the registry, once announced.
    announced: Mutex<Option<String>>,
}

/// A row prefix deleted from, with the `ZRANGEBYLEX` bound just past its entries.
type Gone = (Vec<u8>, Vec<u8>);

/// One place's writes, in batch order.
type Ops = Vec<(Vec<u8>, Option<Vec<u8>>)>;

fn storage_error(what: impl std::fmt::Display) -> Error {
    Error::Storage(format!("redis cluster: {what}"))
}

/// The bytes of a bulk-string reply.
fn bytes(value: &Value) -> Result<Vec<u8>> {
    match value {
        Value::BulkString(b) => Ok(b.clone()),
        Value::SimpleString(s) => Ok(s.clone().into_bytes()),
        other => Err(storage_error(format!("unexpected reply {other:?}"))),
    }
}

/// A `ZRANGEBYLEX` lower bound.
fn lex_lower(bound: &Bound<Vec<u8>>) -> Vec<u8> {
    match bound {
        Bound::Included(k) => [b"[", k.as_slice()].concat(),
        Bound::Excluded(k) => [b"(", k.as_slice()].concat(),
        Bound::Unbounded => b"-".to_vec(),
    }
}

/// A `ZRANGEBYLEX` upper bound.
fn lex_upper(bound: &Bound<Vec<u8>>) -> Vec<u8> {
    match bound {
        Bound::Included(k) => [b"[", k.as_slice()].concat(),
        Bound::Excluded(k) => [b"(", k.as_slice()].concat(),
        Bound::Unbounded => b"+".to_vec(),
    }
}

impl RedisEngine {
    /// Connects to the cluster through `options.seeds` and checks that it answers; keys are
    /// decoded into rows by `partitioner`.
    pub fn open(options: RedisOptions, partitioner: Partitioner) -> Result<RedisEngine> {
        if options.seeds.is_empty() {
            return Err(storage_error("no seed node configured"));
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("ilion-redis")
            .enable_all()
            .build()?;
        let cluster = Arc::new(Cluster::new(
            options.seeds.clone(),
            Scripts::new(&scripts::ALL),
        ));
        let engine = RedisEngine {
            runtime: Some(runtime),
            cluster: Arc::clone(&cluster),
            layout: Layout::new(&options.namespace, partitioner),
            listed_buckets: Mutex::new(HashSet::new()),
            leases: lease::Leases::new(),
            announced: Mutex::new(None),
            options,
        };
        engine.block(async move { cluster.refresh().await })?;
        Ok(engine)
    }

    /// The options the engine was opened with.
    pub fn options(&self) -> &RedisOptions {
        &self.options
    }

    /// Runs `future` on the engine's runtime and waits for it from this (blocking) thread,
    /// which may itself be a worker of another runtime.
    fn block<T: Send + 'static>(
        &self,
        future: impl Future<Output = Result<T>> + Send + 'static,
    ) -> Result<T> {
        let runtime = self
            .runtime
            .as_ref()
            .ok_or_else(|| storage_error("the engine is closed"))?;
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        runtime.spawn(async move {
            let _ = tx.send(future.await);
        });
        rx.recv()
            .map_err(|_| storage_error("the client runtime stopped"))?
    }

    /// Runs `pipe` on the primary of `tag`'s slot.
    fn run(&self, tag: &str, pipe: Pipeline) -> Result<Vec<Value>> {
        let cluster = Arc::clone(&self.cluster);
        let slot = slot(tag);
        self.block(async move { cluster.run(slot, &pipe).await })
    }

    /// A pipeline that runs `source` with `keys` and `args`.
    fn script(&self, source: &str, keys: &[&[u8]], args: &[&[u8]]) -> Pipeline {
        let mut pipe = redis::pipe();
        let cmd = pipe
            .cmd("EVALSHA")
            .arg(self.cluster.scripts().sha(source))
            .arg(keys.len());
        for key in keys {
            cmd.arg(*key);
        }
        for arg in args {
            cmd.arg(*arg);
        }
        pipe
    }

    /// Adds `WAIT 1` to `pipe` in batch mode; [`Self::check_replicated`] reads its reply.
    fn with_wait(&self, mut pipe: Pipeline) -> Pipeline {
        if self.options.wait_for_replica {
            pipe.cmd("WAIT").arg(1).arg(WAIT_MS);
        }
        pipe
    }

    fn check_replicated(&self, replies: &[Value]) -> Result<()> {
        if !self.options.wait_for_replica {
            return Ok(());
        }
        match replies.last() {
            Some(Value::Int(n)) if *n >= 1 => Ok(()),
            _ => Err(storage_error(format!(
                "the write was not confirmed by a replica within {WAIT_MS} ms"
            ))),
        }
    }

    /// Lists `prefix` (a row prefix) in its index bucket, and the bucket in the directory.
    fn index_row(&self, prefix: &[u8]) -> Result<()> {
        let (cf, first) = bucket_of(prefix)?;
        let id: [u8; 5] = [cf[0], cf[1], cf[2], cf[3], first];
        let listed = self
            .listed_buckets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&id);
        if !listed {
            let (dir, tag) = self.layout.directory();
            let mut pipe = redis::pipe();
            pipe.cmd("ZADD").arg(dir).arg(0).arg(&id[..]);
            let replies = self.run(&tag, self.with_wait(pipe))?;
            self.check_replicated(&replies)?;
            self.listed_buckets
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(id);
        }
        let (bucket, tag) = self.layout.bucket(cf, first);
        let mut pipe = redis::pipe();
        pipe.cmd("ZADD").arg(bucket).arg(0).arg(prefix);
        let replies = self.run(&tag, self.with_wait(pipe))?;
        self.check_replicated(&replies)
    }

    /// Takes `prefix` out of its index bucket (the row has no entry left).
    fn unindex_row(&self, prefix: &[u8]) -> Result<()> {
        let (cf, first) = bucket_of(prefix)?;
        let (bucket, tag) = self.layout.bucket(cf, first);
        let mut pipe = redis::pipe();
        pipe.cmd("ZREM").arg(bucket).arg(prefix);
        self.run(&tag, pipe).map(drop)
    }

    /// Applies one place's writes with one script (see `scripts::WRITE`).
    fn write_place(&self, place: &Place, ops: &Ops, token: &str) -> Result<()> {
        let keys = self.layout.keys(place);
        let (fresh, gone) = self.touched_prefixes(place, ops);
        let fresh_count = fresh.len().to_string();
        let gone_count = gone.len().to_string();
        let mut indexed = false;
        loop {
            let mut args: Vec<&[u8]> = vec![
                token.as_bytes(),
                if indexed { b"1" } else { b"0" },
                fresh_count.as_bytes(),
            ];
            args.extend(fresh.iter().map(Vec::as_slice));
            args.push(gone_count.as_bytes());
            for (prefix, upper) in &gone {
                args.push(prefix);
                args.push(upper);
            }
            for (key, value) in ops {
                match value {
                    Some(value) => args.extend([b"p".as_slice(), key, value]),
                    None => args.extend([b"d".as_slice(), key, b"".as_slice()]),
                }
            }
            let pipe = self.script(
                scripts::WRITE,
                &[&keys.zset, &keys.hash, &keys.lease],
                &args,
            );
            let replies = self.run(&keys.tag, self.with_wait(pipe))?;
            let Some(Value::Array(reply)) = replies.first() else {
                return Err(storage_error("unexpected reply to a write"));
            };
            let (status, prefixes) = reply
                .split_first()
                .ok_or_else(|| storage_error("empty reply to a write"))?;
            let prefixes = prefixes.iter().map(bytes).collect::<Result<Vec<_>>>()?;
            if bytes(status)? == b"index" && !indexed {
                for prefix in &prefixes {
                    self.index_row(prefix)?;
                }
                indexed = true;
                continue;
            }
            self.check_replicated(&replies)?;
            for prefix in &prefixes {
                self.unindex_row(prefix)?;
            }
            return Ok(());
        }
    }

    /// The row prefixes `ops` writes to and (with their `ZRANGEBYLEX` end) deletes from.
    fn touched_prefixes(&self, place: &Place, ops: &Ops) -> (Vec<Vec<u8>>, Vec<Gone>) {
        let mut fresh: Vec<Vec<u8>> = Vec::new();
        let mut gone: Vec<Gone> = Vec::new();
        if *place == Place::Flat {
            return (fresh, gone);
        }
        for (key, value) in ops {
            let Some(len) = self.layout.row_prefix_len(key) else {
                continue;
            };
            let prefix = &key[..len];
            if value.is_some() {
                if !fresh.iter().any(|p| p == prefix) {
                    fresh.push(prefix.to_vec());
                }
            } else if !gone.iter().any(|(p, _)| p == prefix) {
                gone.push((prefix.to_vec(), lex_upper(&prefix_upper(prefix))));
            }
        }
        (fresh, gone)
    }

    fn keys_of(&self, place: &Place) -> PlaceKeys {
        self.layout.keys(place)
    }
}

/// The index bucket of a row prefix: its CF id and the first byte of its row part.
fn bucket_of(prefix: &[u8]) -> Result<([u8; 4], u8)> {
    match prefix {
        [a, b, c, d, first, ..] => Ok(([*a, *b, *c, *d], *first)),
        _ => Err(storage_error("row prefix too short for an index bucket")),
    }
}

impl Engine for RedisEngine {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        let keys = self.keys_of(&self.layout.place(key));
        let mut pipe = redis::pipe();
        pipe.cmd("HGET").arg(&keys.hash).arg(key);
        let replies = self.run(&keys.tag, pipe)?;
        match replies.first() {
            Some(Value::Nil) | None => Ok(None),
            Some(value) => bytes(value).map(Some),
        }
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        scan::scan(self, lower, upper, reverse)
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        let mut groups: Vec<(Place, Ops)> = Vec::new();
        let mut index: HashMap<Place, usize> = HashMap::new();
        for (key, value) in batch.into_ops() {
            let place = self.layout.place(&key);
            let at = *index.entry(place.clone()).or_insert_with(|| {
                groups.push((place, Vec::new()));
                groups.len() - 1
            });
            groups[at].1.push((key, value));
        }
        for (place, ops) in groups {
            match &place {
                Place::Flat => {
                    // The generation stamp counts one process's syncs; with several front
                    // ends it would mean nothing, and without a watermark nothing reads it
                    // (docs/redis.md#durability).
                    if ops.iter().all(|(key, _)| *key == generation_key()) {
                        continue;
                    }
                    self.write_place(&place, &ops, "")?;
                }
                Place::Row(_) => {
                    let keys = self.layout.keys(&place);
                    match self.leases.held(&keys.lease) {
                        Some(token) => self.write_place(&place, &ops, &token)?,
                        None => {
                            let lease = self.acquire(keys)?;
                            self.write_place(&place, &ops, lease.token())?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Nothing to do: Redis applies (and with `appendfsync always`, fsyncs) each write
    /// before it replies, and batch mode has waited for a replica in [`Engine::apply`].
    fn sync(&self) -> Result<()> {
        Ok(())
    }

    fn lock_row(&self, key: &[u8]) -> Result<Option<RowLease>> {
        let place = self.layout.place(key);
        if place == Place::Flat {
            return Ok(None);
        }
        let keys = self.layout.keys(&place);
        if self.leases.held(&keys.lease).is_some() {
            return Ok(None);
        }
        Ok(Some(RowLease::new(self.acquire(keys)?)))
    }

    fn shared(&self) -> bool {
        true
    }

    fn announce(&self, endpoint: &str) -> Result<()> {
        self.announce_front_end(endpoint)
    }

    fn front_ends(&self) -> Result<Option<Vec<String>>> {
        self.live_front_ends().map(Some)
    }
}

impl Drop for RedisEngine {
    fn drop(&mut self) {
        self.withdraw_front_end();
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
