//! `apply_atomic` (`docs/api-later.md#atomic-batch`): several rows applied together, none
//! when any mutation is refused, mutations of one row merged, statistics kept, the drain
//! respected, and concurrent batches over the same rows in opposite orders never deadlocking
//! — on every engine.

use super::*;
use crate::cf::admin::CfSelection;

fn mutation(key: &str, changes: Vec<(&str, Change)>) -> RowMutation {
    let mut m = RowMutation::new(KS, key);
    for (cf, change) in changes {
        m.push(cf, change);
    }
    m
}

fn row(db: &Db, key: &str, cf: &str) -> Vec<String> {
    slice(db, key, cf, None, range("", "", false, 100))
}

#[test]
fn every_row_of_a_batch_is_applied_with_the_rules_of_apply() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        apply(&db, "c", vec![("Standard1", ins("old", "1", 1))]);
        let batch = vec![
            mutation(
                "a",
                vec![
                    ("Standard1", ins("x", "a", 2)),
                    ("Super1", sub("sc", "y", "a", 2)),
                ],
            ),
            mutation("b", vec![("Standard1", ins("x", "b", 2))]),
            mutation(
                "c",
                vec![
                    ("Standard1", Change::DeleteRow { timestamp: 3 }),
                    ("Standard1", ins("new", "c", 4)),
                    ("Standard1", ins("hidden", "c", 3)),
                ],
            ),
        ];
        db.apply_atomic(batch).unwrap().wait().unwrap();
        assert_eq!(row(&db, "a", "Standard1"), ["x=a"], "{name}");
        assert_eq!(row(&db, "a", "Super1"), ["sc{y=a}"], "{name}");
        assert_eq!(row(&db, "b", "Standard1"), ["x=b"], "{name}");
        assert_eq!(
            row(&db, "c", "Standard1"),
            ["new=c"],
            "{name}: reconciled as apply does"
        );
    }
}

#[test]
fn one_refused_mutation_refuses_the_whole_batch() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let good = || mutation("a", vec![("Standard1", ins("x", "1", 1))]);
        let refused = [
            mutation("b", vec![("Super1", ins("c", "1", 1))]),
            mutation("", vec![("Standard1", ins("c", "1", 1))]),
            mutation("b", vec![("Nope", ins("c", "1", 1))]),
            mutation("b", vec![("Standard1", ins("", "1", 1))]),
        ];
        for bad in refused {
            let batch = vec![
                good(),
                mutation("z", vec![("Standard2", ins("x", "1", 1))]),
                bad,
            ];
            assert!(db.apply_atomic(batch).is_err(), "{name}");
            assert!(
                row(&db, "a", "Standard1").is_empty(),
                "{name}: nothing applied"
            );
            assert!(
                row(&db, "z", "Standard2").is_empty(),
                "{name}: nothing applied"
            );
        }
        assert!(db.apply_atomic(Vec::new()).unwrap().is_done(), "{name}");
        db.drain().unwrap();
        match db.apply_atomic(vec![good()]) {
            Err(crate::Error::InvalidRequest(m)) => assert_eq!(m, crate::cf::DRAINED),
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
        assert!(row(&db, "a", "Standard1").is_empty(), "{name}");
    }
}

#[test]
fn mutations_of_one_row_are_merged_before_planning() {
    for (name, db) in fixture(Partitioner::OrderPreserving).dbs {
        let batch = vec![
            mutation("k", vec![("Standard1", ins("x", "1", 1))]),
            mutation(
                "k",
                vec![
                    ("Standard1", ins("y", "2", 1)),
                    ("Standard2", ins("z", "3", 1)),
                ],
            ),
            mutation("k", vec![("Standard1", del("x", 1))]),
            mutation("other", vec![("Standard1", ins("x", "o", 1))]),
            mutation("k", vec![("Standard1", ins("w", "4", 1))]),
        ];
        db.apply_atomic(batch).unwrap().wait().unwrap();
        assert_eq!(row(&db, "k", "Standard1"), ["w=4", "y=2"], "{name}");
        assert_eq!(row(&db, "k", "Standard2"), ["z=3"], "{name}");
        assert_eq!(row(&db, "other", "Standard1"), ["x=o"], "{name}");
    }
}

#[test]
fn statistics_follow_an_atomic_batch() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        apply(&db, "a", vec![("Standard1", ins("x", "1", 1))]);
        let all = CfSelection::default();
        db.scan_stats(&all).unwrap();
        let batch = vec![
            mutation("a", vec![("Standard1", Change::DeleteRow { timestamp: 2 })]),
            mutation(
                "b",
                vec![
                    ("Standard1", ins("x", "1", 1)),
                    ("Standard1", ins("y", "1", 1)),
                ],
            ),
            mutation("c", vec![("Standard1", del("x", 1))]),
        ];
        db.apply_atomic(batch).unwrap().wait().unwrap();
        let estimated = db.estimated_stats().unwrap();
        let scanned = db.scan_stats(&all).unwrap();
        assert_eq!(estimated, scanned, "{name}");
        let standard1 = scanned.iter().find(|s| s.cf == "Standard1").unwrap();
        assert_eq!(
            (
                standard1.live_rows,
                standard1.live_columns,
                standard1.tombstones
            ),
            (1, 2, 2),
            "{name}"
        );
    }
}

#[test]
fn overlapping_batches_in_opposite_orders_finish() {
    let fixture = fixture(Partitioner::Random);
    let keys: Vec<String> = (0..40).map(|i| format!("row{i}")).collect();
    std::thread::scope(|scope| {
        for (name, db) in &fixture.dbs {
            for thread in 0..2i64 {
                let keys = &keys;
                scope.spawn(move || {
                    for round in 0..30i64 {
                        let timestamp = round * 2 + thread;
                        let value = format!("{timestamp}");
                        let mut batch: Vec<RowMutation> = keys
                            .iter()
                            .map(|k| mutation(k, vec![("Standard1", ins("n", &value, timestamp))]))
                            .collect();
                        if thread == 1 {
                            batch.reverse();
                        }
                        db.apply_atomic(batch).unwrap().wait().unwrap();
                    }
                    let _ = name;
                });
            }
        }
    });
    for (name, db) in &fixture.dbs {
        for key in &keys {
            assert_eq!(row(db, key, "Standard1"), ["n=59"], "{name}");
        }
    }
}
