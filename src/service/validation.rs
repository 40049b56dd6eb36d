//! Request checks, the counterpart of 0.6's `ThriftValidation` (`docs/api.md#validation`):
//! every rule that turns a request into an InvalidRequestException, with 0.6's exact `why`
//! texts and in 0.6's order, because a request wrong in two ways must get the earlier message.
//! Each function checks one Thrift shape; the per-method order of calls is in `reads` and
//! `writes` (`docs/api.md#order`). Nothing here touches storage: only the schema and the
//! partitioner are consulted. The key and name rules that `cf` re-checks are shared with it
//! through `model` ([`check_key_present`], [`check_name_length`]), so each message is written
//! once.

use super::paths::Dialect;
use crate::config::{CfDef, KeyspaceDef, Schema};
use crate::error::{Error, Result};
use crate::model::check_key_present;
use crate::partitioner::Partitioner;
use crate::protocol::{
    ColumnOrSuperColumn, ColumnPath, Deletion, KeyRange, Mutation, SlicePredicate, SliceRange,
};
use std::cmp::Ordering;
use std::fmt::Write as _;

/// The longest key `DataOutput.writeUTF` can write.
const MAX_ENCODED_KEY_LENGTH: usize = 65535;

fn invalid<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::invalid(why))
}

/// A row key: non-empty, and short enough for Java's modified UTF-8 (`docs/api.md#keys`).
pub(crate) fn validate_key(key: &str) -> Result<()> {
    check_key_present(key.as_bytes())?;
    let length = modified_utf8_length(key);
    if length > MAX_ENCODED_KEY_LENGTH {
        return invalid(format!(
            "Encoded key length of {length} is longer than maximum of {MAX_ENCODED_KEY_LENGTH}"
        ));
    }
    Ok(())
}

/// Bytes `writeUTF` needs for `s`: per UTF-16 unit, 1 for U+0001–U+007F, 2 for U+0000 and
/// U+0080–U+07FF, else 3 (so a supplementary character, two units, costs 6).
pub(crate) fn modified_utf8_length(s: &str) -> usize {
    s.chars()
        .map(|c| match u32::from(c) {
            0x01..=0x7F => 1,
            0x00 | 0x80..=0x7FF => 2,
            0x800..=0xFFFF => 3,
            _ => 6,
        })
        .sum()
}

/// A configured keyspace (`docs/api.md#keyspace-and-cf`).
pub(crate) fn validate_keyspace<'a>(schema: &'a Schema, keyspace: &str) -> Result<&'a KeyspaceDef> {
    schema.keyspace(keyspace).map_or_else(
        || {
            invalid(format!(
                "Keyspace {keyspace} does not exist in this schema."
            ))
        },
        Ok,
    )
}

/// A configured keyspace, then a non-empty, configured column family in it
/// (`docs/api.md#keyspace-and-cf`). A counter CF is not one: the 0.6 API cannot express
/// counters, so it does not see counter CFs (`docs/api-later.md#counters`).
pub(crate) fn validate_table<'a>(
    schema: &'a Schema,
    keyspace: &str,
    column_family: &str,
) -> Result<&'a CfDef> {
    let ks = validate_keyspace(schema, keyspace)?;
    if column_family.is_empty() {
        return invalid("non-empty columnfamily is required");
    }
    ks.column_families
        .get(column_family)
        .filter(|cf| !cf.is_counter())
        .map_or_else(
            || invalid(format!("unconfigured columnfamily {column_family}")),
            Ok,
        )
}

/// `validateColumnPath` (`docs/api.md#column-path`), for `get`, `multiget`, `insert`.
pub(crate) fn validate_column_path<'a>(
    schema: &'a Schema,
    keyspace: &str,
    path: &ColumnPath,
) -> Result<&'a CfDef> {
    check_column_path(
        schema,
        keyspace,
        &path.column_family,
        path.super_column.as_deref(),
        path.column.as_deref(),
    )
}

fn check_column_path<'a>(
    schema: &'a Schema,
    keyspace: &str,
    column_family: &str,
    super_column: Option<&[u8]>,
    column: Option<&[u8]>,
) -> Result<&'a CfDef> {
    let cf = validate_table(schema, keyspace, column_family)?;
    Dialect::V06.validate_column_path(cf, super_column, column)?;
    Ok(cf)
}

