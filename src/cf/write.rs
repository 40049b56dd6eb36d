//! Applying a row mutation (`docs/api.md#reconcile` to `#mutations-to-changes`). The changes
//! for each column family are first checked and reconciled among themselves (so an insert and
//! a delete at the same timestamp in one batch leave the column deleted), then planned against
//! what is stored, under the row's lock, into one atomic batch for the whole row. An atomic
//! batch of several rows (`docs/api-later.md#atomic-batch`) shares both steps: every row is
//! checked first, then all are planned under all their locks into one batch. Counter
//! increments (`docs/api-later.md#counters`) add up within the request and then onto the
//! stored total; one a stored deletion covers is dropped.
//!
//! `service` has validated every request before it gets here. The key and name rules are
//! checked again with the same shared helpers of `model` (so the messages exist once), and a
//! change that does not fit its column family's kind is refused, because `Db` is also called
//! directly (tests, benchmarks, tools) and must never store a key it cannot read back.

use super::deletions::RowDeletions;
use super::stats::Tally;
use super::{CfRef, Db};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::{
    check_key_present, check_name_length, Cell, Change, NameLevel, RangeTombstone, RowMutation,
};
use crate::storage::{
    canonical_name, stored_value_len, Ack, Catalog, CfLayout, EncodedRow, Entry, MarkerAt,
    RowSession, RowWrites, StoredEntry, StoredValue,
};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Where a column version goes: its super column (None at the top) and its name, both
/// canonical (`storage::canonical_name`).
type CellKey = (Option<Vec<u8>>, Vec<u8>);

/// The changes of one request to one column family of one row, reconciled among themselves.
#[derive(Default)]
struct Delta {
    row_tombstone: Option<i64>,
    super_tombstones: BTreeMap<Vec<u8>, i64>,
    /// Range tombstones over the row's names (None) or one super column's subcolumns.
    ranges: Vec<(Option<Vec<u8>>, RangeTombstone)>,
    /// Keyed by the canonical names (one column per name under the comparator, as stored);
    /// each version keeps the name bytes it was written with, when they differ from the key
    /// (rarely: under most comparators a name is its own canonical form, and is not copied).
    cells: BTreeMap<CellKey, (Option<Vec<u8>>, Cell)>,
}

impl Delta {
    /// Adds one version, keyed by its canonical name; two increments of one counter add up,
    /// otherwise the reconcile rule keeps one (a counter deleted in the same batch stays
    /// deleted, whatever the order).
    fn add_cell(
        &mut self,
        cf: CfRef<'_>,
        super_column: Option<Vec<u8>>,
        name: Vec<u8>,
        cell: Cell,
        now: u32,
    ) {
        let super_column = super_column.map(|sc| canonical(cf.def.comparator, sc));
        let (key_name, written) =
            match canonical_name(cf.def.comparator_for(super_column.is_some()), &name) {
                Some(canonical) => (canonical, Some(name)),
                None => (name, None),
            };
        match self.cells.entry((super_column, key_name)) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert((written, cell));
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                if let Some(sum) = slot.get().1.add_counter(&cell) {
                    slot.get_mut().1 = sum;
                } else if Cell::supersedes(&cell, &slot.get().1, i64::from(now)) {
                    slot.insert((written, cell));
                }
            }
        }
    }
}

/// The bytes a name is stored and read back as when no version keeps its own
/// (`storage::canonical_name`): `name` itself except under a few later comparators.
fn canonical(comparator: Comparator, name: Vec<u8>) -> Vec<u8> {
    canonical_name(comparator, &name).unwrap_or(name)
}

/// True when a version with timestamp `ts` is hidden by a deletion at `deleted_at`.
fn hidden(deleted_at: Option<i64>, ts: i64) -> bool {
    deleted_at.is_some_and(|d| ts <= d)
}

/// The name rules of `docs/api.md#names` (length, then the comparator), as `service` checks
/// them.
fn check_name(comparator: Comparator, name: &[u8], level: NameLevel) -> Result<()> {
    check_name_length(level, name)?;
    comparator.validate(name).map_err(Error::InvalidRequest)
}

/// A row mutation checked and reconciled among itself: what is planned against the stored
/// row once its lock is held.
struct Prepared<'a> {
    keyspace: String,
    key: Vec<u8>,
    row: EncodedRow,
    /// The reconciled changes of each column family, each CF once.
    deltas: Vec<(CfRef<'a>, Delta)>,
    /// Columns inserted per group of the mutation, in its order, for the metrics.
    inserted: Vec<(String, usize)>,
}

