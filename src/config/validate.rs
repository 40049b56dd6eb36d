//! The second half of reading storage-conf.xml: the one validation pass over the top-level
//! elements (`docs/api.md#config`, and ilion's own such as `PasswordMode` and
//! `StorageEngine`), turning [`RawStorage`] into a
//! [`Config`]. Defaults live here, next to their checks; keyspaces and column families are
//! handed to `keyspaces`, the numeric knobs to `tuning`.

use super::raw::{DataFileDirectoriesChild, RawStorage, SeedsChild};
use super::tuning::{limits, tuning};
use super::values::{address, boolean, decimal, directory, integer};
use super::{
    keyspaces, AuthenticatorKind, CommitLogSync, Config, DiskAccessMode, PasswordMode,
    StorageEngine,
};
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

const AUTH_PACKAGE: &str = "org.apache.cassandra.auth.";

/// Builds the validated configuration from the raw document.
pub(super) fn build(
    raw: RawStorage,
    text: &str,
    config_dir: &Path,
    working_dir: &Path,
) -> Result<Config> {
    let partitioner = partitioner(raw.partitioner.as_deref())?;
    let initial_token = match raw.initial_token.clone() {
        Some(token) => {
            partitioner
                .parse_token(&token)
                .map_err(|e| Error::config("InitialToken", reason(e)))?;
            Some(token)
        }
        None => None,
    };
    let (commit_log_directory, data_file_directories, saved_caches_directory) =
        directories(&raw, working_dir)?;
    let listen_address = listen_address(raw.listen_address.as_deref())?;
    let thrift_address = match raw.thrift_address.as_deref() {
        Some(v) => address("ThriftAddress", v)?,
        None => listen_address,
    };
    let seeds: Vec<String> = raw
        .seeds
        .iter()
        .flat_map(|list| &list.items)
        .filter_map(|child| match child {
            SeedsChild::Seed(seed) => seed.clone(),
            SeedsChild::Other => None,
        })
        .collect();
    if seeds.is_empty() {
        return Err(Error::config("Seeds/Seed", "at least one is required"));
    }
    let storage_engine = storage_engine(raw.storage_engine.as_deref())?;
    let redis_cluster = match storage_engine {
        StorageEngine::RedisCluster => Some(super::redis_cluster::settings(
            raw.redis_cluster.as_ref().map(|list| list.items.as_slice()),
            raw.cluster_name.as_deref().unwrap_or("Test Cluster"),
        )?),
        _ => None,
    };
    let u16_max = Some(u16::MAX);
    let thrift_port = integer("ThriftPort", raw.thrift_port.as_deref(), 9160, 0, u16_max)?;
    let (thrift_enabled, thrift20) =
        super::listeners::listeners(&raw, thrift_address, thrift_port)?;
    Ok(Config {
        cluster_name: raw
            .cluster_name
            .clone()
            .unwrap_or_else(|| "Test Cluster".into()),
        partitioner,
        initial_token,
        commit_log_sync: commit_log_sync(&raw)?,
        commit_log_directory,
        data_file_directories,
        saved_caches_directory,
        listen_address,
        thrift_address,
        thrift_port,
        thrift_enabled,
        thrift20,
        thrift_framed_transport: boolean(
            "ThriftFramedTransport",
            raw.thrift_framed_transport.as_deref(),
            false,
        )?,
        storage_port: integer("StoragePort", raw.storage_port.as_deref(), 7000, 0, u16_max)?,
        seeds,
        auto_bootstrap: boolean("AutoBootstrap", raw.auto_bootstrap.as_deref(), false)?,
        hinted_handoff_enabled: boolean(
            "HintedHandoffEnabled",
            raw.hinted_handoff_enabled.as_deref(),
            true,
        )?,
        disk_access_mode: disk_access_mode(raw.disk_access_mode.as_deref())?,
        authenticator: authenticator(raw.authenticator.as_deref())?,
        password_mode: password_mode(raw.password_mode.as_deref())?,
        gc_grace_seconds: integer(
            "GCGraceSeconds",
            raw.gc_grace_seconds.as_deref(),
            864_000,
            0,
            None,
        )?,
        rpc_timeout_ms: integer(
            "RpcTimeoutInMillis",
            raw.rpc_timeout_in_millis.as_deref(),
            2000,
            1,
            None,
        )?,
        storage_cache_bytes: integer(
            "StorageCacheSizeInMB",
            raw.storage_cache_size_in_mb.as_deref(),
            DEFAULT_STORAGE_CACHE_MB,
            1,
            Some(1 << 20),
        )? << 20,
        admin: super::admin::admin(&raw, thrift_port)?,
        storage_engine,
        redis_cluster,
        limits: limits(&raw)?,
        tuning: tuning(&raw)?,
        config_dir: config_dir.to_path_buf(),
        config_text: text.to_string(),
        schema: keyspaces::schema(raw.keyspaces)?,
    })
}

