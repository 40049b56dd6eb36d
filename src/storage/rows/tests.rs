//! The typed row API over a packed in-memory store: what is written comes back decoded, in
//! name order within bounds, grouped by super column, and rows come in ring order.

use super::*;
use crate::comparator::Comparator;
use crate::model::RowBounds;
use crate::storage::{MemoryEngine, Packing, SyncPolicy, MAX_CHUNK_BYTES};
use std::sync::Arc;
use std::time::Duration;

const P: Partitioner = Partitioner::OrderPreserving;
const STANDARD: CfLayout = CfLayout {
    id: 1,
    partitioner: P,
    comparator: Comparator::Bytes,
    subcomparator: None,
};
const SUPER: CfLayout = CfLayout {
    id: 2,
    partitioner: P,
    comparator: Comparator::Bytes,
    subcomparator: Some(Comparator::Long),
};

fn store() -> Store {
    let packing = Packing {
        partitioner: P,
        max_chunk: MAX_CHUNK_BYTES,
    };
    let policy = SyncPolicy::Periodic(Duration::from_secs(60));
    Store::new(Arc::new(MemoryEngine::new()), policy, packing).unwrap()
}

fn live(value: &[u8], timestamp: i64) -> Cell {
    Cell::Live {
        value: value.to_vec(),
        timestamp,
    }
}

fn dead(timestamp: i64, local_deletion_time: u32) -> Cell {
    Cell::Tombstone {
        timestamp,
        local_deletion_time,
    }
}

fn write(store: &Store, build: impl FnOnce(&mut RowWrites)) {
    let mut writes = RowWrites::default();
    build(&mut writes);
    store.row_session().write(writes).unwrap();
}

#[test]
fn cells_come_back_decoded_in_name_order_within_bounds() {
    let store = store();
    let row = EncodedRow::new(P, b"r");
    write(&store, |w| {
        for (name, cell) in [
            (&b"b"[..], live(b"2", 1)),
            (b"a", live(b"1", 1)),
            (b"c", dead(4, 9)),
        ] {
            w.put_cell(&STANDARD, &row, None, name, &cell);
        }
    });
    assert_eq!(
        store.get_cell(&STANDARD, &row, None, b"a").unwrap(),
        Some(live(b"1", 1))
    );
    assert_eq!(store.get_cell(&STANDARD, &row, None, b"z").unwrap(), None);
    let names = |range: NameRange<'_>| -> Vec<Vec<u8>> {
        let cells = store.cells(&STANDARD, &row, None, range);
        cells.map(|item| item.unwrap().0).collect()
    };
    assert_eq!(names(NameRange::all()), [b"a", b"b", b"c"]);
    let reversed = NameRange {
        start: b"b",
        finish: b"",
        reversed: true,
    };
    assert_eq!(names(reversed), [b"b", b"a"]);
    let middle = NameRange {
        start: b"b",
        finish: b"b",
        reversed: false,
    };
    assert_eq!(names(middle), [b"b"]);
}

#[test]
fn super_entries_group_by_super_column_and_markers_can_be_deleted() {
    let store = store();
    let row = EncodedRow::new(P, b"r");
    let marker = Marker::deleted(3, 7);
    write(&store, |w| {
        w.put_cell(
            &SUPER,
            &row,
            Some(b"y"),
            &2i64.to_be_bytes(),
            &live(b"v", 5),
        );
        w.put_cell(&SUPER, &row, Some(b"x"), &1i64.to_be_bytes(), &dead(1, 8));
        w.put_marker(&SUPER, &row, MarkerAt::Super(b"x"), &marker);
        w.put_marker(&SUPER, &row, MarkerAt::Row, &marker);
    });
    let entries: Vec<SuperEntry> = store
        .super_entries(&SUPER, &row, NameRange::all())
        .map(Result::unwrap)
        .collect();
    let expected = [
        SuperEntry::Marker {
            super_column: b"x".to_vec(),
        },
        SuperEntry::Cell {
            super_column: b"x".to_vec(),
            name: 1i64.to_be_bytes().to_vec(),
            cell: dead(1, 8),
        },
        SuperEntry::Cell {
            super_column: b"y".to_vec(),
            name: 2i64.to_be_bytes().to_vec(),
            cell: live(b"v", 5),
        },
    ];
    assert_eq!(entries, expected);
    let session = store.row_session();
    assert_eq!(
        session.get_marker(&SUPER, &row, MarkerAt::Row).unwrap(),
        Some(marker)
    );
    let under_x: Vec<StoredEntry> = session
        .entries_under(&SUPER, &row, MarkerAt::Super(b"x"))
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        under_x.len(),
        2,
        "the marker and the subcolumn of x, nothing of y"
    );
    let mut writes = RowWrites::default();
    under_x.iter().for_each(|entry| writes.delete(entry));
    session.write(writes).unwrap();
    let left = store.super_entries(&SUPER, &row, NameRange::all()).count();
    assert_eq!(left, 1);
}

