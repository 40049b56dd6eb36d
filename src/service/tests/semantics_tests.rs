//! Spot checks of read and write semantics through the API (`docs/api.md#mutations-to-changes`,
//! `#reads`); `cf` has the thorough tests, these check the conversions around it.

use super::*;
use crate::partitioner::Partitioner;
use crate::protocol::SuperColumn;

#[test]
fn get_and_not_found() {
    let f = Fixture::new();
    let s = f.session();
    let c = || path("Standard1", None, Some(b"c"));
    assert_eq!(get(&s, KS, "k", c()), Outcome::NotFound, "missing row");
    assert_eq!(insert(&s, KS, "k", c()), Outcome::Ok);
    let got = s.handle_get(KS.into(), "k".into(), c(), ONE).unwrap();
    assert_eq!(got, cosc_col(b"c", b"v", 1));
    assert_eq!(
        get(&s, KS, "k", path("Standard1", None, Some(b"d"))),
        Outcome::NotFound,
        "missing column"
    );
    assert_eq!(
        outcome(s.handle_remove(KS.into(), "k".into(), c(), 1, ONE)),
        Outcome::Ok
    );
    assert_eq!(
        get(&s, KS, "k", c()),
        Outcome::NotFound,
        "deleted at the same timestamp"
    );
    let reinsert = s.handle_insert(KS.into(), "k".into(), c(), b"w".to_vec(), 2, ONE);
    assert_eq!(outcome(reinsert), Outcome::Ok);
    assert_eq!(get_value(&s, "k", c()), Some(b"w".to_vec()));

    // Super CF: a whole super column, a subcolumn, and a super column with nothing live.
    let sub = |name: &[u8], ts| {
        let p = path("Super1", Some(b"sc"), Some(name));
        s.handle_insert(KS.into(), "k".into(), p, name.to_vec(), ts, ONE)
    };
    sub(b"b", 1).unwrap();
    sub(b"a", 1).unwrap();
    let whole = s.handle_get(
        KS.into(),
        "k".into(),
        path("Super1", Some(b"sc"), None),
        ONE,
    );
    let expected = SuperColumn::new(b"sc".to_vec(), vec![col(b"a", b"a", 1), col(b"b", b"b", 1)]);
    assert_eq!(whole.unwrap(), ColumnOrSuperColumn::new(None, expected));
    assert_eq!(
        get_value(&s, "k", path("Super1", Some(b"sc"), Some(b"b"))),
        Some(b"b".to_vec())
    );
    let remove_sc = s.handle_remove(
        KS.into(),
        "k".into(),
        path("Super1", Some(b"sc"), None),
        1,
        ONE,
    );
    assert_eq!(outcome(remove_sc), Outcome::Ok);
    assert_eq!(
        get(&s, KS, "k", path("Super1", Some(b"sc"), None)),
        Outcome::NotFound
    );
}

