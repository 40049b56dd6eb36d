//! Range tombstones (`docs/api-later.md#data`, spec §6.11): every read over a deleted
//! range, older and newer writes into it, its interplay with row and super-column
//! deletes, super columns at both levels, range ghosts, the purge and the statistics —
//! each on every engine.

use super::*;

/// The fixture clock's starting time.
const T: u32 = 1_000_000;

fn del_range(sc: Option<&str>, start: &str, finish: &str, ts: i64) -> Change {
    Change::DeleteRange {
        super_column: sc.map(Into::into),
        start: start.into(),
        finish: finish.into(),
        timestamp: ts,
    }
}

fn names(list: &[&str]) -> Predicate {
    Predicate::Names(list.iter().map(|n| n.as_bytes().to_vec()).collect())
}

fn count(db: &Db, key: &str, cf: &str, sc: Option<&str>) -> usize {
    db.get_count(KS, key.as_bytes(), &parent(cf, sc)).unwrap()
}

/// Columns "1" to "9" of row `key` in Standard1 at timestamp 1, valued by their name.
fn nine(db: &Db, key: &str) {
    let cols = (1..=9)
        .map(|i| ("Standard1", ins(&i.to_string(), &i.to_string(), 1)))
        .collect();
    apply(db, key, cols);
}

fn all_keys() -> KeyRange {
    KeyRange {
        bounds: RowBounds::Keys {
            start: Vec::new(),
            end: Vec::new(),
        },
        count: 10,
        keys: KeyFilter::Any,
    }
}

/// Every row of `cf`, ghosts marked, in ring order.
fn rows(db: &Db, cf: &str) -> Vec<String> {
    db.get_range_slices(
        KS,
        &parent(cf, None),
        &range("", "", false, 10),
        &all_keys(),
    )
    .unwrap()
    .iter()
    .map(|s| {
        let key = String::from_utf8_lossy(&s.key);
        match s.columns.is_empty() {
            true => format!("{key}(ghost)"),
            false => format!("{key}:{}", show(&s.columns).join(",")),
        }
    })
    .collect()
}

#[test]
fn a_deleted_range_is_skipped_by_every_slice_and_count() {
    let fixture = fixture(Partitioner::OrderPreserving);
    for (name, db) in &fixture.dbs {
        nine(db, "k");
        apply(db, "k", vec![("Standard1", del_range(None, "3", "6", 5))]);
        let all = range("", "", false, 100);
        let live = ["1=1", "2=2", "7=7", "8=8", "9=9"];
        assert_eq!(
            slice(db, "k", "Standard1", None, all.clone()),
            live,
            "{name}"
        );
        // A count of N still returns N live columns past the deleted ones.
        assert_eq!(
            slice(db, "k", "Standard1", None, range("", "", false, 3)),
            ["1=1", "2=2", "7=7"],
            "{name}"
        );
        assert_eq!(
            slice(db, "k", "Standard1", None, range("2", "", false, 2)),
            ["2=2", "7=7"],
            "{name}"
        );
        assert_eq!(
            slice(db, "k", "Standard1", None, range("8", "2", true, 3)),
            ["8=8", "7=7", "2=2"],
            "{name}: reversed across the range"
        );
        assert_eq!(
            slice(db, "k", "Standard1", None, range("5", "", true, 2)),
            ["2=2", "1=1"],
            "{name}: reversed from inside the range"
        );
        assert!(
            slice(db, "k", "Standard1", None, range("3", "6", false, 10)).is_empty(),
            "{name}"
        );
        assert_eq!(
            slice(db, "k", "Standard1", None, names(&["2", "3", "6", "7"])),
            ["2=2", "7=7"],
            "{name}"
        );
        assert_eq!(count(db, "k", "Standard1", None), 5, "{name}");
        for (col, value) in [("3", None), ("6", None), ("2", Some("2")), ("7", Some("7"))] {
            assert_eq!(get_value(db, "k", col).as_deref(), value, "{name}: {col}");
        }
        // Writes into the range: lower or equal timestamps stay hidden, higher are seen.
        apply(db, "k", vec![("Standard1", ins("4", "old", 4))]);
        apply(db, "k", vec![("Standard1", ins("4", "same", 5))]);
        assert_eq!(get_value(db, "k", "4"), None, "{name}");
        apply(db, "k", vec![("Standard1", ins("4", "new", 6))]);
        assert_eq!(get_value(db, "k", "4").as_deref(), Some("new"), "{name}");
        assert_eq!(count(db, "k", "Standard1", None), 6, "{name}");
        // Names outside the range are untouched by it.
        apply(db, "k", vec![("Standard1", ins("2", "two", 2))]);
        assert_eq!(get_value(db, "k", "2").as_deref(), Some("two"), "{name}");
    }
}

