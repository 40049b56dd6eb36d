//! Short builders for the Thrift request values tests send — paths, parents, predicates, key
//! ranges, columns and mutations — the same at every test depth: the integration suites
//! include it as `support::requests`, and the crate's service fixture includes the file
//! through `#[path]`. As for `outcome`, the includer brings the crate's `protocol` module
//! into scope.

#![allow(dead_code)]

use super::protocol::{
    Column, ColumnOrSuperColumn, ColumnParent, ColumnPath, Deletion, KeyRange, Mutation,
    SlicePredicate, SliceRange, SuperColumn,
};

/// A ColumnPath.
pub fn path(cf: &str, super_column: Option<&[u8]>, column: Option<&[u8]>) -> ColumnPath {
    ColumnPath::new(
        cf.to_string(),
        super_column.map(<[u8]>::to_vec),
        column.map(<[u8]>::to_vec),
    )
}

/// A ColumnParent.
pub fn parent(cf: &str, super_column: Option<&[u8]>) -> ColumnParent {
    ColumnParent::new(cf.to_string(), super_column.map(<[u8]>::to_vec))
}

/// A names predicate.
pub fn names(names: &[&[u8]]) -> SlicePredicate {
    SlicePredicate::new(names.iter().map(|n| n.to_vec()).collect::<Vec<_>>(), None)
}

/// A range predicate.
pub fn range(start: &[u8], finish: &[u8], reversed: bool, count: i32) -> SlicePredicate {
    let range = SliceRange::new(start.to_vec(), finish.to_vec(), reversed, count);
    SlicePredicate::new(None, range)
}

/// A KeyRange over keys.
pub fn keys(start: &str, end: &str, count: i32) -> KeyRange {
    KeyRange::new(start.to_string(), end.to_string(), None, None, count)
}

/// A KeyRange over tokens.
pub fn tokens(start: &str, end: &str, count: i32) -> KeyRange {
    KeyRange::new(None, None, start.to_string(), end.to_string(), count)
}

/// A Column.
pub fn col(name: &[u8], value: &[u8], timestamp: i64) -> Column {
    Column::new(name.to_vec(), value.to_vec(), timestamp)
}

/// A ColumnOrSuperColumn holding a column.
pub fn cosc_col(name: &[u8], value: &[u8], timestamp: i64) -> ColumnOrSuperColumn {
    ColumnOrSuperColumn::new(col(name, value, timestamp), None)
}

/// A ColumnOrSuperColumn holding a super column.
pub fn cosc_super(name: &[u8], columns: Vec<Column>) -> ColumnOrSuperColumn {
    ColumnOrSuperColumn::new(None, SuperColumn::new(name.to_vec(), columns))
}

/// A Mutation inserting `cosc`.
pub fn put(cosc: ColumnOrSuperColumn) -> Mutation {
    Mutation::new(cosc, None)
}

/// A Mutation deleting.
pub fn delete(
    timestamp: i64,
    super_column: Option<&[u8]>,
    predicate: Option<SlicePredicate>,
) -> Mutation {
    Mutation::new(
        None,
        Deletion::new(timestamp, super_column.map(<[u8]>::to_vec), predicate),
    )
}
