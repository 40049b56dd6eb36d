//! Schema changes at run time (`docs/api-later.md#schema`): adding, dropping and updating
//! keyspaces and column families. Each change is one durable, atomic catalog write; callers
//! (the later API's `system_*` calls) have already validated the definitions and chosen the
//! client-facing messages, so the checks here are the ones the store itself needs. Sessions
//! of both APIs see a change from their next call on, as every call takes a fresh snapshot.

use super::Db;
use crate::config::{CfDef, KeyspaceDef, Schema, SYSTEM_KEYSPACE};
use crate::error::{Error, Result};
use crate::storage::same_encoding;
use std::sync::Arc;

impl Db {
    /// Adds a keyspace with its column families.
    pub fn add_keyspace(&self, ks: KeyspaceDef) -> Result<Arc<Schema>> {
        self.change_schema(|schema| {
            if schema.keyspaces.contains_key(&ks.name) {
                return Err(Error::invalid(format!(
                    "Keyspace {} already exists",
                    ks.name
                )));
            }
            let mut next = schema.clone();
            next.keyspaces.insert(ks.name.clone(), ks);
            Ok((next, Vec::new()))
        })
    }

    /// Drops a keyspace, its column families and all their data.
    pub fn drop_keyspace(&self, name: &str) -> Result<Arc<Schema>> {
        self.change_schema(|schema| {
            let ks = user_keyspace(schema, name)?;
            let dropped = ks
                .column_families
                .keys()
                .map(|cf| (name.to_string(), cf.clone()))
                .collect();
            let mut next = schema.clone();
            next.keyspaces.remove(name);
            Ok((next, dropped))
        })
    }

    /// Replaces a keyspace's replication settings (strategy, options, factor,
    /// durable_writes); its column families stay.
    pub fn update_keyspace(&self, ks: KeyspaceDef) -> Result<Arc<Schema>> {
        self.change_schema(|schema| {
            let old = user_keyspace(schema, &ks.name)?;
            let mut next = schema.clone();
            let updated = KeyspaceDef {
                column_families: old.column_families.clone(),
                ..ks
            };
            next.keyspaces.insert(updated.name.clone(), updated);
            Ok((next, Vec::new()))
        })
    }

    /// Adds a column family (empty, with a fresh storage id) to `keyspace`.
    pub fn add_column_family(&self, keyspace: &str, cf: CfDef) -> Result<Arc<Schema>> {
        self.change_schema(|schema| {
            let ks = user_keyspace(schema, keyspace)?;
            if ks.column_families.contains_key(&cf.name) {
                return Err(Error::invalid(format!(
                    "Column family {} already exists in keyspace {keyspace}",
                    cf.name
                )));
            }
            let mut next = schema.clone();
            if let Some(ks) = next.keyspaces.get_mut(keyspace) {
                ks.column_families.insert(cf.name.clone(), cf);
            }
            Ok((next, Vec::new()))
        })
    }

    /// Drops a column family and all its data.
    pub fn drop_column_family(&self, keyspace: &str, cf: &str) -> Result<Arc<Schema>> {
        self.change_schema(|schema| {
            let ks = user_keyspace(schema, keyspace)?;
            if !ks.column_families.contains_key(cf) {
                return Err(Error::invalid(format!("unconfigured table {cf}")));
            }
            let mut next = schema.clone();
            if let Some(ks) = next.keyspaces.get_mut(keyspace) {
                ks.column_families.remove(cf);
            }
            Ok((next, vec![(keyspace.to_string(), cf.to_string())]))
        })
    }

    /// Replaces a column family's definition. Its kind must stay, and each comparator may
    /// only change to one whose names are stored alike (the data is kept as it is).
    pub fn update_column_family(&self, keyspace: &str, cf: CfDef) -> Result<Arc<Schema>> {
        self.change_schema(|schema| {
            let ks = user_keyspace(schema, keyspace)?;
            let old = ks
                .column_families
                .get(&cf.name)
                .ok_or_else(|| Error::invalid(format!("unconfigured table {}", cf.name)))?;
            let encodable = |old: Option<_>, new: Option<_>| match (old, new) {
                (Some(o), Some(n)) => same_encoding(o, n),
                (None, None) => true,
                _ => false,
            };
            if old.column_type != cf.column_type
                || !same_encoding(old.comparator, cf.comparator)
                || !encodable(old.subcomparator, cf.subcomparator)
            {
                return Err(Error::invalid(format!(
                    "the kind and name order of {keyspace}.{} cannot change that way",
                    cf.name
                )));
            }
            let mut next = schema.clone();
            if let Some(ks) = next.keyspaces.get_mut(keyspace) {
                ks.column_families.insert(cf.name.clone(), cf);
            }
            Ok((next, Vec::new()))
        })
    }

    /// Applies one schema change: `change` computes the next schema and the column families
    /// it drops from the current one; the catalog records it durably, the new snapshot is
    /// published, then the dropped column families' data is removed. Returns the new schema.
    fn change_schema(
        &self,
        change: impl FnOnce(&Schema) -> Result<(Schema, Vec<(String, String)>)>,
    ) -> Result<Arc<Schema>> {
        let _one_at_a_time = self
            .schema_changes
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        self.refuse_if_drained()?;
        if self.store.front_ends()?.is_some() {
            // Other front ends would keep serving their own snapshot of the schema.
            return Err(Error::invalid(
                "schema changes are not supported by ilion on a shared store yet",
            ));
        }
        let current = self.catalog();
        let (next, dropped) = change(current.schema())?;
        let catalog = current.change(&self.store, &next, &dropped)?;
        self.counters
            .add_cfs(catalog.layouts().map(|(_, _, layout)| layout.id));
        let schema = catalog.schema().clone();
        self.catalog.store(Arc::new(catalog));
        if !dropped.is_empty() {
            self.remove_dropped_data(false)?;
        }
        Ok(schema)
    }

    /// Removes the stored data of dropped column families. Every row lock is held meanwhile,
    /// so no write that looked the column family up before the drop is half-way through;
    /// one that looked it up and takes its row lock only afterwards may still land under
    /// the dead id (never visible: ids are not reused), so the ids stay listed until the
    /// next start (`forget`) removes their data once more and forgets them.
    pub(super) fn remove_dropped_data(&self, forget: bool) -> Result<()> {
        let catalog = self.catalog();
        if catalog.dropped_ids().is_empty() {
            return Ok(());
        }
        let _writers = self.locks.lock_all();
        for &id in catalog.dropped_ids() {
            self.store.truncate(&catalog.dropped_layout(id))?.wait()?;
        }
        if forget {
            let cleaned = catalog.forget_dropped(&self.store)?;
            self.catalog.store(Arc::new(cleaned));
        }
        Ok(())
    }
}

/// A keyspace other than `system`.
fn user_keyspace<'s>(schema: &'s Schema, name: &str) -> Result<&'s KeyspaceDef> {
    if name == SYSTEM_KEYSPACE {
        return Err(Error::invalid("system keyspace is not user-modifiable"));
    }
    schema
        .keyspace(name)
        .ok_or_else(|| Error::invalid(format!("Keyspace {name} does not exist")))
}
