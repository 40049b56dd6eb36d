//! The first half of reading storage-conf.xml: XML text → plain structs of optional strings,
//! with no judgement about the values. Unknown elements and attributes are skipped, comments
//! are ignored, values are trimmed, and an empty element or attribute reads as absent (as 0.6
//! treated them). Lists whose items may be interleaved with other elements (`Keyspace`
//! children, `Seeds`, …) are read as sequences of tagged children so that order never matters.
//! This file and its callers in `config` are the only users of quick-xml in the crate.

use crate::error::{Error, Result};
use quick_xml::events::Event;
use serde::{Deserialize, Deserializer};

/// The `<Storage>` root: one field per top-level element (`docs/api.md#config`) plus ilion's
/// own.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct RawStorage {
    #[serde(rename = "ClusterName", deserialize_with = "text")]
    pub cluster_name: Option<String>,
    #[serde(rename = "AutoBootstrap", deserialize_with = "text")]
    pub auto_bootstrap: Option<String>,
    #[serde(rename = "HintedHandoffEnabled", deserialize_with = "text")]
    pub hinted_handoff_enabled: Option<String>,
    #[serde(rename = "IndexInterval", deserialize_with = "text")]
    pub index_interval: Option<String>,
    #[serde(rename = "Keyspaces")]
    pub keyspaces: Option<List<KeyspacesChild>>,
    #[serde(rename = "Authenticator", deserialize_with = "text")]
    pub authenticator: Option<String>,
    #[serde(rename = "Partitioner", deserialize_with = "text")]
    pub partitioner: Option<String>,
    #[serde(rename = "InitialToken", deserialize_with = "text")]
    pub initial_token: Option<String>,
    #[serde(rename = "SavedCachesDirectory", deserialize_with = "text")]
    pub saved_caches_directory: Option<String>,
    #[serde(rename = "CommitLogDirectory", deserialize_with = "text")]
    pub commit_log_directory: Option<String>,
    #[serde(rename = "DataFileDirectories")]
    pub data_file_directories: Option<List<DataFileDirectoriesChild>>,
    #[serde(rename = "Seeds")]
    pub seeds: Option<List<SeedsChild>>,
    #[serde(rename = "RpcTimeoutInMillis", deserialize_with = "text")]
    pub rpc_timeout_in_millis: Option<String>,
    #[serde(rename = "PhiConvictThreshold", deserialize_with = "text")]
    pub phi_convict_threshold: Option<String>,
    #[serde(rename = "CommitLogRotationThresholdInMB", deserialize_with = "text")]
    pub commit_log_rotation_threshold_in_mb: Option<String>,
    #[serde(rename = "ListenAddress", deserialize_with = "text")]
    pub listen_address: Option<String>,
    #[serde(rename = "StoragePort", deserialize_with = "text")]
    pub storage_port: Option<String>,
    #[serde(rename = "ThriftAddress", deserialize_with = "text")]
    pub thrift_address: Option<String>,
    #[serde(rename = "ThriftPort", deserialize_with = "text")]
    pub thrift_port: Option<String>,
    #[serde(rename = "ThriftEnabled", deserialize_with = "text")]
    pub thrift_enabled: Option<String>,
    #[serde(rename = "Thrift20Enabled", deserialize_with = "text")]
    pub thrift20_enabled: Option<String>,
    #[serde(rename = "Thrift20Address", deserialize_with = "text")]
    pub thrift20_address: Option<String>,
    #[serde(rename = "Thrift20Port", deserialize_with = "text")]
    pub thrift20_port: Option<String>,
    #[serde(rename = "Thrift20Version", deserialize_with = "text")]
    pub thrift20_version: Option<String>,
    #[serde(rename = "ThriftFramedTransport", deserialize_with = "text")]
    pub thrift_framed_transport: Option<String>,
    #[serde(rename = "DiskAccessMode", deserialize_with = "text")]
    pub disk_access_mode: Option<String>,
    #[serde(rename = "RowWarningThresholdInMB", deserialize_with = "text")]
    pub row_warning_threshold_in_mb: Option<String>,
    #[serde(rename = "SlicedBufferSizeInKB", deserialize_with = "text")]
    pub sliced_buffer_size_in_kb: Option<String>,
    #[serde(rename = "FlushDataBufferSizeInMB", deserialize_with = "text")]
    pub flush_data_buffer_size_in_mb: Option<String>,
    #[serde(rename = "FlushIndexBufferSizeInMB", deserialize_with = "text")]
    pub flush_index_buffer_size_in_mb: Option<String>,
    #[serde(rename = "ColumnIndexSizeInKB", deserialize_with = "text")]
    pub column_index_size_in_kb: Option<String>,
    #[serde(rename = "MemtableThroughputInMB", deserialize_with = "text")]
    pub memtable_throughput_in_mb: Option<String>,
    #[serde(rename = "BinaryMemtableThroughputInMB", deserialize_with = "text")]
    pub binary_memtable_throughput_in_mb: Option<String>,
    #[serde(rename = "MemtableOperationsInMillions", deserialize_with = "text")]
    pub memtable_operations_in_millions: Option<String>,
    #[serde(rename = "MemtableFlushAfterMinutes", deserialize_with = "text")]
    pub memtable_flush_after_minutes: Option<String>,
    #[serde(rename = "ConcurrentReads", deserialize_with = "text")]
    pub concurrent_reads: Option<String>,
    #[serde(rename = "ConcurrentWrites", deserialize_with = "text")]
    pub concurrent_writes: Option<String>,
    #[serde(rename = "CommitLogSync", deserialize_with = "text")]
    pub commit_log_sync: Option<String>,
    #[serde(rename = "CommitLogSyncPeriodInMS", deserialize_with = "text")]
    pub commit_log_sync_period_in_ms: Option<String>,
    #[serde(rename = "CommitLogSyncBatchWindowInMS", deserialize_with = "text")]
    pub commit_log_sync_batch_window_in_ms: Option<String>,
    #[serde(rename = "GCGraceSeconds", deserialize_with = "text")]
    pub gc_grace_seconds: Option<String>,
    #[serde(rename = "DoConsistencyChecksBoolean", deserialize_with = "text")]
    pub do_consistency_checks_boolean: Option<String>,
    #[serde(rename = "SnapshotBeforeCompaction", deserialize_with = "text")]
    pub snapshot_before_compaction: Option<String>,
    // ilion's own elements.
    #[serde(rename = "PasswordMode", deserialize_with = "text")]
    pub password_mode: Option<String>,
    #[serde(rename = "ThriftMaxFrameSizeInMB", deserialize_with = "text")]
    pub thrift_max_frame_size_in_mb: Option<String>,
    #[serde(rename = "ThriftMaxMessageSizeInMB", deserialize_with = "text")]
    pub thrift_max_message_size_in_mb: Option<String>,
    #[serde(rename = "ThriftMaxNestingDepth", deserialize_with = "text")]
    pub thrift_max_nesting_depth: Option<String>,
    #[serde(rename = "ThriftMaxConnections", deserialize_with = "text")]
    pub thrift_max_connections: Option<String>,
    #[serde(rename = "ThriftIdleTimeoutInSeconds", deserialize_with = "text")]
    pub thrift_idle_timeout_in_seconds: Option<String>,
    #[serde(rename = "ThriftReadTimeoutInSeconds", deserialize_with = "text")]
    pub thrift_read_timeout_in_seconds: Option<String>,
    #[serde(rename = "StorageCacheSizeInMB", deserialize_with = "text")]
    pub storage_cache_size_in_mb: Option<String>,
    #[serde(rename = "AdminAddress", deserialize_with = "text")]
    pub admin_address: Option<String>,
    #[serde(rename = "AdminPort", deserialize_with = "text")]
    pub admin_port: Option<String>,
    #[serde(rename = "AdminToken", deserialize_with = "text")]
    pub admin_token: Option<String>,
    #[serde(rename = "StorageEngine", deserialize_with = "text")]
    pub storage_engine: Option<String>,
    #[serde(rename = "RedisCluster")]
    pub redis_cluster: Option<List<RedisClusterChild>>,
}

