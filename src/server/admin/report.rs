//! What the admin endpoints answer, built from the node's column families, its
//! configuration and the metrics registry — kept apart from the HTTP routing so every answer
//! is a plain function of the node. All of these block (scans, syncs, copies): the routes
//! run them on tokio's blocking pool.

use super::api::{
    CfHistograms, CfStats, Done, HistogramRow, Info, RingEntry, Selection, Snapshot, Status,
    StatusCf, StatusKeyspace, TpStats,
};
use crate::cf::{CfScan, CfSelection, Db};
use crate::config::{Config, SYSTEM_KEYSPACE};
use crate::error::Error;
use crate::metrics::{self, read, series};
use crate::storage::snapshot::dir_bytes;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// The folder inside the data directory that holds snapshots.
pub const SNAPSHOTS_DIR: &str = "snapshots";

/// An answer that is not a success: the HTTP status and the reason.
#[derive(Debug)]
pub struct Failure {
    pub status: u16,
    pub message: String,
}

impl Failure {
    pub fn new(status: u16, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        match e {
            Error::InvalidRequest(why) => Failure::new(400, why),
            other => Failure::new(500, other.to_string()),
        }
    }
}

pub type Answer<T> = Result<T, Failure>;

/// The node as the admin endpoint sees it.
pub struct Node {
    pub db: Arc<Db>,
    pub config: Arc<Config>,
    started: Instant,
    generation: u64,
    pub series: series::Series,
}

fn ms(seconds: Option<f64>) -> Option<f64> {
    seconds.map(|s| s * 1000.0)
}

impl Node {
    pub fn new(db: Arc<Db>, config: Arc<Config>) -> Node {
        let generation = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Node {
            db,
            config,
            started: Instant::now(),
            generation,
            series: series::Series::default(),
        }
    }

    fn data_dir(&self) -> PathBuf {
        self.config
            .data_file_directories
            .first()
            .cloned()
            .unwrap_or_default()
    }

    fn snapshots_dir(&self) -> PathBuf {
        self.data_dir().join(SNAPSHOTS_DIR)
    }

    fn load_bytes(&self) -> u64 {
        dir_bytes(&self.data_dir(), Some(SNAPSHOTS_DIR))
    }

    /// Every CF's statistics: a fresh scan when `fresh` (`cfstats`), otherwise the
    /// estimates the write path keeps, which cost no scan (`cf::Db::estimated_stats`).
    fn scans(&self, fresh: bool) -> Answer<Vec<CfScan>> {
        let scans = match fresh {
            true => self.db.scan_stats(&CfSelection::default())?,
            false => self.db.estimated_stats()?,
        };
        metrics::cf_scanned(&scans);
        Ok(scans)
    }

    /// The registry in the Prometheus text format, gauges refreshed.
    pub fn metrics_text(&self) -> Answer<String> {
        self.scans(false)?;
        metrics::refresh_gauges(self.load_bytes(), self.started.elapsed());
        Ok(metrics::render())
    }

