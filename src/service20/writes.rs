//! The later API's writes (`docs/api-later.md#writes`): insert, remove, batch_mutate,
//! atomic_batch_mutate and truncate, and the counter calls add and remove_counter
//! (`docs/api-later.md#counters`), each kind refused on the other kind of column family.
//! Each validates the whole request in the later order (spec §6.0) before anything is
//! applied, then leaves the acknowledgements to the session's reply gate, so no reply
//! claims a write before it is durable.

use super::consistency::{check_counter_level, check_write_available, check_write_level};
use super::mutations::{
    commutative, cosc_changes, deletion_changes, model_column, non_commutative, server_millis,
    validate_column_data, validate_mutation,
};
use super::validation::{
    invalid, validate_column_parent, validate_key, validate_names, validate_removal_path,
};
use super::Session20;
use crate::error::Result;
use crate::model::{Change, RowMutation};
use crate::protocol::v20::generated::{
    Column, ColumnParent, ColumnPath, ConsistencyLevel as Cl, CounterColumn, Mutation,
};
use std::collections::BTreeMap;

/// A batch: row key → column family → mutations.
pub(super) type MutationMap = BTreeMap<Vec<u8>, BTreeMap<String, Vec<Mutation>>>;

impl Session20 {
    /// `insert`: one column, or one subcolumn of a Super CF.
    pub(super) fn insert(
        &self,
        key: Vec<u8>,
        parent: &ColumnParent,
        column: Column,
        cl: Cl,
    ) -> Result<()> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &parent.column_family)?;
        if cf.is_counter() {
            return Err(commutative(cf));
        }
        validate_key(self.partitioner(), cf, &key)?;
        let sc = parent.super_column.as_deref();
        validate_column_parent(cf, sc)?;
        require_super_column(cf, sc)?;
        validate_names(cf, sc, &[&column.name])?;
        validate_column_data(&ks.name, cf, &column)?;
        check_write_level(cl)?;
        check_write_available(ks, cl)?;
        let mut row = RowMutation::new(ks.name.clone(), key);
        let change = Change::Insert {
            super_column: parent.super_column.clone(),
            column: model_column(cf, column),
        };
        row.push(&cf.name, change);
        self.write(vec![row])
    }

    /// `remove`: a tombstone for a column, subcolumn, super column or the whole row, at
    /// `timestamp`.
    pub(super) fn remove(
        &self,
        key: Vec<u8>,
        path: &ColumnPath,
        timestamp: i64,
        cl: Cl,
    ) -> Result<()> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &path.column_family)?;
        if cf.is_counter() {
            return Err(commutative(cf));
        }
        validate_key(self.partitioner(), cf, &key)?;
        let (sc, column) = (path.super_column.clone(), path.column.clone());
        validate_removal_path(cf, sc.as_deref(), column.as_deref())?;
        check_write_level(cl)?;
        check_write_available(ks, cl)?;
        self.write(vec![removal(&ks.name, cf, key, sc, column, timestamp)])
    }

    /// `add`: adds `counter.value` to a counter (or subcounter) of a counter CF, creating it
    /// at 0 first (spec §6.0's order: access, kind, key, counter level, parent, super
    /// column, name, write level, availability).
    pub(super) fn add(
        &self,
        key: Vec<u8>,
        parent: &ColumnParent,
        counter: CounterColumn,
        cl: Cl,
    ) -> Result<()> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &parent.column_family)?;
        if !cf.is_counter() {
            return Err(non_commutative(cf));
        }
        validate_key(self.partitioner(), cf, &key)?;
        check_counter_level(&cf.name, cl)?;
        let sc = parent.super_column.as_deref();
        validate_column_parent(cf, sc)?;
        require_super_column(cf, sc)?;
        validate_names(cf, sc, &[&counter.name])?;
        check_write_level(cl)?;
        check_write_available(ks, cl)?;
        let mut row = RowMutation::new(ks.name.clone(), key);
        let change = Change::Add {
            super_column: parent.super_column.clone(),
            name: counter.name,
            delta: counter.value,
        };
        row.push(&cf.name, change);
        self.write(vec![row])
    }

    /// `remove_counter`: deletes a counter, a super column of counters or the whole
    /// counter row, at the server's clock; the deletion is final until purged.
    pub(super) fn remove_counter(&self, key: Vec<u8>, path: &ColumnPath, cl: Cl) -> Result<()> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, &path.column_family)?;
        if !cf.is_counter() {
            return Err(non_commutative(cf));
        }
        validate_key(self.partitioner(), cf, &key)?;
        let (sc, column) = (path.super_column.clone(), path.column.clone());
        validate_removal_path(cf, sc.as_deref(), column.as_deref())?;
        check_counter_level(&cf.name, cl)?;
        check_write_level(cl)?;
        check_write_available(ks, cl)?;
        let row = removal(&ks.name, cf, key, sc, column, server_millis());
        self.write(vec![row])
    }
}

