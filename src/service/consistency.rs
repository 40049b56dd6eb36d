//! Consistency levels on a single node (`docs/api.md#consistency`). This node is the only live
//! replica, so a level is satisfiable exactly when it needs at most one replica, computed from
//! the keyspace's configured ReplicationFactor as 0.6 does: reads at QUORUM (and the DC
//! variants) need RF/2+1 replicas and ALL needs RF, hence UnavailableException when RF > 1.
//! Writes count the actual endpoints, so every level succeeds here; ZERO alone does not wait.

use crate::config::Schema;
use crate::error::{Error, Result};
use crate::protocol::ConsistencyLevel;

/// Replicas that answer on a single node.
const LIVE_REPLICAS: u32 = 1;

/// The D7 text for an integer that is no ConsistencyLevel.
fn unknown(level: ConsistencyLevel) -> Error {
    Error::invalid(format!("Unknown consistency level {}", level.0))
}

fn is_known(level: ConsistencyLevel) -> bool {
    ConsistencyLevel::ENUM_VALUES.contains(&level)
}

/// Replicas a blocking read at `level` waits for.
fn block_for(level: ConsistencyLevel, replication_factor: u32) -> u32 {
    match level {
        ConsistencyLevel::QUORUM | ConsistencyLevel::DCQUORUM | ConsistencyLevel::DCQUORUMSYNC => {
            replication_factor / 2 + 1
        }
        ConsistencyLevel::ALL => replication_factor,
        _ => 1,
    }
}

fn replication_factor(schema: &Schema, keyspace: &str) -> u32 {
    schema
        .keyspace(keyspace)
        .map_or(1, |ks| ks.replication_factor)
}

/// The read check of get, get_slice, multiget(_slice) and get_count. ZERO and ANY are
/// refused outright; the replica count matters only when at least one row is read (0.6
/// checks it per key, so an empty key list cannot be unavailable).
pub(crate) fn check_read(
    schema: &Schema,
    keyspace: &str,
    level: ConsistencyLevel,
    rows: usize,
) -> Result<()> {
    match level {
        ConsistencyLevel::ZERO => Err(Error::invalid(
            "Consistency level zero may not be applied to read operations",
        )),
        ConsistencyLevel::ANY => Err(Error::invalid(
            "Consistency level any may not be applied to read operations",
        )),
        level if !is_known(level) => Err(unknown(level)),
        level
            if rows > 0
                && block_for(level, replication_factor(schema, keyspace)) > LIVE_REPLICAS =>
        {
            Err(Error::Unavailable)
        }
        _ => Ok(()),
    }
}

/// The range-read check (`docs/api.md#consistency`, `docs/compatibility.md#d6`): ZERO gets the
/// read text, ANY acts as ONE, QUORUM and up are computed from the replication factor.
pub(crate) fn check_range_read(
    schema: &Schema,
    keyspace: &str,
    level: ConsistencyLevel,
) -> Result<()> {
    match level {
        ConsistencyLevel::ZERO => Err(Error::invalid(
            "Consistency level zero may not be applied to read operations",
        )),
        level if !is_known(level) => Err(unknown(level)),
        level if block_for(level, replication_factor(schema, keyspace)) > LIVE_REPLICAS => {
            Err(Error::Unavailable)
        }
        _ => Ok(()),
    }
}

/// The write check: any known level succeeds on one node; an unknown integer (possible only
/// for `remove`, whose level is not `required`) gets the D7 text.
pub(crate) fn check_write(level: ConsistencyLevel) -> Result<()> {
    match is_known(level) {
        true => Ok(()),
        false => Err(unknown(level)),
    }
}

/// Whether the reply must wait until the write is durable: every level but ZERO.
pub(crate) fn waits_for_durability(level: ConsistencyLevel) -> bool {
    level != ConsistencyLevel::ZERO
}