    pub fn info(&self) -> Answer<Info> {
        let data_bytes = self.scans(false)?.iter().map(|s| s.bytes).sum();
        Ok(Info {
            cluster_name: self.config.cluster_name.clone(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            token: self.db.token().to_string(),
            partitioner: self.db.partitioner().class_name(),
            generation: self.generation,
            uptime_seconds: self.started.elapsed().as_secs(),
            load_bytes: self.load_bytes(),
            data_bytes,
            resident_memory_bytes: read::resident_bytes().unwrap_or(0),
            thrift_address: self.config.thrift_address.to_string(),
            drained: self.db.is_drained(),
        })
    }

    pub fn ring(&self) -> Answer<Vec<RingEntry>> {
        let address = [self.config.thrift_address, self.config.listen_address]
            .into_iter()
            .find(|ip| !ip.is_unspecified())
            .map(|ip| ip.to_string())
            .unwrap_or_else(|| "127.0.0.1".into());
        Ok(vec![RingEntry {
            address,
            status: "Up".into(),
            state: if self.db.is_drained() {
                "Drained"
            } else {
                "Normal"
            }
            .into(),
            load_bytes: self.load_bytes(),
            owns_percent: 100.0,
            token: self.db.token().to_string(),
        }])
    }

    /// Every column family's statistics, from a fresh scan.
    pub fn cfstats(&self) -> Answer<Vec<CfStats>> {
        let scans = self.scans(true)?;
        let per_cf = |name| read::counters_by(name, &["keyspace", "cf"]);
        let (reads, writes) = (
            per_cf("ilion_cf_reads_total"),
            per_cf("ilion_cf_writes_total"),
        );
        let (rows_read, cols_read) = (
            per_cf("ilion_rows_read_total"),
            per_cf("ilion_columns_read_total"),
        );
        let (rows_written, cols_written) = (
            per_cf("ilion_rows_written_total"),
            per_cf("ilion_columns_written_total"),
        );
        let read_h = read::histograms_by("ilion_cf_read_latency_seconds", &["keyspace", "cf"]);
        let write_h = read::histograms_by("ilion_cf_write_latency_seconds", &["keyspace", "cf"]);
        let get = |m: &BTreeMap<String, u64>, k: &str| m.get(k).copied().unwrap_or(0);
        let q = |m: &BTreeMap<String, read::Buckets>, k: &str, q| {
            ms(m.get(k).and_then(|b| b.quantile(q)))
        };
        Ok(scans
            .into_iter()
            .map(|s| {
                let k = format!("{}.{}", s.keyspace, s.cf);
                CfStats {
                    reads: get(&reads, &k),
                    writes: get(&writes, &k),
                    read_p50_ms: q(&read_h, &k, 0.5),
                    read_p99_ms: q(&read_h, &k, 0.99),
                    write_p50_ms: q(&write_h, &k, 0.5),
                    write_p99_ms: q(&write_h, &k, 0.99),
                    rows_read: get(&rows_read, &k),
                    columns_read: get(&cols_read, &k),
                    rows_written: get(&rows_written, &k),
                    columns_written: get(&cols_written, &k),
                    scan: s,
                }
            })
            .collect())
    }

    pub fn tpstats(&self) -> TpStats {
        let m = metrics::get();
        let gauge = |g: &prometheus::IntGauge| g.get().max(0) as u64;
        TpStats {
            connections: gauge(&m.connections),
            connections_total: m.connections_total.get(),
            calls_in_flight: gauge(&m.in_flight),
            calls_completed: read::counter_total("ilion_requests_total"),
            replies_waiting_for_sync: gauge(&m.waiting_syncs),
            syncs: m.syncs.get(),
            sync_failures: m.sync_failures.get(),
            sync_p99_ms: ms(read::syncs().quantile(0.99)),
        }
    }

    pub fn cfhistograms(&self, keyspace: &str, cf: &str) -> Answer<CfHistograms> {
        if self.db.schema().cf(keyspace, cf).is_none() || keyspace == SYSTEM_KEYSPACE {
            return Err(Failure::new(
                404,
                format!("no column family {keyspace}.{cf}"),
            ));
        }
        let key = format!("{keyspace}.{cf}");
        let labels = ["keyspace", "cf"];
        let pick = |name| {
            read::histograms_by(name, &labels)
                .remove(&key)
                .unwrap_or_default()
        };
        let (reads, writes) = (
            pick("ilion_cf_read_latency_seconds"),
            pick("ilion_cf_write_latency_seconds"),
        );
        // A CF not read or written yet has no histogram: show the empty buckets.
        let bounds = match (reads.bounds.is_empty(), writes.bounds.is_empty()) {
            (false, _) => reads.bounds.clone(),
            (true, false) => writes.bounds.clone(),
            (true, true) => metrics::latency_buckets(),
        };
        let at = |b: &read::Buckets, i: usize| b.counts.get(i).copied().unwrap_or(0);
        let mut buckets: Vec<HistogramRow> = bounds
            .iter()
            .enumerate()
            .map(|(i, bound)| HistogramRow {
                upper_us: Some(bound * 1e6),
                reads: at(&reads, i),
                writes: at(&writes, i),
            })
            .collect();
        buckets.push(HistogramRow {
            upper_us: None,
            reads: reads.overflow,
            writes: writes.overflow,
        });
        Ok(CfHistograms {
            keyspace: keyspace.into(),
            cf: cf.into(),
            buckets,
        })
    }

    pub fn status(&self) -> Answer<Status> {
        let scans = self.scans(false)?;
        let m = metrics::get();
        let requests = read::counters_by("ilion_requests_total", &["method"]);
        let cf_counts = |name| read::counters_by(name, &["keyspace", "cf"]);
        let (reads, writes) = (
            cf_counts("ilion_cf_reads_total"),
            cf_counts("ilion_cf_writes_total"),
        );
        let mut keyspaces: Vec<StatusKeyspace> = Vec::new();
        for s in scans.into_iter().filter(|s| s.keyspace != SYSTEM_KEYSPACE) {
            let k = format!("{}.{}", s.keyspace, s.cf);
            let cf = StatusCf {
                reads: reads.get(&k).copied().unwrap_or(0),
                writes: writes.get(&k).copied().unwrap_or(0),
                name: s.cf,
                column_type: s.column_type,
                bytes: s.bytes,
                live_rows: s.live_rows,
            };
            match keyspaces.last_mut() {
                Some(ks) if ks.name == s.keyspace => ks.cfs.push(cf),
                _ => keyspaces.push(StatusKeyspace {
                    name: s.keyspace,
                    cfs: vec![cf],
                }),
            }
        }
        Ok(Status {
            cluster_name: self.config.cluster_name.clone(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            uptime_seconds: self.started.elapsed().as_secs(),
            drained: self.db.is_drained(),
            load_bytes: self.load_bytes(),
            resident_memory_bytes: read::resident_bytes().unwrap_or(0),
            connections: m.connections.get().max(0) as u64,
            bytes_received: m.bytes_in.get(),
            bytes_sent: m.bytes_out.get(),
            requests_total: requests.values().sum(),
            requests,
            errors: read::counters_by("ilion_request_errors_total", &["method", "exception"]),
            keyspaces,
            sample_seconds: series::SAMPLE_SECONDS,
            series: self.series.points(),
        })
    }

    pub fn flush(&self, selection: &Selection) -> Answer<Done> {
        self.db.check_selection(selection)?;
        self.db.sync()?;
        Ok(Done {
            message: "everything written so far is durable".into(),
            ..Done::default()
        })
    }

    pub fn compact(&self, selection: &Selection) -> Answer<Done> {
        let purged = self.db.compact(selection)?;
        Ok(Done {
            message: format!("purged {purged} tombstones older than GCGraceSeconds"),
            tombstones_purged: Some(purged as u64),
            ..Done::default()
        })
    }

    pub fn drain(&self) -> Answer<Done> {
        self.db.drain()?;
        Ok(Done {
            message: "drained: writes are refused until restart; everything is durable".into(),
            ..Done::default()
        })
    }

    pub fn snapshots(&self) -> Answer<Vec<Snapshot>> {
        super::snapshots::list(&self.snapshots_dir())
    }

    pub fn snapshot(&self, name: Option<&str>) -> Answer<Done> {
        let taken = super::snapshots::take(&self.db, &self.snapshots_dir(), name)?;
        Ok(Done {
            message: format!("snapshot {} written to {}", taken.name, taken.path),
            snapshots: vec![taken],
            ..Done::default()
        })
    }

    pub fn clear_snapshot(&self, name: Option<&str>) -> Answer<Done> {
        let removed = super::snapshots::clear(&self.snapshots_dir(), name)?;
        Ok(Done {
            message: format!("removed {} snapshot(s)", removed.len()),
            snapshots: removed,
            ..Done::default()
        })
    }
}
