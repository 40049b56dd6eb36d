//! Applying a row mutation (spec §7.2–§7.5). The changes for each column family are first
//! reconciled among themselves (so an insert and a delete at the same timestamp in one batch
//! leave the column deleted), then planned against what is stored, under the row's lock, into
//! one atomic batch for the whole row.

use super::{CfRef, Db};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::{Cell, Change, RowMutation};
use crate::storage::keys::encode_row;
use crate::storage::values::{decode_cell, decode_marker, encode_cell, encode_marker, Marker};
use crate::storage::{Ack, Batch, Entry, RowSession};
use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;

/// The changes of one request to one column family of one row, reconciled among themselves.
#[derive(Default)]
struct Delta {
    row_tombstone: Option<i64>,
    super_tombstones: BTreeMap<Vec<u8>, i64>,
    cells: BTreeMap<(Option<Vec<u8>>, Vec<u8>), Cell>,
}

impl Delta {
    fn add_cell(&mut self, super_column: Option<Vec<u8>>, name: Vec<u8>, cell: Cell) {
        match self.cells.entry((super_column, name)) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(cell);
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                if Cell::supersedes(&cell, slot.get()) {
                    slot.insert(cell);
                }
            }
        }
    }
}

/// Max of an optional deletion time and another.
fn later(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    a.max(b)
}

/// True when a version with timestamp `ts` is hidden by a deletion at `deleted_at`.
fn hidden(deleted_at: Option<i64>, ts: i64) -> bool {
    deleted_at.is_some_and(|d| ts <= d)
}

fn check_name(comparator: Comparator, name: &[u8], what: &str) -> Result<()> {
    if name.is_empty() {
        return Err(Error::invalid(format!("{what} name must not be empty")));
    }
    if name.len() > usize::from(u16::MAX) {
        return Err(Error::invalid(format!(
            "{what} name length must not be greater than 65535"
        )));
    }
    comparator.validate(name).map_err(Error::InvalidRequest)
}

