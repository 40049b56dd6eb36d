//! Expiring columns (`docs/api-later.md#ttl`): reads around the expiry, shadowing by an
//! expired column, range ghosts, counts, super columns and the purge, each on every engine,
//! driven by the fixture's clock.

use super::*;

/// The fixture clock's starting time.
const T: u32 = 1_000_000;

fn at(fixture: &Fixture, now: u32) {
    fixture.clock.store(now, Ordering::SeqCst);
}

fn column(name: &str, value: &str, ts: i64, ttl: Option<i32>) -> Column {
    Column {
        name: name.into(),
        value: value.into(),
        timestamp: ts,
        ttl,
    }
}

fn ins_ttl(name: &str, value: &str, ts: i64, ttl: i32) -> Change {
    Change::Insert {
        super_column: None,
        column: column(name, value, ts, Some(ttl)),
    }
}

fn sub_ttl(sc: &str, name: &str, value: &str, ts: i64, ttl: i32) -> Change {
    Change::Insert {
        super_column: Some(sc.into()),
        column: column(name, value, ts, Some(ttl)),
    }
}

fn get_column(db: &Db, key: &str, name: &str) -> Option<Column> {
    match db.get(KS, key.as_bytes(), "Standard1", None, Some(name.as_bytes())) {
        Ok(ColumnOrSuper::Column(c)) => Some(c),
        Err(crate::Error::NotFound) => None,
        other => panic!("unexpected {other:?}"),
    }
}

fn count(db: &Db, key: &str, cf: &str, sc: Option<&str>) -> usize {
    db.get_count(KS, key.as_bytes(), &parent(cf, sc)).unwrap()
}

/// Every row of Standard1, ghosts marked, in ring order.
fn rows(db: &Db) -> Vec<String> {
    let all = KeyRange {
        bounds: RowBounds::Keys {
            start: Vec::new(),
            end: Vec::new(),
        },
        count: 10,
        keys: KeyFilter::Any,
    };
    let slices = db
        .get_range_slices(
            KS,
            &parent("Standard1", None),
            &range("", "", false, 10),
            &all,
        )
        .unwrap();
    slices
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
fn a_column_with_ttl_t_is_readable_until_now_plus_t() {
    let fixture = fixture(Partitioner::OrderPreserving);
    for (name, db) in &fixture.dbs {
        at(&fixture, T);
        apply(
            db,
            "k",
            vec![
                ("Standard1", ins_ttl("e", "v", 1, 10)),
                ("Standard1", ins("p", "plain", 1)),
            ],
        );
        at(&fixture, T + 9);
        // Reads return the TTL it was written with, not the time left.
        assert_eq!(
            get_column(db, "k", "e"),
            Some(column("e", "v", 1, Some(10))),
            "{name}"
        );
        assert_eq!(
            get_column(db, "k", "p"),
            Some(column("p", "plain", 1, None)),
            "{name}"
        );
        let all = range("", "", false, 100);
        assert_eq!(
            slice(db, "k", "Standard1", None, all.clone()),
            ["e=v", "p=plain"],
            "{name}"
        );
        assert_eq!(count(db, "k", "Standard1", None), 2, "{name}");

        at(&fixture, T + 10);
        assert_eq!(get_column(db, "k", "e"), None, "{name}");
        assert_eq!(
            slice(db, "k", "Standard1", None, all),
            ["p=plain"],
            "{name}"
        );
        let names = Predicate::Names(vec![b"e".to_vec(), b"p".to_vec()]);
        assert_eq!(
            slice(db, "k", "Standard1", None, names),
            ["p=plain"],
            "{name}"
        );
        // A count of 1 stops at the first live column, past the expired one.
        assert_eq!(
            slice(db, "k", "Standard1", None, range("", "", false, 1)),
            ["p=plain"],
            "{name}"
        );
        assert_eq!(count(db, "k", "Standard1", None), 1, "{name}");
    }
}

#[test]
fn an_expired_column_shadows_older_and_equal_writes_like_a_tombstone() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        at(&fixture, T);
        apply(db, "k", vec![("Standard1", ins_ttl("c", "b", 5, 10))]);
        // Before it expires, an equal timestamp with a greater value wins as between values.
        apply(db, "k", vec![("Standard1", ins_ttl("d", "b", 5, 10))]);
        apply(db, "k", vec![("Standard1", ins("d", "z", 5))]);
        assert_eq!(get_value(db, "k", "d").as_deref(), Some("z"), "{name}");

        at(&fixture, T + 10);
        apply(db, "k", vec![("Standard1", ins("c", "older", 4))]);
        assert_eq!(get_value(db, "k", "c"), None, "{name}: older stays hidden");
        // Equal timestamp: the expired version wins even against a greater value.
        apply(db, "k", vec![("Standard1", ins("c", "zzz", 5))]);
        assert_eq!(get_value(db, "k", "c"), None, "{name}: equal stays hidden");
        apply(db, "k", vec![("Standard1", ins("c", "newer", 6))]);
        at(&fixture, T + 1_000);
        assert_eq!(
            get_column(db, "k", "c"),
            Some(column("c", "newer", 6, None)),
            "{name}: a newer write is visible and does not expire"
        );
    }
}

