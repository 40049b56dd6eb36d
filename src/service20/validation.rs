//! Request checks of the later API's reads (`docs/api-later.md#validation`): keys, column
//! paths and parents, predicates, slice ranges and key ranges, with the later texts and in
//! the later order, because a request wrong in two ways must get the earlier message. The
//! write-side checks (column data, mutations, deletions) are in `mutations`. Nothing here
//! touches storage: only the column family's definition and the partitioner are consulted.
//!
//! Names are checked with the later API's types (`crate::types`), whose messages later
//! clients expect, and then with the column family's own comparator, whose order the store
//! keeps; the two accept the same names except for a few byte strings the later UTF8Type
//! allows and 0.6's does not (`docs/api-later.md#validation`). The checks of paths, parents
//! and names are shared with the 0.6 API (`crate::service::paths`), which differs only in
//! words and in that second check.

use crate::comparator::{hex, Comparator};
use crate::config::CfDef;
use crate::error::{Error, Result};
use crate::model::MAX_NAME_LENGTH;
use crate::partitioner::{Partitioner, Token};
use crate::protocol::v20::generated::{IndexExpression, KeyRange, SlicePredicate, SliceRange};
use crate::service::paths::Dialect;
use std::cmp::Ordering;

/// The longest row key.
const MAX_KEY_LENGTH: usize = 65535;

pub(super) fn invalid<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::invalid(why))
}

pub(super) use crate::service::paths::later_type;

/// A row key (spec §3.1): present, at most 65535 bytes, then the CF's key validator and the
/// partitioner's own rule.
pub(super) fn validate_key(partitioner: Partitioner, cf: &CfDef, key: &[u8]) -> Result<()> {
    if key.is_empty() {
        return invalid("Key may not be empty");
    }
    if key.len() > MAX_KEY_LENGTH {
        return invalid(format!(
            "Key length of {} is longer than maximum of {MAX_KEY_LENGTH}",
            key.len()
        ));
    }
    super::validators::validate_key_value(cf, key)?;
    partitioner.check_key(key)
}

/// The later API's checks of paths, parents and names (`crate::service::paths`).
const LATER: Dialect = Dialect::Later;

/// One value of a name type: the later type's check, then the stored comparator's.
fn validate_name_value(comparator: Comparator, name: &[u8]) -> Result<()> {
    LATER
        .check_name_value(comparator, name)
        .map_err(Error::InvalidRequest)
}

/// `validateColumnNames`: the super column's name, if given, then each name.
pub(super) fn validate_names<N: AsRef<[u8]>>(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    names: &[N],
) -> Result<()> {
    LATER.validate_names(cf, super_column, names)
}

/// `validateColumnPath`: a path to one column, subcolumn or (Super CF) super column.
pub(super) fn validate_column_path(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    column: Option<&[u8]>,
) -> Result<()> {
    LATER.validate_column_path(cf, super_column, column)
}

/// `validateColumnPathOrParent`, for `remove`: a path that may stop at any level.
pub(super) fn validate_removal_path(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    column: Option<&[u8]>,
) -> Result<()> {
    LATER.validate_removal_path(cf, super_column, column)
}

/// `validateColumnParent`: a Standard CF alone, or a Super CF with or without a super
/// column.
pub(super) fn validate_column_parent(cf: &CfDef, super_column: Option<&[u8]>) -> Result<()> {
    LATER.validate_column_parent(cf, super_column)
}

/// `validatePredicate`, for reads: exactly one of names and range.
pub(super) fn validate_predicate(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    predicate: &SlicePredicate,
) -> Result<()> {
    let (names, range) = (&predicate.column_names, &predicate.slice_range);
    LATER.check_predicate_parts(names.is_some(), range.is_some())?;
    match (names, range) {
        (Some(names), _) => validate_names(cf, super_column, names),
        (None, Some(range)) => validate_slice_range(cf, super_column, range),
        (None, None) => Ok(()),
    }
}

/// `validateRange` (spec §6.2): count, bound lengths, bound values, then traversal order.
pub(super) fn validate_slice_range(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    range: &SliceRange,
) -> Result<()> {
    if range.count < 0 {
        return invalid("get_slice requires non-negative count");
    }
    validate_bounds(cf, super_column, &range.start, &range.finish)?;
    let comparator = cf.comparator_for(super_column.is_some());
    if out_of_order(comparator, &range.start, &range.finish, range.reversed) {
        return invalid("range finish must come after start in the order of traversal");
    }
    Ok(())
}

