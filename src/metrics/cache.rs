//! Per-thread caches of labelled metric handles. Looking a label set up in the registry
//! takes a shared lock and a reference count on every call; the request path instead finds
//! its method's or column family's handles in a map owned by its thread and only touches
//! the handles' own atomics. Label sets come from the IDL's methods and the configured
//! schema, so the maps stay small; they hash with foldhash, as every call looks them up.

use super::get;
use foldhash::fast::RandomState;
use prometheus::{Histogram, IntCounter};
use std::cell::RefCell;
use std::collections::HashMap;

/// A Thrift method's handles.
pub(super) struct MethodHandles {
    pub requests: IntCounter,
    pub seconds: Histogram,
}

/// A column family's handles.
pub(super) struct CfHandles {
    pub reads: IntCounter,
    pub writes: IntCounter,
    pub read_seconds: Histogram,
    pub write_seconds: Histogram,
    pub rows_read: IntCounter,
    pub columns_read: IntCounter,
    pub rows_written: IntCounter,
    pub columns_written: IntCounter,
}

type Map<K, V> = HashMap<K, V, RandomState>;

thread_local! {
    static METHODS: RefCell<Map<&'static str, MethodHandles>> = RefCell::new(Map::default());
    static CFS: RefCell<Map<String, Map<String, CfHandles>>> = RefCell::new(Map::default());
}

/// Runs `f` with `method`'s handles.
pub(super) fn with_method(method: &'static str, f: impl FnOnce(&MethodHandles)) {
    METHODS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let handles = cache.entry(method).or_insert_with(|| {
            let m = get();
            MethodHandles {
                requests: m.requests.with_label_values(&[method]),
                seconds: m.request_seconds.with_label_values(&[method]),
            }
        });
        f(handles);
    });
}

/// Runs `f` with the handles of `keyspace.cf`.
pub(super) fn with_cf(keyspace: &str, cf: &str, f: impl FnOnce(&CfHandles)) {
    CFS.with(|cache| {
        let mut cache = cache.borrow_mut();
        // One lookup per level once the handles are cached; the names are copied only once.
        if let Some(handles) = cache.get(keyspace).and_then(|by_cf| by_cf.get(cf)) {
            return f(handles);
        }
        let handles = cache
            .entry(keyspace.to_string())
            .or_default()
            .entry(cf.to_string())
            .or_insert_with(|| lookup(keyspace, cf));
        f(handles);
    });
}

fn lookup(keyspace: &str, cf: &str) -> CfHandles {
    let m = get();
    let labels = [keyspace, cf];
    CfHandles {
        reads: m.cf_reads.with_label_values(&labels),
        writes: m.cf_writes.with_label_values(&labels),
        read_seconds: m.cf_read_seconds.with_label_values(&labels),
        write_seconds: m.cf_write_seconds.with_label_values(&labels),
        rows_read: m.rows_read.with_label_values(&labels),
        columns_read: m.columns_read.with_label_values(&labels),
        rows_written: m.rows_written.with_label_values(&labels),
        columns_written: m.columns_written.with_label_values(&labels),
    }
}