#[test]
fn multiget_has_an_entry_per_key() {
    let f = Fixture::new();
    let s = f.session();
    assert_eq!(
        insert(&s, KS, "a", path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );
    let keys = vec!["a".to_string(), "missing".to_string()];
    let got = s
        .handle_multiget(
            KS.into(),
            keys.clone(),
            path("Standard1", None, Some(b"c")),
            ONE,
        )
        .unwrap();
    assert_eq!(
        got,
        BTreeMap::from([
            ("a".to_string(), cosc_col(b"c", b"v", 1)),
            ("missing".to_string(), ColumnOrSuperColumn::new(None, None)),
        ])
    );
    let got = s
        .handle_multiget_slice(KS.into(), keys, parent("Standard1", None), all(), ONE)
        .unwrap();
    assert_eq!(
        got,
        BTreeMap::from([
            ("a".to_string(), vec![cosc_col(b"c", b"v", 1)]),
            ("missing".to_string(), vec![]),
        ])
    );
    assert_eq!(
        s.handle_get_slice(
            KS.into(),
            "missing".into(),
            parent("Standard1", None),
            all(),
            ONE
        )
        .unwrap(),
        vec![]
    );
}

#[test]
fn slices_and_counts() {
    let f = Fixture::new();
    let s = f.session();
    for (name, ts) in [(-5i64, 1), (3, 1), (-1, 1), (7, 1)] {
        let p = path("StdLong", None, Some(&long(name)));
        s.handle_insert(KS.into(), "k".into(), p, b"v".to_vec(), ts, ONE)
            .unwrap();
    }
    let longs = |p| slice_names(&s, "k", parent("StdLong", None), p);
    assert_eq!(longs(all()), [long(-5), long(-1), long(3), long(7)]);
    assert_eq!(longs(range(b"", b"", true, 2)), [long(7), long(3)]);
    assert_eq!(
        longs(range(&long(-1), &long(3), false, 10)),
        [long(-1), long(3)]
    );
    assert_eq!(
        longs(super::names(&[&long(7), &long(-5), &long(100)])),
        [long(-5), long(7)]
    );
    let count = |cf: &str, sc: Option<&[u8]>| {
        s.handle_get_count(KS.into(), "k".into(), parent(cf, sc), ONE)
            .unwrap()
    };
    assert_eq!(count("StdLong", None), 4);
    assert_eq!(count("Standard1", None), 0);

    let cfmap = BTreeMap::from([(
        "Super1".to_string(),
        vec![
            cosc_super(b"sc1", vec![col(b"x", b"1", 1), col(b"y", b"2", 1)]),
            cosc_super(b"sc2", vec![col(b"z", b"3", 1)]),
            cosc_super(b"sc3", vec![]),
        ],
    )]);
    s.handle_batch_insert(KS.into(), "k".into(), cfmap, ONE)
        .unwrap();
    assert_eq!(
        count("Super1", None),
        2,
        "an empty super column writes nothing"
    );
    assert_eq!(count("Super1", Some(b"sc1")), 2);
    assert_eq!(
        slice_names(&s, "k", parent("Super1", None), all()),
        [b"sc1".to_vec(), b"sc2".to_vec()]
    );
    assert_eq!(
        slice_names(
            &s,
            "k",
            parent("Super1", Some(b"sc1")),
            range(b"", b"", true, 1)
        ),
        [b"y".to_vec()]
    );
}

#[test]
fn batch_mutate_deletions() {
    let f = Fixture::new();
    let s = f.session();
    let row = |cf: &str, mutations: Vec<Mutation>| mutate(&s, KS, "k", cf, mutations);
    let supers = |subs: &[&[u8]]| {
        subs.iter()
            .map(|name| col(name, b"v", 1))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        row(
            "Super1",
            vec![
                put(cosc_super(b"sc1", supers(&[b"a", b"b"]))),
                put(cosc_super(b"sc2", supers(&[b"a", b"b"]))),
                put(cosc_super(b"sc3", supers(&[b"a"]))),
            ]
        ),
        Outcome::Ok
    );
    // Names under a super column delete subcolumns; names without one delete super columns.
    assert_eq!(
        row(
            "Super1",
            vec![delete(1, Some(b"sc1"), Some(super::names(&[b"a"])))]
        ),
        Outcome::Ok
    );
    assert_eq!(
        slice_names(&s, "k", parent("Super1", Some(b"sc1")), all()),
        [b"b".to_vec()]
    );
    assert_eq!(
        row(
            "Super1",
            vec![delete(1, None, Some(super::names(&[b"sc2"])))]
        ),
        Outcome::Ok
    );
    assert_eq!(
        row("Super1", vec![delete(1, Some(b"sc3"), None)]),
        Outcome::Ok
    );
    assert_eq!(
        slice_names(&s, "k", parent("Super1", None), all()),
        [b"sc1".to_vec()]
    );
    // An insert and a delete at the same timestamp in one batch: the delete wins.
    let same_batch = vec![
        put(cosc_col(b"c", b"v", 1)),
        delete(1, None, Some(super::names(&[b"c"]))),
    ];
    assert_eq!(row("Standard1", same_batch), Outcome::Ok);
    assert_eq!(
        get(&s, KS, "k", path("Standard1", None, Some(b"c"))),
        Outcome::NotFound
    );
    // A deletion without predicate or super column removes the row of that CF only.
    assert_eq!(
        row("Standard1", vec![put(cosc_col(b"d", b"v", 1))]),
        Outcome::Ok
    );
    assert_eq!(row("Super1", vec![delete(1, None, None)]), Outcome::Ok);
    assert_eq!(
        slice_names(&s, "k", parent("Super1", None), all()),
        Vec::<Vec<u8>>::new()
    );
    assert_eq!(
        slice_names(&s, "k", parent("Standard1", None), all()),
        [b"d".to_vec()]
    );
}

#[test]
fn range_slices_return_ghosts_in_token_order() {
    let f = Fixture::with(Options {
        partitioner: Partitioner::OrderPreserving,
        ..Options::default()
    });
    let s = f.session();
    for key in ["a", "b", "c", "d"] {
        assert_eq!(
            insert(&s, KS, key, path("Standard1", None, Some(b"c"))),
            Outcome::Ok
        );
    }
    assert_eq!(
        remove(&s, KS, "b", path("Standard1", None, None)),
        Outcome::Ok
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), keys("", "", 10)),
        ["a", "b(ghost)", "c", "d"]
    );
    assert_eq!(
        range_keys(
            &s,
            "Standard1",
            super::names(&[b"other"]),
            keys("b", "c", 10)
        ),
        ["b(ghost)", "c(ghost)"]
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), tokens("b", "b", 3)),
        ["c", "d", "a"]
    );
    assert_eq!(
        range_keys(&s, "Standard2", all(), keys("", "", 10)),
        Vec::<String>::new()
    );
    let old = s
        .handle_get_range_slice(
            KS.into(),
            parent("Standard1", None),
            all(),
            "c".into(),
            "".into(),
            5,
            ONE,
        )
        .unwrap();
    let old_keys: Vec<String> = old.into_iter().map(|row| row.key).collect();
    assert_eq!(old_keys, ["c", "d"]);
    let row = s
        .handle_get_range_slices(
            KS.into(),
            parent("Standard1", None),
            all(),
            keys("a", "a", 1),
            ONE,
        )
        .unwrap();
    assert_eq!(
        row,
        vec![crate::protocol::KeySlice::new(
            "a".into(),
            vec![cosc_col(b"c", b"v", 1)]
        )]
    );
}

