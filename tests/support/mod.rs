//! Support shared by the integration suites, each of which includes this directory as
//! `#[path = "../support/mod.rs"] mod support;`: the test configuration ([`conf`]), the one
//! comparable result type ([`outcome`]), running the real binary ([`process`]), and a node in
//! the test's own process ([`node`]). `conf` and `outcome` are also included by the crate's
//! own service tests, so they stay free of anything that exists only outside the crate.

#![allow(dead_code)]

// `outcome` names the generated exceptions through `super::protocol`.
use ilion::protocol;

pub mod conf;
pub mod node;
pub mod outcome;
pub mod process;
