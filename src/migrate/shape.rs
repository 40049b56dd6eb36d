//! What the target configuration says a column family is — Standard or Super, and the
//! comparators of its names — and the check that a row read from a 0.6 SSTable or a JSON
//! file fits it. 0.6 files do not record the CF type or comparators, so a CF written under
//! another definition shows up here: names that are invalid for the comparator (a LongType
//! name that is not 8 bytes, a TimeUUID without version 1, bad UTF-8) or, in SSTables, names
//! that are not in the comparator's order.

use super::row::{Column, Row, RowBody};
use crate::comparator::Comparator;
use crate::config::CfDef;

/// The kind and comparators of one column family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CfShape {
    /// Super (else Standard).
    pub is_super: bool,
    /// The comparator of top-level names (`CompareWith`).
    pub comparator: Comparator,
    /// Subcolumn comparator (only used when `is_super`).
    pub subcomparator: Comparator,
}

impl CfShape {
    /// The shape a configured CF has.
    pub fn of(def: &CfDef) -> CfShape {
        CfShape {
            is_super: def.is_super(),
            comparator: def.comparator,
            subcomparator: def.subcomparator.unwrap_or(def.comparator),
        }
    }

    /// "Standard" or "Super".
    pub fn kind(&self) -> &'static str {
        if self.is_super {
            "Super"
        } else {
            "Standard"
        }
    }

    /// How the configuration describes this CF, for messages.
    pub fn describe(&self) -> String {
        if self.is_super {
            format!(
                "a Super CF ({} / {})",
                self.comparator.short_name(),
                self.subcomparator.short_name()
            )
        } else {
            format!("a Standard CF ({})", self.comparator.short_name())
        }
    }

    /// Checks every name of `row` against the comparators; with `ordered`, also that names
    /// are strictly increasing (as 0.6 writes them). The error says which name failed.
    pub fn check_row(&self, row: &Row, ordered: bool) -> Result<(), String> {
        match (&row.body, self.is_super) {
            (RowBody::Standard(cols), false) => self.check_names(cols, self.comparator, ordered),
            (RowBody::Super(supers), true) => {
                let names: Vec<&[u8]> = supers.iter().map(|s| s.name.as_slice()).collect();
                check_sequence(&names, self.comparator, ordered, "super column")?;
                supers
                    .iter()
                    .try_for_each(|s| self.check_names(&s.columns, self.subcomparator, ordered))
            }
            (RowBody::Standard(_), true) => {
                Err("a Standard row, but the configuration defines a Super CF".into())
            }
            (RowBody::Super(_), false) => {
                Err("a Super row, but the configuration defines a Standard CF".into())
            }
        }
    }

    fn check_names(
        &self,
        cols: &[Column],
        comparator: Comparator,
        ordered: bool,
    ) -> Result<(), String> {
        let names: Vec<&[u8]> = cols.iter().map(|c| c.name.as_slice()).collect();
        check_sequence(&names, comparator, ordered, "column")
    }
}

fn check_sequence(
    names: &[&[u8]],
    comparator: Comparator,
    ordered: bool,
    what: &str,
) -> Result<(), String> {
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(format!("empty {what} name"));
        }
        comparator.validate(name).map_err(|e| {
            format!(
                "{what} name {} is not a valid {}: {e}",
                crate::comparator::hex(name),
                comparator.short_name()
            )
        })?;
        if ordered && i > 0 && comparator.compare(names[i - 1], name).is_ge() {
            return Err(format!(
                "{what} names {} and {} are not in {} order",
                crate::comparator::hex(names[i - 1]),
                crate::comparator::hex(name),
                comparator.short_name()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard(names: &[&[u8]]) -> Row {
        Row {
            key: "k".into(),
            deleted_at: None,
            body: RowBody::Standard(
                names
                    .iter()
                    .map(|n| Column {
                        name: n.to_vec(),
                        value: vec![],
                        timestamp: 1,
                        deleted: false,
                    })
                    .collect(),
            ),
        }
    }

    const LONG: CfShape = CfShape {
        is_super: false,
        comparator: Comparator::Long,
        subcomparator: Comparator::Long,
    };

    #[test]
    fn names_must_fit_the_comparator() {
        let one = 1i64.to_be_bytes();
        let minus = (-1i64).to_be_bytes();
        assert!(LONG.check_row(&standard(&[&minus, &one]), true).is_ok());
        let e = LONG
            .check_row(&standard(&[&one, &minus]), true)
            .unwrap_err();
        assert!(e.contains("not in LongType order"), "{e}");
        assert!(LONG.check_row(&standard(&[&one, &minus]), false).is_ok());
        let e = LONG.check_row(&standard(&[b"abc"]), false).unwrap_err();
        assert!(e.contains("not a valid LongType"), "{e}");
        assert!(LONG.check_row(&standard(&[b""]), false).is_err());
    }

    #[test]
    fn kind_must_match() {
        let sup = CfShape {
            is_super: true,
            ..LONG
        };
        let e = sup.check_row(&standard(&[]), false).unwrap_err();
        assert!(e.contains("defines a Super CF"), "{e}");
    }
}
