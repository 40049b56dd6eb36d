//! The JSON bodies of the admin API (`/api/…`), shared by the server and `ilion tool` so the
//! two cannot disagree. docs/admin.md lists the endpoints; durations are in the unit their
//! field name says, sizes in bytes.

use crate::cf::CfScan;
use crate::metrics::series::Point;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `GET /api/version`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Version {
    /// ilion's release.
    pub version: String,
    /// The Thrift API version `describe_version` reports.
    pub api_version: String,
}

/// `GET /api/info`: nodetool info.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Info {
    /// `<ClusterName>` of the configuration.
    pub cluster_name: String,
    /// ilion's release.
    pub version: String,
    /// This node's token on the ring, as the partitioner prints it.
    pub token: String,
    /// The partitioner's Java class name, as Cassandra names it.
    pub partitioner: String,
    /// Seconds since the epoch when this node started (Cassandra's generation number).
    pub generation: u64,
    /// Seconds since this node started.
    pub uptime_seconds: u64,
    /// Bytes of the data directory on disk, snapshots left out.
    pub load_bytes: u64,
    /// Bytes of every column family's keys and values (the write path's estimate).
    pub data_bytes: u64,
    /// Resident memory of the process in bytes (0 where it cannot be read).
    pub resident_memory_bytes: u64,
    /// The address the Thrift server listens on (`<ThriftAddress>`).
    pub thrift_address: String,
    /// True after `drain`: writes are refused until restart.
    pub drained: bool,
}

/// One line of `GET /api/ring`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RingEntry {
    /// The node's address: the Thrift or listen address, or 127.0.0.1 when both are
    /// unspecified.
    pub address: String,
    /// "Up" (a node that answers is up).
    pub status: String,
    /// "Normal", or "Drained" after `drain`.
    pub state: String,
    /// Bytes of the data directory on disk, snapshots left out.
    pub load_bytes: u64,
    /// Share of the ring this node owns, in percent (100: it is the only node).
    pub owns_percent: f64,
    /// The node's token, as the partitioner prints it.
    pub token: String,
}

/// One column family of `GET /api/cfstats`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CfStats {
    /// The CF's names, kind and what a scan found in it now (its fields sit at the top level
    /// of the JSON object).
    #[serde(flatten)]
    pub scan: CfScan,
    /// Row reads since start (a multiget of n keys is n reads).
    pub reads: u64,
    /// Row mutations applied since start.
    pub writes: u64,
    /// Estimated median read latency in milliseconds; None before the first read.
    pub read_p50_ms: Option<f64>,
    /// Estimated 99th-percentile read latency in milliseconds; None before the first read.
    pub read_p99_ms: Option<f64>,
    /// Estimated median write latency in milliseconds; None before the first write.
    pub write_p50_ms: Option<f64>,
    /// Estimated 99th-percentile write latency in milliseconds; None before the first write.
    pub write_p99_ms: Option<f64>,
    /// Rows returned by reads since start.
    pub rows_read: u64,
    /// Columns (or super columns) returned by reads since start.
    pub columns_read: u64,
    /// Rows written since start.
    pub rows_written: u64,
    /// Columns inserted since start (deletions not counted).
    pub columns_written: u64,
}

/// `GET /api/tpstats`: what the node is doing now.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TpStats {
    /// Thrift connections open now.
    pub connections: u64,
    /// Thrift connections accepted since start.
    pub connections_total: u64,
    /// Thrift calls being processed now.
    pub calls_in_flight: u64,
    /// Thrift calls answered since start.
    pub calls_completed: u64,
    /// Replies held until their writes are durable.
    pub replies_waiting_for_sync: u64,
    /// Syncs of the store to disk since start, failed ones included.
    pub syncs: u64,
    /// Syncs that returned an error.
    pub sync_failures: u64,
    /// Estimated 99th-percentile sync time in milliseconds; None before the first sync.
    pub sync_p99_ms: Option<f64>,
}

