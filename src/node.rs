//! A running ilion node: the wiring from a validated [`Config`] to a serving Thrift port —
//! data directories, the store (on the engine its directory was created with), the column
//! families, the API service, the server, the admin endpoint (`server::admin`), and tombstone
//! maintenance — and the orderly way down (stop accepting, finish in-flight calls, make
//! everything durable). The binary and the end-to-end tests both start nodes this way.

use crate::cf::{Db, DbOptions, MaintenanceHandle};
use crate::config::{CommitLogSync, Config, StorageEngine};
use crate::error::{Error, Result};
use crate::protocol::{ConnectionFactory, Limits};
use crate::server::admin::AdminServer;
use crate::server::{RunningServer, ServerSettings};
use crate::service::Service;
use crate::storage::{open_engine, open_redis_cluster, EngineKind, RedisOptions, SyncPolicy};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// How long shutdown waits for open connections before dropping them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(4);

/// Longest pause between two tombstone purges.
const MAX_PURGE_INTERVAL: Duration = Duration::from_secs(3600);

/// Opens the column families of `config` over the store in its first data directory: a new
/// store on the `<StorageEngine>` configured, an existing one on the engine that created it.
pub fn open_db(config: &Config) -> Result<Arc<Db>> {
    config.create_directories()?;
    let dir = config.data_file_directories.first().ok_or_else(|| {
        Error::config(
            "DataFileDirectories",
            "at least one DataFileDirectory is required",
        )
    })?;
    let requested = match config.storage_engine {
        StorageEngine::Sled => EngineKind::Sled,
        StorageEngine::Fjall => EngineKind::Fjall,
        StorageEngine::RedisCluster => return open_db_on(config, redis_engine(config)?),
    };
    let opened = open_engine(dir, requested, config.storage_cache_bytes)?;
    tracing::info!(
        "store in {} opened on the {} engine",
        dir.display(),
        opened.kind.name()
    );
    open_db_on(config, opened.engine)
}

/// The `redis-cluster` engine of `config` (docs/redis.md).
fn redis_engine(config: &Config) -> Result<Arc<dyn crate::storage::Engine>> {
    let settings = config
        .redis_cluster
        .clone()
        .ok_or_else(|| Error::config("RedisCluster", "is required"))?;
    let options = RedisOptions {
        seeds: settings.seeds,
        namespace: settings.namespace,
        wait_for_replica: matches!(config.commit_log_sync, CommitLogSync::Batch { .. }),
    };
    let engine = open_redis_cluster(options, config.partitioner)?;
    tracing::info!("store opened on the redis-cluster engine");
    Ok(engine)
}

/// The column families of `config` over `engine`.
fn open_db_on(config: &Config, engine: Arc<dyn crate::storage::Engine>) -> Result<Arc<Db>> {
    let initial_token = config
        .initial_token
        .as_deref()
        .map(|t| config.partitioner.parse_token(t))
        .transpose()?;
    let sync = match config.commit_log_sync {
        CommitLogSync::Periodic { period_ms } => {
            SyncPolicy::Periodic(Duration::from_millis(period_ms))
        }
        CommitLogSync::Batch { window_ms } => {
            SyncPolicy::Batch(Duration::from_secs_f64(window_ms / 1000.0))
        }
    };
    let options = DbOptions {
        partitioner: config.partitioner,
        sync,
        gc_grace_seconds: config.gc_grace_seconds,
        initial_token,
        chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
        clock: crate::cf::system_clock(),
    };
    Ok(Arc::new(Db::open(
        engine,
        Arc::new(config.schema.clone()),
        options,
    )?))
}

/// How this server is listed among the front ends of a shared store (`describe_ring`): its
/// client-facing IP, with the port unless it is the standard 9160 — several front ends on one
/// machine must be told apart (docs/redis.md#ring).
fn front_end_endpoint(config: &Config, bound: SocketAddr) -> String {
    let ip = [config.thrift_address, config.listen_address]
        .into_iter()
        .find(|ip| !ip.is_unspecified())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    if bound.port() == 9160 {
        ip.to_string()
    } else {
        SocketAddr::new(ip, bound.port()).to_string()
    }
}

/// The server settings a configuration asks for.
pub fn server_settings(config: &Config) -> ServerSettings {
    let l = config.limits;
    ServerSettings {
        limits: Limits::from(&l),
        max_connections: l.max_connections,
        idle_timeout: Duration::from_secs(l.idle_timeout_secs),
        read_timeout: Duration::from_secs(l.read_timeout_secs),
    }
}

/// A serving node.
pub struct Node {
    server: RunningServer,
    admin: AdminServer,
    db: Arc<Db>,
    maintenance: MaintenanceHandle,
}

impl Node {
    /// Opens the store and starts serving on ThriftAddress:ThriftPort (port 0 picks one).
    pub async fn start(config: Config) -> Result<Node> {
        let config = Arc::new(config);
        let db = open_db(&config)?;
        let grace = Duration::from_secs(u64::from(config.gc_grace_seconds));
        let maintenance =
            db.start_maintenance(grace.clamp(Duration::from_secs(1), MAX_PURGE_INTERVAL))?;
        let factory: Arc<dyn ConnectionFactory> =
            Arc::new(Service::new(Arc::clone(&db), Arc::clone(&config)));
        let addr = SocketAddr::new(config.thrift_address, config.thrift_port);
        let server = RunningServer::start(addr, factory, server_settings(&config))
            .await
            .map_err(|e| Error::config("ThriftPort", format!("cannot listen on {addr}: {e}")))?;
        db.announce(&front_end_endpoint(&config, server.local_addr()))?;
        let admin_addr = SocketAddr::new(config.admin.address, config.admin.port);
        let admin = AdminServer::start(Arc::clone(&db), Arc::clone(&config))
            .await
            .map_err(|e| {
                Error::config("AdminPort", format!("cannot listen on {admin_addr}: {e}"))
            })?;
        Ok(Node {
            server,
            admin,
            db,
            maintenance,
        })
    }

    /// The address clients connect to.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// The address of the admin endpoint (metrics, status page, `ilion tool`).
    pub fn admin_addr(&self) -> SocketAddr {
        self.admin.local_addr()
    }

    /// The node's column families (for tools and tests that look underneath the API).
    pub fn db(&self) -> &Arc<Db> {
        &self.db
    }

    /// Stops accepting, lets in-flight calls finish, then makes everything durable.
    pub async fn shutdown(self) -> Result<()> {
        self.admin.shutdown().await;
        self.server.shutdown(SHUTDOWN_GRACE).await;
        drop(self.maintenance);
        self.db.close()
    }
}
