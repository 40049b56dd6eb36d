//! The JSON bodies of the admin API (`/api/…`), shared by the server and `ilion tool` so the
//! two cannot disagree. docs/admin.md lists the endpoints; durations are in the unit their
//! field name says, sizes in bytes.

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
    pub cluster_name: String,
    pub version: String,
    pub token: String,
    pub partitioner: String,
    /// Seconds since the epoch when this node started (Cassandra's generation number).
    pub generation: u64,
    pub uptime_seconds: u64,
    /// Bytes of the data directory on disk, snapshots left out.
    pub load_bytes: u64,
    /// Bytes of every column family's keys and values (from the last scan).
    pub data_bytes: u64,
    pub resident_memory_bytes: u64,
    pub thrift_address: String,
    pub drained: bool,
}

/// One line of `GET /api/ring`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RingEntry {
    pub address: String,
    pub status: String,
    pub state: String,
    pub load_bytes: u64,
    pub owns_percent: f64,
    pub token: String,
}

/// One column family of `GET /api/cfstats`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CfStats {
    pub keyspace: String,
    pub cf: String,
    pub column_type: String,
    /// Rows with a live column, live columns and tombstones, as a scan found them now.
    pub live_rows: u64,
    pub live_columns: u64,
    pub tombstones: u64,
    pub bytes: u64,
    pub reads: u64,
    pub writes: u64,
    pub read_p50_ms: Option<f64>,
    pub read_p99_ms: Option<f64>,
    pub write_p50_ms: Option<f64>,
    pub write_p99_ms: Option<f64>,
    pub rows_read: u64,
    pub columns_read: u64,
    pub rows_written: u64,
    pub columns_written: u64,
}

/// `GET /api/tpstats`: what the node is doing now.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TpStats {
    pub connections: u64,
    pub connections_total: u64,
    pub calls_in_flight: u64,
    pub calls_completed: u64,
    pub replies_waiting_for_sync: u64,
    pub syncs: u64,
    pub sync_failures: u64,
    pub sync_p99_ms: Option<f64>,
}

/// One bucket of `GET /api/cfhistograms/KS/CF`: operations that took at most `upper_us`
/// microseconds (and more than the previous bucket's); the last has no upper bound.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HistogramRow {
    pub upper_us: Option<f64>,
    pub reads: u64,
    pub writes: u64,
}

/// `GET /api/cfhistograms/KS/CF`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CfHistograms {
    pub keyspace: String,
    pub cf: String,
    pub buckets: Vec<HistogramRow>,
}

/// One snapshot of `GET /api/snapshots`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Snapshot {
    pub name: String,
    pub path: String,
    pub bytes: u64,
}

/// The body of `POST /api/flush` and `POST /api/compact`: a keyspace and some of its CFs,
/// or everything.
pub use crate::cf::CfSelection as Selection;

/// The body of `POST /api/snapshot` and `POST /api/clearsnapshot`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct SnapshotName {
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
    pub error: String,
}

/// One column family on the status page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StatusCf {
    pub name: String,
    pub column_type: String,
    pub bytes: u64,
    pub live_rows: u64,
    pub reads: u64,
    pub writes: u64,
}

/// One keyspace on the status page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StatusKeyspace {
    pub name: String,
    pub cfs: Vec<StatusCf>,
}

/// `GET /api/status`: everything the status page shows.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Status {
    pub cluster_name: String,
    pub version: String,
    pub uptime_seconds: u64,
    pub drained: bool,
    pub load_bytes: u64,
    pub resident_memory_bytes: u64,
    pub connections: u64,
    pub bytes_received: u64,
    pub bytes_sent: u64,
    pub requests_total: u64,
    /// Calls per Thrift method.
    pub requests: BTreeMap<String, u64>,
    /// Exceptions, keyed `method.exception`.
    pub errors: BTreeMap<String, u64>,
    pub keyspaces: Vec<StatusKeyspace>,
    /// Seconds between chart points.
    pub sample_seconds: u64,
    pub series: Vec<Point>,
}