/// What an applied mutation adds to the statistics and metrics once it is written.
struct Applied {
    keyspace: String,
    tallies: Vec<(u32, Tally)>,
    inserted: Vec<(String, usize)>,
}

impl Db {
    /// Applies one row mutation atomically. Wait on the returned [`Ack`] before telling the
    /// client the write succeeded. The mutation is taken by value: its names and values move
    /// into the planned writes instead of being copied.
    pub fn apply(&self, mutation: RowMutation) -> Result<Ack> {
        let started = std::time::Instant::now();
        let now = self.now();
        let catalog = self.catalog();
        let prepared = self.prepare(&catalog, mutation, now)?;
        let _guard = self.locks.lock(&prepared.keyspace, &prepared.key);
        self.refuse_if_drained()?;
        let session = self.store.row_session();
        let mut writes = RowWrites::default();
        let applied = plan_mutation(&session, prepared, now, &mut writes)?;
        let ack = session.write(writes)?;
        self.record(applied, started);
        Ok(ack)
    }

    /// Applies one row mutation to a row whose lock the caller holds, through `session`
    /// (which holds the row's lease on a shared engine): for `cas`, which reads the row and
    /// writes it under the same lock.
    pub(super) fn apply_held(&self, session: RowSession<'_>, mutation: RowMutation) -> Result<Ack> {
        let started = std::time::Instant::now();
        let now = self.now();
        let catalog = self.catalog();
        let prepared = self.prepare(&catalog, mutation, now)?;
        let mut writes = RowWrites::default();
        let applied = plan_mutation(&session, prepared, now, &mut writes)?;
        let ack = session.write(writes)?;
        self.record(applied, started);
        Ok(ack)
    }

    /// Applies several row mutations all or nothing (`docs/api-later.md#atomic-batch`):
    /// every mutation is checked and reconciled first with the checks of [`Db::apply`], so
    /// a refused one writes nothing; mutations of the same row are merged; then the locks of
    /// every row are taken (each stripe once, in stripe order, so atomic batches cannot
    /// deadlock each other or single-row writers), every row is planned, and all rows are
    /// written in one engine batch. An empty list writes nothing and returns a completed
    /// [`Ack`]. On the shared `redis-cluster` engine the rows are written one after the
    /// other under leases taken in row order, atomic per row only (`docs/redis.md#cross-row`).
    pub fn apply_atomic(&self, mutations: Vec<RowMutation>) -> Result<Ack> {
        let started = std::time::Instant::now();
        if mutations.is_empty() {
            return Ok(Ack::done());
        }
        let now = self.now();
        let mut merged: Vec<RowMutation> = Vec::with_capacity(mutations.len());
        let mut index: HashMap<(String, Vec<u8>), usize> = HashMap::new();
        for mutation in mutations {
            let row = (mutation.keyspace.clone(), mutation.key.clone());
            match index.get(&row) {
                Some(&at) => {
                    for (cf, changes) in mutation.changes {
                        merged[at].push_group(cf, changes);
                    }
                }
                None => {
                    index.insert(row, merged.len());
                    merged.push(mutation);
                }
            }
        }
        let catalog = self.catalog();
        let prepared = merged
            .into_iter()
            .map(|mutation| self.prepare(&catalog, mutation, now))
            .collect::<Result<Vec<_>>>()?;
        let rows = prepared
            .iter()
            .map(|p| (p.keyspace.as_str(), p.key.as_slice()));
        let _guards = self.locks.lock_rows(rows);
        self.refuse_if_drained()?;
        let leased: Vec<(&CfLayout, &EncodedRow)> = prepared
            .iter()
            .filter_map(|p| p.deltas.first().map(|(cf, _)| (cf.layout, &p.row)))
            .collect();
        let session = self.store.batch_session(&leased)?;
        let mut writes = RowWrites::default();
        let mut applied = Vec::with_capacity(prepared.len());
        for mutation in prepared {
            applied.push(plan_mutation(&session, mutation, now, &mut writes)?);
        }
        let ack = session.write(writes)?;
        for one in applied {
            self.record(one, started);
        }
        Ok(ack)
    }

