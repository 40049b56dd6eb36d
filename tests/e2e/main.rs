//! End-to-end tests of the Cassandra 0.6 API over real sockets (issue #3): each test starts a
//! real ilion [`Node`](ilion::node::Node) on `127.0.0.1:0` over a temporary directory and a
//! test configuration (all six comparators, Standard and Super column families, a replicated
//! keyspace, any of the three partitioners, AllowAll or SimpleAuthenticator in PLAIN or MD5
//! mode), and drives every one of the 21 methods through the generated Thrift client in all
//! four wire styles — buffered or framed, versioned or old unversioned headers. The tables
//! cover every validation message of spec §5, the check order of §4, the decisions D1–D8,
//! consistency levels (§6), the describe outputs (§11) and authentication (§12); `wire` and
//! `wire_args` check the protocol below the generated client with hand-encoded bytes.

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
mod describe;
mod describe_ring;
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
