//! Support shared by the integration suites, each of which includes this directory as
//! `#[path = "../support/mod.rs"] mod support;`: the test configuration ([`conf`]), the one
//! comparable result type ([`outcome`]), the Thrift request builders ([`requests`]), running
//! the real binary ([`process`]), and a node in the test's own process ([`node`]). `conf`,
//! `outcome` and `requests` are also included by the crate's own service tests, so they stay
//! free of anything that exists only outside the crate.

#![allow(dead_code)]

// `outcome` and `requests` name the generated types through `super::protocol`.
use ilion::protocol;

pub mod conf;
pub mod node;
pub mod outcome;
pub mod process;
pub mod requests;