/// The children of a list element, in document order.
#[derive(Debug, Deserialize)]
pub(super) struct List<T> {
    #[serde(rename = "$value", default = "Vec::new")]
    pub items: Vec<T>,
}

/// A child of `<Keyspaces>`.
#[derive(Debug, Deserialize)]
pub(super) enum KeyspacesChild {
    Keyspace(RawKeyspace),
    #[serde(other)]
    Other,
}

/// A child of `<DataFileDirectories>`.
#[derive(Debug, Deserialize)]
pub(super) enum DataFileDirectoriesChild {
    #[serde(deserialize_with = "text")]
    DataFileDirectory(Option<String>),
    #[serde(other)]
    Other,
}

/// A child of `<Seeds>`.
#[derive(Debug, Deserialize)]
pub(super) enum SeedsChild {
    #[serde(deserialize_with = "text")]
    Seed(Option<String>),
    #[serde(other)]
    Other,
}

/// A child of `<RedisCluster>`.
#[derive(Debug, Deserialize)]
pub(super) enum RedisClusterChild {
    #[serde(deserialize_with = "text")]
    Seed(Option<String>),
    #[serde(deserialize_with = "text")]
    Namespace(Option<String>),
    #[serde(other)]
    Other,
}

/// One `<Keyspace Name="…">`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct RawKeyspace {
    #[serde(rename = "@Name", deserialize_with = "text")]
    pub name: Option<String>,
    #[serde(rename = "$value")]
    pub children: Vec<KeyspaceChild>,
}

