//! `cas` (`docs/api-later.md#cas`): the condition against live columns only, what a failed
//! update reports, updates written at growing server timestamps, and concurrent conditional
//! updates of one row serialised; on every engine.

use super::*;
use std::sync::Arc;

fn pairs(items: &[(&str, &str)]) -> Vec<(Vec<u8>, Vec<u8>)> {
    items
        .iter()
        .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
        .collect()
}

fn names(columns: &[Column]) -> Vec<String> {
    columns
        .iter()
        .map(|c| {
            format!(
                "{}={}",
                String::from_utf8_lossy(&c.name),
                String::from_utf8_lossy(&c.value)
            )
        })
        .collect()
}

fn cas(db: &Db, key: &str, expected: &[(&str, &str)], updates: &[(&str, &str)]) -> CasOutcome {
    let outcome = db
        .cas(
            KS,
            key.as_bytes(),
            "Standard1",
            &pairs(expected),
            pairs(updates),
        )
        .unwrap();
    if let Some(ack) = &outcome.ack {
        ack.wait().unwrap();
    }
    outcome
}

#[test]
fn the_condition_decides_and_a_failure_reports_what_it_saw() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        // Expecting columns of an empty row fails with nothing to report.
        let miss = cas(&db, "r", &[("c1", "a"), ("c2", "b")], &[("c1", "x")]);
        assert!(!miss.applied && miss.current.is_empty(), "{name}");
        assert!(slice(&db, "r", "Standard1", None, range("", "", false, 10)).is_empty());
        // An empty expectation holds on an empty row.
        let made = cas(&db, "r", &[], &[("c1", "a"), ("c2", "b")]);
        assert!(made.applied && made.ack.is_some(), "{name}");
        assert_eq!(
            slice(&db, "r", "Standard1", None, range("", "", false, 10)),
            ["c1=a", "c2=b"],
            "{name}"
        );
        // ...and fails on a row with a live column, reporting the first.
        let again = cas(&db, "r", &[], &[("c3", "z")]);
        assert!(!again.applied, "{name}");
        assert_eq!(names(&again.current), ["c1=a"], "{name}");
        // Every expected value must match byte for byte.
        let wrong = cas(&db, "r", &[("c1", "a"), ("c2", "B")], &[("c1", "x")]);
        assert!(!wrong.applied, "{name}");
        assert_eq!(names(&wrong.current), ["c1=a", "c2=b"], "{name}");
        let right = cas(
            &db,
            "r",
            &[("c2", "b"), ("c1", "a")],
            &[("c1", "x"), ("c2", "y")],
        );
        assert!(right.applied && right.current.is_empty(), "{name}");
        assert_eq!(
            slice(&db, "r", "Standard1", None, range("", "", false, 10)),
            ["c1=x", "c2=y"],
            "{name}"
        );
        // A deleted column is not live: expecting it fails, an empty expectation holds
        // once the row has nothing live.
        apply(&db, "d", vec![("Standard1", ins("c", "v", 1))]);
        apply(&db, "d", vec![("Standard1", del("c", 2))]);
        assert!(!cas(&db, "d", &[("c", "v")], &[]).applied, "{name}");
        let empty_updates = cas(&db, "d", &[], &[]);
        assert!(
            empty_updates.applied && empty_updates.ack.is_none(),
            "{name}"
        );
    }
}

#[test]
fn updates_supersede_earlier_writes_at_server_timestamps() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        // A client timestamp far below the wall clock in microseconds loses to the update.
        apply(&db, "t", vec![("Standard1", ins("c", "old", 1))]);
        assert!(
            cas(&db, "t", &[("c", "old")], &[("c", "new")]).applied,
            "{name}"
        );
        let first = get_timestamp(&db, "t", "c");
        assert!(
            cas(&db, "t", &[("c", "new")], &[("c", "newer")]).applied,
            "{name}"
        );
        let second = get_timestamp(&db, "t", "c");
        assert!(first > 1_000_000_000_000_000 && second > first, "{name}");
    }
}

fn get_timestamp(db: &Db, key: &str, name: &str) -> i64 {
    match db.get(KS, key.as_bytes(), "Standard1", None, Some(name.as_bytes())) {
        Ok(ColumnOrSuper::Column(c)) => c.timestamp,
        other => panic!("{other:?}"),
    }
}

#[test]
fn concurrent_conditional_increments_of_one_row_never_lose_one() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let db = Arc::new(db);
        assert!(cas(&db, "n", &[], &[("n", "0")]).applied);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let db = Arc::clone(&db);
                std::thread::spawn(move || {
                    let mut done = 0;
                    while done < 25 {
                        let now = match db.get(KS, b"n", "Standard1", None, Some(b"n")) {
                            Ok(ColumnOrSuper::Column(c)) => String::from_utf8(c.value).unwrap(),
                            other => panic!("{other:?}"),
                        };
                        let next = (now.parse::<u32>().unwrap() + 1).to_string();
                        if cas(&db, "n", &[("n", &now)], &[("n", &next)]).applied {
                            done += 1;
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(get_value(&db, "n", "n").as_deref(), Some("100"), "{name}");
    }
}

#[test]
fn super_column_families_are_refused() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        match db.cas(KS, b"k", "Super1", &[], Vec::new()) {
            Err(Error::InvalidRequest(why)) => {
                assert_eq!(why, "CAS does not support supercolumns", "{name}")
            }
            Err(other) => panic!("{name}: {other}"),
            Ok(_) => panic!("{name}: a Super CF took a conditional update"),
        }
    }
}
