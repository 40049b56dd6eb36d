//! The admin endpoint as operators and monitoring use it: Prometheus text after real Thrift
//! traffic, the token rule, every `ilion tool` verb run as the binary, snapshots that a new
//! node starts from, drain, and the status page rendered by a real headless Chromium.

mod browser;
mod harness;
mod metrics;
mod snapshots;
#[path = "../support/mod.rs"]
mod support;
mod token;
mod tool;
