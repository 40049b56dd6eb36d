//! `/metrics` after real Thrift calls: per-method and per-CF counts, latency histograms,
//! errors by exception, connections, bytes, syncs, and the gauges read at scrape time.

use crate::harness::{insert_rows, serial, Server, KS, ONE};
use ilion::client::TCassandraSyncClient;
use ilion::protocol::{ColumnParent, ColumnPath, SlicePredicate, SliceRange};

const CF: [(&str, &str); 2] = [("keyspace", KS), ("cf", "Standard1")];

#[test]
fn thrift_traffic_is_counted_per_method_and_per_column_family() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    let insert = [("method", "insert")];
    let m = |name: &str, labels: &[(&str, &str)]| server.metric(name, labels);
    // The counters compared before and after the calls, in the order the deltas are checked.
    let read = || {
        [
            m("ilion_requests_total", &insert),
            m("ilion_request_duration_seconds_count", &insert),
            m("ilion_cf_writes_total", &CF),
            m("ilion_rows_written_total", &CF),
            m("ilion_columns_written_total", &CF),
            m("ilion_cf_reads_total", &CF),
            m("ilion_columns_read_total", &CF),
            m("ilion_syncs_total", &[]),
            m("ilion_connections_total", &[]),
            m("ilion_bytes_received_total", &[]),
            m("ilion_bytes_sent_total", &[]),
        ]
    };
    let before = read();

    let mut c = server.client();
    insert_rows(&mut c, "row", 7);
    let predicate = SlicePredicate {
        column_names: None,
        slice_range: Some(SliceRange::new(vec![], vec![], false, 100)),
    };
    let parent = ColumnParent::new("Standard1".into(), None);
    let got = c.get_slice(KS.into(), "row3".into(), parent, predicate, ONE);
    assert_eq!(got.expect("get_slice").len(), 1);

    let after = read();
    let delta: Vec<f64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    assert_eq!(
        &delta[..7],
        &[7.0, 7.0, 7.0, 7.0, 7.0, 1.0, 1.0],
        "{delta:?}"
    );
    assert!(
        delta[7] >= 1.0,
        "batch mode syncs before acknowledging: {delta:?}"
    );
    assert_eq!(delta[8], 1.0, "one connection accepted");
    assert!(
        delta[9] > 0.0 && delta[10] > 0.0,
        "bytes both ways: {delta:?}"
    );
    assert!(
        m("ilion_connections", &[]) >= 1.0,
        "the client is still connected"
    );
    let bucket = [("method", "insert"), ("le", "+Inf")];
    assert!(m("ilion_request_duration_seconds_bucket", &bucket) >= 7.0);
    assert!(m("ilion_sync_duration_seconds_count", &[]) >= 1.0);
}

#[test]
fn errors_are_counted_by_exception_and_gauges_are_read_at_scrape_time() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    let invalid = [
        ("method", "insert"),
        ("exception", "InvalidRequestException"),
    ];
    let not_found = [("method", "get"), ("exception", "NotFoundException")];
    let errors = || {
        (
            server.metric("ilion_request_errors_total", &invalid),
            server.metric("ilion_request_errors_total", &not_found),
        )
    };
    let before = errors();
    let mut c = server.client();
    let nowhere = ColumnPath::new("NoSuchCF".into(), None, b"c".to_vec());
    assert!(c
        .insert(KS.into(), "k".into(), nowhere, b"v".to_vec(), 1, ONE)
        .is_err());
    let missing = ColumnPath::new("Standard1".into(), None, b"absent".to_vec());
    assert!(c.get(KS.into(), "k".into(), missing, ONE).is_err());
    let after = errors();
    assert_eq!((after.0 - before.0, after.1 - before.1), (1.0, 1.0));

    insert_rows(&mut c, "g", 50);
    assert!(server.metric("ilion_data_bytes", &[]) > 0.0);
    assert!(server.metric("ilion_resident_memory_bytes", &[]) > 1e6);
    let (_, text) = server.get("/metrics");
    assert!(text.contains("\nilion_uptime_seconds "), "{text}");
    assert!(text.contains("# TYPE ilion_cf_read_latency_seconds histogram"));
}
