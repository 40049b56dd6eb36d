//! The server as a whole, over real sockets: the real `ilion` binary under hostile input, at
//! its connection limits and through kill -9 and restarts (durability on the wire), and
//! `ilion stress` against a real node and against the no-op floor server.

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

#[path = "../support/mod.rs"]
mod support;

mod durability_wire;
mod hostile_input;
mod limits;
mod stress_node;
mod stress_noop;