/// The engine's cache when `<StorageCacheSizeInMB>` is absent: enough for a few hundred
/// thousand small rows, while the whole server stays within 200 MiB of memory.
const DEFAULT_STORAGE_CACHE_MB: u64 = 128;

/// The message of a lower layer's error, without its kind prefix.
fn reason(e: Error) -> String {
    match e {
        Error::InvalidRequest(why) => why,
        other => other.to_string(),
    }
}

fn partitioner(value: Option<&str>) -> Result<Partitioner> {
    let v = value.ok_or_else(|| {
        Error::config(
            "Partitioner",
            "is required, e.g. org.apache.cassandra.dht.RandomPartitioner",
        )
    })?;
    Partitioner::from_class_name(v).ok_or_else(|| {
        Error::config(
            "Partitioner",
            format!(
                "unknown partitioner '{v}'; expected RandomPartitioner, \
                 OrderPreservingPartitioner, CollatingOrderPreservingPartitioner, \
                 Murmur3Partitioner or ByteOrderedPartitioner \
                 (optionally prefixed by org.apache.cassandra.dht.)"
            ),
        )
    })
}

fn authenticator(value: Option<&str>) -> Result<AuthenticatorKind> {
    let Some(v) = value else {
        return Ok(AuthenticatorKind::AllowAll);
    };
    match v.strip_prefix(AUTH_PACKAGE).unwrap_or(v) {
        "AllowAllAuthenticator" => Ok(AuthenticatorKind::AllowAll),
        "SimpleAuthenticator" => Ok(AuthenticatorKind::Simple),
        _ => Err(Error::config(
            "Authenticator",
            format!(
                "unknown authenticator '{v}'; expected {AUTH_PACKAGE}AllowAllAuthenticator \
                 or {AUTH_PACKAGE}SimpleAuthenticator"
            ),
        )),
    }
}

fn password_mode(value: Option<&str>) -> Result<PasswordMode> {
    match value {
        None => Ok(PasswordMode::Plain),
        Some(v) if v.eq_ignore_ascii_case("PLAIN") => Ok(PasswordMode::Plain),
        Some(v) if v.eq_ignore_ascii_case("MD5") => Ok(PasswordMode::Md5),
        Some(v) => Err(Error::config(
            "PasswordMode",
            format!("must be PLAIN or MD5, not '{v}'"),
        )),
    }
}

fn storage_engine(value: Option<&str>) -> Result<StorageEngine> {
    match value {
        None | Some("sled") => Ok(StorageEngine::Sled),
        Some("fjall") => Ok(StorageEngine::Fjall),
        Some("redis-cluster") => Ok(StorageEngine::RedisCluster),
        Some(v) => Err(Error::config(
            "StorageEngine",
            format!("must be sled, fjall or redis-cluster, not '{v}'"),
        )),
    }
}

