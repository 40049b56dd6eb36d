//! Tables of calls: a [`Case`] is a label, a call through a real client, and the outcome the
//! client must see. [`run`] plays a whole table once per wire style, each on its own
//! connection, checks that the connection is still answering afterwards (errors never cost a
//! connection), and reports every mismatch at once. Also the one-line call helpers the tables
//! use, each turning a client call into an [`Outcome`].

use crate::harness::{tag, Server, KS};
use crate::values::{outcome, Outcome};
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{
    ColumnOrSuperColumn, ColumnParent, ColumnPath, ConsistencyLevel, KeyRange, Mutation,
    SlicePredicate,
};
use std::collections::BTreeMap;

/// The default consistency level.
pub const ONE: ConsistencyLevel = ConsistencyLevel::ONE;

type Call = Box<dyn Fn(&mut Client) -> Outcome>;

/// One row of a table.
pub struct Case {
    label: String,
    expected: Outcome,
    call: Call,
}

/// A table row: `call` must produce `expected` in every wire style.
pub fn case(
    label: impl Into<String>,
    expected: Outcome,
    call: impl Fn(&mut Client) -> Outcome + 'static,
) -> Case {
    Case {
        label: label.into(),
        expected,
        call: Box::new(call),
    }
}

/// Plays `cases` in order over a fresh connection in each wire style and fails with every
/// mismatch. Returns the number of calls made.
pub fn run(server: &Server, cases: &[Case]) -> usize {
    let mut failures = Vec::new();
    let mut calls = 0;
    for style in WireStyle::ALL {
        let mut client = server.client(style);
        for c in cases {
            let got = (c.call)(&mut client);
            calls += 1;
            if got != c.expected {
                failures.push(format!(
                    "[{}] {}:\n    expected {:?}\n    got      {:?}",
                    tag(style),
                    c.label,
                    c.expected,
                    got
                ));
            }
        }
        let version = client.describe_version();
        if version.as_deref().ok() != Some("2.2.0") {
            failures.push(format!(
                "[{}] connection unusable after the table: {version:?}",
                tag(style)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatch(es):\n{}",
        failures.len(),
        failures.join("\n")
    );
    calls
}

/// `get` at ONE.
pub fn get(c: &mut Client, ks: &str, key: &str, p: ColumnPath) -> Outcome {
    outcome(c.get(ks.into(), key.into(), p, ONE))
}

/// `get_slice` at ONE.
pub fn slice(c: &mut Client, ks: &str, key: &str, cp: ColumnParent, p: SlicePredicate) -> Outcome {
    outcome(c.get_slice(ks.into(), key.into(), cp, p, ONE))
}

/// `get_count` at ONE.
pub fn count(c: &mut Client, ks: &str, key: &str, cp: ColumnParent) -> Outcome {
    outcome(c.get_count(ks.into(), key.into(), cp, ONE))
}

/// `insert` of value `v` at timestamp 1, at ONE.
pub fn insert(c: &mut Client, ks: &str, key: &str, p: ColumnPath) -> Outcome {
    outcome(c.insert(ks.into(), key.into(), p, b"v".to_vec(), 1, ONE))
}

/// `remove` at timestamp 1, at ONE.
pub fn remove(c: &mut Client, ks: &str, key: &str, p: ColumnPath) -> Outcome {
    outcome(c.remove(ks.into(), key.into(), p, 1, ONE))
}

/// `batch_insert` of `coscs` into one CF, at ONE.
pub fn batch_insert(
    c: &mut Client,
    ks: &str,
    key: &str,
    cf: &str,
    coscs: Vec<ColumnOrSuperColumn>,
) -> Outcome {
    let cfmap = BTreeMap::from([(cf.to_string(), coscs)]);
    outcome(c.batch_insert(ks.into(), key.into(), cfmap, ONE))
}

/// A `batch_mutate` map for one row and one CF.
pub fn mutation_map(
    key: &str,
    cf: &str,
    mutations: Vec<Mutation>,
) -> BTreeMap<String, BTreeMap<String, Vec<Mutation>>> {
    BTreeMap::from([(
        key.to_string(),
        BTreeMap::from([(cf.to_string(), mutations)]),
    )])
}

/// `batch_mutate` of `mutations` on one row and CF, at ONE.
pub fn mutate(c: &mut Client, ks: &str, key: &str, cf: &str, mutations: Vec<Mutation>) -> Outcome {
    outcome(c.batch_mutate(ks.into(), mutation_map(key, cf, mutations), ONE))
}

/// `get_range_slices`.
pub fn range_slices(
    c: &mut Client,
    ks: &str,
    cp: ColumnParent,
    p: SlicePredicate,
    r: KeyRange,
    cl: ConsistencyLevel,
) -> Outcome {
    outcome(c.get_range_slices(ks.into(), cp, p, r, cl))
}

/// The row keys a `get_range_slices` at ONE returns on `cf`, with `(ghost)` after rows that
/// come back without columns.
pub fn range_keys(c: &mut Client, cf: &str, p: SlicePredicate, r: KeyRange) -> Vec<String> {
    let rows = c.get_range_slices(
        KS.into(),
        ColumnParent::new(cf.to_string(), None),
        p,
        r,
        ONE,
    );
    rows.unwrap_or_else(|e| panic!("get_range_slices on {cf}: {e}"))
        .into_iter()
        .map(|row| match row.columns.is_empty() {
            true => format!("{}(ghost)", row.key),
            false => row.key,
        })
        .collect()
}
