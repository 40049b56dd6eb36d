//! Column families with later comparators (`docs/api-later.md#schema`, spec §4.5–4.10): the
//! stored order is the type's order on every engine, names that compare equal are one column
//! that keeps the winning version's bytes, and slices, bounds and range tombstones follow the
//! type, composites' end-of-component bytes included.

use super::*;
use crate::types::DataType;

fn later(name: &str, type_string: &str) -> CfDef {
    let t = DataType::parse(type_string).unwrap();
    cf(name, Comparator::of_type(&t), None)
}

fn put(db: &Db, cf: &str, name: &[u8], value: &str, ts: i64) {
    let column = Column {
        name: name.to_vec(),
        value: value.into(),
        timestamp: ts,
        ttl: None,
    };
    let mut mutation = RowMutation::new(KS, "k");
    mutation.push(
        cf,
        Change::Insert {
            super_column: None,
            column,
        },
    );
    db.apply(mutation).unwrap().wait().unwrap();
}

fn names(db: &Db, cf: &str, start: &[u8], finish: &[u8], reversed: bool) -> Vec<Vec<u8>> {
    let p = Predicate::Range(SliceRange {
        start: start.to_vec(),
        finish: finish.to_vec(),
        reversed,
        count: 100,
    });
    db.get_slice(KS, b"k", &parent(cf, None), &p)
        .unwrap()
        .into_iter()
        .map(|c| match c {
            ColumnOrSuper::Column(c) => c.name,
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

fn values(db: &Db, cf: &str) -> Vec<String> {
    let p = range("", "", false, 100);
    show(&db.get_slice(KS, b"k", &parent(cf, None), &p).unwrap())
        .into_iter()
        .map(|s| s.rsplit('=').next().unwrap().to_string())
        .collect()
}

/// A fixture whose databases also hold `cfs`.
fn with(cfs: &[CfDef]) -> Fixture {
    let f = fixture(Partitioner::Random);
    for (_, db) in &f.dbs {
        for cf in cfs {
            db.add_column_family(KS, cf.clone()).unwrap();
        }
    }
    f
}

fn int32(v: i32) -> Vec<u8> {
    v.to_be_bytes().to_vec()
}

#[test]
fn int32_names_are_in_signed_order_both_ways_and_bounded() {
    for (engine, db) in with(&[later("Ints", "Int32Type")]).dbs {
        for v in [5, -1, i32::MIN, 0, i32::MAX, 256] {
            put(&db, "Ints", &int32(v), "x", 1);
        }
        let all: Vec<Vec<u8>> = [i32::MIN, -1, 0, 5, 256, i32::MAX].map(int32).to_vec();
        assert_eq!(names(&db, "Ints", b"", b"", false), all, "{engine}");
        let mut reversed = all.clone();
        reversed.reverse();
        assert_eq!(names(&db, "Ints", b"", b"", true), reversed, "{engine}");
        assert_eq!(
            names(&db, "Ints", &int32(-1), &int32(5), false),
            all[1..4].to_vec(),
            "{engine}"
        );
        assert_eq!(
            names(&db, "Ints", &int32(256), &int32(0), true),
            vec![int32(256), int32(5), int32(0)],
            "{engine}"
        );
    }
}

#[test]
fn equal_integers_are_one_column_under_the_winners_bytes() {
    for (engine, db) in with(&[later("Ints", "IntegerType")]).dbs {
        put(&db, "Ints", &[0x01], "one", 1);
        put(&db, "Ints", &[0x00, 0x01], "padded", 2);
        // An older version under yet other bytes loses and changes nothing.
        put(&db, "Ints", &[0x00, 0x00, 0x01], "old", 0);
        put(&db, "Ints", &[0xFF], "minus one", 1);
        put(&db, "Ints", &[0x01, 0x00], "256", 1);
        assert_eq!(
            names(&db, "Ints", b"", b"", false),
            vec![vec![0xFF], vec![0x00, 0x01], vec![0x01, 0x00]],
            "{engine}"
        );
        assert_eq!(
            values(&db, "Ints"),
            ["minus one", "padded", "256"],
            "{engine}"
        );
        // A read by any equal name finds the column and returns the stored bytes.
        for asked in [&[0x01][..], &[0x00, 0x00, 0x00, 0x01]] {
            match db.get(KS, b"k", "Ints", None, Some(asked)).unwrap() {
                ColumnOrSuper::Column(c) => {
                    assert_eq!(
                        (c.name, c.value),
                        (vec![0x00, 0x01], b"padded".to_vec()),
                        "{engine}"
                    )
                }
                other => panic!("{other:?}"),
            }
        }
        // Back to canonical bytes: the envelope goes, the name reads back plain.
        put(&db, "Ints", &[0x01], "one again", 3);
        assert_eq!(
            names(&db, "Ints", &[0x01], &[0x01], false),
            vec![vec![0x01]],
            "{engine}"
        );
        // Within one mutation the newer of two equal names wins, whatever its bytes.
        let mut m = RowMutation::new(KS, "k");
        for (name, ts) in [(vec![0x00, 0x05], 9), (vec![0x05], 8)] {
            let column = Column {
                name,
                value: ts.to_string().into(),
                timestamp: ts,
                ttl: None,
            };
            m.push(
                "Ints",
                Change::Insert {
                    super_column: None,
                    column,
                },
            );
        }
        db.apply(m).unwrap().wait().unwrap();
        assert_eq!(
            names(&db, "Ints", &[0x05], &[0x05], false),
            vec![vec![0x00, 0x05]],
            "{engine}"
        );
        // A delete under other bytes deletes the column.
        let mut m = RowMutation::new(KS, "k");
        m.push(
            "Ints",
            Change::DeleteColumn {
                super_column: None,
                name: vec![0xFF, 0xFF],
                timestamp: 5,
            },
        );
        db.apply(m).unwrap().wait().unwrap();
        assert_eq!(
            names(&db, "Ints", b"", b"", false),
            vec![vec![0x01], vec![0x00, 0x05], vec![0x01, 0x00]],
            "{engine}"
        );
    }
}

#[test]
fn doubles_order_signed_zeros_and_nans_as_java_does() {
    let d = |v: f64| v.to_bits().to_be_bytes().to_vec();
    let other_nan = 0x7FF0_0000_0000_0001u64.to_be_bytes().to_vec();
    for (engine, db) in with(&[later("Doubles", "DoubleType")]).dbs {
        for (v, ts) in [
            (d(1.0), 1),
            (d(0.0), 1),
            (d(f64::NAN), 1),
            (d(-0.0), 1),
            (d(f64::NEG_INFINITY), 1),
        ] {
            put(&db, "Doubles", &v, "x", ts);
        }
        put(&db, "Doubles", &other_nan, "nan2", 2);
        assert_eq!(
            names(&db, "Doubles", b"", b"", false),
            vec![
                d(f64::NEG_INFINITY),
                d(-0.0),
                d(0.0),
                d(1.0),
                other_nan.clone()
            ],
            "{engine}"
        );
        assert_eq!(
            names(&db, "Doubles", &d(-0.0), &d(-0.0), false),
            vec![d(-0.0)],
            "{engine}"
        );
    }
}

#[test]
fn uuids_order_version_first() {
    let u = |s: &str| uuid::Uuid::parse_str(s).unwrap().as_bytes().to_vec();
    let v4 = u("00000000-0000-4000-8000-000000000000");
    let v1_late = u("ffffffff-ffff-1fff-8000-000000000000");
    let v1_early = u("00000000-0000-1000-8000-000000000000");
    for (engine, db) in with(&[later("Uuids", "UUIDType")]).dbs {
        for v in [&v4, &v1_late, &v1_early] {
            put(&db, "Uuids", v, "x", 1);
        }
        assert_eq!(
            names(&db, "Uuids", b"", b"", false),
            vec![v1_early.clone(), v1_late.clone(), v4.clone()],
            "{engine}"
        );
    }
}

/// A composite name: components with their end-of-component bytes.
fn comp(parts: &[(&[u8], u8)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (v, eoc) in parts {
        out.extend_from_slice(&(v.len() as u16).to_be_bytes());
        out.extend_from_slice(v);
        out.push(*eoc);
    }
    out
}

fn pair(a: &str, b: &str) -> Vec<u8> {
    comp(&[(a.as_bytes(), 0), (b.as_bytes(), 0)])
}

#[test]
fn composite_slices_follow_end_of_component_bounds() {
    let t = "CompositeType(UTF8Type,ReversedType(LongType))";
    let long = |v: i64| v.to_be_bytes().to_vec();
    let name = |a: &str, n: i64| comp(&[(a.as_bytes(), 0), (&long(n), 0)]);
    for (engine, db) in with(&[later("Comp", t)]).dbs {
        for (a, n) in [("b", 1), ("a", 1), ("b", 3), ("a", 2), ("c", 0)] {
            put(&db, "Comp", &name(a, n), "x", 1);
        }
        // The second component is reversed: larger numbers first.
        let all = vec![
            name("a", 2),
            name("a", 1),
            name("b", 3),
            name("b", 1),
            name("c", 0),
        ];
        assert_eq!(names(&db, "Comp", b"", b"", false), all, "{engine}");
        // ("b", EOC 0) as start takes every "b"; ("b", EOC 1) as finish too; ("b", EOC -1)
        // as finish stops before them.
        let b = |eoc| comp(&[(b"b", eoc)]);
        assert_eq!(
            names(&db, "Comp", &b(0), &b(1), false),
            all[2..4].to_vec(),
            "{engine}"
        );
        assert_eq!(
            names(&db, "Comp", b"", &b(0xFF), false),
            all[..2].to_vec(),
            "{engine}"
        );
        assert_eq!(
            names(&db, "Comp", &b(1), b"", false),
            all[4..].to_vec(),
            "{engine}"
        );
        assert_eq!(
            names(&db, "Comp", &b(1), &b(0), true),
            all[2..4].iter().rev().cloned().collect::<Vec<_>>(),
            "{engine}"
        );
    }
}

#[test]
fn reversed_names_run_backwards_and_empty_bounds_stay_unbounded() {
    let long = |v: i64| v.to_be_bytes().to_vec();
    for (engine, db) in with(&[later("Rev", "ReversedType(LongType)")]).dbs {
        for v in [1, 3, 2] {
            put(&db, "Rev", &long(v), "x", 1);
        }
        assert_eq!(
            names(&db, "Rev", b"", b"", false),
            vec![long(3), long(2), long(1)],
            "{engine}"
        );
        assert_eq!(
            names(&db, "Rev", b"", b"", true),
            vec![long(1), long(2), long(3)],
            "{engine}"
        );
        assert_eq!(
            names(&db, "Rev", &long(2), b"", false),
            vec![long(2), long(1)],
            "{engine}"
        );
        assert_eq!(
            names(&db, "Rev", b"", &long(2), false),
            vec![long(3), long(2)],
            "{engine}"
        );
        assert_eq!(
            names(&db, "Rev", b"", &long(2), true),
            vec![long(1), long(2)],
            "{engine}"
        );
    }
}

fn delete_range(db: &Db, cf: &str, start: Vec<u8>, finish: Vec<u8>) {
    let mut m = RowMutation::new(KS, "k");
    m.push(
        cf,
        Change::DeleteRange {
            super_column: None,
            start,
            finish,
            timestamp: 10,
        },
    );
    db.apply(m).unwrap().wait().unwrap();
}

#[test]
fn range_tombstones_over_composite_bounds() {
    let digits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    let cfs = [
        later("Rd", "CompositeType(UTF8Type,UTF8Type)"),
        later("Rd0", "CompositeType(UTF8Type,UTF8Type)"),
    ];
    for (engine, db) in with(&cfs).dbs {
        for cf in ["Rd", "Rd0"] {
            for d in digits {
                put(&db, cf, &pair(d, d), "x", 1);
            }
        }
        // dtest test_range_deletion: ("3", EOC -1) to ("6", "\x01") deletes 3…5, keeps 6.
        delete_range(
            &db,
            "Rd",
            comp(&[(b"3", 0xFF)]),
            comp(&[(b"6", 0), (b"\x01", 0)]),
        );
        let kept: Vec<Vec<u8>> = ["0", "1", "2", "6", "7", "8", "9"]
            .iter()
            .map(|d| pair(d, d))
            .collect();
        assert_eq!(names(&db, "Rd", b"", b"", false), kept, "{engine}");
        // test_range_deletion_eoc_0: ("3", EOC 0) to ("6", EOC 0) deletes 3…5: ("6") is
        // before ("6", "6").
        delete_range(&db, "Rd0", comp(&[(b"3", 0)]), comp(&[(b"6", 0)]));
        assert_eq!(names(&db, "Rd0", b"", b"", false), kept, "{engine}");
        // Later writes at or below the tombstone's timestamp stay hidden.
        put(&db, "Rd0", &pair("4", "z"), "x", 10);
        put(&db, "Rd0", &pair("5", "z"), "x", 11);
        assert_eq!(
            names(&db, "Rd0", &comp(&[(b"4", 0)]), &comp(&[(b"5", 1)]), false),
            vec![pair("5", "z")],
            "{engine}"
        );
    }
}

#[test]
fn names_are_validated_with_the_types_messages() {
    for (engine, db) in with(&[later("Ints", "Int32Type")]).dbs {
        let mut m = RowMutation::new(KS, "k");
        let column = Column {
            name: vec![1, 2, 3],
            value: b"v".to_vec(),
            timestamp: 1,
            ttl: None,
        };
        m.push(
            "Ints",
            Change::Insert {
                super_column: None,
                column,
            },
        );
        match db.apply(m) {
            Err(crate::Error::InvalidRequest(why)) => {
                assert_eq!(why, "Expected 4 or 0 byte int (3)", "{engine}")
            }
            Err(other) => panic!("{engine}: {other:?}"),
            Ok(_) => panic!("{engine}: a 3-byte Int32Type name was stored"),
        }
    }
}

#[test]
fn later_comparators_survive_a_restart() {
    let t = "CompositeType(UTF8Type,ReversedType(IntegerType),DynamicCompositeType(b=>LongType,a=>AsciiType))";
    let dir = tempfile::tempdir().unwrap();
    let open = || {
        let engine = Arc::new(SledEngine::open(&dir.path().join("sled"), 8 << 20).unwrap());
        let options = DbOptions {
            partitioner: Partitioner::Random,
            sync: SyncPolicy::Batch(std::time::Duration::ZERO),
            gc_grace_seconds: 100,
            initial_token: None,
            chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
            clock: Arc::new(|| 1_000_000),
        };
        Db::open(engine, schema(), options).unwrap()
    };
    let name = comp(&[(b"a", 0), (&[0x00, 0x07], 0)]);
    // Every type a comparator may be, at both levels of a Super CF.
    let every = [
        "BytesType",
        "AsciiType",
        "UTF8Type",
        "LongType",
        "Int32Type",
        "IntegerType",
        "DecimalType",
        "DoubleType",
        "FloatType",
        "BooleanType",
        "DateType",
        "TimestampType",
        "UUIDType",
        "LexicalUUIDType",
        "TimeUUIDType",
        "InetAddressType",
        "CompositeType(Int32Type)",
        "DynamicCompositeType()",
        "DynamicCompositeType(x=>DecimalType,b=>ReversedType(UUIDType))",
        "ReversedType(CompositeType(BooleanType,ReversedType(FloatType)))",
        "DoubleType(reversed)",
    ];
    let supers: Vec<CfDef> = every
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let c = Comparator::of_type(&DataType::parse(t).unwrap());
            let sub = Comparator::of_type(&DataType::parse(every[(i + 1) % every.len()]).unwrap());
            cf(&format!("Later{i}"), c, Some(sub))
        })
        .collect();
    {
        let db = open();
        db.add_column_family(KS, later("Deep", t)).unwrap();
        for def in &supers {
            db.add_column_family(KS, def.clone()).unwrap();
        }
        put(&db, "Deep", &name, "x", 1);
    }
    let db = open();
    let schema = db.schema();
    for def in &supers {
        let back = &schema.keyspaces[KS].column_families[&def.name];
        assert_eq!(
            (back.comparator, back.subcomparator),
            (def.comparator, def.subcomparator)
        );
        assert_eq!(back.comparator.class_name(), def.comparator.class_name());
    }
    let def = db.schema().keyspaces[KS].column_families["Deep"].clone();
    assert_eq!(
        def.comparator.class_name(),
        DataType::parse(t).unwrap().class_name()
    );
    assert!(def
        .comparator
        .class_name()
        .contains("DynamicCompositeType(a=>"));
    assert_eq!(names(&db, "Deep", b"", b"", false), vec![name]);
}

#[test]
fn cas_finds_an_expected_column_by_an_equal_name() {
    for (engine, db) in with(&[later("Ints", "IntegerType")]).dbs {
        put(&db, "Ints", &[0x00, 0x07], "seven", 1);
        let expected = [(vec![0x07], b"seven".to_vec())];
        let outcome = db
            .cas(
                KS,
                b"k",
                "Ints",
                &expected,
                vec![(vec![0x08], b"eight".to_vec())],
            )
            .unwrap();
        assert!(outcome.applied, "{engine}");
        outcome.ack.unwrap().wait().unwrap();
        assert_eq!(
            names(&db, "Ints", b"", b"", false),
            vec![vec![0x00, 0x07], vec![0x08]],
            "{engine}"
        );
    }
}

#[test]
fn super_columns_and_subcolumns_take_their_own_later_types() {
    let integer = Comparator::of_type(&DataType::Integer);
    let reversed = Comparator::of_type(&DataType::parse("ReversedType(Int32Type)").unwrap());
    let def = cf("SuperInts", integer, Some(reversed));
    for (engine, db) in with(&[def]).dbs {
        let mut m = RowMutation::new(KS, "k");
        for (sc, n) in [
            (vec![0x01], 1),
            (vec![0x00, 0x01], 3),
            (vec![0x02], 2),
            (vec![0x01], 2),
        ] {
            let column = Column {
                name: int32(n),
                value: b"v".to_vec(),
                timestamp: 1,
                ttl: None,
            };
            m.push(
                "SuperInts",
                Change::Insert {
                    super_column: Some(sc),
                    column,
                },
            );
        }
        db.apply(m).unwrap().wait().unwrap();
        let p = Predicate::Range(SliceRange::all());
        let got = db
            .get_slice(KS, b"k", &parent("SuperInts", None), &p)
            .unwrap();
        let shape: Vec<(Vec<u8>, Vec<Vec<u8>>)> = got
            .into_iter()
            .map(|item| match item {
                ColumnOrSuper::Super(s) => {
                    (s.name, s.columns.into_iter().map(|c| c.name).collect())
                }
                other => panic!("{other:?}"),
            })
            .collect();
        // Super column 1, however written, is one, read back canonical; subcolumns descend.
        assert_eq!(
            shape,
            vec![
                (vec![0x01], vec![int32(3), int32(2), int32(1)]),
                (vec![0x02], vec![int32(2)]),
            ],
            "{engine}"
        );
        // A range deletion of the subcolumns of super column 1, named by other bytes.
        let mut m = RowMutation::new(KS, "k");
        m.push(
            "SuperInts",
            Change::DeleteRange {
                super_column: Some(vec![0x00, 0x00, 0x01]),
                start: int32(3),
                finish: int32(2),
                timestamp: 5,
            },
        );
        db.apply(m).unwrap().wait().unwrap();
        let got = db
            .get_slice(
                KS,
                b"k",
                &parent("SuperInts", None),
                &Predicate::Range(SliceRange::all()),
            )
            .unwrap();
        match &got[0] {
            ColumnOrSuper::Super(s) => {
                let names: Vec<_> = s.columns.iter().map(|c| c.name.clone()).collect();
                assert_eq!(names, vec![int32(1)], "{engine}");
            }
            other => panic!("{other:?}"),
        }
    }
}
