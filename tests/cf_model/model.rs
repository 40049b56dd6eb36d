//! A deliberately naive model of Cassandra 0.6 column-family semantics
//! (`docs/api.md#data-model`, `#reads`): every column keeps its reconciled winner, tombstones
//! are plain maxima, and visibility (expiry included, `docs/api-later.md#ttl`) is decided at
//! read time. The real `cf` applies tombstones at write time; the randomised test checks that
//! the two agree.

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

/// The whole model: rows per (cf, key); a row exists once any change touched it (an
/// expired column keeps it, as a tombstone does: nothing is purged here).
#[derive(Debug, Default, Clone)]
pub struct Model {
    pub rows: BTreeMap<(String, Vec<u8>), ModelRow>,
    /// The server clock (seconds) the next change is applied, and reads are made, at.
    pub now: i64,
}

fn merge(
    cells: &mut BTreeMap<(Vec<u8>, Vec<u8>), Cell>,
    key: (Vec<u8>, Vec<u8>),
    cell: Cell,
    now: i64,
) {
    match cells.get(&key) {
        Some(old) if !Cell::supersedes(&cell, old, now) => {}
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
                    let cell =
                        Cell::written(column.value.clone(), column.timestamp, column.ttl, self.now);
                    merge(
                        &mut row.cells,
                        (
                            super_column.clone().unwrap_or_default(),
                            column.name.clone(),
                        ),
                        cell,
                        self.now,
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
                        self.now,
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
    /// Live, unshadowed columns of one level at `now`: the top level (`sc` None) or one super
    /// column.
    fn visible(&self, sc: Option<&[u8]>, now: i64) -> Vec<Column> {
        let level = sc.unwrap_or_default();
        let shadow = match sc {
            Some(sc) => self.row_deleted.max(self.super_deleted.get(sc).copied()),
            None => self.row_deleted,
        };
        self.cells
            .iter()
            .filter(|((s, _), _)| s.as_slice() == level)
            .filter(|(_, cell)| shadow.is_none_or(|d| cell.timestamp() > d))
            // Spelled out rather than `Cell::into_column`, so the model does not share the
            // code it checks.
            .filter_map(|((_, name), cell)| {
                let (value, timestamp, ttl) = match cell {
                    Cell::Live { value, timestamp } => (value, timestamp, None),
                    Cell::Expiring {
                        value,
                        timestamp,
                        ttl,
                        expires_at,
                    } if now < *expires_at => (value, timestamp, Some(*ttl)),
                    _ => return None,
                };
                Some(Column {
                    name: name.clone(),
                    value: value.clone(),
                    timestamp: *timestamp,
                    ttl,
                })
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

    fn super_column(&self, name: &[u8], sub: Comparator, now: i64) -> Option<SuperColumn> {
        let mut columns = self.visible(Some(name), now);
        columns.sort_by(|a, b| sub.compare(&a.name, &b.name));
        (!columns.is_empty()).then(|| SuperColumn {
            name: name.to_vec(),
            columns,
        })
    }

    /// get_slice at server time `now`, as `docs/api.md#reads` describes it.
    pub fn slice(
        &self,
        now: i64,
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
                    self.super_column(&n, sub, now)
                        .map(|s| (n, ColumnOrSuper::Super(s)))
                })
                .collect(),
            _ => self
                .visible(sc, now)
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