    /// Checks a mutation's key and every change against its column family, and reconciles
    /// the changes of each CF among themselves: everything [`Db::apply`] refuses is refused
    /// here, before any lock is taken or anything read.
    fn prepare<'c>(
        &self,
        catalog: &'c Catalog,
        mut mutation: RowMutation,
        now: u32,
    ) -> Result<Prepared<'c>> {
        check_key_present(&mutation.key)?;
        self.partitioner().check_key(&mutation.key)?;
        let mut deltas: Vec<(CfRef<'c>, Delta)> = Vec::new();
        // Columns inserted per group, for the metrics once the changes have moved out.
        let mut inserted = Vec::with_capacity(mutation.changes.len());
        for (cf_name, changes) in mutation.changes.iter_mut() {
            let changes = std::mem::take(changes);
            let count = changes
                .iter()
                .filter(|change| matches!(change, Change::Insert { .. }))
                .count();
            inserted.push((std::mem::take(cf_name), count));
            if changes.is_empty() {
                continue;
            }
            let cf_name = &inserted[inserted.len() - 1].0;
            let cf = Db::cf(catalog, &mutation.keyspace, cf_name)?;
            // Each CF is listed once when built with `RowMutation::push`; merge if not.
            let index = match deltas.iter().position(|(c, _)| c.def.name == *cf_name) {
                Some(i) => i,
                None => {
                    deltas.push((cf, Delta::default()));
                    deltas.len() - 1
                }
            };
            for change in changes {
                add_change(cf, &mut deltas[index].1, change, now)?;
            }
        }
        Ok(Prepared {
            row: EncodedRow::new(self.partitioner(), &mutation.key),
            keyspace: mutation.keyspace,
            key: mutation.key,
            deltas,
            inserted,
        })
    }

    /// Adds a written mutation to its CFs' statistics and to the metrics.
    fn record(&self, applied: Applied, started: std::time::Instant) {
        for (id, tally) in &applied.tallies {
            self.counters.add(*id, tally);
        }
        let groups = applied.inserted.iter().map(|(cf, n)| (cf.as_str(), *n));
        crate::metrics::row_written(&applied.keyspace, groups, started);
    }
}

/// Plans a prepared mutation against its stored row (whose lock the caller holds) into
/// `writes`.
fn plan_mutation(
    session: &RowSession<'_>,
    prepared: Prepared<'_>,
    now: u32,
    writes: &mut RowWrites,
) -> Result<Applied> {
    let mut tallies = Vec::with_capacity(prepared.deltas.len());
    for (cf, delta) in prepared.deltas {
        let mut tally = Tally::default();
        plan(session, cf, &prepared.row, delta, now, writes, &mut tally)?;
        tallies.push((cf.layout.id, tally));
    }
    Ok(Applied {
        keyspace: prepared.keyspace,
        tallies,
        inserted: prepared.inserted,
    })
}

