//! The write methods (`docs/api.md#order`, `#validation`, `#mutations-to-changes`): insert,
//! batch_insert, remove and batch_mutate. Each validates the whole request before anything is
//! applied, builds one row mutation per row key (applied atomically by `cf`), and leaves the
//! acknowledgements to the session's reply gate unless the level is ZERO. Where 0.6 failed with
//! an internal error after its validation (an assertion or NPE while building the mutation),
//! ilion answers with an InvalidRequestException at that same point (D1–D3, D7 of
//! `docs/compatibility.md`).

use super::consistency;
use super::convert;
use super::validation::{
    validate_column_or_super_column, validate_column_path, validate_column_path_or_parent,
    validate_key, validate_keyspace, validate_mutation, validate_table,
};
use super::Session;
use crate::error::{Error, Result};
use crate::model::{Change, RowMutation};
use crate::protocol::{ColumnOrSuperColumn, ColumnPath, ConsistencyLevel, Mutation};
use std::collections::BTreeMap;

impl Session {
    /// `insert`: one column or subcolumn.
    pub(crate) fn insert(
        &self,
        keyspace: &str,
        key: &str,
        path: &ColumnPath,
        value: Vec<u8>,
        timestamp: i64,
        cl: ConsistencyLevel,
    ) -> Result<()> {
        self.require_login()?;
        validate_key(key)?;
        validate_column_path(&self.service.schema(), keyspace, path)?;
        // Validation lets a Super CF path without a column through (D2).
        let Some(name) = path.column.clone() else {
            return Err(Error::invalid(format!(
                "column parameter is not optional when inserting into super CF {}",
                path.column_family
            )));
        };
        consistency::check_write(cl)?;
        let mut row = RowMutation::new(keyspace, key);
        row.push(
            &path.column_family,
            convert::insert(path, name, value, timestamp),
        );
        self.write(vec![row], cl)
    }

    /// `batch_insert`: columns and super columns of several CFs of one row. The request is
    /// taken by value: once validated, its names and values move into the row mutation
    /// instead of being copied.
    pub(crate) fn batch_insert(
        &self,
        keyspace: &str,
        key: String,
        cfmap: BTreeMap<String, Vec<ColumnOrSuperColumn>>,
        cl: ConsistencyLevel,
    ) -> Result<()> {
        self.require_login()?;
        let schema = &*self.service.schema();
        validate_key(&key)?;
        for (cf, coscs) in &cfmap {
            for cosc in coscs {
                validate_column_or_super_column(schema, keyspace, cf, cosc)?;
            }
        }
        // 0.6 validated nothing of a CF with no (sub)columns and then failed building the
        // mutation; the same messages as validation say what is wrong.
        validate_keyspace(schema, keyspace)?;
        let mut row = RowMutation::new(keyspace, key);
        for (cf, coscs) in cfmap {
            validate_table(schema, keyspace, &cf)?;
            if coscs
                .iter()
                .any(|cosc| cosc.column.is_some() && cosc.super_column.is_some())
            {
                return Err(Error::invalid(
                    "ColumnOrSuperColumn may not have both Column and SuperColumn in batch_insert",
                ));
            }
            let mut changes = Vec::with_capacity(coscs.len());
            for cosc in coscs {
                convert::cosc_into_changes(cosc, &mut changes);
            }
            row.push_group(cf, changes);
        }
        consistency::check_write(cl)?;
        self.write(vec![row], cl)
    }

    /// `remove`: a tombstone for a column, subcolumn, super column or whole row.
    pub(crate) fn remove(
        &self,
        keyspace: &str,
        key: &str,
        path: &ColumnPath,
        timestamp: i64,
        cl: ConsistencyLevel,
    ) -> Result<()> {
        self.require_login()?;
        validate_key(key)?;
        validate_column_path_or_parent(&self.service.schema(), keyspace, path)?;
        consistency::check_write(cl)?;
        let mut row = RowMutation::new(keyspace, key);
        row.push(&path.column_family, convert::remove(path, timestamp));
        self.write(vec![row], cl)
    }

    /// `batch_mutate`: inserts and deletions for many rows; nothing is applied unless every
    /// mutation of every row validates.
    pub(crate) fn batch_mutate(
        &self,
        keyspace: &str,
        mutation_map: &BTreeMap<String, BTreeMap<String, Vec<Mutation>>>,
        cl: ConsistencyLevel,
    ) -> Result<()> {
        self.require_login()?;
        let schema = &*self.service.schema();
        for (key, cfs) in mutation_map {
            validate_key(key)?;
            for (cf, mutations) in cfs {
                for mutation in mutations {
                    validate_mutation(schema, keyspace, cf, mutation)?;
                }
            }
        }
        // A row with nothing validated in it still needs its keyspace (0.6: internal error).
        if !mutation_map.is_empty() {
            validate_keyspace(schema, keyspace)?;
        }
        let mut rows = Vec::with_capacity(mutation_map.len());
        for (key, cfs) in mutation_map {
            let mut row = RowMutation::new(keyspace, key.as_bytes());
            for (cf, mutations) in cfs {
                for mutation in mutations {
                    if let Some(cosc) = &mutation.column_or_supercolumn {
                        push_changes(&mut row, cf, |out| convert::cosc_changes(cosc, out));
                    } else if let Some(deletion) = &mutation.deletion {
                        let def = validate_table(schema, keyspace, cf)?;
                        push_changes(&mut row, cf, |out| {
                            convert::deletion_changes(def, deletion, out)
                        });
                    }
                }
            }
            rows.push(row);
        }
        consistency::check_write(cl)?;
        self.write(rows, cl)
    }

    /// Applies row mutations, each atomically; unless `cl` is ZERO the reply waits until
    /// they are durable.
    fn write(&self, rows: Vec<RowMutation>, cl: ConsistencyLevel) -> Result<()> {
        for mutation in rows.into_iter().filter(|m| !m.is_empty()) {
            let ack = self.service.db.apply(mutation)?;
            if consistency::waits_for_durability(cl) {
                self.wait_before_reply(ack);
            }
        }
        Ok(())
    }
}

/// Adds the changes `build` produces to column family `cf` of `row`.
fn push_changes(row: &mut RowMutation, cf: &str, build: impl FnOnce(&mut Vec<Change>)) {
    let mut built = Vec::new();
    build(&mut built);
    for change in built {
        row.push(cf, change);
    }
}