/// A child of `<Keyspace>`; the scalar ones may appear once each, checked by the validator.
#[derive(Debug, Deserialize)]
pub(super) enum KeyspaceChild {
    #[serde(deserialize_with = "text")]
    ReplicaPlacementStrategy(Option<String>),
    #[serde(deserialize_with = "text")]
    ReplicationFactor(Option<String>),
    #[serde(deserialize_with = "text")]
    EndPointSnitch(Option<String>),
    ColumnFamily(Box<RawColumnFamily>),
    #[serde(other)]
    Other,
}

/// One `<ColumnFamily …/>`: its settings are attributes; `Comment` is a child element.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct RawColumnFamily {
    #[serde(rename = "@Name", deserialize_with = "text")]
    pub name: Option<String>,
    #[serde(rename = "@ColumnType", deserialize_with = "text")]
    pub column_type: Option<String>,
    #[serde(rename = "@CompareWith", deserialize_with = "text")]
    pub compare_with: Option<String>,
    #[serde(rename = "@CompareSubcolumnsWith", deserialize_with = "text")]
    pub compare_subcolumns_with: Option<String>,
    #[serde(rename = "@KeysCached", deserialize_with = "text")]
    pub keys_cached: Option<String>,
    #[serde(rename = "@RowsCached", deserialize_with = "text")]
    pub rows_cached: Option<String>,
    #[serde(rename = "@KeysCachedFraction", deserialize_with = "text")]
    pub keys_cached_fraction: Option<String>,
    #[serde(rename = "@RowCacheSavePeriodInSeconds", deserialize_with = "text")]
    pub row_cache_save_period_in_seconds: Option<String>,
    #[serde(rename = "@KeyCacheSavePeriodInSeconds", deserialize_with = "text")]
    pub key_cache_save_period_in_seconds: Option<String>,
    /// Kept untrimmed and even when empty: its mere presence is an error.
    #[serde(rename = "@ColumnSort")]
    pub column_sort: Option<String>,
    #[serde(rename = "$value")]
    pub children: Vec<ColumnFamilyChild>,
}

/// A child of `<ColumnFamily>`. The `Comment="…"` attribute is deliberately not read (0.6
/// ignored it too); only this child element sets the description.
#[derive(Debug, Deserialize)]
pub(super) enum ColumnFamilyChild {
    #[serde(deserialize_with = "text")]
    Comment(Option<String>),
    #[serde(other)]
    Other,
}

/// Reads element text or an attribute value: trimmed, and absent when empty.
fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let s = String::deserialize(deserializer)?;
    let trimmed = s.trim();
    Ok((!trimmed.is_empty()).then(|| trimmed.to_string()))
}

/// Parses the document. Syntax errors are reported with a line number; structural surprises
/// (a repeated top-level element, markup inside a value) name the element where possible.
pub(super) fn parse(text: &str) -> Result<RawStorage> {
    check_document(text)?;
    quick_xml::de::from_str(text).map_err(|e| match e {
        quick_xml::DeError::Custom(msg) => match duplicate_field(&msg) {
            Some(element) => Error::config(element, "appears more than once"),
            None => Error::config("Storage", msg),
        },
        quick_xml::DeError::UnexpectedStart(name) => Error::config(
            String::from_utf8_lossy(&name),
            "was found where a text value was expected",
        ),
        other => Error::config("Storage", format!("cannot be read: {other}")),
    })
}

/// The element named by serde's "duplicate field `X`" message, if that is what `msg` is.
fn duplicate_field(msg: &str) -> Option<&str> {
    msg.strip_prefix("duplicate field `")?.strip_suffix('`')
}

/// Checks well-formedness with positions (the serde layer reports none) and that the root
/// element is `<Storage>` (serde would accept any root name).
fn check_document(text: &str) -> Result<()> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut root_seen = false;
    loop {
        match reader.read_event() {
            Err(e) => {
                let line = line_of(text, reader.error_position());
                return Err(Error::config(
                    "Storage",
                    format!("storage-conf.xml is not well-formed XML at line {line}: {e}"),
                ));
            }
            Ok(Event::Start(start)) | Ok(Event::Empty(start)) if !root_seen => {
                root_seen = true;
                let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
                if name != "Storage" {
                    return Err(Error::config(
                        "Storage",
                        format!("the root element must be <Storage>, not <{name}>"),
                    ));
                }
            }
            Ok(Event::Eof) if !root_seen => {
                return Err(Error::config("Storage", "the document has no root element"));
            }
            Ok(Event::Eof) => return Ok(()),
            Ok(_) => {}
        }
    }
}

/// The 1-based line holding byte `offset` of `text`.
fn line_of(text: &str, offset: u64) -> usize {
    let end = usize::try_from(offset)
        .unwrap_or(usize::MAX)
        .min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}