/// `docs/api-later.md#ttl`: the 0.6 API has no TTL, so it sees a column written with one
/// (through `cf`, as the later API will) as a plain column until it expires, then not at all;
/// its own writes never expire.
#[test]
fn the_0_6_api_sees_expiring_columns_as_plain_ones_until_they_expire() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    let clock = Arc::new(AtomicU32::new(1_000_000));
    let f = Fixture::with(Options {
        clock: Some(Arc::clone(&clock)),
        ..Options::default()
    });
    let s = f.session();
    let mut m = crate::model::RowMutation::new(KS, "k");
    for (super_column, cf) in [(None, "Standard1"), (Some(b"sc".to_vec()), "Super1")] {
        let column = crate::model::Column {
            name: b"c".to_vec(),
            value: b"v".to_vec(),
            timestamp: 1,
            ttl: Some(10),
        };
        m.push(
            cf,
            crate::model::Change::Insert {
                super_column,
                column,
            },
        );
    }
    f.service.db.apply(m).unwrap().wait().unwrap();
    let c = || path("Standard1", None, Some(b"c"));
    let sub = || path("Super1", Some(b"sc"), Some(b"c"));
    let plain = || path("Standard1", None, Some(b"plain"));
    let insert_plain = s.handle_insert(KS.into(), "k".into(), plain(), b"p".to_vec(), 1, ONE);
    assert_eq!(outcome(insert_plain), Outcome::Ok);

    clock.store(1_000_009, Ordering::SeqCst);
    let got = s.handle_get(KS.into(), "k".into(), c(), ONE).unwrap();
    assert_eq!(got, cosc_col(b"c", b"v", 1));
    assert_eq!(get_value(&s, "k", sub()), Some(b"v".to_vec()));
    let count = s.handle_get_count(KS.into(), "k".into(), parent("Standard1", None), ONE);
    assert_eq!(count.unwrap(), 2);

    clock.store(1_000_010, Ordering::SeqCst);
    assert_eq!(get(&s, KS, "k", c()), Outcome::NotFound);
    assert_eq!(get(&s, KS, "k", sub()), Outcome::NotFound);
    let count = s.handle_get_count(KS.into(), "k".into(), parent("Super1", None), ONE);
    assert_eq!(count.unwrap(), 0);
    assert_eq!(
        range_keys(&s, "Super1", all(), keys("", "", 10)),
        ["k(ghost)"]
    );
    // An equal-timestamp 0.6 write stays hidden; a newer one shows and never expires.
    let put = |ts| s.handle_insert(KS.into(), "k".into(), c(), b"w".to_vec(), ts, ONE);
    put(1).unwrap();
    assert_eq!(get(&s, KS, "k", c()), Outcome::NotFound);
    put(2).unwrap();
    clock.store(u32::MAX, Ordering::SeqCst);
    assert_eq!(get_value(&s, "k", c()), Some(b"w".to_vec()));
    assert_eq!(get_value(&s, "k", plain()), Some(b"p".to_vec()));
}