#[test]
fn tombstones_are_purged_only_while_unchanged() {
    let store = store();
    let row = EncodedRow::new(P, b"r");
    write(&store, |w| {
        w.put_cell(&STANDARD, &row, None, b"live", &live(b"v", 1));
        w.put_cell(&STANDARD, &row, None, b"gone", &dead(1, 10));
        let marker = Marker::deleted(0, 11);
        w.put_marker(&STANDARD, &row, MarkerAt::Row, &marker);
    });
    let found: Vec<StoredEntry> = store.tombstones(&STANDARD).map(Result::unwrap).collect();
    assert_eq!(found.len(), 2, "the row marker and the column tombstone");
    let expiring = Cell::Expiring {
        value: b"e".to_vec(),
        timestamp: 1,
        ttl: 5,
        expires_at: 20,
    };
    let other = EncodedRow::new(P, b"s");
    write(&store, |w| {
        w.put_cell(&STANDARD, &other, None, b"ttl", &expiring);
    });
    assert_eq!(
        store.get_cell(&STANDARD, &other, None, b"ttl").unwrap(),
        Some(expiring.clone())
    );
    // An expiring column is a purge candidate too (it becomes a tombstone), live or not.
    let with_expiring: Vec<StoredEntry> = store.tombstones(&STANDARD).map(Result::unwrap).collect();
    assert_eq!(with_expiring.len(), 3);
    let candidate = with_expiring.iter().find(|t| t.row_key == b"s").unwrap();
    assert!(candidate.holds_value());
    assert!(candidate.is_live(19) && !candidate.is_live(20));
    assert_eq!(
        store.delete_unchanged(vec![candidate.clone()]).unwrap().0,
        1
    );
    assert!(found.iter().all(|t| t.row_key == b"r"));
    // Rewritten since it was read: stays.
    write(&store, |w| {
        w.put_cell(&STANDARD, &row, None, b"gone", &dead(2, 12));
    });
    assert_eq!(store.delete_unchanged(found).unwrap().0, 1);
    assert_eq!(store.tombstones(&STANDARD).count(), 1);
}

#[test]
fn rows_come_in_ring_order_within_key_bounds() {
    let store = store();
    for key in ["c", "a", "b", "d"] {
        let row = EncodedRow::new(P, key.as_bytes());
        write(&store, |w| {
            w.put_cell(&STANDARD, &row, None, b"n", &live(b"v", 1));
        });
    }
    // Another CF's rows are not this one's.
    let other = EncodedRow::new(P, b"bb");
    write(&store, |w| {
        w.put_cell(&SUPER, &other, Some(b"s"), &[0; 8], &live(b"v", 1));
    });
    let keys = |start: &str, end: &str| -> Vec<String> {
        let bounds = RowBounds::Keys {
            start: start.into(),
            end: end.into(),
        };
        store
            .rows(&STANDARD, &bounds)
            .map(|r| String::from_utf8(r.unwrap().1).unwrap())
            .collect()
    };
    assert_eq!(keys("", ""), ["a", "b", "c", "d"]);
    assert_eq!(keys("b", "c"), ["b", "c"]);
}

/// The in-memory engine, counting the batches applied to it (beside the generation
/// stamps) and, when `shared`, standing for an engine several processes share: it hands out
/// row leases and records them.
#[derive(Default)]
struct Counting {
    inner: MemoryEngine,
    shared: bool,
    batches: std::sync::Mutex<Vec<Vec<Vec<u8>>>>,
    leased: std::sync::Mutex<Vec<Vec<u8>>>,
}

impl crate::storage::Engine for Counting {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.inner.get(key)
    }
    fn scan(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> crate::storage::Scan<'_> {
        self.inner.scan(lower, upper, reverse)
    }
    fn apply(&self, batch: super::Batch) -> Result<()> {
        let keys: Vec<Vec<u8>> = batch.keys().map(<[u8]>::to_vec).collect();
        if keys.iter().any(|k| k[..4] != [0; 4]) {
            self.batches.lock().unwrap().push(keys);
        }
        self.inner.apply(batch)
    }
    fn sync(&self) -> Result<()> {
        self.inner.sync()
    }
    fn shared(&self) -> bool {
        self.shared
    }
    fn lock_row(&self, key: &[u8]) -> Result<Option<crate::storage::RowLease>> {
        if !self.shared {
            return Ok(None);
        }
        self.leased.lock().unwrap().push(key.to_vec());
        Ok(Some(crate::storage::RowLease::new(())))
    }
}

