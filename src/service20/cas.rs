//! `cas` (`docs/api-later.md#cas`, spec §6.14): a conditional update of one row of a
//! Standard column family, checked in the later order — session, key, column family kind,
//! update names and data, expected names and values (F3), the serial level, the commit
//! level, availability — then evaluated and written by `cf` under the row's lock.

use super::consistency::{check_read_available, check_write_available};
use super::mutations::validate_column_data;
use super::schema::strategy_class;
use super::validation::{invalid, validate_key, validate_names};
use super::Session20;
use crate::error::Result;
use crate::protocol::v20::generated::{CASResult, Column, ConsistencyLevel as Cl};

/// Cassandra's name of a consistency level, as its messages print it.
fn level_name(level: Cl) -> String {
    let name = match level {
        Cl::ONE => "ONE",
        Cl::QUORUM => "QUORUM",
        Cl::LOCAL_QUORUM => "LOCAL_QUORUM",
        Cl::EACH_QUORUM => "EACH_QUORUM",
        Cl::ALL => "ALL",
        Cl::ANY => "ANY",
        Cl::TWO => "TWO",
        Cl::THREE => "THREE",
        Cl::SERIAL => "SERIAL",
        Cl::LOCAL_SERIAL => "LOCAL_SERIAL",
        Cl::LOCAL_ONE => "LOCAL_ONE",
        other => return other.0.to_string(),
    };
    name.to_string()
}

impl Session20 {
    /// `cas`: writes `updates` when the row matches `expected` (an empty list: the row has
    /// nothing live); otherwise answers what the row holds of the expected columns.
    pub(super) fn cas(
        &self,
        key: Vec<u8>,
        column_family: &str,
        expected: &[Column],
        updates: Vec<Column>,
        serial: Cl,
        commit: Cl,
    ) -> Result<CASResult> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, column_family)?;
        if cf.is_counter() {
            return Err(super::mutations::commutative(cf));
        }
        validate_key(self.partitioner(), cf, &key)?;
        if cf.is_super() {
            return invalid("CAS does not support supercolumns");
        }
        for column in &updates {
            validate_names(cf, None, &[&column.name])?;
        }
        for column in &updates {
            validate_column_data(&ks.name, cf, column)?;
        }
        for column in expected {
            validate_names(cf, None, &[&column.name])?;
            if column.value.is_none() {
                return invalid("Column value is required");
            }
        }
        if !matches!(serial, Cl::SERIAL | Cl::LOCAL_SERIAL) {
            return invalid(
                "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL",
            );
        }
        if matches!(commit, Cl::SERIAL | Cl::LOCAL_SERIAL) {
            return invalid(format!(
                "{} is not supported as conditional update commit consistency. Use ANY if you mean \"make sure it is accepted but I don't care how many replicas commit it for non-SERIAL reads\"",
                level_name(commit)
            ));
        }
        let strategy = strategy_class(&ks.replica_placement_strategy);
        if commit == Cl::EACH_QUORUM && !strategy.ends_with(".NetworkTopologyStrategy") {
            return invalid(format!(
                "consistency level EACH_QUORUM not compatible with replication strategy ({strategy})"
            ));
        }
        // The condition is read at the serial level's quorum, then committed at `commit`.
        check_read_available(ks, serial, 1)?;
        check_write_available(ks, commit)?;
        let expected: Vec<(Vec<u8>, Vec<u8>)> = expected
            .iter()
            .map(|c| (c.name.clone(), c.value.clone().unwrap_or_default()))
            .collect();
        // Client timestamps and TTLs of the updates are ignored (spec G14).
        let updates = updates
            .into_iter()
            .map(|c| (c.name, c.value.unwrap_or_default()))
            .collect();
        let outcome = self
            .service
            .db
            .cas(&ks.name, &key, &cf.name, &expected, updates)?;
        if let Some(ack) = outcome.ack {
            self.pending.push(ack);
        }
        Ok(match outcome.applied {
            true => CASResult::new(true, None),
            false => CASResult::new(
                false,
                outcome
                    .current
                    .into_iter()
                    .map(super::convert::column)
                    .collect::<Vec<_>>(),
            ),
        })
    }
}
