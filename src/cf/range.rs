//! Range reads over rows (`docs/api.md#range-slices`, `#key-ranges`): rows in token order from
//! the range start, wrapping around the ring for token ranges whose start ≥ end, each row
//! sliced by the predicate. Every row that holds anything in the CF — even only tombstones or
//! expired columns — is returned, possibly with no columns ("range ghosts"), and counts
//! towards the row limit. Split points for `describe_splits` walk the same ranges across
//! every column family.

use super::{CfRef, Db};
use crate::error::Result;
use crate::model::{ColumnParent, KeyRange, KeySlice, Predicate, RowBounds};
use crate::partitioner::Token;
use crate::storage::RowSpan;

impl Db {
    /// `get_range_slices`: up to `range.count` rows in ring order, each sliced by `predicate`.
    /// Rows whose key `range.keys` does not admit are skipped before the count
    /// (`docs/compatibility.md#binary-keys`).
    pub fn get_range_slices(
        &self,
        keyspace: &str,
        parent: &ColumnParent,
        predicate: &Predicate,
        range: &KeyRange,
    ) -> Result<Vec<KeySlice>> {
        let started = std::time::Instant::now();
        let catalog = self.catalog();
        let cf = Db::cf(&catalog, keyspace, &parent.column_family)?;
        let mut out = Vec::new();
        let rows = self.store.rows(cf.layout, &range.bounds);
        // Rows the caller cannot see are skipped before the limit counts them.
        let visible = rows.filter(|item| {
            item.as_ref()
                .map_or(true, |(_, key)| range.keys.admits(key))
        });
        for item in visible.take(range.count) {
            let (row, key) = item?;
            let columns = self.slice_row(cf, &row, parent.super_column.as_deref(), predicate)?;
            out.push(KeySlice { key, columns });
        }
        let columns = out.iter().map(|r| r.columns.len()).sum();
        crate::metrics::rows_read(keyspace, &parent.column_family, started, out.len(), columns);
        Ok(out)
    }

    /// Split points for `describe_splits` over the token range `(start, end]`: walking the
    /// distinct tokens of rows in that range (any column family, ring order from `start`),
    /// every `keys_per_split`-th one. `end` itself is never returned, so each returned token
    /// ends a non-empty sub-range. With fewer rows than `keys_per_split` the list is empty.
    pub fn split_tokens(
        &self,
        start: &Token,
        end: &Token,
        keys_per_split: usize,
    ) -> Result<Vec<Token>> {
        let bounds = RowBounds::Tokens {
            start: start.clone(),
            end: end.clone(),
        };
        let mut cfs = Vec::new();
        let catalog = self.catalog();
        for ks in catalog.schema().keyspaces.values() {
            for cf in ks.column_families.keys() {
                cfs.push(Db::cf(&catalog, &ks.name, cf)?);
            }
        }
        let keys_per_split = keys_per_split.max(1);
        let mut out = Vec::new();
        let mut seen = 0usize;
        // Every CF splits the range into the same segments, so walking segment by segment
        // and merging CFs by token keeps ring order.
        let per_cf: Vec<Vec<RowSpan>> = cfs
            .iter()
            .map(|cf| RowSpan::of(cf.layout, &bounds))
            .collect();
        let segment_count = per_cf.first().map_or(0, Vec::len);
        for index in 0..segment_count {
            let mut cursors = Vec::new();
            for (cf, spans) in cfs.iter().zip(&per_cf) {
                if let Some(span) = spans.get(index) {
                    let head = self.first_token(*cf, span)?;
                    cursors.push((*cf, span, head));
                }
            }
            while let Some(token) = cursors.iter().filter_map(|c| c.2.clone()).min() {
                seen += 1;
                if seen.is_multiple_of(keys_per_split) && token != *end {
                    out.push(token.clone());
                }
                for (cf, span, head) in cursors.iter_mut() {
                    if head.as_ref() == Some(&token) {
                        *head = self.first_token(*cf, &span.after_token(cf.layout, &token))?;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The token of the first row of `span` with any entry in the column family.
    fn first_token(&self, cf: CfRef<'_>, span: &RowSpan) -> Result<Option<Token>> {
        Ok(self
            .store
            .first_row(cf.layout, span)?
            .map(|(_, key)| self.partitioner().token(&key)))
    }
}
