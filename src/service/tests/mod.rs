//! Tests of the API through the handler methods of a [`Session`], in-process: tables of bad
//! requests for every validation message and the order of checks, consistency levels, describe
//! output, login gating (`docs/api.md` sections 3–5, 11, 12), the D1–D8 decisions
//! (`docs/compatibility.md`), read and write semantics spot checks, reply gates, and a few
//! calls over the Thrift encoding to check the errors table against the generated result
//! structs.

pub(crate) mod fixture;

mod auth_tests;
mod binary_key_tests;
mod consistency_tests;
mod describe_tests;
mod gate_tests;
mod mutation_validation_tests;
mod order_tests;
mod semantics_tests;
mod validation_tests;
mod wire_tests;

use super::Session;
use crate::protocol::{
    CassandraSyncHandler, ColumnOrSuperColumn, ColumnParent, ColumnPath, ConsistencyLevel,
    KeyRange, Mutation, SlicePredicate,
};
use fixture::*;
use std::collections::BTreeMap;

const ONE: ConsistencyLevel = ConsistencyLevel::ONE;

/// One row of a table: a label, the call, and what the client must see.
struct Case {
    label: &'static str,
    call: Box<dyn Fn(&Session) -> Outcome>,
    expected: Outcome,
}

fn case(
    label: &'static str,
    expected: Outcome,
    call: impl Fn(&Session) -> Outcome + 'static,
) -> Case {
    Case {
        label,
        call: Box::new(call),
        expected,
    }
}

/// Runs every case on `session` and reports all mismatches at once.
fn run(session: &Session, cases: Vec<Case>) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = (c.call)(session);
            (got != c.expected).then(|| {
                format!(
                    "{}:\n    expected {:?}\n    got      {:?}",
                    c.label, c.expected, got
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn long(v: i64) -> Vec<u8> {
    v.to_be_bytes().to_vec()
}

/// A version-1 (time-based) UUID whose timestamp grows with `n`.
fn time_uuid(n: u8) -> Vec<u8> {
    let mut b = [0u8; 16];
    b[3] = n;
    b[6] = 0x10;
    b.to_vec()
}

fn get(s: &Session, ks: &str, key: &str, p: ColumnPath) -> Outcome {
    outcome(s.handle_get(ks.into(), key.into(), p, ONE))
}

fn get_value(s: &Session, key: &str, p: ColumnPath) -> Option<Vec<u8>> {
    match s.handle_get(KS.into(), key.into(), p, ONE) {
        Ok(ColumnOrSuperColumn {
            column: Some(c), ..
        }) => Some(c.value),
        _ => None,
    }
}

fn slice(s: &Session, ks: &str, key: &str, parent: ColumnParent, p: SlicePredicate) -> Outcome {
    outcome(s.handle_get_slice(ks.into(), key.into(), parent, p, ONE))
}

/// Column names (or super column names) a slice returns.
fn slice_names(s: &Session, key: &str, parent: ColumnParent, p: SlicePredicate) -> Vec<Vec<u8>> {
    let result = s.handle_get_slice(KS.into(), key.into(), parent, p, ONE);
    result
        .expect("slice")
        .into_iter()
        .map(|c| match (c.column, c.super_column) {
            (Some(c), _) => c.name,
            (None, Some(sc)) => sc.name,
            (None, None) => b"<empty>".to_vec(),
        })
        .collect()
}

fn insert(s: &Session, ks: &str, key: &str, p: ColumnPath) -> Outcome {
    outcome(s.handle_insert(ks.into(), key.into(), p, b"v".to_vec(), 1, ONE))
}

fn remove(s: &Session, ks: &str, key: &str, p: ColumnPath) -> Outcome {
    outcome(s.handle_remove(ks.into(), key.into(), p, 1, ONE))
}

fn batch_insert(
    s: &Session,
    ks: &str,
    key: &str,
    cf: &str,
    coscs: Vec<ColumnOrSuperColumn>,
) -> Outcome {
    let cfmap = BTreeMap::from([(cf.to_string(), coscs)]);
    outcome(s.handle_batch_insert(ks.into(), key.into(), cfmap, ONE))
}

fn mutate(s: &Session, ks: &str, key: &str, cf: &str, mutations: Vec<Mutation>) -> Outcome {
    let map = BTreeMap::from([(
        key.to_string(),
        BTreeMap::from([(cf.to_string(), mutations)]),
    )]);
    outcome(s.handle_batch_mutate(ks.into(), map, ONE))
}

fn range_slices(
    s: &Session,
    ks: &str,
    parent: ColumnParent,
    p: SlicePredicate,
    r: KeyRange,
    cl: ConsistencyLevel,
) -> Outcome {
    outcome(s.handle_get_range_slices(ks.into(), parent, p, r, cl))
}

/// Row keys (with `(ghost)` for rows without columns) a range slice returns.
fn range_keys(s: &Session, cf: &str, p: SlicePredicate, r: KeyRange) -> Vec<String> {
    let rows = s.handle_get_range_slices(KS.into(), parent(cf, None), p, r, ONE);
    rows.expect("range slice")
        .into_iter()
        .map(|row| match row.columns.is_empty() {
            true => format!("{}(ghost)", row.key),
            false => row.key,
        })
        .collect()
}
