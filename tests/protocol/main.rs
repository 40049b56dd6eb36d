//! The protocol layer without sockets: the binary codec, dispatch onto the generated handlers
//! (0.6 and its fast path; 20.1.0 in `dispatch20`, `limits20` and `fuzz20`), the resumable
//! splitter, property tests that no bytes make any of them panic, and the stress tool's
//! hand-encoded calls against the generated server code. `util` is the hand encoder and the
//! recording handlers they share.

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

mod util;

mod codec;
mod dispatch;
mod dispatch20;
mod fastpath;
mod fuzz;
mod fuzz20;
mod hot;
mod limits20;
mod splitter;
mod stress_wire;
