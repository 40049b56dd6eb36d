//! The value and key validators of a column family (`docs/api-later.md#validators`, spec
//! §3.1, §4.1, §4.4): `column_metadata`'s validator for a column with one, else the CF's
//! `default_validation_class`; `key_validation_class` for row keys. They check values only —
//! names and storage are unaffected — and apply to the later API's writes and row filters
//! (the 0.6 API validates names only, as 0.6 did). Column families of storage-conf.xml
//! validate everything as BytesType, so nothing is parsed for them.

use super::validation::later_type;
use crate::config::{CfDef, BYTES_TYPE};
use crate::error::{Error, Result};
use crate::types::DataType;
use std::cmp::Ordering;

/// A stored type string; a damaged one is an error, never a panic.
fn parse(class: &str) -> Result<DataType> {
    DataType::parse(class)
        .map_err(|e| Error::Corrupt(format!("stored validator {class:?} cannot be read: {e}")))
}

/// The type that orders and displays the names values are validated under: subcolumn
/// names in a Super CF, column names otherwise.
fn names_type(cf: &CfDef) -> DataType {
    later_type(cf.comparator_for(cf.is_super()))
}

/// The validator of the column `name` (§4.4); `None` for BytesType, which accepts anything.
pub(super) fn value_validator(cf: &CfDef, name: &[u8]) -> Result<Option<DataType>> {
    let later = &cf.later;
    if later.column_metadata.is_empty() && later.default_validation_class == BYTES_TYPE {
        return Ok(None);
    }
    let names = names_type(cf);
    let class = later
        .column_metadata
        .iter()
        .find(|m| names.compare(&m.name, name) == Ordering::Equal)
        .map_or(&later.default_validation_class, |m| &m.validation_class);
    match class.as_str() {
        BYTES_TYPE => Ok(None),
        class => parse(class).map(Some),
    }
}

/// Step 4 of `validateColumnData` (§4.1): the value against its column's validator.
pub(super) fn validate_value(keyspace: &str, cf: &CfDef, name: &[u8], value: &[u8]) -> Result<()> {
    let Some(validator) = value_validator(cf, name)? else {
        return Ok(());
    };
    validator.validate(value).map_err(|why| {
        Error::invalid(format!(
            "({why}) [{keyspace}][{}][{}] failed validation",
            cf.name,
            names_type(cf).get_string(name)
        ))
    })
}

/// The largest value a KEYS index can hold: index entries are keyed by the value.
const MAX_INDEXED_VALUE: usize = 0xFFFF;

/// Step 5 of `validateColumnData` (§4.1): a value of a KEYS-indexed column must fit an
/// index entry.
pub(super) fn check_indexed_value(
    keyspace: &str,
    cf: &CfDef,
    name: &[u8],
    value: &[u8],
) -> Result<()> {
    let indexed = cf
        .later
        .column_metadata
        .iter()
        .find(|meta| meta.name == name && meta.index_type.is_some());
    match indexed {
        Some(meta) if value.len() > MAX_INDEXED_VALUE => Err(Error::invalid(format!(
            "Can't index column value of size {} for index {} in CF {} of KS {keyspace}",
            value.len(),
            meta.index_name.as_deref().unwrap_or_default(),
            cf.name
        ))),
        _ => Ok(()),
    }
}

/// Step 3 of `validateKey` (§3.1): the key against the CF's key validator.
pub(super) fn validate_key_value(cf: &CfDef, key: &[u8]) -> Result<()> {
    match cf.later.key_validation_class.as_str() {
        BYTES_TYPE => Ok(()),
        class => parse(class)?.validate(key).map_err(Error::InvalidRequest),
    }
}

/// The TTL a column written with `ttl` gets (§4.2): the CF's default when none is sent.
pub(super) fn effective_ttl(cf: &CfDef, ttl: Option<i32>) -> Option<i32> {
    match (ttl, cf.later.default_time_to_live) {
        (None, 0) => None,
        (None, default) => i32::try_from(default).ok(),
        (sent, _) => sent,
    }
}
