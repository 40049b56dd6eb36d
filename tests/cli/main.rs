//! `ilion cli` driven the way users drive it: the real `ilion` binary run as a child process
//! against a real node on `127.0.0.1:0` (in this process, over a temporary directory), with
//! scripts piped to standard input, `-e` and `-f`, checking standard output, standard error
//! and the exit status; and one session on a terminal under tmux (prompt, history, tab
//! completion). The column families cover every comparator, Standard and Super.

// Test code: a failed unwrap is a failed test, and the helpers outside #[test] fns count too.
#![allow(clippy::unwrap_used)]

mod run;
mod server;
#[path = "../support/mod.rs"]
mod support;

mod errors;
mod options;
mod reads_writes;
mod supers;
mod terminal;