impl Db {
    /// Applies one row mutation atomically. Wait on the returned [`Ack`] before telling the
    /// client the write succeeded.
    pub fn apply(&self, mutation: &RowMutation) -> Result<Ack> {
        let started = std::time::Instant::now();
        if mutation.key.is_empty() {
            return Err(Error::invalid("Key may not be empty"));
        }
        let now = self.now();
        let mut deltas: Vec<(CfRef<'_>, Delta)> = Vec::new();
        for (cf_name, change) in &mutation.changes {
            let cf = self.cf(&mutation.keyspace, cf_name)?;
            let index = match deltas.iter().position(|(c, _)| c.def.name == *cf_name) {
                Some(i) => i,
                None => {
                    deltas.push((cf, Delta::default()));
                    deltas.len() - 1
                }
            };
            add_change(cf, &mut deltas[index].1, change, now)?;
        }
        let row = encode_row(self.partitioner(), &mutation.key);
        let _guard = self.locks.lock(&mutation.keyspace, &mutation.key);
        self.refuse_if_drained()?;
        let session = self.store.row_session();
        let mut batch = Batch::default();
        for (cf, delta) in deltas {
            plan(&session, cf, &row, delta, now, &mut batch)?;
        }
        let ack = session.write(batch)?;
        crate::metrics::row_written(mutation, started);
        Ok(ack)
    }
}

/// Turns a reconciled delta into writes, given what is stored.
fn plan(
    store: &RowSession<'_>,
    cf: CfRef<'_>,
    row: &[u8],
    delta: Delta,
    now: u32,
    batch: &mut Batch,
) -> Result<()> {
    let layout = cf.layout;
    let marker = |timestamp| {
        encode_marker(Marker {
            timestamp,
            local_deletion_time: now,
        })
    };

    let row_key = layout.row_tombstone_key(row);
    let stored_row = marker_at(store, &row_key)?;
    let mut row_deleted = stored_row;
    if let Some(t) = delta.row_tombstone.filter(|t| !hidden(stored_row, *t)) {
        drop_hidden(store, cf, layout.columns_prefix(row), t, batch)?;
        batch.put(row_key, marker(t));
        row_deleted = Some(t);
    }

    let mut super_deleted: HashMap<Vec<u8>, Option<i64>> = HashMap::new();
    for (name, t) in delta.super_tombstones {
        let key = layout.super_tombstone_key(row, &name);
        let stored = marker_at(store, &key)?;
        if hidden(later(row_deleted, stored), t) {
            super_deleted.insert(name, stored);
            continue;
        }
        // Drop first: the old marker lies under the prefix and the new one must win.
        drop_hidden(store, cf, layout.super_prefix(row, &name), t, batch)?;
        batch.put(key, marker(t));
        super_deleted.insert(name, Some(t));
    }

    for ((super_column, name), cell) in delta.cells {
        let (key, deleted_at) = match &super_column {
            None => (layout.column_key(row, &name), row_deleted),
            Some(sc) => {
                let sc_deleted = match super_deleted.get(sc) {
                    Some(known) => *known,
                    None => {
                        let stored = marker_at(store, &layout.super_tombstone_key(row, sc))?;
                        super_deleted.insert(sc.clone(), stored);
                        stored
                    }
                };
                (
                    layout.subcolumn_key(row, sc, &name),
                    later(row_deleted, sc_deleted),
                )
            }
        };
        if hidden(deleted_at, cell.timestamp()) {
            continue;
        }
        let stored = store.get(&key)?.map(|v| decode_cell(&v)).transpose()?;
        if stored
            .as_ref()
            .is_none_or(|old| Cell::supersedes(&cell, old))
        {
            batch.put(key, encode_cell(&cell));
        }
    }
    Ok(())
}

/// The timestamp of the deletion marker at `key`, if any.
fn marker_at(store: &RowSession<'_>, key: &[u8]) -> Result<Option<i64>> {
    Ok(store
        .get(key)?
        .map(|v| decode_marker(&v))
        .transpose()?
        .map(|m| m.timestamp))
}

/// Deletes every stored version under `prefix` that a deletion at `t` hides: columns and
/// subcolumns (live or tombstones) with timestamp ≤ t, and super-column markers ≤ t.
fn drop_hidden(
    store: &RowSession<'_>,
    cf: CfRef<'_>,
    prefix: Vec<u8>,
    t: i64,
    batch: &mut Batch,
) -> Result<()> {
    let end =
        crate::storage::encoding::prefix_end(&prefix).map_or(Bound::Unbounded, Bound::Excluded);
    for item in store.scan(Bound::Included(prefix), end, false) {
        let (key, value) = item?;
        let decoded = cf
            .layout
            .decode(&key)
            .ok_or_else(|| Error::Corrupt(format!("undecodable key in {}", cf.def.name)))?;
        let ts = match decoded.entry {
            Entry::SuperTombstone(_) => decode_marker(&value)?.timestamp,
            Entry::Column(_) | Entry::SubColumn(..) => decode_cell(&value)?.timestamp(),
            Entry::RowTombstone => continue,
        };
        if ts <= t {
            batch.delete(key);
        }
    }
    Ok(())
}

/// Checks that a change fits the CF's kind and names, and adds it to the delta.
fn add_change(cf: CfRef<'_>, delta: &mut Delta, change: &Change, now: u32) -> Result<()> {
    let def = cf.def;
    let shape_error = || {
        Error::invalid(format!(
            "change does not fit {} column family {}",
            def.column_type.as_str(),
            def.name
        ))
    };
    let check_path = |super_column: &Option<Vec<u8>>, name: &[u8]| -> Result<()> {
        if super_column.is_some() != def.is_super() {
            return Err(shape_error());
        }
        if let Some(sc) = super_column {
            check_name(def.comparator, sc, "supercolumn")?;
        }
        check_name(def.comparator_for(super_column.is_some()), name, "column")
    };
    match change {
        Change::Insert {
            super_column,
            column,
        } => {
            check_path(super_column, &column.name)?;
            let cell = Cell::Live {
                value: column.value.clone(),
                timestamp: column.timestamp,
            };
            delta.add_cell(super_column.clone(), column.name.clone(), cell);
        }
        Change::DeleteColumn {
            super_column,
            name,
            timestamp,
        } => {
            check_path(super_column, name)?;
            let cell = Cell::Tombstone {
                timestamp: *timestamp,
                local_deletion_time: now,
            };
            delta.add_cell(super_column.clone(), name.clone(), cell);
        }
        Change::DeleteSuper { name, timestamp } => {
            if !def.is_super() {
                return Err(shape_error());
            }
            check_name(def.comparator, name, "supercolumn")?;
            let slot = delta
                .super_tombstones
                .entry(name.clone())
                .or_insert(*timestamp);
            *slot = (*slot).max(*timestamp);
        }
        Change::DeleteRow { timestamp } => {
            delta.row_tombstone = delta.row_tombstone.max(Some(*timestamp));
        }
    }
    Ok(())
}
