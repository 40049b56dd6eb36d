//! `get_paged_slice` (`docs/api-later.md#paged-slice`): one column budget across rows, the
//! start row from a column, ghosts that cost nothing, key filters, and super columns cut by
//! the budget — on every engine.

use super::*;

/// Each row as "key:[name=value,…]".
fn paged(
    db: &Db,
    cf: &str,
    bounds: RowBounds,
    keys: KeyFilter,
    from: &str,
    count: usize,
) -> Vec<String> {
    let range = KeyRange {
        bounds,
        count,
        keys,
    };
    db.get_paged_slice(KS, cf, &range, from.as_bytes())
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}:[{}]",
                String::from_utf8_lossy(&s.key),
                show(&s.columns).join(",")
            )
        })
        .collect()
}

fn span(start: &str, end: &str) -> RowBounds {
    RowBounds::KeySpan {
        start: start.into(),
        end: end.into(),
    }
}

/// Rows a (c1…c5, c2 deleted), b (c1, c2), c (a ghost), d (c1…c3), e (c1) in Standard1.
fn standard_rows(db: &Db) {
    let cols = |names: &[&str]| -> Vec<(&'static str, Change)> {
        names.iter().map(|n| ("Standard1", ins(n, n, 1))).collect()
    };
    apply(db, "a", cols(&["c1", "c2", "c3", "c4", "c5"]));
    apply(db, "a", vec![("Standard1", del("c2", 2))]);
    apply(db, "b", cols(&["c1", "c2"]));
    apply(db, "c", cols(&["c1"]));
    apply(
        db,
        "c",
        vec![("Standard1", Change::DeleteRow { timestamp: 5 })],
    );
    apply(db, "d", cols(&["c1", "c2", "c3"]));
    apply(db, "e", cols(&["c1"]));
    // Another CF's row is not this one's.
    apply(db, "bb", vec![("Standard2", ins("x", "x", 1))]);
}

#[test]
fn the_column_budget_spans_rows_and_stops_when_spent() {
    let p = Partitioner::OrderPreserving;
    for (name, db) in fixture(p).dbs {
        standard_rows(&db);
        let any = KeyFilter::Any;
        assert_eq!(
            paged(&db, "Standard1", span("a", ""), any, "c3", 6),
            [
                "a:[c3=c3,c4=c4,c5=c5]",
                "b:[c1=c1,c2=c2]",
                "c:[]",
                "d:[c1=c1]"
            ],
            "{name}: the start row from c3, the ghost costs nothing, d is cut"
        );
        assert_eq!(
            paged(&db, "Standard1", span("a", ""), any, "c3", 5),
            ["a:[c3=c3,c4=c4,c5=c5]", "b:[c1=c1,c2=c2]"],
            "{name}: nothing read past the spent budget, not even a ghost"
        );
        assert_eq!(
            paged(&db, "Standard1", span("a", ""), any, "", 3),
            ["a:[c1=c1,c3=c3,c4=c4]"],
            "{name}: an empty start column; the deleted c2 is skipped and not counted"
        );
        assert_eq!(
            paged(&db, "Standard1", span("b", "d"), any, "c2", 100),
            ["b:[c2=c2]", "c:[]", "d:[c1=c1,c2=c2,c3=c3]"],
            "{name}: the span ends at d"
        );
        assert_eq!(
            paged(&db, "Standard1", span("bb", ""), any, "c2", 2),
            ["c:[]", "d:[c1=c1,c2=c2]"],
            "{name}: no row has the start key, so every row starts at its first column"
        );
        let to_token = RowBounds::KeyToToken {
            start: "d".into(),
            end: p.min_token(),
        };
        assert_eq!(
            paged(&db, "Standard1", to_token, any, "c3", 100),
            ["d:[c3=c3]", "e:[c1=c1]"],
            "{name}"
        );
        let tokens = RowBounds::Tokens {
            start: p.token(b"a"),
            end: p.token(b"b"),
        };
        assert_eq!(
            paged(&db, "Standard1", tokens, any, "c2", 100),
            ["b:[c1=c1,c2=c2]"],
            "{name}: a token range has no start row"
        );
        let keys = RowBounds::Keys {
            start: "e".into(),
            end: "".into(),
        };
        assert_eq!(
            paged(&db, "Standard1", keys, any, "c1", 100),
            ["e:[c1=c1]"],
            "{name}: 0.6 key bounds start at their key too"
        );
        assert_eq!(
            paged(&db, "Standard1", span("e", "e"), any, "c2", 100),
            ["e:[]"],
            "{name}: the start row past its last column"
        );
    }
}

#[test]
fn rows_the_key_filter_hides_are_skipped() {
    for (name, db) in fixture(Partitioner::OrderPreserving).dbs {
        apply(&db, "a", vec![("Standard1", ins("c1", "1", 1))]);
        let mut raw = RowMutation::new(KS, vec![0xFF]);
        raw.push("Standard1", ins("c1", "raw", 1));
        db.apply(raw).unwrap().wait().unwrap();
        apply(&db, "g", vec![("Standard1", ins("c1", "1", 1))]);
        assert_eq!(
            paged(&db, "Standard1", span("", ""), KeyFilter::Utf8, "", 2),
            ["a:[c1=1]", "g:[c1=1]"],
            "{name}"
        );
        let all = paged(&db, "Standard1", span("", ""), KeyFilter::Any, "", 3);
        assert_eq!(all.len(), 3, "{name}: {all:?}");
        assert_eq!(
            all[1], "\u{fffd}:[c1=raw]",
            "{name}: the key FF has token ff"
        );
    }
}

#[test]
fn super_columns_count_subcolumns_and_the_last_is_cut() {
    for (name, db) in fixture(Partitioner::OrderPreserving).dbs {
        apply(
            &db,
            "a",
            vec![
                ("Super1", sub("sc1", "x", "1", 1)),
                ("Super1", sub("sc1", "y", "1", 1)),
                ("Super1", sub("sc2", "x", "2", 1)),
                ("Super1", sub("sc2", "y", "2", 1)),
                ("Super1", sub("sc2", "z", "2", 1)),
                ("Super1", sub("sc3", "x", "3", 1)),
                ("Super1", sub("sc4", "x", "4", 1)),
            ],
        );
        let gone = Change::DeleteSuper {
            name: "sc3".into(),
            timestamp: 2,
        };
        apply(&db, "a", vec![("Super1", gone)]);
        apply(&db, "b", vec![("Super1", sub("sc1", "x", "b", 1))]);
        let any = KeyFilter::Any;
        assert_eq!(
            paged(&db, "Super1", span("a", ""), any, "sc2", 2),
            ["a:[sc2{x=2,y=2}]"],
            "{name}: from super column sc2, cut after two subcolumns"
        );
        assert_eq!(
            paged(&db, "Super1", span("a", ""), any, "sc2", 5),
            ["a:[sc2{x=2,y=2,z=2},sc4{x=4}]", "b:[sc1{x=b}]"],
            "{name}: the deleted sc3 is left out and costs nothing"
        );
        assert_eq!(
            paged(&db, "Super1", span("", ""), any, "", 3),
            ["a:[sc1{x=1,y=1},sc2{x=2}]"],
            "{name}"
        );
    }
}
