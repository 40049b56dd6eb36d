//! Unit tests of the 0.6 merge rules on hand-made row versions.

use super::*;

const BYTES: CfShape = CfShape {
    is_super: false,
    comparator: Comparator::Bytes,
    subcomparator: Comparator::Bytes,
};
const SUPER: CfShape = CfShape {
    is_super: true,
    ..BYTES
};

fn col(name: &str, value: &str, timestamp: i64, deleted: bool) -> Column {
    Column {
        name: name.as_bytes().to_vec(),
        value: value.as_bytes().to_vec(),
        timestamp,
        deleted,
    }
}

fn standard(deleted_at: Option<i64>, cols: Vec<Column>) -> Row {
    Row {
        key: "k".into(),
        deleted_at,
        body: RowBody::Standard(cols),
    }
}

fn merged_standard(versions: Vec<Row>) -> Row {
    drop_shadowed(merge_versions(versions, BYTES))
}

#[test]
fn newest_version_wins_and_ties_follow_0_6() {
    let row = merged_standard(vec![
        standard(
            None,
            vec![
                col("a", "old", 1, false),
                col("b", "x", 5, false),
                col("c", "a", 3, false),
            ],
        ),
        standard(
            None,
            vec![
                col("a", "new", 2, false),
                col("b", "", 5, true),
                col("c", "b", 3, false),
            ],
        ),
    ]);
    assert_eq!(
        row.body,
        RowBody::Standard(vec![
            col("a", "new", 2, false),
            col("b", "", 5, true),
            col("c", "b", 3, false)
        ])
    );
}

#[test]
fn a_row_tombstone_hides_columns_up_to_its_timestamp() {
    let row = merged_standard(vec![
        standard(
            None,
            vec![
                col("a", "v", 10, false),
                col("b", "v", 11, false),
                col("c", "", 9, true),
            ],
        ),
        standard(Some(10), vec![]),
        standard(Some(8), vec![]),
    ]);
    assert_eq!(row.deleted_at, Some(10));
    assert_eq!(row.body, RowBody::Standard(vec![col("b", "v", 11, false)]));
}

#[test]
fn super_column_tombstones_hide_their_subcolumns() {
    let sc = |name: &str, deleted_at, columns| SuperColumn {
        name: name.as_bytes().to_vec(),
        deleted_at,
        columns,
    };
    let v1 = Row {
        key: "k".into(),
        deleted_at: Some(3),
        body: RowBody::Super(vec![
            sc(
                "s1",
                None,
                vec![col("x", "1", 4, false), col("y", "1", 6, false)],
            ),
            sc("s2", Some(2), vec![]),
            sc("s3", None, vec![]),
        ]),
    };
    let v2 = Row {
        key: "k".into(),
        deleted_at: None,
        body: RowBody::Super(vec![sc("s1", Some(5), vec![col("z", "", 7, true)])]),
    };
    let row = drop_shadowed(merge_versions(vec![v1, v2], SUPER));
    assert_eq!(row.deleted_at, Some(3));
    // s2's tombstone is covered by the row's; s3 (a read-repair artifact) carries nothing.
    assert_eq!(
        row.body,
        RowBody::Super(vec![sc(
            "s1",
            Some(5),
            vec![col("y", "1", 6, false), col("z", "", 7, true)]
        )])
    );
}

#[test]
fn rows_left_with_nothing_are_empty() {
    let row = merged_standard(vec![standard(None, vec![])]);
    assert!(row.is_empty());
    let row = merged_standard(vec![standard(Some(1), vec![col("a", "", 1, false)])]);
    assert!(!row.is_empty());
    assert_eq!(row.column_count(), 0);
}

fn arb_version() -> impl proptest::strategy::Strategy<Value = Row> {
    use proptest::prelude::*;
    let column = (0u8..4, 0u8..3, 0i64..5, any::<bool>()).prop_map(|(n, v, ts, deleted)| Column {
        name: vec![b'a' + n],
        value: vec![v],
        timestamp: ts,
        deleted,
    });
    (
        proptest::option::of(0i64..5),
        proptest::collection::vec(column, 0..4),
    )
        .prop_map(|(deleted_at, mut cols)| {
            // One file holds each name at most once.
            cols.sort_by(|a, b| a.name.cmp(&b.name));
            cols.dedup_by(|a, b| a.name == b.name);
            standard(deleted_at, cols)
        })
}

proptest::proptest! {
    /// 0.6's merge does not depend on which SSTable is read first.
    #[test]
    fn the_merge_is_independent_of_file_order(versions in proptest::collection::vec(arb_version(), 1..5)) {
        let forward = merged_standard(versions.clone());
        let mut reversed = versions;
        reversed.reverse();
        proptest::prop_assert_eq!(forward, merged_standard(reversed));
    }
}
