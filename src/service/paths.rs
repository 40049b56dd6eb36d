//! The checks of column paths, column parents and names that both APIs make in the same
//! order with nearly the same texts (`docs/api.md#column-path`, `docs/api-later.md#validation`):
//! a [`Dialect`] supplies what differs — 0.6 says "columnfamily" where the later API says
//! "table", and the later API checks a name's value with its later type (`crate::types`)
//! before the stored comparator's own check.

use crate::comparator::Comparator;
use crate::config::CfDef;
use crate::error::{Error, Result};
use crate::model::{check_name_length, NameLevel};
use crate::types::DataType;

/// Which API's texts and name checks apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// The 0.6 API.
    V06,
    /// The later API (Cassandra 0.7–3.11).
    Later,
}

fn invalid<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::invalid(why))
}

/// The later type of a 0.6 comparator: the same order and a superset of its names.
pub(crate) fn later_type(comparator: Comparator) -> DataType {
    comparator.data_type()
}

impl Dialect {
    /// What the API calls a column family in its messages.
    fn table(self) -> &'static str {
        match self {
            Dialect::V06 => "columnfamily",
            Dialect::Later => "table",
        }
    }

    /// The value checks of one name; the error is the type's message.
    pub(crate) fn check_name_value(
        self,
        comparator: Comparator,
        name: &[u8],
    ) -> std::result::Result<(), String> {
        // A later type's own check is the whole check, in either API (§9).
        if self == Dialect::Later && !matches!(comparator, Comparator::Later(_)) {
            later_type(comparator).validate(name)?;
        }
        comparator.validate(name)
    }

    /// `validateColumns`: the super column's name, if given, then each name under the
    /// comparator of its level.
    pub(crate) fn validate_names<N: AsRef<[u8]>>(
        self,
        cf: &CfDef,
        super_column: Option<&[u8]>,
        names: &[N],
    ) -> Result<()> {
        if let Some(super_column) = super_column {
            check_name_length(NameLevel::SuperColumn, super_column)?;
            if !cf.is_super() {
                let kind = match self {
                    Dialect::V06 => "ColumnFamily",
                    Dialect::Later => "table",
                };
                return invalid(format!(
                    "supercolumn specified to {kind} {} containing normal columns",
                    cf.name
                ));
            }
        }
        let comparator = cf.comparator_for(super_column.is_some());
        for name in names {
            let name = name.as_ref();
            check_name_length(NameLevel::Column, name)?;
            self.check_name_value(comparator, name)
                .map_err(Error::InvalidRequest)?;
        }
        Ok(())
    }

    /// The names of a path: the column under its level, then the super column as a
    /// top-level name.
    fn validate_path_names(
        self,
        cf: &CfDef,
        super_column: Option<&[u8]>,
        column: Option<&[u8]>,
    ) -> Result<()> {
        if let Some(column) = column {
            self.validate_names(cf, super_column, &[column])?;
        }
        if let Some(super_column) = super_column {
            self.validate_names(cf, None, &[super_column])?;
        }
        Ok(())
    }

    /// `validateColumnPath`: a path to one column, subcolumn or (Super CF) super column.
    pub(crate) fn validate_column_path(
        self,
        cf: &CfDef,
        super_column: Option<&[u8]>,
        column: Option<&[u8]>,
    ) -> Result<()> {
        let name = &cf.name;
        if cf.is_super() {
            if super_column.is_none() {
                return invalid(format!(
                    "supercolumn parameter is not optional for super CF {name}"
                ));
            }
        } else {
            if super_column.is_some() {
                return invalid(format!(
                    "supercolumn parameter is invalid for standard CF {name}"
                ));
            }
            if column.is_none() {
                return invalid(format!(
                    "column parameter is not optional for standard CF {name}"
                ));
            }
        }
        self.validate_path_names(cf, super_column, column)
    }

    /// `validateColumnPathOrParent`, for `remove`: a path that may stop at any level.
    pub(crate) fn validate_removal_path(
        self,
        cf: &CfDef,
        super_column: Option<&[u8]>,
        column: Option<&[u8]>,
    ) -> Result<()> {
        let name = &cf.name;
        if !cf.is_super() && super_column.is_some() {
            return invalid(format!(
                "supercolumn may not be specified for standard CF {name}"
            ));
        }
        if cf.is_super() && super_column.is_none() && column.is_some() {
            return invalid(format!(
                "A column cannot be specified without specifying a super column for removal on super CF {name}"
            ));
        }
        self.validate_path_names(cf, super_column, column)
    }

    /// `validateColumnParent`: a Standard CF alone, or a Super CF with or without a super
    /// column.
    pub(crate) fn validate_column_parent(
        self,
        cf: &CfDef,
        super_column: Option<&[u8]>,
    ) -> Result<()> {
        if !cf.is_super() && super_column.is_some() {
            return invalid(format!(
                "{} alone is required for standard CF {}",
                self.table(),
                cf.name
            ));
        }
        if let Some(super_column) = super_column {
            self.validate_names(cf, None, &[super_column])?;
        }
        Ok(())
    }

    /// Both or neither part of a read predicate, the texts both APIs share.
    pub(crate) fn check_predicate_parts(self, names: bool, range: bool) -> Result<()> {
        match (names, range) {
            (false, false) => {
                invalid("predicate column_names and slice_range may not both be null")
            }
            (true, true) => {
                invalid("predicate column_names and slice_range may not both be present")
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ColumnType;

    fn cf_of(type_string: &str) -> CfDef {
        CfDef {
            name: "C".into(),
            column_type: ColumnType::Standard,
            comparator: Comparator::of_type(&DataType::parse(type_string).unwrap()),
            subcomparator: None,
            comment: None,
            later: Default::default(),
        }
    }

    fn why(dialect: Dialect, cf: &CfDef, name: &[u8]) -> String {
        match dialect.validate_names(cf, None, &[name]) {
            Err(Error::InvalidRequest(why)) => why,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn both_apis_check_a_later_comparators_names_with_its_texts() {
        let ints = cf_of("Int32Type");
        let comp = cf_of("CompositeType(LongType)");
        for dialect in [Dialect::V06, Dialect::Later] {
            assert_eq!(why(dialect, &ints, &[1, 2]), "Expected 4 or 0 byte int (2)");
            assert!(dialect
                .validate_names(&ints, None, &[[0u8, 0, 0, 7]])
                .is_ok());
            assert_eq!(
                why(dialect, &comp, &[0, 1, 5, 0]),
                "Expected 8 or 0 byte long (1)"
            );
        }
        // The six keep 0.6's texts in the 0.6 API.
        let long = cf_of("LongType");
        assert_eq!(why(Dialect::V06, &long, &[1]), "A long is exactly 8 bytes");
        assert_eq!(
            why(Dialect::Later, &long, &[1]),
            "Expected 8 or 0 byte long (1)"
        );
    }
}
