//! The read methods (`docs/api.md#order`, `#reads`): get, get_slice, multiget, multiget_slice,
//! get_count and the range slices. Each runs the login check, 0.6's validations in 0.6's order,
//! the consistency check, then one `cf` call per key, and converts the result back.

use super::consistency;
use super::convert;
use super::validation::{
    validate_column_parent, validate_column_path, validate_key, validate_key_range,
    validate_predicate,
};
use super::Session;
use crate::error::{Error, Result};
use crate::model;
use crate::protocol::{
    ColumnOrSuperColumn, ColumnParent, ColumnPath, ConsistencyLevel, KeyRange, KeySlice,
    SlicePredicate,
};
use std::collections::BTreeMap;

impl Session {
    /// `get`: one column, subcolumn or super column; NotFoundException when nothing is live.
    pub(crate) fn get(
        &self,
        keyspace: &str,
        key: &str,
        path: &ColumnPath,
        cl: ConsistencyLevel,
    ) -> Result<ColumnOrSuperColumn> {
        self.require_login()?;
        let schema = &*self.service.schema();
        validate_column_path(schema, keyspace, path)?;
        validate_key(key)?;
        consistency::check_read(schema, keyspace, cl, 1)?;
        self.read_path(keyspace, key, path)
    }

    /// `multiget`: `get` for each key; a key with nothing live maps to an empty
    /// ColumnOrSuperColumn.
    pub(crate) fn multiget(
        &self,
        keyspace: &str,
        keys: &[String],
        path: &ColumnPath,
        cl: ConsistencyLevel,
    ) -> Result<BTreeMap<String, ColumnOrSuperColumn>> {
        self.require_login()?;
        let schema = &*self.service.schema();
        validate_column_path(schema, keyspace, path)?;
        keys.iter().try_for_each(|key| validate_key(key))?;
        consistency::check_read(schema, keyspace, cl, keys.len())?;
        let mut out = BTreeMap::new();
        for key in keys {
            let found = match self.read_path(keyspace, key, path) {
                Err(Error::NotFound) => ColumnOrSuperColumn::default(),
                other => other?,
            };
            out.insert(key.clone(), found);
        }
        Ok(out)
    }

    fn read_path(
        &self,
        keyspace: &str,
        key: &str,
        path: &ColumnPath,
    ) -> Result<ColumnOrSuperColumn> {
        let found = self.service.db.get(
            keyspace,
            key.as_bytes(),
            &path.column_family,
            path.super_column.as_deref(),
            path.column.as_deref(),
        )?;
        Ok(convert::cosc(found))
    }

    /// `get_slice`: the predicate's columns of one row, or of one super column in it.
    pub(crate) fn get_slice(
        &self,
        keyspace: &str,
        key: &str,
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        cl: ConsistencyLevel,
    ) -> Result<Vec<ColumnOrSuperColumn>> {
        let keys = [key];
        let mut rows = self.slices(keyspace, &keys, parent, predicate, cl)?;
        Ok(rows.pop().map(|(_, row)| row).unwrap_or_default())
    }

    /// `multiget_slice`: `get_slice` for each key; every key gets an entry.
    pub(crate) fn multiget_slice(
        &self,
        keyspace: &str,
        keys: &[String],
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        cl: ConsistencyLevel,
    ) -> Result<BTreeMap<String, Vec<ColumnOrSuperColumn>>> {
        let rows = self.slices(keyspace, keys, parent, predicate, cl)?;
        Ok(rows
            .into_iter()
            .map(|(key, row)| (key.to_string(), row))
            .collect())
    }

    /// `get_count`: `get_slice` of everything, counted (saturating at i32::MAX).
    pub(crate) fn get_count(
        &self,
        keyspace: &str,
        key: &str,
        parent: &ColumnParent,
        cl: ConsistencyLevel,
    ) -> Result<i32> {
        self.require_login()?;
        let schema = &*self.service.schema();
        let sc = parent.super_column.as_deref();
        validate_column_parent(schema, keyspace, &parent.column_family, sc)?;
        validate_key(key)?;
        consistency::check_read(schema, keyspace, cl, 1)?;
        let parent = model::ColumnParent::new(&parent.column_family, sc);
        let count = self
            .service
            .db
            .get_count(keyspace, key.as_bytes(), &parent)?;
        Ok(i32::try_from(count).unwrap_or(i32::MAX))
    }

    /// The shared body of get_slice and multiget_slice.
    fn slices<'k, K: AsRef<str>>(
        &self,
        keyspace: &str,
        keys: &'k [K],
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        cl: ConsistencyLevel,
    ) -> Result<Vec<(&'k str, Vec<ColumnOrSuperColumn>)>> {
        self.require_login()?;
        let schema = &*self.service.schema();
        let sc = parent.super_column.as_deref();
        let cf = validate_column_parent(schema, keyspace, &parent.column_family, sc)?;
        validate_predicate(cf, sc, predicate)?;
        keys.iter().try_for_each(|key| validate_key(key.as_ref()))?;
        consistency::check_read(schema, keyspace, cl, keys.len())?;
        let model_parent = model::ColumnParent::new(&parent.column_family, sc);
        let model_predicate = convert::predicate(predicate)?;
        let mut rows = Vec::with_capacity(keys.len());
        for key in keys {
            let key = key.as_ref();
            let row = self.service.db.get_slice(
                keyspace,
                key.as_bytes(),
                &model_parent,
                &model_predicate,
            )?;
            rows.push((key, convert::coscs(row)));
        }
        Ok(rows)
    }

    /// `get_range_slices` (and `get_range_slice`, given its keys as a KeyRange): rows in
    /// ring order, each sliced by the predicate, ghosts included.
    pub(crate) fn get_range_slices(
        &self,
        keyspace: &str,
        parent: &ColumnParent,
        predicate: &SlicePredicate,
        range: &KeyRange,
        cl: ConsistencyLevel,
    ) -> Result<Vec<KeySlice>> {
        self.require_login()?;
        let schema = &*self.service.schema();
        let sc = parent.super_column.as_deref();
        let cf = validate_column_parent(schema, keyspace, &parent.column_family, sc)?;
        validate_predicate(cf, sc, predicate)?;
        let partitioner = self.service.db.partitioner();
        validate_key_range(partitioner, range)?;
        let model_range = convert::key_range(partitioner, range)?;
        consistency::check_range_read(schema, keyspace, cl)?;
        let rows = self.service.db.get_range_slices(
            keyspace,
            &model::ColumnParent::new(&parent.column_family, sc),
            &convert::predicate(predicate)?,
            &model_range,
        )?;
        Ok(rows.into_iter().filter_map(convert::key_slice).collect())
    }
}
