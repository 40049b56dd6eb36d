//! storage-conf.xml → [`Config`] and [`Schema`], validated once at start-up. This module is the
//! only reader of XML: `raw` turns the text into structs of optional strings; `validate`,
//! `tuning` and `keyspaces` check every value in one pass and build the typed configuration
//! (`values` holds the shared readers of single values). Every error
//! names the element or attribute at fault, as an XPath relative to `<Storage>` (for example
//! `Keyspaces/Keyspace[@Name='Keyspace1']/ColumnFamily[@Name='Standard1']/@CompareWith`).

mod admin;
mod keyspaces;
mod listeners;
mod raw;
mod redis_cluster;
mod schema;
mod tuning;
mod validate;
mod values;

#[cfg(test)]
mod error_tests;
#[cfg(test)]
mod file_tests;
#[cfg(test)]
mod tests;

pub use admin::{AdminSettings, DEFAULT_ADMIN_PORT};
pub use listeners::{Thrift20Settings, DEFAULT_THRIFT20_PORT, DEFAULT_THRIFT20_VERSION};
pub use schema::{
    CfDef, CfOptions, ColumnMeta, ColumnType, KeyspaceDef, Schema, BYTES_TYPE, COUNTER_TYPE,
    SYSTEM_KEYSPACE,
};

use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};

/// `<CommitLogSync>` and its interval: when an acknowledged write is on disk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CommitLogSync {
    /// Acknowledge at once; make everything durable every `period_ms`.
    Periodic {
        /// `<CommitLogSyncPeriodInMS>`.
        period_ms: u64,
    },
    /// Acknowledge only after an fsync; writers within `window_ms` share one.
    Batch {
        /// `<CommitLogSyncBatchWindowInMS>`.
        window_ms: f64,
    },
}

/// `<Authenticator>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthenticatorKind {
    /// `AllowAllAuthenticator`: no login needed.
    AllowAll,
    /// `SimpleAuthenticator`: passwd.properties and access.properties.
    Simple,
}

/// `<PasswordMode>` (ilion extension): how SimpleAuthenticator compares passwords.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordMode {
    /// passwd.properties holds the passwords themselves.
    Plain,
    /// passwd.properties holds hex MD5 digests of the passwords.
    Md5,
}

impl PasswordMode {
    /// The name used in storage-conf.xml and in login failure messages.
    pub fn as_str(self) -> &'static str {
        match self {
            PasswordMode::Plain => "PLAIN",
            PasswordMode::Md5 => "MD5",
        }
    }
}

/// `<DiskAccessMode>`: how 0.6 read sstables. Validated and kept; sled does its own I/O.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskAccessMode {
    /// `auto` (the default).
    Auto,
    /// `mmap`.
    Mmap,
    /// `mmap_index_only`.
    MmapIndexOnly,
    /// `standard`.
    Standard,
}

/// `<StorageEngine>` (ilion extension): the engine a new data directory is created with. An
/// existing directory keeps the engine that wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageEngine {
    /// `sled` (the default).
    Sled,
    /// `fjall`.
    Fjall,
    /// `redis-cluster`: the data lives in a Redis Cluster ([`Config::redis_cluster`]), not
    /// in the data directory (docs/redis.md).
    RedisCluster,
}

/// `<RedisCluster>` (ilion extension): the cluster the `redis-cluster` engine uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisClusterSettings {
    /// `<Seed>host:port</Seed>`: nodes to learn the cluster's layout from.
    pub seeds: Vec<String>,
    /// `<Namespace>`, the `ClusterName` when absent: the prefix of every key.
    pub namespace: String,
}

/// Wire limits (`docs/compatibility.md#e4`), configurable through ilion's own elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThriftLimits {
    /// Largest accepted frame, in bytes.
    pub max_frame_bytes: usize,
    /// Largest accepted message, in bytes.
    pub max_message_bytes: usize,
    /// Deepest struct/container nesting.
    pub max_depth: usize,
    /// Most simultaneous client connections.
    pub max_connections: usize,
    /// Seconds a connection may sit idle between requests.
    pub idle_timeout_secs: u64,
    /// Seconds a started request may take to arrive in full.
    pub read_timeout_secs: u64,
}