/// CF 1 with rows of several chunks each, and CF 2 beside it.
fn truncate_fixture(shared: bool) -> (Arc<Counting>, Store) {
    let engine = Arc::new(Counting {
        shared,
        ..Counting::default()
    });
    let packing = Packing {
        partitioner: P,
        max_chunk: 64,
    };
    let policy = SyncPolicy::Periodic(Duration::from_secs(60));
    let store = Store::new(engine.clone(), policy, packing).unwrap();
    for key in ["a", "b", "c"] {
        let row = EncodedRow::new(P, key.as_bytes());
        write(&store, |w| {
            for name in [&b"n1"[..], b"n2", b"n3", b"n4"] {
                w.put_cell(&STANDARD, &row, None, name, &live(&[1; 30], 1));
            }
            w.put_marker(&STANDARD, &row, MarkerAt::Row, &Marker::deleted(0, 1));
            w.put_cell(&SUPER, &row, Some(b"s"), &[0; 8], &live(b"v", 1));
        });
    }
    engine.batches.lock().unwrap().clear();
    (engine, store)
}

#[test]
fn truncate_removes_every_chunk_of_one_cf_in_one_batch() {
    let (engine, store) = truncate_fixture(false);
    let cf_keys = || {
        use crate::storage::Engine;
        let upper = STANDARD.cf_end();
        engine
            .scan(Bound::Included(STANDARD.cf_prefix()), upper, false)
            .count()
    };
    assert!(cf_keys() > 3, "rows of several chunks");
    store.truncate(&STANDARD).unwrap().wait().unwrap();
    assert_eq!(cf_keys(), 0);
    assert_eq!(engine.batches.lock().unwrap().len(), 1, "one atomic batch");
    assert_eq!(store.entries(&STANDARD).count(), 0);
    assert_eq!(store.entries(&SUPER).count(), 3, "the other CF stays");
    assert!(engine.leased.lock().unwrap().is_empty());
    // Nothing left to remove: nothing written.
    assert!(store.truncate(&STANDARD).unwrap().is_done());
    assert_eq!(engine.batches.lock().unwrap().len(), 1);
}

#[test]
fn truncate_on_a_shared_engine_goes_row_by_row_under_leases() {
    let (engine, store) = truncate_fixture(true);
    engine.leased.lock().unwrap().clear();
    store.truncate(&STANDARD).unwrap().wait().unwrap();
    assert_eq!(store.entries(&STANDARD).count(), 0);
    assert_eq!(store.entries(&SUPER).count(), 3);
    let batches = engine.batches.lock().unwrap();
    assert_eq!(batches.len(), 3, "one batch per row");
    let leased = engine.leased.lock().unwrap();
    for (batch, lease) in batches.iter().zip(leased.iter()) {
        assert!(batch.len() > 1, "every chunk of the row");
        assert!(
            batch.iter().all(|k| k.starts_with(lease)),
            "under its lease"
        );
    }
    let rows: Vec<&[u8]> = leased.iter().map(|k| &k[4..]).collect();
    let expected: Vec<Vec<u8>> = ["a", "b", "c"]
        .iter()
        .map(|k| EncodedRow::new(P, k.as_bytes()).0)
        .collect();
    assert_eq!(rows, expected);
}

#[test]
fn a_batch_session_leases_its_rows_in_row_order_and_writes_once() {
    let (engine, store) = truncate_fixture(true);
    engine.leased.lock().unwrap().clear();
    let rows: Vec<EncodedRow> = ["c", "new", "a"]
        .iter()
        .map(|k| EncodedRow::new(P, k.as_bytes()))
        .collect();
    let pairs: Vec<(&CfLayout, &EncodedRow)> = vec![
        (&SUPER, &rows[0]),
        (&STANDARD, &rows[1]),
        (&STANDARD, &rows[2]),
    ];
    let session = store.batch_session(&pairs).unwrap();
    let leased: Vec<Vec<u8>> = engine.leased.lock().unwrap().drain(..).collect();
    let mut expected: Vec<Vec<u8>> = rows.iter().map(|r| r.0.clone()).collect();
    expected.sort();
    let leased_rows: Vec<Vec<u8>> = leased.iter().map(|k| k[4..].to_vec()).collect();
    assert_eq!(
        leased_rows, expected,
        "every row, in row order, before any read"
    );
    let mut writes = RowWrites::default();
    for (layout, row) in &pairs {
        assert!(session
            .get_cell(layout, row, None, b"zz")
            .unwrap()
            .is_none());
        let sc: Option<&[u8]> = layout.subcomparator.map(|_| &b"s"[..]);
        let name: &[u8] = if sc.is_some() { &[9; 8] } else { b"zz" };
        writes.put_cell(layout, row, sc, name, &live(b"w", 2));
    }
    session.write(writes).unwrap();
    assert!(
        engine.leased.lock().unwrap().is_empty(),
        "no lease taken later"
    );
    let batches = engine.batches.lock().unwrap();
    assert_eq!(batches.len(), 1, "one engine batch for all rows");
    drop(batches);
    for (layout, row) in &pairs {
        let sc: Option<&[u8]> = layout.subcomparator.map(|_| &b"s"[..]);
        let name: &[u8] = if sc.is_some() { &[9; 8] } else { b"zz" };
        assert_eq!(
            store.get_cell(layout, row, sc, name).unwrap(),
            Some(live(b"w", 2))
        );
    }
}