#[test]
fn overwrites_replace_or_remove_the_expiry() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        at(&fixture, T);
        apply(db, "k", vec![("Standard1", ins_ttl("keep", "1", 1, 10))]);
        apply(db, "k", vec![("Standard1", ins_ttl("move", "1", 1, 10))]);
        apply(db, "k", vec![("Standard1", ins("keep", "2", 2))]);
        at(&fixture, T + 5);
        apply(db, "k", vec![("Standard1", ins_ttl("move", "2", 2, 10))]);
        at(&fixture, T + 14);
        assert_eq!(get_value(db, "k", "move").as_deref(), Some("2"), "{name}");
        at(&fixture, T + 15);
        assert_eq!(get_value(db, "k", "move"), None, "{name}: new expiry");
        assert_eq!(
            get_column(db, "k", "keep"),
            Some(column("keep", "2", 2, None)),
            "{name}: no expiry left"
        );
        // An older expiring write does not bring an expiry back.
        apply(db, "k", vec![("Standard1", ins_ttl("keep", "0", 1, 10))]);
        at(&fixture, T + 100);
        assert_eq!(get_value(db, "k", "keep").as_deref(), Some("2"), "{name}");
        // A remove works on an expiring column as on any other.
        apply(db, "k", vec![("Standard1", ins_ttl("gone", "1", 1, 50))]);
        apply(db, "k", vec![("Standard1", del("gone", 1))]);
        assert_eq!(get_value(db, "k", "gone"), None, "{name}");
    }
}

#[test]
fn a_row_of_expired_columns_is_a_range_ghost_until_purged() {
    let fixture = fixture(Partitioner::OrderPreserving);
    // gc grace is 100 s: a short TTL waits for the grace after its write time, a long one
    // for its own expiry.
    for (name, db) in &fixture.dbs {
        at(&fixture, T);
        apply(db, "a", vec![("Standard1", ins_ttl("x", "1", 1, 10))]);
        apply(db, "b", vec![("Standard1", ins_ttl("x", "2", 1, 200))]);
        apply(db, "c", vec![("Standard1", ins("x", "3", 1))]);
        assert_eq!(rows(db), ["a:x=1", "b:x=2", "c:x=3"], "{name}");
        at(&fixture, T + 10);
        assert_eq!(rows(db), ["a(ghost)", "b:x=2", "c:x=3"], "{name}");
        assert_eq!(count(db, "a", "Standard1", None), 0, "{name}");
        assert_eq!(
            db.purge_expired_tombstones().unwrap(),
            0,
            "{name}: in grace"
        );
        at(&fixture, T + 100);
        assert_eq!(
            db.purge_expired_tombstones().unwrap(),
            0,
            "{name}: in grace"
        );
        at(&fixture, T + 101);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 1, "{name}");
        assert_eq!(rows(db), ["b:x=2", "c:x=3"], "{name}");
        at(&fixture, T + 199);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 0, "{name}: live");
        at(&fixture, T + 200);
        assert_eq!(rows(db), ["b(ghost)", "c:x=3"], "{name}");
        assert_eq!(db.purge_expired_tombstones().unwrap(), 1, "{name}");
        assert_eq!(rows(db), ["c:x=3"], "{name}");
        // Once purged, an older write is no longer shadowed (as after a tombstone's purge).
        apply(db, "a", vec![("Standard1", ins("x", "old", 0))]);
        assert_eq!(rows(db), ["a:x=old", "c:x=3"], "{name}");
    }
}