fn disk_access_mode(value: Option<&str>) -> Result<DiskAccessMode> {
    match value {
        None | Some("auto") => Ok(DiskAccessMode::Auto),
        Some("mmap") => Ok(DiskAccessMode::Mmap),
        Some("mmap_index_only") => Ok(DiskAccessMode::MmapIndexOnly),
        Some("standard") => Ok(DiskAccessMode::Standard),
        Some(v) => Err(Error::config(
            "DiskAccessMode",
            format!("must be auto, mmap, mmap_index_only or standard, not '{v}'"),
        )),
    }
}

/// `<CommitLogSync>` with exactly the interval element its mode calls for.
fn commit_log_sync(raw: &RawStorage) -> Result<CommitLogSync> {
    const PERIOD: &str = "CommitLogSyncPeriodInMS";
    const WINDOW: &str = "CommitLogSyncBatchWindowInMS";
    let period = raw.commit_log_sync_period_in_ms.as_deref();
    let window = raw.commit_log_sync_batch_window_in_ms.as_deref();
    match raw.commit_log_sync.as_deref() {
        None => Err(Error::config(
            "CommitLogSync",
            "is required: periodic or batch",
        )),
        Some("periodic") => {
            if window.is_some() {
                return Err(Error::config(
                    WINDOW,
                    "may not be set when CommitLogSync is periodic",
                ));
            }
            let period = period.ok_or_else(|| {
                Error::config(PERIOD, "is required when CommitLogSync is periodic")
            })?;
            let period_ms = integer(PERIOD, Some(period), 0, 1, None)?;
            Ok(CommitLogSync::Periodic { period_ms })
        }
        Some("batch") => {
            if period.is_some() {
                return Err(Error::config(
                    PERIOD,
                    "may not be set when CommitLogSync is batch",
                ));
            }
            let window = window
                .ok_or_else(|| Error::config(WINDOW, "is required when CommitLogSync is batch"))?;
            let window_ms = decimal(WINDOW, window, true)?;
            Ok(CommitLogSync::Batch { window_ms })
        }
        Some(v) => Err(Error::config(
            "CommitLogSync",
            format!("must be periodic or batch, not '{v}'"),
        )),
    }
}

/// Commit log, data and saved-caches directories, absolute; the commit log may not share a
/// directory with data files (0.6 rule, kept because ilion creates and owns both).
fn directories(raw: &RawStorage, working_dir: &Path) -> Result<(PathBuf, Vec<PathBuf>, PathBuf)> {
    const DATA: &str = "DataFileDirectories/DataFileDirectory";
    let data: Vec<PathBuf> = raw
        .data_file_directories
        .iter()
        .flat_map(|list| &list.items)
        .filter_map(|child| match child {
            DataFileDirectoriesChild::DataFileDirectory(dir) => dir.as_deref(),
            DataFileDirectoriesChild::Other => None,
        })
        .map(|dir| directory(DATA, Some(dir), working_dir))
        .collect::<Result<_>>()?;
    let commit_log = directory(
        "CommitLogDirectory",
        raw.commit_log_directory.as_deref(),
        working_dir,
    )?;
    if data.is_empty() {
        return Err(Error::config(DATA, "at least one is required"));
    }
    if data.contains(&commit_log) {
        return Err(Error::config(
            "CommitLogDirectory",
            format!(
                "must differ from every DataFileDirectory, but {} is both",
                commit_log.display()
            ),
        ));
    }
    let saved_caches = directory(
        "SavedCachesDirectory",
        raw.saved_caches_directory.as_deref(),
        working_dir,
    )?;
    Ok((commit_log, data, saved_caches))
}

fn listen_address(value: Option<&str>) -> Result<IpAddr> {
    let ip = address("ListenAddress", value.unwrap_or("127.0.0.1"))?;
    if ip.is_unspecified() {
        return Err(Error::config(
            "ListenAddress",
            format!("may not be the wildcard address {ip}; give this node's own address"),
        ));
    }
    Ok(ip)
}
