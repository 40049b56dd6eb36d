//! A deliberately naive model of Cassandra 0.6 column-family semantics
//! (`docs/api.md#data-model`, `#reads`): every column keeps its reconciled winner, tombstones
//! are plain maxima (a range delete's over the names it covers), and visibility (expiry
//! included, `docs/api-later.md#ttl`) is decided at read time. The real `cf` applies tombstones at write time; the randomised test checks that
//! the two agree. Range reads on the model sort all rows and filter them by the bound rules;
//! paged reads slice each row whole and count. Counters are cells that sum and that every
//! tombstone hides; reads of both sides are compared with counters in their plain-column form.

use ilion::comparator::Comparator;
use ilion::model::{
    Cell, Change, Column, ColumnOrSuper, CounterColumn, KeyRange, KeySlice, Predicate, RowBounds,
    SliceRange, SuperColumn,
};
use ilion::partitioner::Partitioner;
use std::collections::{BTreeMap, BTreeSet};

/// One (column family, row).
#[derive(Debug, Default, Clone)]
pub struct ModelRow {
    row_deleted: Option<i64>,
    super_deleted: BTreeMap<Vec<u8>, i64>,
    /// (super column or empty, name) → winning version.
    cells: BTreeMap<(Vec<u8>, Vec<u8>), Cell>,
    /// Range deletes as given.
    ranges: Vec<ModelRange>,
}

