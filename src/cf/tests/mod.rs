//! Behaviour tables from `docs/api.md#data-model` and `#reads`, each run on the sled and fjall
//! engines and on the in-memory twin.

use super::*;
use crate::comparator::Comparator;
use crate::config::{CfDef, ColumnType, KeyspaceDef};
use crate::model::*;
use crate::storage::{FjallEngine, MemoryEngine, SledEngine};
use std::sync::atomic::{AtomicU32, Ordering};

const KS: &str = "Keyspace1";

mod atomic;
mod cas;
mod comparators;
mod counters;
mod paged;
mod schema;
mod truncate;

fn cf(name: &str, comparator: Comparator, sub: Option<Comparator>) -> CfDef {
    CfDef {
        name: name.into(),
        column_type: if sub.is_some() {
            ColumnType::Super
        } else {
            ColumnType::Standard
        },
        comparator,
        subcomparator: sub,
        comment: None,
        later: Default::default(),
    }
}

/// `def` as a counter CF.
fn counter_cf(mut def: CfDef) -> CfDef {
    def.later.default_validation_class = crate::config::COUNTER_TYPE.into();
    def
}

fn schema() -> Arc<Schema> {
    let cfs = [
        cf("Standard1", Comparator::Bytes, None),
        cf("Standard2", Comparator::Bytes, None),
        cf("StdLong", Comparator::Long, None),
        cf("Super1", Comparator::Bytes, Some(Comparator::Bytes)),
        cf("SuperTime", Comparator::TimeUuid, Some(Comparator::Utf8)),
        counter_cf(cf("Counter1", Comparator::Bytes, None)),
        counter_cf(cf(
            "SuperCounter1",
            Comparator::Bytes,
            Some(Comparator::Bytes),
        )),
    ];
    let ks = KeyspaceDef {
        name: KS.into(),
        replication_factor: 1,
        replica_placement_strategy: "org.apache.cassandra.locator.RackUnawareStrategy".into(),
        endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".into(),
        column_families: cfs.into_iter().map(|c| (c.name.clone(), c)).collect(),
        strategy_options: Default::default(),
        durable_writes: true,
    };
    Arc::new(Schema {
        keyspaces: [(KS.to_string(), ks)].into_iter().collect(),
    })
}

