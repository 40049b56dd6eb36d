//! Dispatch decodes a call's own bytes when normalizing would not change them, and a
//! normalized copy otherwise. Both roads must give the handler the same arguments: each
//! random call from the generated client is run as sent (no rewrite needed) and with an
//! unknown field added after the header (normalizing drops it, so the copy is decoded).

use crate::util::handler::Recorder;
use ilion::protocol::generated::{CassandraSyncClient, TCassandraSyncClient};
use ilion::protocol::{
    process, Column, ColumnOrSuperColumn, ColumnParent, ConsistencyLevel, Deletion, KeyRange,
    Limits, Mode, Mutation, SlicePredicate, SliceRange, SuperColumn,
};
use proptest::prelude::*;
use std::collections::BTreeMap;
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};

type Client<'a> =
    CassandraSyncClient<TBinaryInputProtocol<&'a [u8]>, TBinaryOutputProtocol<&'a mut Vec<u8>>>;

/// The versioned bytes the generated client sends for one call.
fn request(call: impl FnOnce(&mut Client<'_>)) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut c = CassandraSyncClient::new(
            TBinaryInputProtocol::new(&[][..], true),
            TBinaryOutputProtocol::new(&mut out, true),
        );
        call(&mut c); // fails reading the (absent) reply, which is fine
    }
    out
}

/// The same call with an i32 field of unknown id 99 first in its arguments.
fn with_unknown_field(message: &[u8]) -> Vec<u8> {
    let name_len = u32::from_be_bytes(message[4..8].try_into().unwrap()) as usize;
    let args_at = 8 + name_len + 4;
    let mut out = message[..args_at].to_vec();
    out.extend_from_slice(&[8, 0, 99, 0, 0, 0, 7]);
    out.extend_from_slice(&message[args_at..]);
    out
}

/// What the handler saw, and the reply, for `message`.
fn run(message: &[u8]) -> (String, Vec<u8>) {
    let h = Recorder::default();
    let mode = Mode {
        framed: false,
        strict: true,
    };
    let reply = process(message, mode, &Limits::default(), &h).expect("a reply");
    (h.last(), reply)
}

fn same_either_way(message: Vec<u8>) {
    let direct = run(&message);
    let copied = run(&with_unknown_field(&message));
    assert!(!direct.0.is_empty(), "the handler was not called");
    assert_eq!(direct, copied);
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..12)
}

fn column() -> impl Strategy<Value = Column> {
    (bytes(), bytes(), any::<i64>()).prop_map(|(n, v, t)| Column::new(n, v, t))
}

fn cosc() -> impl Strategy<Value = ColumnOrSuperColumn> {
    prop_oneof![
        column().prop_map(|c| ColumnOrSuperColumn::new(c, None)),
        (bytes(), prop::collection::vec(column(), 0..3))
            .prop_map(|(n, cs)| ColumnOrSuperColumn::new(None, SuperColumn::new(n, cs))),
    ]
}

fn predicate() -> impl Strategy<Value = SlicePredicate> {
    prop_oneof![
        prop::collection::vec(bytes(), 0..3).prop_map(|ns| SlicePredicate::new(ns, None)),
        (bytes(), bytes(), any::<bool>(), any::<i32>())
            .prop_map(|(s, f, r, c)| { SlicePredicate::new(None, SliceRange::new(s, f, r, c)) }),
    ]
}

fn parent() -> impl Strategy<Value = ColumnParent> {
    ("[A-Za-z0-9]{0,8}", prop::option::of(bytes())).prop_map(|(cf, sc)| ColumnParent::new(cf, sc))
}

fn cl() -> impl Strategy<Value = ConsistencyLevel> {
    (0..7i32).prop_map(ConsistencyLevel)
}

proptest! {
    #[test]
    fn batch_insert(key in ".{0,8}", cf in "[A-Za-z]{1,8}", coscs in prop::collection::vec(cosc(), 0..4), cl in cl()) {
        let cfmap = BTreeMap::from([(cf, coscs)]);
        same_either_way(request(|c| {
            let _ = c.batch_insert("Keyspace1".into(), key, cfmap, cl);
        }));
    }

    #[test]
    fn get_slice(key in ".{0,8}", parent in parent(), pred in predicate(), cl in cl()) {
        same_either_way(request(|c| {
            let _ = c.get_slice("Keyspace1".into(), key, parent, pred, cl);
        }));
    }

    #[test]
    fn get_range_slices(
        parent in parent(),
        pred in predicate(),
        keys in prop::option::of((".{0,6}", ".{0,6}")),
        count in any::<i32>(),
        cl in cl(),
    ) {
        let (start, end) = keys.unzip();
        let range = KeyRange::new(start, end, None, None, count);
        same_either_way(request(|c| {
            let _ = c.get_range_slices("Keyspace1".into(), parent, pred, range, cl);
        }));
    }

    #[test]
    fn batch_mutate(
        key in ".{0,6}",
        inserts in prop::collection::vec(cosc(), 0..3),
        deletion in prop::option::of((any::<i64>(), prop::option::of(bytes()), prop::option::of(predicate()))),
        cl in cl(),
    ) {
        let mut mutations: Vec<Mutation> =
            inserts.into_iter().map(|c| Mutation::new(c, None)).collect();
        if let Some((t, sc, p)) = deletion {
            mutations.push(Mutation::new(None, Deletion::new(t, sc, p)));
        }
        let map = BTreeMap::from([(key, BTreeMap::from([("Standard1".to_string(), mutations)]))]);
        same_either_way(request(|c| {
            let _ = c.batch_mutate("Keyspace1".into(), map, cl);
        }));
    }
}
