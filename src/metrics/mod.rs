//! The node's metrics: one Prometheus registry (process-wide, as Prometheus clients keep
//! theirs: one ilion node per process) and the one-line recording helpers the request path
//! calls — a Thrift call, its error, a connection, bytes on the wire, a row read or written
//! per column family, a sync, purged tombstones. The admin endpoint renders the registry as
//! Prometheus text; `read` turns the same counters into the figures of the status page and
//! `ilion tool`, so every number shown anywhere is the one `/metrics` exports.

mod cache;
pub mod read;
pub mod series;

use crate::protocol::{
    AuthenticationException, AuthorizationException, InvalidRequestException, NotFoundException,
    ThriftError, UnavailableException,
};
use prometheus::{
    Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry,
};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// Latency bucket bounds in seconds: 10 µs doubling up to about 21 s.
pub fn latency_buckets() -> Vec<f64> {
    (0..22).map(|i| 10e-6 * f64::powi(2.0, i)).collect()
}

/// Every metric ilion exports (names in docs/admin.md).
pub struct Metrics {
    /// The registry every metric below is registered in; `/metrics` renders it.
    pub registry: Registry,
    /// `ilion_requests_total{method}`: Thrift calls answered.
    pub requests: IntCounterVec,
    /// `ilion_request_errors_total{method,exception}`: calls answered with an exception.
    pub request_errors: IntCounterVec,
    /// `ilion_request_duration_seconds{method}`: time to process a call (before any wait for
    /// durability, which `ilion_sync_duration_seconds` measures).
    pub request_seconds: HistogramVec,
    /// `ilion_cf_reads_total{keyspace,cf}`: row reads (a multiget of n keys is n reads).
    pub cf_reads: IntCounterVec,
    /// `ilion_cf_writes_total{keyspace,cf}`: row mutations applied.
    pub cf_writes: IntCounterVec,
    /// `ilion_cf_read_latency_seconds{keyspace,cf}`.
    pub cf_read_seconds: HistogramVec,
    /// `ilion_cf_write_latency_seconds{keyspace,cf}`.
    pub cf_write_seconds: HistogramVec,
    /// `ilion_rows_read_total{keyspace,cf}`: rows returned by reads.
    pub rows_read: IntCounterVec,
    /// `ilion_columns_read_total{keyspace,cf}`: columns (or super columns) returned by reads.
    pub columns_read: IntCounterVec,
    /// `ilion_rows_written_total{keyspace,cf}`: rows written, one per CF a mutation touched.
    pub rows_written: IntCounterVec,
    /// `ilion_columns_written_total{keyspace,cf}`: columns inserted (deletions are not
    /// counted as columns).
    pub columns_written: IntCounterVec,
    /// `ilion_tombstones_purged_total`.
    pub tombstones_purged: IntCounter,
    /// `ilion_syncs_total`: syncs of the store to disk, failed ones included.
    pub syncs: IntCounter,
    /// `ilion_sync_failures_total`: syncs that returned an error.
    pub sync_failures: IntCounter,
    /// `ilion_sync_duration_seconds`: time of one sync.
    pub sync_seconds: Histogram,
    /// `ilion_connections`: Thrift connections open now.
    pub connections: IntGauge,
    /// `ilion_connections_total`: Thrift connections accepted since start.
    pub connections_total: IntCounter,
    /// `ilion_bytes_received_total`: Thrift bytes read from clients.
    pub bytes_in: IntCounter,
    /// `ilion_bytes_sent_total`: Thrift bytes of replies to clients.
    pub bytes_out: IntCounter,
    /// `ilion_calls_in_flight`: calls being processed now.
    pub in_flight: IntGauge,
    /// `ilion_replies_waiting_for_sync`: replies held until their writes are durable.
    pub waiting_syncs: IntGauge,
    /// `ilion_data_bytes`: bytes of the data directory on disk, snapshots left out; set
    /// when scraped.
    pub data_bytes: IntGauge,
    /// `ilion_resident_memory_bytes`: the process's resident memory, set when scraped.
    pub rss_bytes: IntGauge,
    /// `ilion_uptime_seconds`: seconds since the node started, set when scraped.
    pub uptime_seconds: IntGauge,
    /// `ilion_cf_bytes{keyspace,cf}`: bytes of the CF's keys and values. This and the three
    /// gauges below are the write path's estimates (`cf::Db::estimated_stats`), or a fresh
    /// count after `ilion tool cfstats`; set when read.
    pub cf_bytes: IntGaugeVec,
    /// `ilion_cf_live_rows{keyspace,cf}`: rows with at least one live column.
    pub cf_live_rows: IntGaugeVec,
    /// `ilion_cf_live_columns{keyspace,cf}`: live columns (subcolumns in a Super CF).
    pub cf_live_columns: IntGaugeVec,
    /// `ilion_cf_tombstones{keyspace,cf}`: row, super-column and column tombstones stored.
    pub cf_tombstones: IntGaugeVec,
}