/// A database on each engine, sharing one adjustable clock.
struct Fixture {
    dbs: Vec<(&'static str, Db)>,
    clock: Arc<AtomicU32>,
    _dir: tempfile::TempDir,
}

fn fixture(partitioner: Partitioner) -> Fixture {
    let clock = Arc::new(AtomicU32::new(1_000_000));
    let c = Arc::clone(&clock);
    let options = DbOptions {
        partitioner,
        sync: SyncPolicy::Batch(std::time::Duration::ZERO),
        gc_grace_seconds: 100,
        initial_token: None,
        chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
        clock: Arc::new(move || c.load(Ordering::SeqCst)),
    };
    let dir = tempfile::tempdir().unwrap();
    let sled = Arc::new(SledEngine::open(&dir.path().join("sled"), 8 << 20).unwrap());
    let fjall = Arc::new(FjallEngine::open(&dir.path().join("fjall"), 8 << 20).unwrap());
    let dbs = vec![
        (
            "memory",
            Db::open(Arc::new(MemoryEngine::new()), schema(), options.clone()).unwrap(),
        ),
        ("sled", Db::open(sled, schema(), options.clone()).unwrap()),
        ("fjall", Db::open(fjall, schema(), options).unwrap()),
    ];
    Fixture {
        dbs,
        clock,
        _dir: dir,
    }
}

fn apply(db: &Db, key: &str, changes: Vec<(&str, Change)>) {
    let mut mutation = RowMutation::new(KS, key);
    for (cf, change) in changes {
        mutation.push(cf, change);
    }
    let ack = db.apply(mutation).unwrap();
    ack.wait().unwrap();
}

fn ins(name: &str, value: &str, ts: i64) -> Change {
    let column = Column {
        name: name.into(),
        value: value.into(),
        timestamp: ts,
        ttl: None,
    };
    Change::Insert {
        super_column: None,
        column,
    }
}

fn sub(sc: &str, name: &str, value: &str, ts: i64) -> Change {
    let column = Column {
        name: name.into(),
        value: value.into(),
        timestamp: ts,
        ttl: None,
    };
    Change::Insert {
        super_column: Some(sc.into()),
        column,
    }
}

fn del(name: &str, ts: i64) -> Change {
    Change::DeleteColumn {
        super_column: None,
        name: name.into(),
        timestamp: ts,
    }
}

fn parent(cf: &str, sc: Option<&str>) -> ColumnParent {
    ColumnParent {
        column_family: cf.into(),
        super_column: sc.map(Into::into),
    }
}

fn range(start: &str, finish: &str, reversed: bool, count: usize) -> Predicate {
    Predicate::Range(SliceRange {
        start: start.into(),
        finish: finish.into(),
        reversed,
        count,
    })
}

/// Names (and values) of a slice, as "name=value" strings; super columns as "sc{a=1,b=2}".
fn show(items: &[ColumnOrSuper]) -> Vec<String> {
    let col = |c: &Column| {
        format!(
            "{}={}",
            String::from_utf8_lossy(&c.name),
            String::from_utf8_lossy(&c.value)
        )
    };
    let counter = |c: &CounterColumn| format!("{}#{}", String::from_utf8_lossy(&c.name), c.value);
    items
        .iter()
        .map(|i| match i {
            ColumnOrSuper::Column(c) => col(c),
            ColumnOrSuper::Super(s) => format!(
                "{}{{{}}}",
                String::from_utf8_lossy(&s.name),
                s.columns.iter().map(col).collect::<Vec<_>>().join(",")
            ),
            ColumnOrSuper::Counter(c) => counter(c),
            ColumnOrSuper::CounterSuper(s) => format!(
                "{}{{{}}}",
                String::from_utf8_lossy(&s.name),
                s.columns.iter().map(counter).collect::<Vec<_>>().join(",")
            ),
        })
        .collect()
}

fn slice(db: &Db, key: &str, cf: &str, sc: Option<&str>, p: Predicate) -> Vec<String> {
    show(
        &db.get_slice(KS, key.as_bytes(), &parent(cf, sc), &p)
            .unwrap(),
    )
}

fn get_value(db: &Db, key: &str, name: &str) -> Option<String> {
    match db.get(KS, key.as_bytes(), "Standard1", None, Some(name.as_bytes())) {
        Ok(ColumnOrSuper::Column(c)) => Some(String::from_utf8(c.value).unwrap()),
        Err(crate::Error::NotFound) => None,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn reconcile_is_order_independent() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        apply(&db, "k", vec![("Standard1", ins("c", "new", 2))]);
        apply(&db, "k", vec![("Standard1", ins("c", "old", 1))]);
        assert_eq!(get_value(&db, "k", "c").as_deref(), Some("new"), "{name}");
        // Equal timestamps: the greater value wins, whichever arrives first.
        apply(&db, "k", vec![("Standard1", ins("d", "b", 5))]);
        apply(&db, "k", vec![("Standard1", ins("d", "a", 5))]);
        apply(&db, "k", vec![("Standard1", ins("e", "a", 5))]);
        apply(&db, "k", vec![("Standard1", ins("e", "b", 5))]);
        assert_eq!(get_value(&db, "k", "d"), get_value(&db, "k", "e"), "{name}");
        assert_eq!(get_value(&db, "k", "d").as_deref(), Some("b"), "{name}");
        // Equal timestamps: the tombstone wins.
        apply(&db, "k", vec![("Standard1", del("d", 5))]);
        assert_eq!(get_value(&db, "k", "d"), None, "{name}");
        // An insert and a delete at one timestamp in one batch leave the column deleted.
        apply(
            &db,
            "k",
            vec![("Standard1", ins("f", "x", 7)), ("Standard1", del("f", 7))],
        );
        assert_eq!(get_value(&db, "k", "f"), None, "{name}");
    }
}

#[test]
fn tombstones_hide_older_and_equal_writes_only() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        apply(&db, "k", vec![("Standard1", del("c", 1))]);
        apply(&db, "k", vec![("Standard1", ins("c", "v0", 0))]);
        assert_eq!(get_value(&db, "k", "c"), None, "{name}");
        apply(&db, "k", vec![("Standard1", ins("c", "v2", 2))]);
        assert_eq!(get_value(&db, "k", "c").as_deref(), Some("v2"), "{name}");
        // A remove older than the data does nothing visible.
        apply(&db, "k", vec![("Standard1", del("c", 1))]);
        assert_eq!(get_value(&db, "k", "c").as_deref(), Some("v2"), "{name}");