/// The row mutation of a checked removal path: a column (or subcolumn), a super column or
/// the whole row deleted at `timestamp`.
fn removal(
    keyspace: &str,
    cf: &crate::config::CfDef,
    key: Vec<u8>,
    sc: Option<Vec<u8>>,
    column: Option<Vec<u8>>,
    timestamp: i64,
) -> RowMutation {
    let change = match (sc, column) {
        (super_column, Some(name)) => Change::DeleteColumn {
            super_column,
            name,
            timestamp,
        },
        (Some(name), None) => Change::DeleteSuper { name, timestamp },
        (None, None) => Change::DeleteRow { timestamp },
    };
    let mut row = RowMutation::new(keyspace, key);
    row.push(&cf.name, change);
    row
}

/// A Super CF write names its super column.
fn require_super_column(cf: &crate::config::CfDef, sc: Option<&[u8]>) -> Result<()> {
    if cf.is_super() && sc.is_none() {
        return invalid(format!(
            "missing mandatory super column name for super CF {}",
            cf.name
        ));
    }
    Ok(())
}

impl Session20 {
    /// `batch_mutate` and `atomic_batch_mutate`: every key, column family and mutation is
    /// checked (per key, per column family: session checks, key, mutations) before
    /// anything is written. `atomic` applies all rows as one; otherwise each row is atomic
    /// on its own.
    pub(super) fn batch_mutate(&self, map: MutationMap, cl: Cl, atomic: bool) -> Result<()> {
        // One schema snapshot for the whole call. Even an empty batch needs the session
        // keyspace.
        let schema = self.service.db.schema();
        self.session_keyspace(&schema)?;
        let partitioner = self.partitioner();
        for (key, cfs) in &map {
            let mut counters = false;
            for (cf_name, mutations) in cfs {
                let (ks, cf) = self.column_family(&schema, cf_name)?;
                validate_key(partitioner, cf, key)?;
                if cf.is_counter() {
                    check_counter_level(&cf.name, cl)?;
                    counters |= !mutations.is_empty();
                }
                for mutation in mutations {
                    validate_mutation(&ks.name, cf, mutation)?;
                }
            }
            if atomic && counters {
                return invalid("Counter mutations are not allowed in atomic batches");
            }
        }
        check_write_level(cl)?;
        let mut rows = Vec::with_capacity(map.len());
        for (key, cfs) in map {
            // Every CF was found above, so the session keyspace exists.
            let ks = self.session_keyspace(&schema)?;
            let mut row = RowMutation::new(ks.name.clone(), key);
            for (cf_name, mutations) in cfs {
                let (_, cf) = self.column_family(&schema, &cf_name)?;
                let mut changes = Vec::with_capacity(mutations.len());
                for mutation in mutations {
                    if let Some(cosc) = mutation.column_or_supercolumn {
                        cosc_changes(cf, cosc, &mut changes);
                    } else if let Some(deletion) = mutation.deletion {
                        deletion_changes(cf, deletion, &mut changes)?;
                    }
                }
                row.push_group(cf_name, changes);
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        if rows.is_empty() {
            return Ok(());
        }
        check_write_available(self.session_keyspace(&schema)?, cl)?;
        match atomic {
            true => {
                let ack = self.service.db.apply_atomic(rows)?;
                self.pending.push(ack);
                Ok(())
            }
            false => self.write(rows),
        }
    }

    /// `truncate`: every row of the column family goes, at once; the definition stays.
    pub(super) fn truncate(&self, column_family: &str) -> Result<()> {
        let schema = self.service.db.schema();
        let (ks, cf) = self.column_family(&schema, column_family)?;
        let ack = self.service.db.truncate(&ks.name, &cf.name)?;
        self.pending.push(ack);
        Ok(())
    }

    /// Applies row mutations, each atomically; the reply waits until they are durable.
    fn write(&self, rows: Vec<RowMutation>) -> Result<()> {
        for row in rows {
            let ack = self.service.db.apply(row)?;
            self.pending.push(ack);
        }
        Ok(())
    }
}
