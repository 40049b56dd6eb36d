//! The command-line tools of the `ilion` binary, kept in the library so that they can be
//! tested in-process: each is a clap `Args` struct and a `run` function the binary calls.
//! They talk to a server only through [`crate::client`].

pub mod cli;
pub mod stress;
pub mod tool;
