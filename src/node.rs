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
use crate::service20::Service20;
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
    let ip = config.client_address(config.thrift_address);
    if bound.port() == 9160 {
        ip.to_string()
    } else {
        SocketAddr::new(ip, bound.port()).to_string()
    }
}

/// Starts a listener on `addr`; a bind failure names `element`.
async fn listen(
    addr: SocketAddr,
    factory: Arc<dyn ConnectionFactory>,
    settings: ServerSettings,
    element: &str,
) -> Result<RunningServer> {
    RunningServer::start(addr, factory, settings)
        .await
        .map_err(|e| Error::config(element, format!("cannot listen on {addr}: {e}")))
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
    /// The 0.6 API's listener, unless `<ThriftEnabled>` is false.
    server: Option<RunningServer>,
    /// The later API's listener, unless `<Thrift20Enabled>` is false.
    later: Option<RunningServer>,
    admin: AdminServer,
    db: Arc<Db>,
    maintenance: MaintenanceHandle,
}

impl Node {
    /// Opens the store and starts serving: the 0.6 API on ThriftAddress:ThriftPort and the
    /// later API on Thrift20Address:Thrift20Port, each unless disabled (port 0 picks one).
    pub async fn start(config: Config) -> Result<Node> {
        let config = Arc::new(config);
        let db = open_db(&config)?;
        let grace = Duration::from_secs(u64::from(config.gc_grace_seconds));
        let maintenance =
            db.start_maintenance(grace.clamp(Duration::from_secs(1), MAX_PURGE_INTERVAL))?;
        let settings = server_settings(&config);
        let server = match config.thrift_enabled {
            true => {
                let factory: Arc<dyn ConnectionFactory> =
                    Arc::new(Service::new(Arc::clone(&db), Arc::clone(&config)));
                let addr = SocketAddr::new(config.thrift_address, config.thrift_port);
                Some(listen(addr, factory, settings, "ThriftPort").await?)
            }
            false => None,
        };
        let later = match config.thrift20.enabled {
            true => {
                let factory: Arc<dyn ConnectionFactory> =
                    Arc::new(Service20::new(Arc::clone(&db), Arc::clone(&config)));
                let addr = SocketAddr::new(config.thrift20.address, config.thrift20.port);
                Some(listen(addr, factory, settings, "Thrift20Port").await?)
            }
            false => None,
        };
        if let Some(server) = &server {
            db.announce(&front_end_endpoint(&config, server.local_addr()))?;
        }
        let admin_addr = SocketAddr::new(config.admin.address, config.admin.port);
        let admin = AdminServer::start(Arc::clone(&db), Arc::clone(&config))
            .await
            .map_err(|e| {
                Error::config("AdminPort", format!("cannot listen on {admin_addr}: {e}"))
            })?;
        Ok(Node {
            server,
            later,
            admin,
            db,
            maintenance,
        })
    }

    /// The address 0.6 clients connect to; the later API's when the 0.6 listener is
    /// disabled (at least one listener always runs).
    pub fn local_addr(&self) -> SocketAddr {
        match (&self.server, &self.later) {
            (Some(server), _) | (None, Some(server)) => server.local_addr(),
            // Config validation refuses disabling both.
            (None, None) => SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0),
        }
    }

    /// The address of the 0.6 listener, if it runs.
    pub fn thrift_addr(&self) -> Option<SocketAddr> {
        self.server.as_ref().map(RunningServer::local_addr)
    }

    /// The address of the later API's listener, if it runs.
    pub fn thrift20_addr(&self) -> Option<SocketAddr> {
        self.later.as_ref().map(RunningServer::local_addr)
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
        // Both listeners drain at once, within one grace period.
        let stop_06 = async {
            if let Some(server) = self.server {
                server.shutdown(SHUTDOWN_GRACE).await;
            }
        };
        let stop_20 = async {
            if let Some(later) = self.later {
                later.shutdown(SHUTDOWN_GRACE).await;
            }
        };
        tokio::join!(stop_06, stop_20);
        drop(self.maintenance);
        self.db.close()
    }
}