#[test]
fn empty_bounds_are_unbounded_and_newer_columns_survive() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        nine(db, "k");
        apply(db, "k", vec![("Standard1", ins("5", "newer", 9))]);
        apply(
            db,
            "k",
            vec![
                ("Standard1", del_range(None, "", "2", 5)),
                ("Standard1", del_range(None, "8", "", 5)),
            ],
        );
        assert_eq!(
            slice(db, "k", "Standard1", None, range("", "", false, 100)),
            ["3=3", "4=4", "5=newer", "6=6", "7=7"],
            "{name}"
        );
        apply(db, "k", vec![("Standard1", del_range(None, "", "", 8))]);
        assert_eq!(
            slice(db, "k", "Standard1", None, range("", "", false, 100)),
            ["5=newer"],
            "{name}: a column newer than the whole-row range stays"
        );
        apply(db, "k", vec![("Standard1", ins("zz", "x", 8))]);
        assert_eq!(count(db, "k", "Standard1", None), 1, "{name}");
        apply(db, "k", vec![("Standard1", ins("zz", "x", 9))]);
        assert_eq!(count(db, "k", "Standard1", None), 2, "{name}");
    }
}

#[test]
fn ranges_in_one_mutation_hide_its_own_older_inserts_and_follow_comparator_order() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        let long = |n: i64| n.to_be_bytes().to_vec();
        let insert = |n: i64, ts| Change::Insert {
            super_column: None,
            column: Column {
                name: long(n),
                value: b"v".to_vec(),
                timestamp: ts,
                ttl: None,
            },
        };
        let delete = Change::DeleteRange {
            super_column: None,
            start: long(-2),
            finish: long(1),
            timestamp: 5,
        };
        let changes = (-3..=2)
            .map(|n| ("StdLong", insert(n, if n == 0 { 6 } else { 5 })))
            .chain([("StdLong", delete)])
            .collect();
        apply(db, "k", changes);
        let got: Vec<i64> = db
            .get_slice(
                KS,
                b"k",
                &parent("StdLong", None),
                &range("", "", false, 10),
            )
            .unwrap()
            .into_iter()
            .map(|c| match c {
                ColumnOrSuper::Column(c) => i64::from_be_bytes(c.name.try_into().unwrap()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(got, [-3, 0, 2], "{name}: signed order, inclusive bounds");
    }
}

#[test]
fn row_and_range_deletes_combine() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        // A newer range survives an older row delete; an older one is dominated.
        nine(db, "k");
        apply(db, "k", vec![("Standard1", del_range(None, "3", "6", 10))]);
        apply(
            db,
            "k",
            vec![("Standard1", Change::DeleteRow { timestamp: 5 })],
        );
        apply(
            db,
            "k",
            vec![
                ("Standard1", ins("1", "a", 7)),
                ("Standard1", ins("4", "b", 7)),
            ],
        );
        assert_eq!(
            slice(db, "k", "Standard1", None, range("", "", false, 100)),
            ["1=a"],
            "{name}"
        );
        apply(db, "k", vec![("Standard1", ins("4", "c", 11))]);
        assert_eq!(count(db, "k", "Standard1", None), 2, "{name}");
        // A range older than the row delete changes nothing.
        apply(
            db,
            "r",
            vec![("Standard1", Change::DeleteRow { timestamp: 20 })],
        );
        apply(db, "r", vec![("Standard1", del_range(None, "", "", 15))]);
        apply(db, "r", vec![("Standard1", ins("x", "1", 21))]);
        assert_eq!(get_value(db, "r", "x").as_deref(), Some("1"), "{name}");
        // A newer row delete hides what the range did not.
        apply(
            db,
            "k",
            vec![("Standard1", Change::DeleteRow { timestamp: 30 })],
        );
        apply(db, "k", vec![("Standard1", ins("4", "d", 31))]);
        assert_eq!(get_value(db, "k", "4").as_deref(), Some("d"), "{name}");
    }
}