fn counter(registry: &Registry, name: &str, help: &str) -> IntCounter {
    let c = IntCounter::new(name, help).expect("valid metric");
    registry.register(Box::new(c.clone())).expect("unique");
    c
}

fn counter_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), labels).expect("valid metric");
    registry.register(Box::new(c.clone())).expect("unique");
    c
}

fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    let g = IntGauge::new(name, help).expect("valid metric");
    registry.register(Box::new(g.clone())).expect("unique");
    g
}

fn gauge_vec(registry: &Registry, name: &str, help: &str) -> IntGaugeVec {
    let g = IntGaugeVec::new(Opts::new(name, help), &["keyspace", "cf"]).expect("valid metric");
    registry.register(Box::new(g.clone())).expect("unique");
    g
}

fn histogram_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> HistogramVec {
    let opts = HistogramOpts::new(name, help).buckets(latency_buckets());
    let h = HistogramVec::new(opts, labels).expect("valid metric");
    registry.register(Box::new(h.clone())).expect("unique");
    h
}

impl Metrics {
    fn new() -> Metrics {
        let r = Registry::new();
        let cf = &["keyspace", "cf"];
        let sync_opts = HistogramOpts::new("ilion_sync_duration_seconds", "Time of one sync")
            .buckets(latency_buckets());
        let sync_seconds = Histogram::with_opts(sync_opts).expect("valid metric");
        r.register(Box::new(sync_seconds.clone())).expect("unique");
        Metrics {
            requests: counter_vec(&r, "ilion_requests_total", "Thrift calls", &["method"]),
            request_errors: counter_vec(
                &r,
                "ilion_request_errors_total",
                "Thrift calls answered with an exception",
                &["method", "exception"],
            ),
            request_seconds: histogram_vec(
                &r,
                "ilion_request_duration_seconds",
                "Time to process a Thrift call",
                &["method"],
            ),
            cf_reads: counter_vec(&r, "ilion_cf_reads_total", "Row reads", cf),
            cf_writes: counter_vec(&r, "ilion_cf_writes_total", "Row mutations", cf),
            cf_read_seconds: histogram_vec(
                &r,
                "ilion_cf_read_latency_seconds",
                "Row read latency",
                cf,
            ),
            cf_write_seconds: histogram_vec(
                &r,
                "ilion_cf_write_latency_seconds",
                "Row mutation latency",
                cf,
            ),
            rows_read: counter_vec(&r, "ilion_rows_read_total", "Rows returned", cf),
            columns_read: counter_vec(&r, "ilion_columns_read_total", "Columns returned", cf),
            rows_written: counter_vec(&r, "ilion_rows_written_total", "Rows written", cf),
            columns_written: counter_vec(&r, "ilion_columns_written_total", "Columns inserted", cf),
            tombstones_purged: counter(
                &r,
                "ilion_tombstones_purged_total",
                "Tombstones removed after GCGraceSeconds",
            ),
            syncs: counter(&r, "ilion_syncs_total", "Syncs of the store to disk"),
            sync_failures: counter(&r, "ilion_sync_failures_total", "Failed syncs"),
            sync_seconds,
            connections: gauge(&r, "ilion_connections", "Open Thrift connections"),
            connections_total: counter(
                &r,
                "ilion_connections_total",
                "Thrift connections accepted",
            ),
            bytes_in: counter(&r, "ilion_bytes_received_total", "Thrift bytes received"),
            bytes_out: counter(&r, "ilion_bytes_sent_total", "Thrift bytes sent"),
            in_flight: gauge(&r, "ilion_calls_in_flight", "Thrift calls being processed"),
            waiting_syncs: gauge(
                &r,
                "ilion_replies_waiting_for_sync",
                "Replies held until their writes are durable",
            ),
            data_bytes: gauge(&r, "ilion_data_bytes", "Bytes in the data directory"),
            rss_bytes: gauge(&r, "ilion_resident_memory_bytes", "Resident memory"),
            uptime_seconds: gauge(&r, "ilion_uptime_seconds", "Seconds since the node started"),
            cf_bytes: gauge_vec(&r, "ilion_cf_bytes", "Bytes of a CF's keys and values"),
            cf_live_rows: gauge_vec(&r, "ilion_cf_live_rows", "Rows with a live column"),
            cf_live_columns: gauge_vec(&r, "ilion_cf_live_columns", "Live columns"),
            cf_tombstones: gauge_vec(&r, "ilion_cf_tombstones", "Tombstones stored"),
            registry: r,
        }
    }
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// The process's metrics.
pub fn get() -> &'static Metrics {
    &METRICS
}

/// Counts one Thrift call and its time when dropped; while alive it is "in flight".
pub struct CallGuard {
    method: &'static str,
    started: Instant,
}

/// A call to the Thrift method `method` starts; the guard records it when the call ends.
/// Only the dispatcher calls this, with the name of a method it knows, so clients cannot
/// grow the label set.
pub fn call(method: &'static str) -> CallGuard {
    get().in_flight.inc();
    CallGuard {
        method,
        started: Instant::now(),
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        get().in_flight.dec();
        let seconds = self.started.elapsed().as_secs_f64();
        cache::with_method(self.method, |h| {
            h.requests.inc();
            h.seconds.observe(seconds);
        });
    }
}