/// One bucket of `GET /api/cfhistograms/KS/CF`: operations that took at most `upper_us`
/// microseconds (and more than the previous bucket's); the last has no upper bound.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HistogramRow {
    /// The bucket's upper bound in microseconds; None for the last, unbounded one.
    pub upper_us: Option<f64>,
    /// Row reads whose latency fell in this bucket.
    pub reads: u64,
    /// Row mutations whose latency fell in this bucket.
    pub writes: u64,
}

/// `GET /api/cfhistograms/KS/CF`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CfHistograms {
    /// The keyspace the column family belongs to.
    pub keyspace: String,
    /// The column family's name.
    pub cf: String,
    /// Latency buckets from the fastest up, the unbounded one last.
    pub buckets: Vec<HistogramRow>,
}

/// One snapshot of `GET /api/snapshots`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Snapshot {
    /// The snapshot's name: the directory under `snapshots/`.
    pub name: String,
    /// The snapshot's directory on the node.
    pub path: String,
    /// Bytes of the snapshot's files on disk.
    pub bytes: u64,
}

/// The body of `POST /api/flush` and `POST /api/compact`: a keyspace and some of its CFs,
/// or everything.
pub use crate::cf::CfSelection as Selection;

/// The body of `POST /api/snapshot` and `POST /api/clearsnapshot`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct SnapshotName {
    /// The snapshot's name. None means the time in milliseconds since the epoch when
    /// taking one, and every snapshot when clearing.
    #[serde(default)]
    pub name: Option<String>,
}

/// What an action did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Done {
    /// One sentence for people.
    pub message: String,
    /// Tombstones removed (`compact`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tombstones_purged: Option<u64>,
    /// The snapshot written (`snapshot`) or removed (`clearsnapshot`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapshots: Vec<Snapshot>,
}

/// An error: HTTP status 400 (bad request), 401 (token), 404, 409 (conflict) or 500.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ApiError {
    /// What went wrong, in one sentence.
    pub error: String,
}

/// One column family on the status page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StatusCf {
    /// The column family's name.
    pub name: String,
    /// "Standard" or "Super".
    pub column_type: String,
    /// Bytes of the CF's keys and values, estimated on the write path.
    pub bytes: u64,
    /// Rows with at least one live column, estimated on the write path.
    pub live_rows: u64,
    /// Row reads since start.
    pub reads: u64,
    /// Row mutations applied since start.
    pub writes: u64,
}

/// One keyspace on the status page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StatusKeyspace {
    /// The keyspace's name.
    pub name: String,
    /// Its column families.
    pub cfs: Vec<StatusCf>,
}

/// `GET /api/status`: everything the status page shows.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Status {
    /// `<ClusterName>` of the configuration.
    pub cluster_name: String,
    /// ilion's release.
    pub version: String,
    /// Seconds since this node started.
    pub uptime_seconds: u64,
    /// True after `drain`: writes are refused until restart.
    pub drained: bool,
    /// Bytes of the data directory on disk, snapshots left out.
    pub load_bytes: u64,
    /// Resident memory of the process in bytes (0 where it cannot be read).
    pub resident_memory_bytes: u64,
    /// Thrift connections open now.
    pub connections: u64,
    /// Thrift bytes received since start.
    pub bytes_received: u64,
    /// Thrift bytes sent since start.
    pub bytes_sent: u64,
    /// Thrift calls answered since start.
    pub requests_total: u64,
    /// Calls per Thrift method.
    pub requests: BTreeMap<String, u64>,
    /// Exceptions, keyed `method.exception`.
    pub errors: BTreeMap<String, u64>,
    /// The keyspaces and their column families, the system keyspace left out.
    pub keyspaces: Vec<StatusKeyspace>,
    /// Seconds between chart points.
    pub sample_seconds: u64,
    /// The recent samples the page charts, oldest first.
    pub series: Vec<Point>,
}