#[test]
fn super_column_ranges_at_both_levels() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        let subs: Vec<(&str, Change)> = ["a", "b", "c", "d"]
            .iter()
            .flat_map(|sc| {
                ["1", "2", "3"]
                    .iter()
                    .map(move |n| ("Super1", sub(sc, n, &format!("{sc}{n}"), 1)))
            })
            .collect();
        apply(db, "k", subs);
        // Top level: super columns b and c go, as a super-column delete of each would.
        apply(db, "k", vec![("Super1", del_range(None, "b", "c", 5))]);
        assert_eq!(
            slice(db, "k", "Super1", None, range("", "", false, 10)),
            ["a{1=a1,2=a2,3=a3}", "d{1=d1,2=d2,3=d3}"],
            "{name}"
        );
        assert_eq!(
            slice(db, "k", "Super1", None, range("", "", false, 2)),
            ["a{1=a1,2=a2,3=a3}", "d{1=d1,2=d2,3=d3}"],
            "{name}: the count skips the deleted super columns"
        );
        assert_eq!(count(db, "k", "Super1", None), 2, "{name}");
        assert!(slice(db, "k", "Super1", Some("b"), range("", "", false, 10)).is_empty());
        apply(db, "k", vec![("Super1", sub("b", "9", "old", 5))]);
        assert_eq!(count(db, "k", "Super1", Some("b")), 0, "{name}");
        apply(db, "k", vec![("Super1", sub("bb", "1", "new", 6))]);
        apply(db, "k", vec![("Super1", sub("b", "2", "new", 6))]);
        assert_eq!(
            slice(db, "k", "Super1", None, range("b", "c", false, 10)),
            ["b{2=new}", "bb{1=new}"],
            "{name}"
        );
        // An older super-column delete inside the range changes nothing.
        apply(
            db,
            "k",
            vec![(
                "Super1",
                Change::DeleteSuper {
                    name: b"c".to_vec(),
                    timestamp: 4,
                },
            )],
        );
        apply(db, "k", vec![("Super1", sub("c", "1", "c1", 6))]);
        assert_eq!(count(db, "k", "Super1", Some("c")), 1, "{name}");

        // Inside a super column: subcolumns 2 to 3 of a go.
        apply(db, "k", vec![("Super1", del_range(Some("a"), "2", "3", 5))]);
        assert_eq!(
            slice(db, "k", "Super1", Some("a"), range("", "", false, 10)),
            ["1=a1"],
            "{name}"
        );
        assert_eq!(
            slice(db, "k", "Super1", Some("a"), range("", "", true, 10)),
            ["1=a1"],
            "{name}"
        );
        assert_eq!(
            slice(db, "k", "Super1", Some("d"), range("", "", false, 10)).len(),
            3,
            "{name}: another super column is untouched"
        );
        apply(db, "k", vec![("Super1", sub("a", "3", "old", 4))]);
        apply(db, "k", vec![("Super1", sub("a", "2", "new", 6))]);
        assert_eq!(
            slice(db, "k", "Super1", Some("a"), range("", "", false, 10)),
            ["1=a1", "2=new"],
            "{name}"
        );
        // A newer delete of the super column takes over its ranges; an older one keeps them.
        apply(
            db,
            "k",
            vec![(
                "Super1",
                Change::DeleteSuper {
                    name: b"a".to_vec(),
                    timestamp: 3,
                },
            )],
        );
        apply(db, "k", vec![("Super1", sub("a", "3", "still hidden", 4))]);
        assert_eq!(
            slice(db, "k", "Super1", Some("a"), range("", "", false, 10)),
            ["2=new"],
            "{name}: 1 is older than the delete, 3 than the range"
        );
        apply(
            db,
            "k",
            vec![(
                "Super1",
                Change::DeleteSuper {
                    name: b"a".to_vec(),
                    timestamp: 7,
                },
            )],
        );
        apply(db, "k", vec![("Super1", sub("a", "3", "seen", 8))]);
        assert_eq!(
            slice(db, "k", "Super1", Some("a"), range("", "", false, 10)),
            ["3=seen"],
            "{name}"
        );
    }
}

