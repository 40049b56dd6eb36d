//! Truncate (`docs/api-later.md#truncate`): one column family emptied of everything it
//! stores — rows, columns, markers, tombstones — while its definition and every other column
//! family stay. Nothing is left to hide later writes, so a write at any timestamp, even one
//! older than what was removed, is visible afterwards.

use super::Db;
use crate::error::Result;
use crate::storage::Ack;

impl Db {
    /// Removes every stored entry of `keyspace`.`column_family`. Every row lock is held
    /// meanwhile, so no write of this node interleaves (writes to other column families wait
    /// too, as for a snapshot); refused after `drain`. The per-CF statistics restart from
    /// empty. Wait on the returned [`Ack`] before reporting success: it completes when the
    /// removal is durable. How a crash part-way leaves the store is in
    /// `docs/storage.md#truncate`.
    pub fn truncate(&self, keyspace: &str, column_family: &str) -> Result<Ack> {
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, column_family)?;
        let _writers = self.locks.lock_all();
        self.refuse_if_drained()?;
        let ack = self.store.truncate(cf.layout)?;
        self.counters.truncated(cf.layout.id);
        Ok(ack)
    }
}