        apply(
            &db,
            "r",
            vec![
                ("Standard1", ins("a", "1", 1)),
                ("Standard2", ins("a", "1", 1)),
            ],
        );
        apply(
            &db,
            "r",
            vec![("Standard1", Change::DeleteRow { timestamp: 3 })],
        );
        apply(
            &db,
            "r",
            vec![
                ("Standard1", ins("b", "0", 0)),
                ("Standard1", ins("c", "4", 4)),
            ],
        );
        assert_eq!(
            slice(&db, "r", "Standard1", None, range("", "", false, 100)),
            ["c=4"],
            "{name}"
        );
        // Row deletes are per column family.
        assert_eq!(
            slice(&db, "r", "Standard2", None, range("", "", false, 100)),
            ["a=1"],
            "{name}"
        );
        // An older row delete never lowers the marker.
        apply(
            &db,
            "r",
            vec![("Standard1", Change::DeleteRow { timestamp: 2 })],
        );
        apply(&db, "r", vec![("Standard1", ins("d", "3", 3))]);
        assert_eq!(
            slice(&db, "r", "Standard1", None, range("", "", false, 100)),
            ["c=4"],
            "{name}"
        );
    }
}

#[test]
fn slices_follow_comparator_order_and_count_live_columns() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let cols = ["c1", "c2", "c3", "c4", "c5"].map(|c| ("Standard1", ins(c, c, 1)));
        apply(&db, "k", cols.to_vec());
        apply(&db, "k", vec![("Standard1", del("c2", 2))]);
        assert_eq!(
            slice(&db, "k", "Standard1", None, range("", "", false, 2)),
            ["c1=c1", "c3=c3"],
            "{name}"
        );
        assert_eq!(
            slice(&db, "k", "Standard1", None, range("c3", "c2", true, 10)),
            ["c3=c3"],
            "{name}"
        );
        assert_eq!(
            slice(&db, "k", "Standard1", None, range("c4", "", true, 10)),
            ["c4=c4", "c3=c3", "c1=c1"]
        );
        assert_eq!(
            slice(&db, "k", "Standard1", None, range("c2", "c4", false, 10)),
            ["c3=c3", "c4=c4"]
        );
        assert!(slice(&db, "k", "Standard1", None, range("", "", false, 0)).is_empty());
        let names = Predicate::Names(vec![
            "c5".into(),
            "c1".into(),
            "zz".into(),
            "c1".into(),
            "c2".into(),
        ]);
        assert_eq!(
            slice(&db, "k", "Standard1", None, names),
            ["c1=c1", "c5=c5"],
            "{name}"
        );
        assert!(slice(&db, "k", "Standard1", None, Predicate::Names(vec![])).is_empty());
        assert!(slice(&db, "missing", "Standard1", None, range("", "", false, 10)).is_empty());
        assert_eq!(
            db.get_count(KS, b"k", &parent("Standard1", None)).unwrap(),
            4,
            "{name}"
        );
        assert_eq!(
            db.get_count(KS, b"missing", &parent("Standard1", None))
                .unwrap(),
            0
        );
    }
}

#[test]
fn long_names_sort_signed() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let long = |v: i64| Column {
            name: v.to_be_bytes().to_vec(),
            value: vec![],
            timestamp: 1,
            ttl: None,
        };
        let mut m = RowMutation::new(KS, "k");
        for v in [5i64, -1, 0, i64::MIN, 300] {
            let change = Change::Insert {
                super_column: None,
                column: long(v),
            };
            m.push("StdLong", change);
        }
        db.apply(m).unwrap().wait().unwrap();
        let got = db
            .get_slice(
                KS,
                b"k",
                &parent("StdLong", None),
                &range("", "", false, 10),
            )
            .unwrap();
        let values: Vec<i64> = got
            .iter()
            .map(|c| match c {
                ColumnOrSuper::Column(c) => i64::from_be_bytes(c.name.clone().try_into().unwrap()),
                _ => panic!(),
            })
            .collect();
        assert_eq!(values, [i64::MIN, -1, 0, 5, 300], "{name}");
    }
}

