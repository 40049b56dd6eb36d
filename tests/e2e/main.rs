//! End-to-end tests of the Cassandra 0.6 API over real sockets (the rules of `docs/api.md`):
//! each test starts a real ilion [`Node`](ilion::node::Node) on `127.0.0.1:0` over a temporary
//! directory and a test configuration (all six comparators, Standard and Super column families,
//! a replicated keyspace, any of the three partitioners, AllowAll or SimpleAuthenticator in
//! PLAIN or MD5 mode), and drives every one of the 21 methods through the generated Thrift
//! client in all four wire styles — buffered or framed, versioned or old unversioned headers.
//! The tables cover every validation message (`docs/api.md#validation`), the check order
//! (`#order`), the decisions D1–D8 (`docs/compatibility.md`), consistency levels
//! (`#consistency`), the describe outputs (`#describe`) and authentication (`#auth`); `wire`
//! and `wire_args` check the protocol below the generated client with hand-encoded bytes.

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

#[path = "../support/mod.rs"]
mod support;

mod cases;
mod harness;
mod raw;
mod values;

mod auth;
mod auth_logins;
mod connections;
mod consistency;
mod cross_api;
mod cross_schema;
mod describe;
mod describe_ring;
mod old_stores;
mod order;
mod ranges_ordered;
mod ranges_random;
mod reads;
mod reads_super;
mod semantics;
mod validation_key_ranges;
mod validation_mutations;
mod validation_names;
mod validation_paths;
mod validation_predicates;
mod wire;
mod wire_args;
mod writes;
mod writes_batch;
