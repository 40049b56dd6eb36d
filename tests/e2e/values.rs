//! Request values and result views: short builders for the Thrift structs the tests send
//! (paths, parents, predicates, key ranges, columns and mutations are the shared ones of
//! tests/support/requests.rs; the variants only this suite sends, and credentials, are here),
//! name encodings for the typed comparators, and the expected [`Outcome`]s of logins;
//! [`Outcome`] itself is the shared one of tests/support.

use ilion::protocol::{
    AuthenticationRequest, Column, ColumnOrSuperColumn, ColumnPath, SlicePredicate,
};
use std::collections::BTreeMap;

pub use crate::support::outcome::{internal, ire, outcome, Outcome};
pub use crate::support::requests::{
    col, cosc_col, cosc_super, delete, keys, names, parent, path, put, range, tokens,
};

/// AuthenticationException for a bad password or unknown user (`docs/api.md#auth`, D11, E7).
pub fn bad_login(mode: &str, user: &str) -> Outcome {
    Outcome::Authentication(format!(
        "Given password in password mode {mode} could not be validated for user {user}"
    ))
}

/// AuthorizationException for a user without access to `ks` (`docs/api.md#auth`, D12, E8).
pub fn not_authorized(user: &str, ks: &str) -> Outcome {
    Outcome::Authorization(format!(
        "User {user} could not be authorized to use keyspace {ks}"
    ))
}

/// A ColumnPath to one column of a Standard CF.
pub fn cpath(cf: &str, column: &[u8]) -> ColumnPath {
    path(cf, None, Some(column))
}

/// Everything (up to 1000 columns), ascending.
pub fn all() -> SlicePredicate {
    range(b"", b"", false, 1000)
}

/// A predicate with both names and a range.
pub fn both_predicate() -> SlicePredicate {
    let mut p = names(&[b"a"]);
    p.slice_range = all().slice_range;
    p
}

/// A ColumnOrSuperColumn with both a column and a super column.
pub fn cosc_both(subcolumns: Vec<Column>) -> ColumnOrSuperColumn {
    let mut c = cosc_col(b"c", b"v", 1);
    c.super_column = cosc_super(b"sc", subcolumns).super_column;
    c
}

/// Login credentials.
pub fn credentials(user: &str, password: &str) -> AuthenticationRequest {
    AuthenticationRequest::new(BTreeMap::from([
        ("username".to_string(), user.to_string()),
        ("password".to_string(), password.to_string()),
    ]))
}

/// A LongType name.
pub fn long(v: i64) -> Vec<u8> {
    v.to_be_bytes().to_vec()
}

/// A version-1 (time-based) UUID: `time` is the 60-bit timestamp, `tail` the last byte.
pub fn time_uuid(time: u64, tail: u8) -> Vec<u8> {
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&((time & 0xFFFF_FFFF) as u32).to_be_bytes());
    b[4..6].copy_from_slice(&(((time >> 32) & 0xFFFF) as u16).to_be_bytes());
    b[6..8].copy_from_slice(&((((time >> 48) & 0x0FFF) as u16) | 0x1000).to_be_bytes());
    b[15] = tail;
    b.to_vec()
}

/// A LexicalUUIDType name from its two signed halves.
pub fn lexical(high: i64, low: i64) -> Vec<u8> {
    [high.to_be_bytes(), low.to_be_bytes()].concat()
}

/// The names in a slice result: column names, or super column names.
pub fn result_names(result: &[ColumnOrSuperColumn]) -> Vec<Vec<u8>> {
    result
        .iter()
        .map(|c| match (&c.column, &c.super_column) {
            (Some(c), None) => c.name.clone(),
            (None, Some(sc)) => sc.name.clone(),
            _ => panic!("a result COSC must hold exactly one of column and super column: {c:?}"),
        })
        .collect()
}