/// `validateColumnParent` (`docs/api.md#column-parent`), for slices, counts and range slices.
pub(crate) fn validate_column_parent<'a>(
    schema: &'a Schema,
    keyspace: &str,
    column_family: &str,
    super_column: Option<&[u8]>,
) -> Result<&'a CfDef> {
    let cf = validate_table(schema, keyspace, column_family)?;
    Dialect::V06.validate_column_parent(cf, super_column)?;
    Ok(cf)
}

/// `validateColumnPathOrParent` (`docs/api.md#remove-path`), for `remove`: a path that may stop
/// at any level.
pub(crate) fn validate_column_path_or_parent<'a>(
    schema: &'a Schema,
    keyspace: &str,
    path: &ColumnPath,
) -> Result<&'a CfDef> {
    let cf = validate_table(schema, keyspace, &path.column_family)?;
    let (super_column, column) = (path.super_column.as_deref(), path.column.as_deref());
    Dialect::V06.validate_removal_path(cf, super_column, column)?;
    Ok(cf)
}

/// `validateColumns` (`docs/api.md#names`): the super column name, if given, then each name
/// under the comparator of its level.
pub(crate) fn validate_columns<N: AsRef<[u8]>>(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    names: &[N],
) -> Result<()> {
    Dialect::V06.validate_names(cf, super_column, names)
}

/// `validatePredicate` (`docs/api.md#predicates`), for reads: exactly one of names and range.
pub(crate) fn validate_predicate(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    predicate: &SlicePredicate,
) -> Result<()> {
    let (names, range) = (&predicate.column_names, &predicate.slice_range);
    Dialect::V06.check_predicate_parts(names.is_some(), range.is_some())?;
    match (names, range) {
        (Some(names), _) => validate_columns(cf, super_column, names),
        (None, Some(range)) => validate_range(cf, super_column, range),
        (None, None) => Ok(()),
    }
}

/// `validateRange` (`docs/api.md#predicates`): bounds under the level's comparator, a count
/// that is not negative, and bounds in traversal order.
pub(crate) fn validate_range(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    range: &SliceRange,
) -> Result<()> {
    // A Standard CF given a super column (possible only from a Deletion) has no subcolumn
    // comparator; 0.6 failed with an NPE there, ilion uses the CF comparator.
    let comparator = cf.comparator_for(super_column.is_some());
    comparator
        .validate(&range.start)
        .map_err(Error::InvalidRequest)?;
    comparator
        .validate(&range.finish)
        .map_err(Error::InvalidRequest)?;
    if range.count < 0 {
        return invalid("get_slice requires non-negative count");
    }
    if !range.start.is_empty() && !range.finish.is_empty() {
        let order = comparator.compare(&range.start, &range.finish);
        let wrong = match range.reversed {
            false => order == Ordering::Greater,
            true => order == Ordering::Less,
        };
        if wrong {
            return invalid("range finish must come after start in the order of traversal");
        }
    }
    Ok(())
}

/// `validateSlicePredicate` (`docs/api.md#mutations`), for deletions: names, a range or both;
/// the range is checked first.
pub(crate) fn validate_slice_predicate(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    predicate: &SlicePredicate,
) -> Result<()> {
    if predicate.column_names.is_none() && predicate.slice_range.is_none() {
        return invalid("A SlicePredicate must be given a list of Columns, a SliceRange, or both");
    }
    if let Some(range) = &predicate.slice_range {
        validate_range(cf, super_column, range)?;
    }
    if let Some(names) = &predicate.column_names {
        validate_columns(cf, super_column, names)?;
    }
    Ok(())
}

