//! Counters (`docs/api-later.md#counters`) on every engine: increments add up (also within
//! one batch) and wrap; super counters; a deletion of any kind — column, super column, row,
//! range — is final while its tombstone exists, and once it is purged the counter starts
//! again from 0; truncate empties a counter CF; counters count like columns; and a counter
//! CF takes no inserts, a plain CF no increments.

use super::*;

fn add(name: &str, delta: i64) -> Change {
    Change::Add {
        super_column: None,
        name: name.into(),
        delta,
    }
}

fn add_sub(sc: &str, name: &str, delta: i64) -> Change {
    Change::Add {
        super_column: Some(sc.into()),
        name: name.into(),
        delta,
    }
}

fn incr(db: &Db, key: &str, changes: Vec<Change>) {
    apply(
        db,
        key,
        changes.into_iter().map(|c| ("Counter1", c)).collect(),
    );
}

fn total(db: &Db, key: &str, name: &str) -> Option<i64> {
    match db.get(KS, key.as_bytes(), "Counter1", None, Some(name.as_bytes())) {
        Ok(ColumnOrSuper::Counter(c)) => Some(c.value),
        Err(crate::Error::NotFound) => None,
        other => panic!("unexpected {other:?}"),
    }
}

fn all(db: &Db, key: &str) -> Vec<String> {
    slice(db, key, "Counter1", None, range("", "", false, 100))
}

#[test]
fn increments_add_up_and_wrap() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        assert_eq!(total(&db, "k", "c"), None, "{name}");
        incr(&db, "k", vec![add("c", 0)]);
        assert_eq!(total(&db, "k", "c"), Some(0), "{name}: created at 0");
        // dtest test_incr_decr_standard_batch_add: two increments in one batch add up.
        incr(&db, "k", vec![add("c", 12), add("c", -21)]);
        assert_eq!(total(&db, "k", "c"), Some(-9), "{name}");
        incr(&db, "k", vec![add("c", 10)]);
        assert_eq!(total(&db, "k", "c"), Some(1), "{name}");
        incr(&db, "k", vec![add("m", i64::MAX), add("m", 2)]);
        assert_eq!(total(&db, "k", "m"), Some(i64::MIN + 1), "{name}: wraps");
        incr(&db, "k", vec![add("m", -2)]);
        assert_eq!(total(&db, "k", "m"), Some(i64::MAX), "{name}: wraps back");
        assert_eq!(
            all(&db, "k"),
            ["c#1".to_string(), format!("m#{}", i64::MAX)],
            "{name}"
        );
        let count = db.get_count(KS, b"k", &parent("Counter1", None)).unwrap();
        assert_eq!(count, 2, "{name}");
        let names = Predicate::Names(vec![b"m".to_vec(), b"x".to_vec(), b"c".to_vec()]);
        assert_eq!(
            slice(&db, "k", "Counter1", None, names),
            ["c#1".to_string(), format!("m#{}", i64::MAX)],
            "{name}"
        );
    }
}

#[test]
fn super_counters_add_up_and_read_as_counter_super_columns() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let sup = |changes: Vec<Change>| {
            apply(
                &db,
                "k",
                changes.into_iter().map(|c| ("SuperCounter1", c)).collect(),
            )
        };
        sup(vec![add_sub("s1", "a", 3), add_sub("s1", "b", 4)]);
        sup(vec![add_sub("s1", "a", 5), add_sub("s2", "a", -1)]);
        assert_eq!(
            slice(&db, "k", "SuperCounter1", None, range("", "", false, 10)),
            ["s1{a#8,b#4}", "s2{a#-1}"],
            "{name}"
        );
        assert_eq!(
            slice(
                &db,
                "k",
                "SuperCounter1",
                Some("s1"),
                range("", "", true, 10)
            ),
            ["b#4", "a#8"],
            "{name}"
        );
        match db.get(KS, b"k", "SuperCounter1", Some(b"s1"), None) {
            Ok(ColumnOrSuper::CounterSuper(sc)) => assert_eq!(sc.columns.len(), 2, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        match db.get(KS, b"k", "SuperCounter1", Some(b"s2"), Some(b"a")) {
            Ok(ColumnOrSuper::Counter(c)) => assert_eq!(c.value, -1, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        // A super-column delete is final too.
        sup(vec![Change::DeleteSuper {
            name: b"s1".to_vec(),
            timestamp: 1,
        }]);
        sup(vec![add_sub("s1", "a", 100)]);
        assert_eq!(
            slice(&db, "k", "SuperCounter1", None, range("", "", false, 10)),
            ["s2{a#-1}"],
            "{name}"
        );
        let count = db
            .get_count(KS, b"k", &parent("SuperCounter1", None))
            .unwrap();
        assert_eq!(count, 1, "{name}");
    }
}

#[test]
fn a_deleted_counter_stays_deleted_until_the_purge_then_restarts_from_zero() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        incr(db, "k", vec![add("c", 5)]);
        // Whatever the delete's timestamp, even the lowest, the counter is gone.
        incr(
            db,
            "k",
            vec![Change::DeleteColumn {
                super_column: None,
                name: b"c".to_vec(),
                timestamp: i64::MIN,
            }],
        );
        assert_eq!(total(db, "k", "c"), None, "{name}");
        incr(db, "k", vec![add("c", 7)]);
        assert_eq!(
            total(db, "k", "c"),
            None,
            "{name}: increments stay invisible"
        );
        // Deleted and re-added in one batch, in either order: deleted.
        incr(
            db,
            "k",
            vec![add("d", 1), del("d", 1), add("e", 1), del("e", 1)],
        );
        incr(db, "k", vec![del("f", 1), add("f", 1)]);
        assert_eq!(all(db, "k"), Vec::<String>::new(), "{name}");
    }
    // Past gc grace (100 s) the tombstones go, and counting starts again.
    fixture.clock.fetch_add(101, Ordering::SeqCst);
    for (name, db) in &fixture.dbs {
        assert!(db.purge_expired_tombstones().unwrap() >= 4, "{name}");
        incr(db, "k", vec![add("c", 2)]);
        assert_eq!(total(db, "k", "c"), Some(2), "{name}: from 0, not 5 + 7");
        assert_eq!(all(db, "k"), ["c#2"], "{name}");
    }
}

