//! Support shared by the integration suites, each of which includes this directory as
//! `#[path = "../support/mod.rs"] mod support;`: the test configuration ([`conf`]), the one
//! comparable result type ([`outcome`]), and running the real binary ([`process`]). `conf` and
//! `outcome` are also included by the crate's own service tests, so they stay free of
//! anything that exists only outside the crate.

#![allow(dead_code)]

// `outcome` names the generated exceptions through `super::protocol`.
use ilion::protocol;

pub mod conf;
pub mod outcome;
pub mod process;