/// `validateKeyRange` (`docs/api.md#key-range-checks`): one pair of bounds, in order, and a
/// positive count. The token strings are parsed afterwards, by `convert`
/// (`docs/compatibility.md#d4`).
pub(crate) fn validate_key_range(partitioner: Partitioner, range: &KeyRange) -> Result<()> {
    if range.start_key.is_some() != range.end_key.is_some() {
        return invalid("start key and end key must either both be non-null, or both be null");
    }
    if range.start_token.is_some() != range.end_token.is_some() {
        return invalid("start token and end token must either both be non-null, or both be null");
    }
    if range.start_key.is_some() == range.start_token.is_some() {
        return invalid(
            "exactly one of {start key, end key} or {start token, end token} must be specified",
        );
    }
    if let (Some(start), Some(end)) = (&range.start_key, &range.end_key) {
        let (start, end) = (
            partitioner.token(start.as_bytes()),
            partitioner.token(end.as_bytes()),
        );
        if start > end && !end.is_minimum() {
            return invalid(match partitioner {
                Partitioner::Random => "start key's md5 sorts after end key's md5.  this is not allowed; you probably should not specify end key at all, under RandomPartitioner",
                // 0.6 had no Murmur3Partitioner: the later API's text for hashing partitioners.
                Partitioner::Murmur3 => "start key's token sorts after end key's token.  this is not allowed; you probably should not specify end key at all except with an ordered partitioner",
                _ => "start key must sort before (or equal to) finish key in your partitioner!",
            });
        }
    }
    if range.count <= 0 {
        return invalid("maxRows must be positive");
    }
    Ok(())
}

/// `validateColumnOrSuperColumn` (`docs/api.md#mutations`): each part as a path; a super column
/// with no subcolumns validates nothing, not even its name.
pub(crate) fn validate_column_or_super_column(
    schema: &Schema,
    keyspace: &str,
    column_family: &str,
    cosc: &ColumnOrSuperColumn,
) -> Result<()> {
    if let Some(column) = &cosc.column {
        check_column_path(schema, keyspace, column_family, None, Some(&column.name))?;
    }
    if let Some(sc) = &cosc.super_column {
        for sub in &sc.columns {
            check_column_path(
                schema,
                keyspace,
                column_family,
                Some(&sc.name),
                Some(&sub.name),
            )?;
        }
    }
    if cosc.column.is_none() && cosc.super_column.is_none() {
        return invalid("ColumnOrSuperColumn must have one or both of Column or SuperColumn");
    }
    Ok(())
}

/// `validateMutation` (`docs/api.md#mutations`): exactly one of an insert and a deletion.
pub(crate) fn validate_mutation(
    schema: &Schema,
    keyspace: &str,
    column_family: &str,
    mutation: &Mutation,
) -> Result<()> {
    match (&mutation.column_or_supercolumn, &mutation.deletion) {
        (Some(_), Some(_)) => {
            invalid("Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both")
        }
        (Some(cosc), None) => {
            validate_column_or_super_column(schema, keyspace, column_family, cosc)
        }
        (None, Some(deletion)) => validate_deletion(schema, keyspace, column_family, deletion),
        (None, None) => invalid("Mutation must have one ColumnOrSuperColumn or one Deletion"),
    }
}

/// `validateDeletion` (`docs/api.md#mutations`), after the keyspace and CF checks of an insert
/// (`docs/compatibility.md#d1`).
pub(crate) fn validate_deletion(
    schema: &Schema,
    keyspace: &str,
    column_family: &str,
    deletion: &Deletion,
) -> Result<()> {
    let cf = validate_table(schema, keyspace, column_family)?;
    let super_column = deletion.super_column.as_deref();
    if let Some(predicate) = &deletion.predicate {
        validate_slice_predicate(cf, super_column, predicate)?;
        if predicate.slice_range.is_some() {
            return invalid("Deletion does not yet support SliceRange predicates.");
        }
    }
    if !cf.is_super() && super_column.is_some() {
        return invalid(format!(
            "deletion of super_column is not possible on a standard ColumnFamily (KeySpace={keyspace} ColumnFamily={column_family} Deletion={})",
            java_deletion_string(deletion)
        ));
    }
    Ok(())
}

/// Java Thrift's `Deletion.toString()` as far as it can reach the message above: the
/// timestamp, then the super column as uppercase hex bytes (at most 128, then ` ...`). A
/// predicate cannot be set there (its own checks fire first), so it is not rendered.
pub(crate) fn java_deletion_string(deletion: &Deletion) -> String {
    let mut out = format!("Deletion(timestamp:{}", deletion.timestamp);
    if let Some(super_column) = &deletion.super_column {
        out.push_str(", super_column:");
        for (i, byte) in super_column.iter().take(128).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{byte:02X}");
        }
        if super_column.len() > 128 {
            out.push_str(" ...");
        }
    }
    out.push(')');
    out
}