#[test]
fn row_and_range_deletes_are_final_until_purged() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        incr(db, "row", vec![add("a", 1), add("b", 2)]);
        incr(db, "row", vec![Change::DeleteRow { timestamp: 3 }]);
        incr(db, "row", vec![add("a", 10), add("z", 1)]);
        assert_eq!(all(db, "row"), Vec::<String>::new(), "{name}: row delete");
        let count = db.get_count(KS, b"row", &parent("Counter1", None)).unwrap();
        assert_eq!(count, 0, "{name}");

        incr(db, "rng", vec![add("a", 1), add("c", 2), add("e", 3)]);
        incr(
            db,
            "rng",
            vec![Change::DeleteRange {
                super_column: None,
                start: b"b".to_vec(),
                finish: b"d".to_vec(),
                timestamp: 1,
            }],
        );
        incr(db, "rng", vec![add("c", 5), add("b", 1), add("e", 1)]);
        assert_eq!(all(db, "rng"), ["a#1", "e#4"], "{name}: range delete");
    }
    // Ranges with a row: counters in a range read like columns.
    let rows = KeyRange {
        bounds: RowBounds::KeySpan {
            start: Vec::new(),
            end: Vec::new(),
        },
        count: 10,
        keys: KeyFilter::Any,
    };
    for (name, db) in &fixture.dbs {
        let found = db
            .get_range_slices(
                KS,
                &parent("Counter1", None),
                &range("", "", false, 10),
                &rows,
            )
            .unwrap();
        let shown: Vec<Vec<String>> = found
            .iter()
            .filter(|s| !s.columns.is_empty())
            .map(|s| show(&s.columns))
            .collect();
        assert_eq!(shown, [vec!["a#1", "e#4"]], "{name}");
        let paged = db.get_paged_slice(KS, "Counter1", &rows, b"").unwrap();
        let paged: Vec<String> = paged.iter().flat_map(|s| show(&s.columns)).collect();
        assert_eq!(paged, ["a#1", "e#4"], "{name}: paged");
    }
    fixture.clock.fetch_add(101, Ordering::SeqCst);
    for (name, db) in &fixture.dbs {
        db.purge_expired_tombstones().unwrap();
        incr(db, "row", vec![add("a", 4)]);
        incr(db, "rng", vec![add("c", 6)]);
        assert_eq!(all(db, "row"), ["a#4"], "{name}");
        assert_eq!(all(db, "rng"), ["a#1", "c#6", "e#4"], "{name}");
    }
}

#[test]
fn truncate_empties_a_counter_family_and_counting_restarts() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        incr(&db, "k", vec![add("c", 5)]);
        incr(&db, "k", vec![Change::DeleteRow { timestamp: 1 }]);
        incr(&db, "j", vec![add("c", 3)]);
        db.truncate(KS, "Counter1").unwrap().wait().unwrap();
        assert_eq!(all(&db, "j"), Vec::<String>::new(), "{name}");
        // Truncate is no tombstone: a new increment counts from 0 at once.
        incr(&db, "k", vec![add("c", 2)]);
        assert_eq!(total(&db, "k", "c"), Some(2), "{name}");
    }
}

#[test]
fn each_kind_of_family_refuses_the_other_kind_of_write() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let mut m = RowMutation::new(KS, "k");
        m.push("Counter1", ins("c", "v", 1));
        let err = db.apply(m).err().unwrap().to_string();
        assert!(
            err.contains("invalid operation for commutative table Counter1"),
            "{name}: {err}"
        );
        let mut m = RowMutation::new(KS, "k");
        m.push("Standard1", add("c", 1));
        let err = db.apply(m).err().unwrap().to_string();
        assert!(
            err.contains("invalid operation for non commutative table Standard1"),
            "{name}: {err}"
        );
        let mut m = RowMutation::new(KS, "k");
        m.push("SuperCounter1", add("c", 1));
        assert!(
            db.apply(m).is_err(),
            "{name}: a super counter needs its super column"
        );
    }
}
