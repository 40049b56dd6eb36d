//! Compare-and-set on one row (`docs/api-later.md#cas`): the row is read, the condition
//! evaluated and the updates written under the row's lock (and, on an engine several front
//! ends share, its lease), so conditional updates of one row never interleave — the single
//! node's stand-in for Paxos. The updates are written at a server timestamp in
//! microseconds that only grows, so each successful update supersedes the one before.

use super::Db;
use crate::error::{Error, Result};
use crate::model::{
    Change, Column, ColumnOrSuper, ColumnParent, Predicate, RowMutation, SliceRange,
};
use crate::storage::{Ack, EncodedRow};
use std::sync::atomic::{AtomicI64, Ordering};

/// The last timestamp a conditional update was written at, process-wide.
static LAST_CAS_MICROS: AtomicI64 = AtomicI64::new(i64::MIN);

/// The timestamp of the next conditional update: the wall clock in microseconds, or one more
/// than the last one when the clock has not moved past it.
fn next_timestamp() -> i64 {
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX));
    let mut last = LAST_CAS_MICROS.load(Ordering::Relaxed);
    loop {
        let next = wall.max(last.saturating_add(1));
        match LAST_CAS_MICROS.compare_exchange_weak(last, next, Ordering::AcqRel, Ordering::Relaxed)
        {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}

/// What a conditional update did.
pub struct CasOutcome {
    /// True when the condition held and the updates were written.
    pub applied: bool,
    /// When not applied: the live columns the condition looked at (for an empty
    /// expectation, the row's first live column).
    pub current: Vec<Column>,
    /// When applied: the acknowledgement to wait on before replying.
    pub ack: Option<Ack>,
}

impl Db {
    /// `cas` on a Standard column family: when the row has, for every `(name, value)` of
    /// `expected`, a live column of that name with exactly that value — or, for an empty
    /// `expected`, no live column at all — writes `updates` (name, value) at a fresh server
    /// timestamp without TTL; otherwise writes nothing and returns the live columns looked
    /// at.
    pub fn cas(
        &self,
        keyspace: &str,
        key: &[u8],
        column_family: &str,
        expected: &[(Vec<u8>, Vec<u8>)],
        updates: Vec<(Vec<u8>, Vec<u8>)>,
    ) -> Result<CasOutcome> {
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, column_family)?;
        if cf.def.is_super() {
            return Err(Error::invalid("CAS does not support supercolumns"));
        }
        let parent = ColumnParent {
            column_family: column_family.to_string(),
            super_column: None,
        };
        let row = EncodedRow::new(self.partitioner(), key);
        let _guard = self.locks.lock(keyspace, key);
        self.refuse_if_drained()?;
        // Taken before the read, so no other front end writes the row in between.
        let session = self.store.batch_session(&[(cf.layout, &row)])?;
        let probe = match expected.is_empty() {
            true => Predicate::Range(SliceRange {
                count: 1,
                ..SliceRange::all()
            }),
            false => Predicate::Names(expected.iter().map(|(name, _)| name.clone()).collect()),
        };
        let current: Vec<Column> = self
            .get_slice(keyspace, key, &parent, &probe)?
            .into_iter()
            .filter_map(|item| match item {
                ColumnOrSuper::Column(c) => Some(c),
                _ => None,
            })
            .collect();
        let holds = match expected.is_empty() {
            true => current.is_empty(),
            false => expected
                .iter()
                // By the comparator: the stored bytes of a name may differ from the expected.
                .all(|(name, value)| {
                    current.iter().any(|c| {
                        cf.def.comparator.compare(&c.name, name).is_eq() && &c.value == value
                    })
                }),
        };
        if !holds {
            return Ok(CasOutcome {
                applied: false,
                current,
                ack: None,
            });
        }
        let mut mutation = RowMutation::new(keyspace, key);
        if !updates.is_empty() {
            let timestamp = next_timestamp();
            let changes = updates
                .into_iter()
                .map(|(name, value)| Change::Insert {
                    super_column: None,
                    column: Column {
                        name,
                        value,
                        timestamp,
                        ttl: None,
                    },
                })
                .collect();
            mutation.push_group(column_family.to_string(), changes);
        }
        let ack = match mutation.is_empty() {
            true => None,
            false => Some(self.apply_held(session, mutation)?),
        };
        Ok(CasOutcome {
            applied: true,
            current: Vec::new(),
            ack,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_only_grow_and_follow_the_clock() {
        let wall_before = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_micros();
        let stamps: Vec<i64> = (0..1000).map(|_| next_timestamp()).collect();
        assert!(stamps.windows(2).all(|w| w[0] < w[1]));
        assert!(i128::from(stamps[0]) >= i128::try_from(wall_before).unwrap());
    }
}
