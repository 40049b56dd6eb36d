//! `truncate` (`docs/api-later.md#truncate`): one column family emptied — rows split over
//! many chunks, tombstones and markers included — the others untouched, old timestamps
//! visible again, statistics restarted, and refused after drain; on every engine.

use super::*;
use crate::cf::admin::CfSelection;

fn all_rows(db: &Db, cf: &str) -> Vec<String> {
    let rows = KeyRange {
        bounds: RowBounds::KeySpan {
            start: Vec::new(),
            end: Vec::new(),
        },
        count: 1000,
        keys: KeyFilter::Any,
    };
    db.get_range_slices(KS, &parent(cf, None), &range("", "", false, 1000), &rows)
        .unwrap()
        .iter()
        .map(|s| format!("{}{:?}", String::from_utf8_lossy(&s.key), show(&s.columns)))
        .collect()
}

/// What a scan of one CF finds: (live rows, live columns, tombstones, bytes).
fn scanned(db: &Db, cf: &str) -> (u64, u64, u64, u64) {
    let selection = CfSelection {
        keyspace: Some(KS.into()),
        cfs: vec![cf.into()],
    };
    let s = &db.scan_stats(&selection).unwrap()[0];
    (s.live_rows, s.live_columns, s.tombstones, s.bytes)
}

fn estimated(db: &Db, cf: &str) -> (u64, u64, u64) {
    let all = db.estimated_stats().unwrap();
    let s = all.iter().find(|s| s.cf == cf).unwrap();
    (s.live_rows, s.live_columns, s.tombstones)
}

#[test]
fn truncate_empties_one_column_family_and_forgets_its_tombstones() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        // A row far larger than a chunk, so that it is stored as several.
        let big: Vec<(&str, Change)> = (0..60)
            .map(|i| ("Standard1", ins(&format!("c{i:02}"), &"v".repeat(200), 5)))
            .collect();
        apply(&db, "big", big);
        apply(
            &db,
            "a",
            vec![
                ("Standard1", ins("x", "1", 5)),
                ("Standard2", ins("x", "2", 5)),
            ],
        );
        apply(&db, "a", vec![("Standard1", del("y", 6))]);
        apply(
            &db,
            "gone",
            vec![("Standard1", Change::DeleteRow { timestamp: 10 })],
        );
        apply(&db, "s", vec![("Super1", sub("sc", "x", "3", 5))]);
        assert_eq!(all_rows(&db, "Standard1").len(), 3, "{name}");
        let _ = scanned(&db, "Standard1");

        db.truncate(KS, "Standard1").unwrap().wait().unwrap();
        assert!(
            all_rows(&db, "Standard1").is_empty(),
            "{name}: not even ghosts"
        );
        assert_eq!(
            scanned(&db, "Standard1"),
            (0, 0, 0, 0),
            "{name}: nothing stored"
        );
        assert_eq!(all_rows(&db, "Standard2"), ["a[\"x=2\"]"], "{name}");
        assert_eq!(all_rows(&db, "Super1"), ["s[\"sc{x=3}\"]"], "{name}");
        assert_eq!(estimated(&db, "Standard1"), (0, 0, 0), "{name}");

        // No marker is left to hide old timestamps.
        apply(&db, "gone", vec![("Standard1", ins("x", "old", 1))]);
        apply(&db, "big", vec![("Standard1", ins("c00", "again", 0))]);
        assert_eq!(
            get_value(&db, "big", "c00").as_deref(),
            Some("again"),
            "{name}"
        );
        assert_eq!(
            slice(&db, "gone", "Standard1", None, range("", "", false, 10)),
            ["x=old"],
            "{name}"
        );
        assert_eq!(estimated(&db, "Standard1"), (2, 2, 0), "{name}");
        assert_eq!(scanned(&db, "Standard1").0, 2, "{name}");

        // An empty CF truncates to nothing, with nothing to wait for.
        db.truncate(KS, "Standard1").unwrap().wait().unwrap();
        assert!(db.truncate(KS, "Standard2").unwrap().wait().is_ok());
        assert!(db.truncate(KS, "Standard2").unwrap().is_done(), "{name}");
        assert!(all_rows(&db, "Standard2").is_empty(), "{name}");
        assert_eq!(all_rows(&db, "Super1").len(), 1, "{name}");
    }
}

#[test]
fn truncate_checks_its_column_family_and_the_drain() {
    for (name, db) in fixture(Partitioner::OrderPreserving).dbs {
        apply(&db, "a", vec![("Standard1", ins("x", "1", 1))]);
        assert!(db.truncate(KS, "Nope").is_err(), "{name}");
        assert!(db.truncate("Nope", "Standard1").is_err(), "{name}");
        db.drain().unwrap();
        match db.truncate(KS, "Standard1") {
            Err(crate::Error::InvalidRequest(m)) => assert_eq!(m, crate::cf::DRAINED),
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
        assert_eq!(
            all_rows(&db, "Standard1").len(),
            1,
            "{name}: nothing removed"
        );
    }
}