impl Default for ThriftLimits {
    fn default() -> Self {
        ThriftLimits {
            max_frame_bytes: 15 * 1024 * 1024,
            max_message_bytes: 16 * 1024 * 1024,
            max_depth: 64,
            max_connections: 1024,
            idle_timeout_secs: 3600,
            read_timeout_secs: 30,
        }
    }
}

/// The 0.6 performance knobs: validated so that a 0.6 file with a typo fails the same way,
/// and kept for tools and logs, though a single sled-backed node has no use for most of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Tuning {
    /// `<IndexInterval>`: keys per index sample (describe_splits estimates with it).
    pub index_interval: u32,
    /// `<PhiConvictThreshold>`, 5–16.
    pub phi_convict_threshold: u32,
    /// `<CommitLogRotationThresholdInMB>`.
    pub commit_log_rotation_threshold_mb: u32,
    /// `<RowWarningThresholdInMB>`.
    pub row_warning_threshold_mb: u32,
    /// `<SlicedBufferSizeInKB>`.
    pub sliced_buffer_size_kb: u32,
    /// `<FlushDataBufferSizeInMB>`.
    pub flush_data_buffer_size_mb: f64,
    /// `<FlushIndexBufferSizeInMB>`.
    pub flush_index_buffer_size_mb: f64,
    /// `<ColumnIndexSizeInKB>`.
    pub column_index_size_kb: u32,
    /// `<MemtableThroughputInMB>`.
    pub memtable_throughput_mb: u32,
    /// `<BinaryMemtableThroughputInMB>`.
    pub binary_memtable_throughput_mb: u32,
    /// `<MemtableOperationsInMillions>`, > 0.
    pub memtable_operations_millions: f64,
    /// `<MemtableFlushAfterMinutes>`.
    pub memtable_flush_after_minutes: u32,
    /// `<ConcurrentReads>`, ≥ 2.
    pub concurrent_reads: u32,
    /// `<ConcurrentWrites>`, ≥ 2.
    pub concurrent_writes: u32,
    /// `<DoConsistencyChecksBoolean>`: read repair.
    pub do_consistency_checks: bool,
    /// `<SnapshotBeforeCompaction>`.
    pub snapshot_before_compaction: bool,
}