#[test]
fn a_row_holding_only_a_range_is_a_ghost_until_purged() {
    let fixture = fixture(Partitioner::OrderPreserving);
    for (name, db) in &fixture.dbs {
        fixture.clock.store(T, Ordering::SeqCst);
        nine(db, "a");
        apply(db, "a", vec![("Standard1", del_range(None, "", "", 2))]);
        apply(db, "b", vec![("Standard1", del_range(None, "m", "n", 2))]);
        apply(db, "c", vec![("Standard1", ins("x", "3", 1))]);
        assert_eq!(
            rows(db, "Standard1"),
            ["a(ghost)", "b(ghost)", "c:x=3"],
            "{name}"
        );
        // A write the range hides, to a row that did not exist before it, stays hidden.
        apply(db, "b", vec![("Standard1", ins("m", "old", 2))]);
        assert_eq!(
            rows(db, "Standard1"),
            ["a(ghost)", "b(ghost)", "c:x=3"],
            "{name}"
        );
        let paged = db
            .get_paged_slice(KS, "Standard1", &all_keys(), b"")
            .unwrap();
        assert_eq!(
            paged
                .iter()
                .map(|s| (
                    String::from_utf8_lossy(&s.key).into_owned(),
                    s.columns.len()
                ))
                .collect::<Vec<_>>(),
            [("a".into(), 0), ("b".into(), 0), ("c".into(), 1)],
            "{name}"
        );
        fixture.clock.store(T + 100, Ordering::SeqCst);
        assert_eq!(
            db.purge_expired_tombstones().unwrap(),
            0,
            "{name}: in grace"
        );
        fixture.clock.store(T + 101, Ordering::SeqCst);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 2, "{name}");
        assert_eq!(rows(db, "Standard1"), ["c:x=3"], "{name}");
        // Once purged, an older write is no longer hidden (as after any tombstone's purge).
        apply(db, "b", vec![("Standard1", ins("m", "old", 1))]);
        assert_eq!(rows(db, "Standard1"), ["b:m=old", "c:x=3"], "{name}");
    }
}

#[test]
fn each_part_of_a_marker_is_purged_once_it_passes_the_grace() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        fixture.clock.store(T, Ordering::SeqCst);
        apply(db, "k", vec![("Super1", del_range(Some("s"), "1", "2", 5))]);
        apply(
            db,
            "k",
            vec![(
                "Super1",
                Change::DeleteSuper {
                    name: b"t".to_vec(),
                    timestamp: 5,
                },
            )],
        );
        fixture.clock.store(T + 50, Ordering::SeqCst);
        apply(db, "k", vec![("Super1", del_range(Some("s"), "4", "5", 5))]);
        apply(db, "k", vec![("Super1", del_range(Some("t"), "", "", 6))]);
        db.scan_stats(&CfSelection::default()).unwrap();
        fixture.clock.store(T + 101, Ordering::SeqCst);
        // s loses its first range and t its own deletion: both rewritten, neither removed.
        assert_eq!(db.purge_expired_tombstones().unwrap(), 2, "{name}");
        let estimated = db.estimated_stats().unwrap();
        assert_eq!(
            estimated,
            db.scan_stats(&CfSelection::default()).unwrap(),
            "{name}"
        );
        apply(
            db,
            "k",
            vec![
                ("Super1", sub("s", "1", "x", 4)),
                ("Super1", sub("s", "4", "x", 4)),
                ("Super1", sub("t", "1", "x", 6)),
                ("Super1", sub("t", "2", "x", 7)),
            ],
        );
        assert_eq!(
            slice(db, "k", "Super1", None, range("", "", false, 10)),
            ["s{1=x}", "t{2=x}"],
            "{name}: what is left still hides"
        );
        fixture.clock.store(T + 151, Ordering::SeqCst);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 2, "{name}");
        apply(
            db,
            "k",
            vec![
                ("Super1", sub("s", "4", "x", 4)),
                ("Super1", sub("t", "1", "x", 6)),
            ],
        );
        assert_eq!(
            slice(db, "k", "Super1", None, range("", "", false, 10)),
            ["s{1=x,4=x}", "t{1=x,2=x}"],
            "{name}"
        );
        assert_eq!(db.purge_expired_tombstones().unwrap(), 0, "{name}: clean");
    }
}