#[test]
fn subcolumns_expire_inside_their_super_column() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        at(&fixture, T);
        apply(
            db,
            "k",
            vec![
                ("Super1", sub_ttl("s", "a", "1", 1, 10)),
                ("Super1", sub("s", "b", "2", 1)),
                ("Super1", sub_ttl("t", "c", "3", 1, 10)),
            ],
        );
        let all = range("", "", false, 100);
        assert_eq!(
            slice(db, "k", "Super1", None, all.clone()),
            ["s{a=1,b=2}", "t{c=3}"],
            "{name}"
        );
        match db.get(KS, b"k", "Super1", Some(b"s"), Some(b"a")) {
            Ok(ColumnOrSuper::Column(c)) => assert_eq!(c.ttl, Some(10), "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        at(&fixture, T + 10);
        assert_eq!(
            slice(db, "k", "Super1", None, all.clone()),
            ["s{b=2}"],
            "{name}"
        );
        assert_eq!(count(db, "k", "Super1", None), 1, "{name}");
        assert_eq!(count(db, "k", "Super1", Some("s")), 1, "{name}");
        assert_eq!(count(db, "k", "Super1", Some("t")), 0, "{name}");
        assert_eq!(slice(db, "k", "Super1", Some("s"), all), ["b=2"], "{name}");
        let sc = db.get(KS, b"k", "Super1", Some(b"t"), None);
        assert!(matches!(sc, Err(crate::Error::NotFound)), "{name}: {sc:?}");
        let names = Predicate::Names(vec![b"s".to_vec(), b"t".to_vec()]);
        assert_eq!(slice(db, "k", "Super1", None, names), ["s{b=2}"], "{name}");
        // The expired subcolumn still hides an equal-timestamp re-insert.
        apply(db, "k", vec![("Super1", sub("t", "c", "9", 1))]);
        assert_eq!(count(db, "k", "Super1", Some("t")), 0, "{name}");
    }
}

#[test]
fn a_ttl_that_is_not_positive_is_refused_without_writing() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        for ttl in [0, -1, i32::MIN] {
            let mut m = RowMutation::new(KS, "k");
            m.push("Standard1", ins("ok", "1", 1));
            m.push("Standard1", ins_ttl("bad", "1", 1, ttl));
            match db.apply(m) {
                Err(crate::Error::InvalidRequest(msg)) => {
                    assert_eq!(msg, "ttl must be positive", "{name}")
                }
                Err(other) => panic!("{name}: {other:?}"),
                Ok(_) => panic!("{name}: ttl {ttl} accepted"),
            }
        }
        assert_eq!(get_value(&db, "k", "ok"), None, "{name}: nothing applied");
        // The largest TTL the later API accepts is stored as is.
        apply(
            &db,
            "k",
            vec![("Standard1", ins_ttl("max", "1", 1, 630_720_000))],
        );
        assert_eq!(get_column(&db, "k", "max").unwrap().ttl, Some(630_720_000));
    }
}
