//! Range reads over rows (spec §8.6, §10.5): rows in token order from the range start,
//! wrapping around the ring for token ranges whose start ≥ end, each row sliced by the
//! predicate. Every row that holds anything in the CF — even only tombstones — is returned,
//! possibly with no columns ("range ghosts"), and counts towards the row limit. Split
//! points for `describe_splits` walk the same ranges across every column family.

use super::{CfRef, Db};
use crate::error::{Error, Result};
use crate::model::{ColumnParent, KeyRange, KeySlice, Predicate, RowBounds};
use crate::partitioner::Token;
use crate::storage::encoding::prefix_end;
use crate::storage::keys::decode_row;
use crate::storage::CfLayout;
use std::ops::Bound;

type Segment = (Bound<Vec<u8>>, Bound<Vec<u8>>);

/// Lower bound just past every row whose token is ≤ `token`.
fn rows_after(layout: &CfLayout, token: &Token) -> Bound<Vec<u8>> {
    if token.is_minimum() {
        return Bound::Included(layout.cf_prefix());
    }
    match layout.rows_through(token) {
        Bound::Excluded(key) | Bound::Included(key) => Bound::Included(key),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// The stretches of the CF's key space a range covers, in ring order.
fn segments(layout: &CfLayout, bounds: &RowBounds) -> Vec<Segment> {
    let start_of_cf = || Bound::Included(layout.cf_prefix());
    match bounds {
        RowBounds::Keys { start, end } => {
            let p = layout.partitioner;
            let lower = if start.is_empty() {
                start_of_cf()
            } else {
                layout.rows_from(&p.token(start))
            };
            let upper = if end.is_empty() {
                layout.cf_end()
            } else {
                layout.rows_through(&p.token(end))
            };
            vec![(lower, upper)]
        }
        RowBounds::Tokens { start, end } => {
            let after_start = rows_after(layout, start);
            if end.is_minimum() {
                vec![(after_start, layout.cf_end())]
            } else if start < end {
                vec![(after_start, layout.rows_through(end))]
            } else {
                vec![
                    (after_start, layout.cf_end()),
                    (start_of_cf(), layout.rows_through(end)),
                ]
            }
        }
    }
}

impl Db {
    /// `get_range_slices`: up to `range.count` rows in ring order, each sliced by `predicate`.
    pub fn get_range_slices(
        &self,
        keyspace: &str,
        parent: &ColumnParent,
        predicate: &Predicate,
        range: &KeyRange,
    ) -> Result<Vec<KeySlice>> {
        let started = std::time::Instant::now();
        let cf = self.cf(keyspace, &parent.column_family)?;
        let mut out = Vec::new();
        for (mut lower, upper) in segments(cf.layout, &range.bounds) {
            while out.len() < range.count {
                let Some((row, key)) = self.next_row(cf, lower, upper.clone())? else {
                    break;
                };
                let columns =
                    self.slice_row(cf, &row, parent.super_column.as_deref(), predicate)?;
                out.push(KeySlice { key, columns });
                let row_prefix = cf.layout.row_prefix(&row);
                match prefix_end(&row_prefix) {
                    Some(next) => lower = Bound::Included(next),
                    None => break,
                }
            }
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
        for ks in self.schema.keyspaces.values() {
            for cf in ks.column_families.keys() {
                cfs.push(self.cf(&ks.name, cf)?);
            }
        }
        let keys_per_split = keys_per_split.max(1);
        let mut out = Vec::new();
        let mut seen = 0usize;
        // Every CF splits the range into the same segments, so walking segment by segment
        // and merging CFs by token keeps ring order.
        let per_cf: Vec<Vec<Segment>> = cfs.iter().map(|cf| segments(cf.layout, &bounds)).collect();
        let segment_count = per_cf.first().map_or(0, Vec::len);
        for index in 0..segment_count {
            let mut cursors = Vec::new();
            for (cf, segs) in cfs.iter().zip(&per_cf) {
                if let Some((lower, upper)) = segs.get(index).cloned() {
                    let head = self.first_token(*cf, lower, upper.clone())?;
                    cursors.push((*cf, upper, head));
                }
            }
            while let Some(token) = cursors.iter().filter_map(|c| c.2.clone()).min() {
                seen += 1;
                if seen.is_multiple_of(keys_per_split) && token != *end {
                    out.push(token.clone());
                }
                for (cf, upper, head) in cursors.iter_mut() {
                    if head.as_ref() == Some(&token) {
                        let lower = rows_after(cf.layout, &token);
                        *head = self.first_token(*cf, lower, upper.clone())?;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The token of the first row with any entry in `(lower, upper)`.
    fn first_token(
        &self,
        cf: CfRef<'_>,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
    ) -> Result<Option<Token>> {
        Ok(self
            .next_row(cf, lower, upper)?
            .map(|(_, key)| self.partitioner().token(&key)))
    }

    /// The first row with any entry in `(lower, upper)`: its encoded row part and key.
    fn next_row(
        &self,
        cf: CfRef<'_>,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
    ) -> Result<Option<(Vec<u8>, String)>> {
        let Some((key, _)) = self.store.first(lower, upper)? else {
            return Ok(None);
        };
        let corrupt = || {
            Error::Corrupt(format!(
                "undecodable row key in column family {}",
                cf.def.name
            ))
        };
        let encoded = key.get(4..).ok_or_else(corrupt)?;
        let (row_key, len) = decode_row(cf.layout.partitioner, encoded).ok_or_else(corrupt)?;
        Ok(Some((encoded[..len].to_vec(), row_key)))
    }
}
