//! ilion: a Rust re-implementation of Apache Cassandra 0.6's Thrift-era column-family store,
//! on sled.
//!
//! (The request walk-through is written as the layers land.)

pub mod auth;
pub mod comparator;
pub mod config;
pub mod error;
pub mod partitioner;
pub mod protocol;
pub mod service;

pub use error::{Error, Result};
pub mod cf;
pub mod client;
pub mod model;
pub mod server;
pub mod storage;
