//! storage-conf.xml → [`Config`] and [`Schema`], validated once at start-up. Only this module
//! reads XML. Every error names the element (or attribute) at fault.
//!
//! (Parsing is being written; this file currently holds the types the rest of the crate uses.)

mod schema;

pub use schema::{CfDef, ColumnType, KeyspaceDef, Schema, SYSTEM_KEYSPACE};

use crate::partitioner::Partitioner;
use std::net::IpAddr;
use std::path::PathBuf;

/// `<CommitLogSync>` and its interval: when an acknowledged write is on disk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CommitLogSync {
    /// Acknowledge at once; make everything durable every `period_ms`.
    Periodic { period_ms: u64 },
    /// Acknowledge only after an fsync; writers within `window_ms` share one.
    Batch { window_ms: f64 },
}

/// `<Authenticator>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthenticatorKind {
    AllowAll,
    Simple,
}

/// `<PasswordMode>` (ilion extension): how SimpleAuthenticator compares passwords.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordMode {
    Plain,
    Md5,
}

/// Wire limits (spec E4), configurable through ilion's own elements.
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

/// The validated server configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub cluster_name: String,
    pub partitioner: Partitioner,
    /// `<InitialToken>` in the partitioner's string form.
    pub initial_token: Option<String>,
    pub commit_log_sync: CommitLogSync,
    pub commit_log_directory: PathBuf,
    pub data_file_directories: Vec<PathBuf>,
    pub saved_caches_directory: PathBuf,
    /// Inter-node address (resolved); also the endpoint describe_ring and the token map
    /// report when the Thrift address is a wildcard.
    pub listen_address: IpAddr,
    /// The address the Thrift server binds (resolved; `0.0.0.0` allowed).
    pub thrift_address: IpAddr,
    pub thrift_port: u16,
    /// Parsed and validated; framing is detected per connection anyway (spec E1).
    pub thrift_framed_transport: bool,
    pub authenticator: AuthenticatorKind,
    pub password_mode: PasswordMode,
    pub gc_grace_seconds: u32,
    pub rpc_timeout_ms: u64,
    pub limits: ThriftLimits,
    /// The directory holding storage-conf.xml (passwd.properties and access.properties live here).
    pub config_dir: PathBuf,
    /// The full text of storage-conf.xml, for get_string_property("config file").
    pub config_text: String,
    pub schema: Schema,
}