/// The exception a Thrift client sees in `err`.
pub fn exception_name(err: &ThriftError) -> &'static str {
    match err {
        ThriftError::User(e) if e.is::<InvalidRequestException>() => "InvalidRequestException",
        ThriftError::User(e) if e.is::<NotFoundException>() => "NotFoundException",
        ThriftError::User(e) if e.is::<UnavailableException>() => "UnavailableException",
        ThriftError::User(e) if e.is::<AuthenticationException>() => "AuthenticationException",
        ThriftError::User(e) if e.is::<AuthorizationException>() => "AuthorizationException",
        ThriftError::Application(_) => "TApplicationException",
        _ => "TException",
    }
}

/// Counts the exception `method` answers with, and passes it on.
pub fn thrift_error(method: &str, err: ThriftError) -> ThriftError {
    get()
        .request_errors
        .with_label_values(&[method, exception_name(&err)])
        .inc();
    err
}

/// Keeps a connection counted as open while alive.
pub struct ConnectionGuard(());

/// A Thrift connection was accepted.
pub fn connection() -> ConnectionGuard {
    get().connections.inc();
    get().connections_total.inc();
    ConnectionGuard(())
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        get().connections.dec();
    }
}

/// Bytes read from a Thrift connection.
pub fn bytes_received(n: usize) {
    get().bytes_in.inc_by(n as u64);
}

/// Bytes of replies produced for a Thrift connection.
pub fn bytes_sent(n: usize) {
    get().bytes_out.inc_by(n as u64);
}

/// Keeps a reply counted as waiting for durability while alive.
pub struct SyncWaitGuard(());

/// A reply starts waiting for its writes to become durable.
pub fn waiting_for_sync() -> SyncWaitGuard {
    get().waiting_syncs.inc();
    SyncWaitGuard(())
}

impl Drop for SyncWaitGuard {
    fn drop(&mut self) {
        get().waiting_syncs.dec();
    }
}

/// Runs one sync of the store, counting it and its time.
pub fn timed_sync<T, E>(sync: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    let started = Instant::now();
    let result = sync();
    let m = get();
    m.syncs.inc();
    m.sync_seconds.observe(started.elapsed().as_secs_f64());
    if result.is_err() {
        m.sync_failures.inc();
    }
    result
}

/// A row mutation was applied: one write, one row and its inserted columns per column
/// family it touched (`groups`: each CF's name and how many columns it inserted), with the
/// time since `started`.
pub fn row_written<'a>(
    keyspace: &str,
    groups: impl IntoIterator<Item = (&'a str, usize)>,
    started: Instant,
) {
    let seconds = started.elapsed().as_secs_f64();
    // Each CF appears once in a mutation's groups.
    for (cf, columns) in groups {
        cache::with_cf(keyspace, cf, |h| {
            h.writes.inc();
            h.write_seconds.observe(seconds);
            h.rows_written.inc();
            h.columns_written.inc_by(columns as u64);
        });
    }
}

/// A read of `keyspace.cf` returned `rows` rows holding `columns` columns (or super
/// columns), taking the time since `started`.
pub fn rows_read(keyspace: &str, cf: &str, started: Instant, rows: usize, columns: usize) {
    let seconds = started.elapsed().as_secs_f64();
    cache::with_cf(keyspace, cf, |h| {
        h.reads.inc();
        h.read_seconds.observe(seconds);
        h.rows_read.inc_by(rows as u64);
        h.columns_read.inc_by(columns as u64);
    });
}

/// Expired tombstones were removed.
pub fn tombstones_purged(n: usize) {
    get().tombstones_purged.inc_by(n as u64);
}

/// Records what a scan of the column families found.
pub fn cf_scanned(stats: &[crate::cf::CfScan]) {
    let m = get();
    for s in stats {
        let labels = [s.keyspace.as_str(), s.cf.as_str()];
        m.cf_bytes.with_label_values(&labels).set(s.bytes as i64);
        m.cf_live_rows
            .with_label_values(&labels)
            .set(s.live_rows as i64);
        m.cf_live_columns
            .with_label_values(&labels)
            .set(s.live_columns as i64);
        m.cf_tombstones
            .with_label_values(&labels)
            .set(s.tombstones as i64);
    }
}

/// Refreshes the gauges that are read rather than counted.
pub fn refresh_gauges(data_bytes: u64, uptime: Duration) {
    let m = get();
    m.data_bytes.set(data_bytes as i64);
    m.uptime_seconds.set(uptime.as_secs() as i64);
    if let Some(rss) = read::resident_bytes() {
        m.rss_bytes.set(rss as i64);
    }
}

/// The registry in the Prometheus text exposition format.
pub fn render() -> String {
    let families = get().registry.gather();
    prometheus::TextEncoder::new()
        .encode_to_string(&families)
        .unwrap_or_else(|e| format!("# encoding failed: {e}\n"))
}