/// Turns a reconciled delta into writes, given what is stored. A row with nothing stored
/// (the common insert of a new row) has no markers and no versions to reconcile against:
/// every change is written as it is, with no lookups. Otherwise the row's marker is read
/// once (it holds the row's range tombstones too, so an insert into a row without any pays
/// no extra lookup), a super column's when the mutation touches it.
fn plan(
    store: &RowSession<'_>,
    cf: CfRef<'_>,
    row: &EncodedRow,
    delta: Delta,
    now: u32,
    writes: &mut RowWrites,
    tally: &mut Tally,
) -> Result<()> {
    let layout = cf.layout;
    let new_row = store.row_is_empty(layout, row)?;
    let mut dels = RowDeletions::read(store, cf, row, new_row)?;
    // Whether the row had, and still has, a live column: known only when a row delete
    // looked at all of it (or the row is new); otherwise the row's liveness is taken as
    // unchanged unless its number of live columns changes.
    let mut liveness: Option<(bool, bool)> = new_row.then_some((false, false));
    // Entries this mutation removes: a later step reads the store as it was before the
    // mutation, and must neither remove nor replace one of them a second time (which would
    // count it twice in the statistics).
    let mut removed = HashSet::new();
    if let Some(t) = delta
        .row_tombstone
        .filter(|t| !hidden(dels.row_deleted(), *t))
    {
        if !new_row {
            let entries = store.entries_under(layout, row, MarkerAt::Row);
            let seen = drop_hidden(entries, &mut dels, &mut removed, t, writes, tally)?;
            liveness = Some(seen);
        }
        dels.delete_row(t, now);
    }

    for (super_column, range) in delta.ranges {
        let t = range.timestamp;
        let bounds = (range.start.clone(), range.finish.clone());
        let at = match &super_column {
            None => {
                if hidden(dels.row_deleted(), t) {
                    continue;
                }
                MarkerAt::Row
            }
            Some(sc) => {
                if hidden(dels.super_deleted_at(store, cf, row, sc)?, t) {
                    continue;
                }
                MarkerAt::Super(sc)
            }
        };
        if !dels.add_range(store, cf, row, super_column.as_deref(), range)? || new_row {
            continue;
        }
        let entries = store.entries_in(layout, row, at, (&bounds.0, &bounds.1));
        let seen = drop_hidden(entries, &mut dels, &mut removed, t, writes, tally)?;
        if let Some((_, live_after)) = &mut liveness {
            *live_after |= seen.1;
        }
    }

    for (name, t) in delta.super_tombstones {
        if hidden(dels.super_deleted_at(store, cf, row, &name)?, t) {
            continue;
        }
        if !new_row {
            let entries = store.entries_under(layout, row, MarkerAt::Super(&name));
            drop_hidden(entries, &mut dels, &mut removed, t, writes, tally)?;
        }
        dels.delete_super(store, cf, row, &name, t, now)?;
    }

    for ((super_column, key_name), (written, cell)) in delta.cells {
        let super_column = super_column.as_deref();
        let name = written.as_deref().unwrap_or(&key_name);
        let deleted_at = dels.cell_deleted_at(store, cf, row, super_column, name)?;
        if hidden(deleted_at, cell.timestamp()) {
            continue;
        }
        // Only a mutation that removed something pays for the check.
        let gone = !removed.is_empty()
            && removed.contains(&match super_column {
                None => Entry::Column(key_name.clone()),
                Some(sc) => Entry::SubColumn(sc.to_vec(), key_name.clone()),
            });
        let stored = match new_row || gone {
            true => None,
            false => store.get_cell(layout, row, super_column, name)?,
        };
        // An increment adds to the stored total; it never replaces a tombstone (a counter
        // reconciles at the lowest timestamp), so a deleted counter stays deleted.
        let (cell, summed) = match stored.as_ref().and_then(|old| old.add_counter(&cell)) {
            Some(sum) => (sum, true),
            None => (cell, false),
        };
        if summed
            || stored
                .as_ref()
                .is_none_or(|old| Cell::supersedes(&cell, old, i64::from(now)))
        {
            let size = writes.put_cell(layout, row, super_column, name, &cell);
            if let Some(old) = &stored {
                count_cell(tally, old, size.key, -1);
            }
            count_cell(tally, &cell, size.key, 1);
            if let Some((_, live_after)) = &mut liveness {
                *live_after |= !cell.is_tombstone();
            }
        }
    }
    // Markers go last: a pruned super-column marker may have been deleted above as an
    // entry, and the batch applies in order.
    dels.write(cf, row, writes, tally);
    // Without a row delete the row's liveness can only change when its number of live
    // columns does; then count just enough of them to know (usually the first one).
    if liveness.is_none() && tally.live_columns != 0 {
        let enough = match tally.live_columns {
            n if n > 0 => 1,
            n => n.unsigned_abs() as usize + 1,
        };
        let before = store
            .entries_under(layout, row, MarkerAt::Row)
            .filter(|entry| entry.as_ref().map_or(true, |e| e.holds_value()))
            .take(enough)
            .try_fold(0i64, |n, entry| entry.map(|_| n + 1))?;
        liveness = Some((before > 0, before + tally.live_columns > 0));
    }
    if let Some((live_before, live_after)) = liveness {
        tally.live_rows += i64::from(live_after) - i64::from(live_before);
    }
    Ok(())
}

/// Adds (`sign` 1) or removes (-1) one stored cell version in the tally. An expiring
/// column counts as a live column until it is removed, expired or not (`stats`), and its
/// write counts as a tombstone written: the purge must look at it once it expires.
fn count_cell(tally: &mut Tally, cell: &Cell, key_len: usize, sign: i64) {
    match cell {
        Cell::Live { .. } | Cell::Counter { .. } => tally.live_columns += sign,
        Cell::Expiring { .. } => {
            tally.live_columns += sign;
            if sign > 0 {
                tally.tombstones_written += 1;
            }
        }
        Cell::Tombstone { .. } => {
            tally.tombstones += sign;
            if sign > 0 {
                tally.tombstones_written += 1;
            }
        }
    }
    tally.bytes += sign * (key_len + stored_value_len(cell)) as i64;
}