/// The validated server configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// `<ClusterName>`, "Test Cluster" when absent.
    pub cluster_name: String,
    /// `<Partitioner>`.
    pub partitioner: Partitioner,
    /// `<InitialToken>` in the partitioner's string form.
    pub initial_token: Option<String>,
    /// `<CommitLogSync>` with its period or batch window.
    pub commit_log_sync: CommitLogSync,
    /// `<CommitLogDirectory>`, absolute.
    pub commit_log_directory: PathBuf,
    /// `<DataFileDirectories>`, absolute, at least one; the store lives in the first.
    pub data_file_directories: Vec<PathBuf>,
    /// `<SavedCachesDirectory>`, absolute.
    pub saved_caches_directory: PathBuf,
    /// Inter-node address (resolved); also the endpoint describe_ring and the token map
    /// report when the Thrift address is a wildcard.
    pub listen_address: IpAddr,
    /// The address the Thrift server binds (resolved; `0.0.0.0` allowed).
    pub thrift_address: IpAddr,
    /// `<ThriftPort>`; 0 asks the OS for a free port (tests).
    pub thrift_port: u16,
    /// `<ThriftEnabled>` (ilion), true when absent: whether the 0.6 API is served at all.
    pub thrift_enabled: bool,
    /// The later API's listener (ilion's `<Thrift20…>` elements).
    pub thrift20: Thrift20Settings,
    /// Parsed and validated; framing is detected per connection anyway
    /// (`docs/compatibility.md#e1`).
    pub thrift_framed_transport: bool,
    /// `<StoragePort>`: the inter-node port, unused by a single node.
    pub storage_port: u16,
    /// `<Seeds>`, as written (a single node never contacts them).
    pub seeds: Vec<String>,
    /// `<AutoBootstrap>`.
    pub auto_bootstrap: bool,
    /// `<HintedHandoffEnabled>`.
    pub hinted_handoff_enabled: bool,
    /// `<DiskAccessMode>`, `auto` when absent.
    pub disk_access_mode: DiskAccessMode,
    /// `<Authenticator>`.
    pub authenticator: AuthenticatorKind,
    /// `<PasswordMode>` (ilion).
    pub password_mode: PasswordMode,
    /// `<GCGraceSeconds>`: how long tombstones must be kept.
    pub gc_grace_seconds: u32,
    /// `<RpcTimeoutInMillis>`.
    pub rpc_timeout_ms: u64,
    /// `<StorageCacheSizeInMB>` (ilion extension), in bytes: the engine's cache.
    pub storage_cache_bytes: u64,
    /// `<StorageEngine>` (ilion), `sled` when absent.
    pub storage_engine: StorageEngine,
    /// `<RedisCluster>` (ilion): present exactly when the engine is `redis-cluster`.
    pub redis_cluster: Option<RedisClusterSettings>,
    /// The ilion `<Thrift…>` wire limits.
    pub limits: ThriftLimits,
    /// ilion's admin endpoint: `<AdminAddress>`, `<AdminPort>`, `<AdminToken>`.
    pub admin: AdminSettings,
    /// The remaining 0.6 tuning elements.
    pub tuning: Tuning,
    /// The directory holding storage-conf.xml (passwd.properties and access.properties live here).
    pub config_dir: PathBuf,
    /// The full text of storage-conf.xml, for get_string_property("config file").
    pub config_text: String,
    /// Every configured keyspace plus `system`.
    pub schema: Schema,
}

impl Config {
    /// Parses and validates storage-conf.xml text. `config_dir` is recorded as the directory
    /// of the file; relative directories in the file resolve against `working_dir`. Pure:
    /// nothing is written (host names in addresses are resolved, though).
    pub fn from_xml(text: &str, config_dir: &Path, working_dir: &Path) -> Result<Config> {
        let raw = raw::parse(text)?;
        validate::build(raw, text, config_dir, working_dir)
    }

    /// Reads and validates the file at `path`; its directory becomes `config_dir`, and
    /// relative directories resolve against the current directory.
    pub fn load(path: &Path) -> Result<Config> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::config(&shown, format!("the file cannot be read: {e}")))?;
        let working_dir = std::env::current_dir().map_err(|e| {
            Error::config(&shown, format!("the current directory is unusable: {e}"))
        })?;
        let parent = path.parent().unwrap_or(Path::new(""));
        let config_dir = working_dir.join(parent);
        Config::from_xml(&text, &config_dir, &working_dir)
    }

    /// The address clients reach a listener bound to `bound` at: `bound` unless it is a
    /// wildcard, else the listen address, else loopback.
    pub fn client_address(&self, bound: IpAddr) -> IpAddr {
        [bound, self.listen_address]
            .into_iter()
            .find(|ip| !ip.is_unspecified())
            .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
    }

    /// Creates the data, commit log and saved-caches directories that do not exist yet.
    pub fn create_directories(&self) -> Result<()> {
        let dirs = self
            .data_file_directories
            .iter()
            .map(|d| ("DataFileDirectories/DataFileDirectory", d))
            .chain([
                ("CommitLogDirectory", &self.commit_log_directory),
                ("SavedCachesDirectory", &self.saved_caches_directory),
            ]);
        for (element, dir) in dirs {
            std::fs::create_dir_all(dir).map_err(|e| {
                Error::config(
                    element,
                    format!("cannot create directory {}: {e}", dir.display()),
                )
            })?;
        }
        Ok(())
    }
}