/// Slice bounds: each at most 65535 bytes and a value of its level's type (empty =
/// unbounded).
pub(super) fn validate_bounds(
    cf: &CfDef,
    super_column: Option<&[u8]>,
    start: &[u8],
    finish: &[u8],
) -> Result<()> {
    if start.len() > MAX_NAME_LENGTH {
        return invalid("range start length cannot be larger than 65535");
    }
    if finish.len() > MAX_NAME_LENGTH {
        return invalid("range finish length cannot be larger than 65535");
    }
    let comparator = cf.comparator_for(super_column.is_some());
    for bound in [start, finish] {
        if !bound.is_empty() {
            validate_name_value(comparator, bound)?;
        }
    }
    Ok(())
}

/// True when two non-empty bounds are the wrong way round for the traversal direction.
pub(super) fn out_of_order(
    comparator: Comparator,
    start: &[u8],
    finish: &[u8],
    reversed: bool,
) -> bool {
    if start.is_empty() || finish.is_empty() {
        return false;
    }
    let wrong = match reversed {
        false => Ordering::Greater,
        true => Ordering::Less,
    };
    comparator.compare(start, finish) == wrong
}

/// The validated bounds of a KeyRange, end token parsed where §3.3 parses it.
#[derive(Debug)]
pub(super) enum CheckedBounds<'a> {
    /// start_key + end_key.
    Keys(&'a [u8], &'a [u8]),
    /// start_key + end_token (parsed).
    KeyToToken(&'a [u8], Token),
    /// start_token + end_token, parsed after the consistency check.
    Tokens(&'a str, &'a str),
}

/// `validateKeyRange` (spec §3.3), with the row filter's checks; `super_column` is the
/// parent's. The token strings of a token range are parsed later, after the level check.
pub(super) fn validate_key_range<'r>(
    partitioner: Partitioner,
    cf: &CfDef,
    super_column: Option<&[u8]>,
    range: &'r KeyRange,
) -> Result<CheckedBounds<'r>> {
    let start = (range.start_key.as_deref(), range.start_token.as_deref());
    let end = (range.end_key.as_deref(), range.end_token.as_deref());
    let bounds = match (start, end) {
        ((None, Some(_)), (Some(_), None)) => {
            return invalid("start token + end key is not a supported key range")
        }
        ((Some(start), None), (Some(end), None)) => {
            let (from, to) = (partitioner.token(start), partitioner.token(end));
            if !end.is_empty() && from > to {
                return invalid(match partitioner {
                    Partitioner::Random | Partitioner::Murmur3 => "start key's token sorts after end key's token.  this is not allowed; you probably should not specify end key at all except with an ordered partitioner",
                    _ => "start key must sort before (or equal to) finish key in your partitioner!",
                });
            }
            CheckedBounds::Keys(start, end)
        }
        ((Some(start), None), (None, Some(end))) => {
            let end = partitioner.parse_token(end)?;
            if !end.is_minimum() && partitioner.token(start) > end {
                return invalid("Start key's token sorts after end token");
            }
            CheckedBounds::KeyToToken(start, end)
        }
        ((None, Some(start)), (None, Some(end))) => CheckedBounds::Tokens(start, end),
        // Neither or both of a side's bounds.
        _ => {
            return invalid(
                "exactly one each of {start key, start token} and {end key, end token} must be specified",
            )
        }
    };
    if let Some(filter) = &range.row_filter {
        validate_row_filter(cf, filter)?;
        if !filter.is_empty() && (super_column.is_some() || cf.is_super()) {
            return invalid("super columns are not supported for indexing");
        }
    }
    if range.count <= 0 {
        return invalid("maxRows must be positive");
    }
    Ok(bounds)
}

/// `validateFilterClauses` (spec §6.4): each expression's name under the CF comparator, its
/// value's length, then its value under the column's validator.
pub(super) fn validate_row_filter(cf: &CfDef, expressions: &[IndexExpression]) -> Result<()> {
    for e in expressions {
        if let Err(why) = LATER.check_name_value(cf.comparator, &e.column_name) {
            return invalid(format!(
                "[{}]=[{}] failed name validation ({why})",
                hex(&e.column_name),
                hex(&e.value),
            ));
        }
        if e.value.len() > 0xFFFF {
            return invalid("Index expression values may not be larger than 64K");
        }
        if let Some(validator) = super::validators::value_validator(cf, &e.column_name)? {
            if let Err(why) = validator.validate(&e.value) {
                return invalid(format!(
                    "[{}]=[{}] failed value validation ({why})",
                    hex(&e.column_name),
                    hex(&e.value),
                ));
            }
        }
    }
    Ok(())
}