/// A range delete: (super column or empty, start, finish, timestamp, comparator of the
/// names the range covers).
type ModelRange = (Vec<u8>, Vec<u8>, Vec<u8>, i64, Comparator);

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
    // Two increments of a counter add up; otherwise the reconcile rule (a counter's lowest
    // timestamp makes every tombstone win over it).
    if let Some(sum) = cells.get(&key).and_then(|old| old.add_counter(&cell)) {
        cells.insert(key, sum);
        return;
    }
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
                Change::DeleteRange {
                    super_column,
                    start,
                    finish,
                    timestamp,
                } => {
                    let (_, cmp, sub) = *crate::CFS.iter().find(|(n, _, _)| n == cf).unwrap();
                    let level = match super_column {
                        Some(_) => sub.unwrap_or(cmp),
                        None => cmp,
                    };
                    row.ranges.push((
                        super_column.clone().unwrap_or_default(),
                        start.clone(),
                        finish.clone(),
                        *timestamp,
                        level,
                    ));
                }
                Change::DeleteRow { timestamp } => {
                    row.row_deleted = row.row_deleted.max(Some(*timestamp));
                }
                Change::Add {
                    super_column,
                    name,
                    delta,
                } => merge(
                    &mut row.cells,
                    (super_column.clone().unwrap_or_default(), name.clone()),
                    Cell::Counter { total: *delta },
                    self.now,
                ),
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
        // A range at the top covers a column by its name, a subcolumn by its super
        // column's name; one inside a super column covers its subcolumns by name.
        let in_range = |name: &[u8], (start, finish, cmp): (&[u8], &[u8], Comparator)| {
            (start.is_empty() || cmp.compare(start, name).is_le())
                && (finish.is_empty() || cmp.compare(name, finish).is_le())
        };
        let ranged = |name: &[u8]| {
            self.ranges
                .iter()
                .filter(|(s, start, finish, _, cmp)| {
                    let covered = match (s.is_empty(), sc) {
                        (true, Some(sc)) => sc,
                        (true, None) => name,
                        (false, _) if s.as_slice() == level => name,
                        (false, _) => return false,
                    };
                    in_range(covered, (start, finish, *cmp))
                })
                .map(|r| r.3)
                .max()
        };
        self.cells
            .iter()
            .filter(|((s, _), _)| s.as_slice() == level)
            .filter(|(_, cell)| shadow.is_none_or(|d| cell.timestamp() > d))
            .filter(|((_, name), cell)| ranged(name).is_none_or(|d| cell.timestamp() > d))
            // Spelled out rather than `Cell::into_column`, so the model does not share the
            // code it checks.
            .filter_map(|((_, name), cell)| {
                let (value, timestamp, ttl) = match cell {
                    Cell::Live { value, timestamp } => (value.clone(), *timestamp, None),
                    Cell::Expiring {
                        value,
                        timestamp,
                        ttl,
                        expires_at,
                    } if now < *expires_at => (value.clone(), *timestamp, Some(*ttl)),
                    // A counter's plain-column form: its total, big-endian, at the lowest
                    // timestamp.
                    Cell::Counter { total } => (total.to_be_bytes().to_vec(), i64::MIN, None),
                    _ => return None,
                };
                Some(Column {
                    name: name.clone(),
                    value,
                    timestamp,
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

/// `get_paged_slice` on the model (`docs/api-later.md#paged-slice`): rows of `range`, the
/// start row from `start_column`, `range.count` columns (subcolumns) in all.
pub fn model_paged(
    model: &Model,
    p: Partitioner,
    (name, cmp, sub): (&str, Comparator, Option<Comparator>),
    range: &KeyRange,
    start_column: &[u8],
) -> Vec<KeySlice> {
    let mut left = range.count;
    let mut out = Vec::new();
    for key in model_range(model, p, name, &range.bounds) {
        if left == 0 {
            break;
        }
        if !range.keys.admits(&key) {
            continue;
        }
        let from = match range.bounds.start_key() == Some(key.as_slice()) {
            true => start_column.to_vec(),
            false => Vec::new(),
        };
        let all = Predicate::Range(SliceRange {
            start: from,
            ..SliceRange::all()
        });
        let row = &model.rows[&(name.to_string(), key.clone())];
        let mut columns = Vec::new();
        for item in row.slice(model.now, cmp, sub, None, &all) {
            if left == 0 {
                break;
            }
            match item {
                ColumnOrSuper::Column(c) => {
                    columns.push(ColumnOrSuper::Column(c));
                    left -= 1;
                }
                ColumnOrSuper::Super(mut sc) => {
                    sc.columns.truncate(left);
                    left -= sc.columns.len();
                    columns.push(ColumnOrSuper::Super(sc));
                }
                // The model reads counters in their plain-column form.
                other => columns.push(other),
            }
        }
        out.push(KeySlice { key, columns });
    }
    out
}

/// The order of rows: by token, then key bytes, except that under OPP a UTF-8 key comes
/// before a key that is not UTF-8 with the same token (`docs/storage.md#rows`).
pub fn row_order(p: Partitioner, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let utf8 = |k: &[u8]| std::str::from_utf8(k).is_ok();
    p.token(a)
        .cmp(&p.token(b))
        .then_with(|| match p {
            Partitioner::OrderPreserving => utf8(b).cmp(&utf8(a)),
            _ => std::cmp::Ordering::Equal,
        })
        .then_with(|| a.cmp(b))
}

/// Keys of the rows of `cf` inside `bounds`, in ring order from the start
/// (`docs/api.md#key-ranges`, `docs/api-later.md#key-ranges`), in [`row_order`].
pub fn model_range(model: &Model, p: Partitioner, cf: &str, bounds: &RowBounds) -> Vec<Vec<u8>> {
    let mut rows: Vec<Vec<u8>> = model
        .rows
        .keys()
        .filter(|(c, _)| c == cf)
        .map(|(_, k)| k.clone())
        .collect();
    rows.sort_by(|a, b| row_order(p, a, b));
    let tok = |k: &Vec<u8>| p.token(k);
    let from_row = |start: &[u8], k: &[u8]| start.is_empty() || row_order(p, start, k).is_le();
    match bounds {
        RowBounds::KeySpan { start, end } => rows
            .into_iter()
            .filter(|k| from_row(start, k))
            .filter(|k| end.is_empty() || row_order(p, k, end).is_le())
            .collect(),
        RowBounds::KeyToToken { start, end } => rows
            .into_iter()
            .filter(|k| from_row(start, k))
            .filter(|k| end.is_minimum() || tok(k) <= *end)
            .collect(),
        RowBounds::Keys { start, end } => rows
            .into_iter()
            .filter(|k| start.is_empty() || tok(k) >= p.token(start))
            .filter(|k| end.is_empty() || tok(k) <= p.token(end))
            .collect(),
        RowBounds::Tokens { start, end } => {
            let (after, through): (Vec<_>, Vec<_>) =
                rows.into_iter().partition(|k| tok(k) > *start);
            if end.is_minimum() {
                after
            } else if start < end {
                after.into_iter().filter(|k| tok(k) <= *end).collect()
            } else {
                after
                    .into_iter()
                    .chain(through.into_iter().filter(|k| tok(k) <= *end))
                    .collect()
            }
        }
    }
}

/// Read results with counters in their plain-column form (`CounterColumn::into_column`),
/// which is what the model's counter cells read as.
pub fn plain(items: Vec<ColumnOrSuper>) -> Vec<ColumnOrSuper> {
    items
        .into_iter()
        .map(|item| match item {
            ColumnOrSuper::Counter(c) => ColumnOrSuper::Column(c.into_column()),
            ColumnOrSuper::CounterSuper(sc) => ColumnOrSuper::Super(SuperColumn {
                name: sc.name,
                columns: sc
                    .columns
                    .into_iter()
                    .map(CounterColumn::into_column)
                    .collect(),
            }),
            other => other,
        })
        .collect()
}

pub fn plain_rows(rows: Vec<KeySlice>) -> Vec<KeySlice> {
    rows.into_iter()
        .map(|row| KeySlice {
            key: row.key,
            columns: plain(row.columns),
        })
        .collect()
}