#[test]
fn super_columns_count_only_when_live() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        apply(
            &db,
            "k",
            vec![
                ("Super1", sub("sc1", "a", "1", 1)),
                ("Super1", sub("sc2", "a", "2", 1)),
            ],
        );
        apply(
            &db,
            "k",
            vec![
                ("Super1", sub("sc3", "b", "3", 1)),
                ("Super1", sub("sc3", "a", "3", 1)),
            ],
        );
        apply(
            &db,
            "k",
            vec![(
                "Super1",
                Change::DeleteSuper {
                    name: "sc1".into(),
                    timestamp: 2,
                },
            )],
        );
        assert_eq!(
            slice(&db, "k", "Super1", None, range("", "", false, 1)),
            ["sc2{a=2}"],
            "{name}"
        );
        assert_eq!(
            slice(&db, "k", "Super1", None, range("", "", true, 5)),
            ["sc3{a=3,b=3}", "sc2{a=2}"],
            "{name}: reversed reverses super columns, not their subcolumns"
        );
        assert!(matches!(
            db.get(KS, b"k", "Super1", Some(b"sc1"), None),
            Err(crate::Error::NotFound)
        ));
        apply(&db, "k", vec![("Super1", sub("sc1", "z", "new", 3))]);
        assert_eq!(
            slice(&db, "k", "Super1", None, range("", "", false, 1)),
            ["sc1{z=new}"],
            "{name}"
        );
        assert_eq!(db.get_count(KS, b"k", &parent("Super1", None)).unwrap(), 3);
        assert_eq!(
            db.get_count(KS, b"k", &parent("Super1", Some("sc3")))
                .unwrap(),
            2
        );
        assert_eq!(
            slice(&db, "k", "Super1", Some("sc3"), range("b", "", false, 5)),
            ["b=3"]
        );

        // A whole-row delete, then newer subcolumns: only the new ones show.
        apply(
            &db,
            "k",
            vec![("Super1", Change::DeleteRow { timestamp: 10 })],
        );
        apply(
            &db,
            "k",
            vec![
                ("Super1", sub("sc2", "n", "11", 11)),
                ("Super1", sub("sc3", "a", "9", 9)),
            ],
        );
        assert_eq!(
            slice(&db, "k", "Super1", None, range("", "", false, 10)),
            ["sc2{n=11}"],
            "{name}"
        );
        let names = Predicate::Names(vec!["sc3".into(), "sc2".into()]);
        assert_eq!(
            slice(&db, "k", "Super1", None, names),
            ["sc2{n=11}"],
            "{name}"
        );
    }
}

#[test]
fn range_slices_walk_the_ring_with_ghosts() {
    for (name, db) in fixture(Partitioner::CollatingOrderPreserving).dbs {
        for key in ["a", "b", "c", "d", "e"] {
            apply(&db, key, vec![("Standard1", ins("x", key, 1))]);
        }
        apply(&db, "z", vec![("Standard2", ins("x", "other cf", 1))]);
        apply(
            &db,
            "c",
            vec![("Standard1", Change::DeleteRow { timestamp: 5 })],
        );
        let p = Partitioner::CollatingOrderPreserving;
        let keys = |bounds: RowBounds, count: usize| -> Vec<String> {
            let r = KeyRange {
                bounds,
                count,
                keys: KeyFilter::Any,
            };
            let rows = db
                .get_range_slices(
                    KS,
                    &parent("Standard1", None),
                    &range("", "", false, 10),
                    &r,
                )
                .unwrap();
            rows.iter()
                .map(|s| {
                    format!(
                        "{}{}",
                        String::from_utf8_lossy(&s.key),
                        if s.columns.is_empty() { "(ghost)" } else { "" }
                    )
                })
                .collect()
        };
        let tokens = |s: &str, e: &str| RowBounds::Tokens {
            start: p.token(s.as_bytes()),
            end: p.token(e.as_bytes()),
        };
        assert_eq!(
            keys(tokens("e", "e"), 100),
            ["a", "b", "c(ghost)", "d", "e"],
            "{name}"
        );
        assert_eq!(
            keys(tokens("c", "c"), 100),
            ["d", "e", "a", "b", "c(ghost)"],
            "{name}"
        );
        assert_eq!(keys(tokens("b", "d"), 100), ["c(ghost)", "d"], "{name}");
        assert_eq!(keys(tokens("d", ""), 100), ["e"], "{name}");
        assert_eq!(keys(tokens("", ""), 2), ["a", "b"], "{name}");
        let key_range = |s: &str, e: &str| RowBounds::Keys {
            start: s.into(),
            end: e.into(),
        };
        assert_eq!(
            keys(key_range("b", "d"), 100),
            ["b", "c(ghost)", "d"],
            "{name}"
        );
        assert_eq!(keys(key_range("d", ""), 100), ["d", "e"], "{name}");
        assert_eq!(keys(key_range("c", "c"), 100), ["c(ghost)"], "{name}");
        assert_eq!(keys(key_range("", ""), 3), ["a", "b", "c(ghost)"], "{name}");
    }
}

