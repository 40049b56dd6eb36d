//! A deliberately naive model of Cassandra 0.6 column-family semantics
//! (`docs/api.md#data-model`, `#reads`): every column keeps its reconciled winner, tombstones
//! are plain maxima, and visibility is decided at read time. The real `cf` applies tombstones
//! at write time; the randomised test checks that the two agree.

use ilion::comparator::Comparator;
use ilion::model::{Cell, Change, Column, ColumnOrSuper, Predicate, SliceRange, SuperColumn};
use std::collections::{BTreeMap, BTreeSet};

/// One (column family, row).
#[derive(Debug, Default, Clone)]
pub struct ModelRow {
    row_deleted: Option<i64>,
    super_deleted: BTreeMap<Vec<u8>, i64>,
    /// (super column or empty, name) → winning version.
    cells: BTreeMap<(Vec<u8>, Vec<u8>), Cell>,
}

/// The whole model: rows per (cf, key); a row exists once any change touched it.
#[derive(Debug, Default, Clone)]
pub struct Model {
    pub rows: BTreeMap<(String, Vec<u8>), ModelRow>,
}

fn merge(cells: &mut BTreeMap<(Vec<u8>, Vec<u8>), Cell>, key: (Vec<u8>, Vec<u8>), cell: Cell) {
    match cells.get(&key) {
        Some(old) if !Cell::supersedes(&cell, old, 0) => {}
        _ => {
            cells.insert(key, cell);
        }
    }
}

impl Model {
    pub fn apply(&mut self, key: &[u8], changes: &[(String, Change)]) {
        for (cf, change) in changes {
            let row = self.rows.entry((cf.clone(), key.to_vec())).or_default();
            match change {
                Change::Insert {
                    super_column,
                    column,
                } => {
                    let cell = Cell::Live {
                        value: column.value.clone(),
                        timestamp: column.timestamp,
                    };
                    merge(
                        &mut row.cells,
                        (
                            super_column.clone().unwrap_or_default(),
                            column.name.clone(),
                        ),
                        cell,
                    );
                }
                Change::DeleteColumn {
                    super_column,
                    name,
                    timestamp,
                } => {
                    let cell = Cell::Tombstone {
                        timestamp: *timestamp,
                        local_deletion_time: 0,
                    };
                    merge(
                        &mut row.cells,
                        (super_column.clone().unwrap_or_default(), name.clone()),
                        cell,
                    );
                }
                Change::DeleteSuper { name, timestamp } => {
                    let slot = row.super_deleted.entry(name.clone()).or_insert(*timestamp);
                    *slot = (*slot).max(*timestamp);
                }
                Change::DeleteRow { timestamp } => {
                    row.row_deleted = row.row_deleted.max(Some(*timestamp));
                }
            }
        }
    }
}

impl ModelRow {
    /// Live, unshadowed columns of one level: the top level (`sc` None) or one super column.
    fn visible(&self, sc: Option<&[u8]>) -> Vec<Column> {
        let level = sc.unwrap_or_default();
        let shadow = match sc {
            Some(sc) => self.row_deleted.max(self.super_deleted.get(sc).copied()),
            None => self.row_deleted,
        };
        self.cells
            .iter()
            .filter(|((s, _), _)| s.as_slice() == level)
            .filter_map(|((_, name), cell)| match cell {
                Cell::Live { value, timestamp } if shadow.is_none_or(|d| *timestamp > d) => {
                    Some(Column {
                        name: name.clone(),
                        value: value.clone(),
                        timestamp: *timestamp,
                        ttl: None,
                    })
                }
                _ => None,
            })
            .collect()
    }

    fn super_names(&self) -> BTreeSet<Vec<u8>> {
        self.cells
            .keys()
            .filter(|(s, _)| !s.is_empty())
            .map(|(s, _)| s.clone())
            .collect()
    }

    fn super_column(&self, name: &[u8], sub: Comparator) -> Option<SuperColumn> {
        let mut columns = self.visible(Some(name));
        columns.sort_by(|a, b| sub.compare(&a.name, &b.name));
        (!columns.is_empty()).then(|| SuperColumn {
            name: name.to_vec(),
            columns,
        })
    }

    /// get_slice as `docs/api.md#reads` describes it.
    pub fn slice(
        &self,
        cmp: Comparator,
        sub: Option<Comparator>,
        sc: Option<&[u8]>,
        p: &Predicate,
    ) -> Vec<ColumnOrSuper> {
        // (name, item) pairs at the level being sliced.
        let mut items: Vec<(Vec<u8>, ColumnOrSuper)> = match (sub, sc) {
            (Some(sub), None) => self
                .super_names()
                .into_iter()
                .filter_map(|n| {
                    self.super_column(&n, sub)
                        .map(|s| (n, ColumnOrSuper::Super(s)))
                })
                .collect(),
            _ => self
                .visible(sc)
                .into_iter()
                .map(|c| (c.name.clone(), ColumnOrSuper::Column(c)))
                .collect(),
        };
        let level_cmp = match (sub, sc) {
            (Some(sub), Some(_)) => sub,
            _ => cmp,
        };
        items.sort_by(|a, b| level_cmp.compare(&a.0, &b.0));
        match p {
            Predicate::Names(names) => items
                .into_iter()
                .filter(|(n, _)| names.iter().any(|w| level_cmp.compare(w, n).is_eq()))
                .map(|(_, i)| i)
                .collect(),
            Predicate::Range(SliceRange {
                start,
                finish,
                reversed,
                count,
            }) => {
                if *reversed {
                    items.reverse();
                }
                let after = |n: &[u8], bound: &[u8]| {
                    let o = level_cmp.compare(n, bound);
                    if *reversed {
                        o.is_lt()
                    } else {
                        o.is_gt()
                    }
                };
                items
                    .into_iter()
                    .filter(|(n, _)| start.is_empty() || !after(start, n))
                    .filter(|(n, _)| finish.is_empty() || !after(n, finish))
                    .take(*count)
                    .map(|(_, i)| i)
                    .collect()
            }
        }
    }
}