/// Deletes every stored version among `entries` that a deletion at `t` covering them all
/// hides: columns and subcolumns (live or tombstones) with timestamp ≤ t; a super-column
/// marker among them loses what it holds at or below `t` (through `dels`, which writes it
/// once at the end). Entries in `removed` are already gone; those removed here join them.
/// Returns whether a live version was there before, and whether one is
/// left.
fn drop_hidden(
    entries: impl Iterator<Item = Result<StoredEntry>>,
    dels: &mut RowDeletions,
    removed: &mut HashSet<Entry>,
    t: i64,
    writes: &mut RowWrites,
    tally: &mut Tally,
) -> Result<(bool, bool)> {
    let (mut live_before, mut live_after) = (false, false);
    for item in entries {
        let stored = item?;
        let cell = match (&stored.value, &stored.entry) {
            (StoredValue::Cell(cell), _) => cell,
            (StoredValue::Marker(marker), Entry::SuperTombstone(name)) => {
                dels.prune_super(name, marker.clone(), t);
                continue;
            }
            // The row's own marker never lies under the row's names.
            (StoredValue::Marker(_), _) => continue,
        };
        // As the statistics count it (see `count_cell`).
        let live = stored.holds_value();
        live_before |= live;
        if removed.contains(&stored.entry) {
            continue;
        }
        if cell.timestamp() <= t {
            removed.insert(stored.entry.clone());
            writes.delete(&stored);
            match live {
                true => tally.live_columns -= 1,
                false => tally.tombstones -= 1,
            }
            tally.bytes -= stored.stored_bytes() as i64;
        } else {
            live_after |= live;
        }
    }
    Ok((live_before, live_after))
}

/// Checks that a change fits the CF's kind and names, and adds it to the delta.
fn add_change(cf: CfRef<'_>, delta: &mut Delta, change: Change, now: u32) -> Result<()> {
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
            check_name(def.comparator, sc, NameLevel::SuperColumn)?;
        }
        check_name(
            def.comparator_for(super_column.is_some()),
            name,
            NameLevel::Column,
        )
    };
    match change {
        Change::Insert {
            super_column,
            column,
        } => {
            check_path(&super_column, &column.name)?;
            if def.is_counter() {
                return Err(Error::invalid(format!(
                    "invalid operation for commutative table {}",
                    def.name
                )));
            }
            // `service` checks the TTL's range; this keeps a direct caller from storing a
            // cell that is born expired.
            if column.ttl.is_some_and(|ttl| ttl <= 0) {
                return Err(Error::invalid("ttl must be positive"));
            }
            let cell = Cell::written(column.value, column.timestamp, column.ttl, now.into());
            delta.add_cell(cf, super_column, column.name, cell, now);
        }
        Change::Add {
            super_column,
            name,
            delta: total,
        } => {
            check_path(&super_column, &name)?;
            if !def.is_counter() {
                return Err(Error::invalid(format!(
                    "invalid operation for non commutative table {}",
                    def.name
                )));
            }
            delta.add_cell(cf, super_column, name, Cell::Counter { total }, now);
        }
        Change::DeleteColumn {
            super_column,
            name,
            timestamp,
        } => {
            check_path(&super_column, &name)?;
            let cell = Cell::Tombstone {
                timestamp,
                local_deletion_time: now,
            };
            delta.add_cell(cf, super_column, name, cell, now);
        }
        Change::DeleteSuper { name, timestamp } => {
            if !def.is_super() {
                return Err(shape_error());
            }
            check_name(def.comparator, &name, NameLevel::SuperColumn)?;
            let name = canonical(def.comparator, name);
            let slot = delta.super_tombstones.entry(name).or_insert(timestamp);
            *slot = (*slot).max(timestamp);
        }
        Change::DeleteRange {
            super_column,
            start,
            finish,
            timestamp,
        } => {
            if super_column.is_some() && !def.is_super() {
                return Err(shape_error());
            }
            if let Some(sc) = &super_column {
                check_name(def.comparator, sc, NameLevel::SuperColumn)?;
            }
            // The bounds are names of the level the range covers: super-column names at
            // the top of a Super CF.
            let comparator = def.comparator_for(super_column.is_some());
            let level = match super_column.is_none() && def.is_super() {
                true => NameLevel::SuperColumn,
                false => NameLevel::Column,
            };
            for bound in [&start, &finish].into_iter().filter(|b| !b.is_empty()) {
                check_name(comparator, bound, level)?;
            }
            if !start.is_empty()
                && !finish.is_empty()
                && comparator.compare(&start, &finish) == std::cmp::Ordering::Greater
            {
                return Err(Error::invalid("range finish must come after start"));
            }
            let range = RangeTombstone {
                start,
                finish,
                timestamp,
                local_deletion_time: now,
            };
            // One marker per super column, whatever equal bytes name it.
            let super_column = super_column.map(|sc| canonical(def.comparator, sc));
            delta.ranges.push((super_column, range));
        }
        Change::DeleteRow { timestamp } => {
            delta.row_tombstone = delta.row_tombstone.max(Some(timestamp));
        }
    }
    Ok(())
}