#[test]
fn split_tokens_sample_distinct_row_tokens_in_ring_order() {
    for (name, db) in fixture(Partitioner::CollatingOrderPreserving).dbs {
        let p = Partitioner::CollatingOrderPreserving;
        for key in ["a", "b", "c", "d", "e", "f"] {
            apply(&db, key, vec![("Standard1", ins("x", key, 1))]);
        }
        // The same row in another CF, and a row only there: counted once each.
        apply(&db, "b", vec![("Super1", sub("sc", "x", "v", 1))]);
        apply(&db, "g", vec![("Standard2", ins("x", "v", 1))]);
        let splits = |s: &str, e: &str, k: usize| -> Vec<String> {
            let tokens = db
                .split_tokens(&p.token(s.as_bytes()), &p.token(e.as_bytes()), k)
                .unwrap();
            let keys = ["a", "b", "c", "d", "e", "f", "g"];
            tokens
                .iter()
                .map(|t| {
                    keys.iter()
                        .find(|k| p.token(k.as_bytes()) == *t)
                        .map_or_else(|| t.to_string(), |k| k.to_string())
                })
                .collect()
        };
        assert_eq!(splits("", "", 2), ["b", "d", "f"], "{name}");
        assert_eq!(splits("", "", 3), ["c", "f"], "{name}");
        assert_eq!(splits("", "", 100), Vec::<String>::new(), "{name}");
        // Wrapping: (e, b] walks f, g, a, b; b is the end and never a split point.
        assert_eq!(splits("e", "b", 1), ["f", "g", "a"], "{name}");
        // Full ring from d: e, f, g, a, b, c, d.
        assert_eq!(splits("d", "d", 2), ["f", "a", "c"], "{name}");
        assert_eq!(splits("a", "c", 1), ["b"], "{name}");
    }
}

#[test]
fn ghosts_vanish_after_gc_grace() {
    let fixture = fixture(Partitioner::OrderPreserving);
    for (name, db) in &fixture.dbs {
        apply(db, "g", vec![("Standard1", ins("x", "1", 1))]);
        apply(db, "g", vec![("Standard1", del("x", 2))]);
        let all = KeyRange {
            bounds: RowBounds::Keys {
                start: Vec::new(),
                end: Vec::new(),
            },
            count: 10,
            keys: KeyFilter::Any,
        };
        let rows = |db: &Db| {
            db.get_range_slices(
                KS,
                &parent("Standard1", None),
                &range("", "", false, 10),
                &all,
            )
            .unwrap()
        };
        assert_eq!(rows(db).len(), 1, "{name}: a ghost before the grace period");
        assert_eq!(db.purge_expired_tombstones().unwrap(), 0, "{name}");
        fixture.clock.fetch_add(101, Ordering::SeqCst);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 1, "{name}");
        assert!(rows(db).is_empty(), "{name}");
        fixture.clock.fetch_sub(101, Ordering::SeqCst);
    }
}

#[test]
fn invalid_shapes_are_rejected_without_writing() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let mut bad = RowMutation::new(KS, "k");
        bad.push("Standard1", ins("ok", "1", 1));
        bad.push("Super1", ins("c", "1", 1));
        assert!(
            matches!(db.apply(bad), Err(crate::Error::InvalidRequest(_))),
            "{name}"
        );
        assert_eq!(get_value(&db, "k", "ok"), None, "{name}: nothing applied");
        let unknown = RowMutation::new("Nope", "k");
        assert!(db.apply(unknown).unwrap().is_done());
    }
}

mod ranges;
mod ttl;