#[test]
fn row_filters_and_statistics_see_what_reads_see() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        nine(db, "k");
        nine(db, "l");
        db.scan_stats(&CfSelection::default()).unwrap();
        apply(db, "k", vec![("Standard1", del_range(None, "2", "4", 5))]);
        apply(db, "l", vec![("Standard1", del_range(None, "", "", 5))]);
        apply(db, "m", vec![("Standard1", del_range(None, "a", "b", 5))]);
        let condition = |col: &str| RowCondition {
            name: col.into(),
            op: Comparison::Eq,
            value: col.into(),
            value_type: None,
        };
        let keys = |col: &str| -> Vec<String> {
            db.get_filtered_range_slices(
                KS,
                &parent("Standard1", None),
                &range("", "", false, 10),
                &all_keys(),
                &[condition(col)],
            )
            .unwrap()
            .iter()
            .map(|s| String::from_utf8_lossy(&s.key).into_owned())
            .collect()
        };
        assert!(keys("3").is_empty(), "{name}");
        assert_eq!(keys("5"), ["k"], "{name}");
        // Deletes that overlap in one mutation remove each entry once, and an insert over a
        // removed column counts as new.
        nine(db, "n");
        apply(
            db,
            "n",
            vec![
                ("Standard1", Change::DeleteRow { timestamp: 3 }),
                ("Standard1", del_range(None, "", "5", 4)),
                ("Standard1", ins("5", "again", 6)),
            ],
        );
        let subs = ["a", "b"]
            .iter()
            .flat_map(|sc| ["1", "2"].map(|n| ("Super1", sub(sc, n, "v", 1))))
            .collect();
        apply(db, "n", subs);
        apply(
            db,
            "n",
            vec![
                (
                    "Super1",
                    Change::DeleteSuper {
                        name: b"a".to_vec(),
                        timestamp: 2,
                    },
                ),
                ("Super1", del_range(None, "a", "a", 3)),
                ("Super1", del_range(Some("b"), "1", "1", 3)),
                ("Super1", sub("a", "2", "w", 4)),
            ],
        );
        assert_eq!(
            slice(db, "n", "Super1", None, range("", "", false, 10)),
            ["a{2=w}", "b{2=v}"],
            "{name}"
        );
        assert_eq!(count(db, "n", "Standard1", None), 1, "{name}");
        let estimated = db.estimated_stats().unwrap();
        let scanned = db.scan_stats(&CfSelection::default()).unwrap();
        assert_eq!(estimated, scanned, "{name}");
        let standard1 = scanned.iter().find(|s| s.cf == "Standard1").unwrap();
        assert_eq!(
            (
                standard1.live_rows,
                standard1.live_columns,
                standard1.tombstones
            ),
            (2, 7, 4),
            "{name}: k keeps 6 columns, n 1; the markers of k, l, m and n"
        );
    }
}

#[test]
fn ranges_that_do_not_fit_are_refused_without_writing() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        let refused = |cf: &str, change: Change| {
            let mut mutation = RowMutation::new(KS, "k");
            mutation.push("Standard1", ins("x", "1", 1));
            mutation.push(cf, change);
            match db.apply(mutation) {
                Ok(_) => panic!("applied"),
                Err(e) => e,
            }
        };
        let e = refused("Standard1", del_range(None, "b", "a", 1));
        assert!(e.to_string().contains("range finish"), "{name}: {e}");
        refused("Standard1", del_range(Some("s"), "a", "b", 1));
        refused("StdLong", del_range(None, "abc", "", 1));
        refused("Super1", del_range(Some(""), "a", "b", 1));
        assert_eq!(get_value(db, "k", "x"), None, "{name}: nothing written");
    }
}
