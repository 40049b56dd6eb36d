//! Consistency levels of the later API on a single node (`docs/api-later.md#consistency`):
//! which levels each kind of call accepts, with the later texts, and availability — a call
//! is UnavailableException when its level needs more replicas than are live. This node is
//! the only replica there is, so a keyspace that places a replica here (replication factor
//! ≥ 1) has one live replica and any other has none; ANY writes always succeed (they are
//! written locally whatever the placement).

use crate::config::KeyspaceDef;
use crate::error::{Error, Result};
use crate::protocol::v20::generated::ConsistencyLevel as Cl;

/// The text for an integer that is no consistency level (only `remove` can carry one: its
/// level is not `required` on the wire).
fn unknown(level: Cl) -> Error {
    Error::invalid(format!("Unknown consistency level {}", level.0))
}

fn is_known(level: Cl) -> bool {
    Cl::ENUM_VALUES.contains(&level)
}

/// Replicas a call at `level` waits for under replication factor `rf`. This node is the
/// only data centre, and a keyspace's factor is the one placing replicas there (a
/// NetworkTopologyStrategy keyspace's `datacenter1` count), so the local and each-DC
/// variants count as their cluster-wide forms.
fn block_for(level: Cl, rf: u32) -> u32 {
    match level {
        Cl::QUORUM | Cl::LOCAL_QUORUM | Cl::EACH_QUORUM | Cl::SERIAL | Cl::LOCAL_SERIAL => {
            rf / 2 + 1
        }
        // Every replica, and at least one: nothing placed means nothing can answer.
        Cl::ALL => rf.max(1),
        Cl::TWO => 2,
        Cl::THREE => 3,
        _ => 1,
    }
}

/// Replicas of any key of `ks` that answer: this node, if the keyspace places a replica.
fn live_replicas(ks: &KeyspaceDef) -> u32 {
    u32::from(ks.replication_factor >= 1)
}

/// UnavailableException when `level` needs more replicas than `ks` has live.
fn check_available(ks: &KeyspaceDef, level: Cl) -> Result<()> {
    match block_for(level, ks.replication_factor) > live_replicas(ks) {
        true => Err(Error::Unavailable),
        false => Ok(()),
    }
}

/// The level check of every read: ANY and EACH_QUORUM are for writes only.
pub(super) fn check_read_level(level: Cl) -> Result<()> {
    match level {
        Cl::ANY => Err(Error::invalid(
            "ANY ConsistencyLevel is only supported for writes",
        )),
        Cl::EACH_QUORUM => Err(Error::invalid(
            "EACH_QUORUM ConsistencyLevel is only supported for writes",
        )),
        level if !is_known(level) => Err(unknown(level)),
        _ => Ok(()),
    }
}

/// A read of `rows` rows (or a range read, `rows` = 1) at a checked level: unavailable
/// only when something is read at all.
pub(super) fn check_read_available(ks: &KeyspaceDef, level: Cl, rows: usize) -> Result<()> {
    match rows {
        0 => Ok(()),
        _ => check_available(ks, level),
    }
}

/// SERIAL and LOCAL_SERIAL read one row at a time.
pub(super) fn check_serial_rows(level: Cl, rows: usize) -> Result<()> {
    if matches!(level, Cl::SERIAL | Cl::LOCAL_SERIAL) && rows > 1 {
        return Err(Error::invalid(
            "SERIAL/LOCAL_SERIAL consistency may only be requested for one row at a time",
        ));
    }
    Ok(())
}

/// The level check of every write: serializable writes go through `cas`.
pub(super) fn check_write_level(level: Cl) -> Result<()> {
    match level {
        Cl::SERIAL | Cl::LOCAL_SERIAL => Err(Error::invalid(
            "You must use conditional updates for serializable writes",
        )),
        level if !is_known(level) => Err(unknown(level)),
        _ => Ok(()),
    }
}

/// The extra level check of a counter write (spec §6.9), made before
/// [`check_write_level`] so that its texts win: ANY is not supported for counters, and the
/// serial levels make no sense for them.
pub(super) fn check_counter_level(cf: &str, level: Cl) -> Result<()> {
    match level {
        Cl::ANY => Err(Error::invalid(format!(
            "Consistency level ANY is not yet supported for counter table {cf}"
        ))),
        Cl::SERIAL | Cl::LOCAL_SERIAL => Err(Error::invalid(
            "Counter operations are inherently non-serializable",
        )),
        _ => Ok(()),
    }
}

/// A write at a checked level: ANY is always accepted; anything else needs its replicas.
pub(super) fn check_write_available(ks: &KeyspaceDef, level: Cl) -> Result<()> {
    match level {
        Cl::ANY => Ok(()),
        _ => check_available(ks, level),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn keyspace(rf: u32) -> KeyspaceDef {
        KeyspaceDef {
            name: "K".into(),
            replication_factor: rf,
            replica_placement_strategy: "org.apache.cassandra.locator.RackUnawareStrategy".into(),
            endpoint_snitch: String::new(),
            column_families: BTreeMap::new(),
            strategy_options: Default::default(),
            durable_writes: true,
        }
    }

    fn available(rf: u32, level: Cl, write: bool) -> bool {
        let ks = keyspace(rf);
        match write {
            true => check_write_available(&ks, level).is_ok(),
            false => check_read_available(&ks, level, 1).is_ok(),
        }
    }

    #[test]
    fn one_replica_serves_every_level_but_two_and_three() {
        for level in Cl::ENUM_VALUES {
            let expected = !matches!(*level, Cl::TWO | Cl::THREE);
            assert_eq!(available(1, *level, false), expected, "{level:?}");
            assert_eq!(available(1, *level, true), expected, "{level:?}");
        }
    }

    #[test]
    fn three_replicas_leave_only_the_single_replica_levels() {
        let single = [Cl::ONE, Cl::LOCAL_ONE, Cl::ANY];
        for level in Cl::ENUM_VALUES {
            assert_eq!(
                available(3, *level, true),
                single.contains(level),
                "{level:?}"
            );
        }
        // QUORUM of 2 is 2: already too many.
        assert!(!available(2, Cl::QUORUM, false));
    }

    #[test]
    fn no_replica_refuses_everything_but_any_writes() {
        for level in Cl::ENUM_VALUES {
            assert_eq!(available(0, *level, true), *level == Cl::ANY, "{level:?}");
            assert!(!available(0, *level, false), "{level:?}");
        }
        assert!(check_read_available(&keyspace(0), Cl::ONE, 0).is_ok());
    }

    #[test]
    fn levels_are_refused_with_the_later_texts() {
        let why = |r: Result<()>| match r {
            Err(Error::InvalidRequest(why)) => why,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            why(check_read_level(Cl::ANY)),
            "ANY ConsistencyLevel is only supported for writes"
        );
        assert_eq!(
            why(check_read_level(Cl::EACH_QUORUM)),
            "EACH_QUORUM ConsistencyLevel is only supported for writes"
        );
        assert_eq!(
            why(check_write_level(Cl::LOCAL_SERIAL)),
            "You must use conditional updates for serializable writes"
        );
        assert_eq!(
            why(check_write_level(Cl(42))),
            "Unknown consistency level 42"
        );
        assert!(check_read_level(Cl::SERIAL).is_ok());
        assert!(check_write_level(Cl::EACH_QUORUM).is_ok());
        assert_eq!(
            why(check_serial_rows(Cl::SERIAL, 2)),
            "SERIAL/LOCAL_SERIAL consistency may only be requested for one row at a time"
        );
        assert!(check_serial_rows(Cl::SERIAL, 1).is_ok());
    }
}
