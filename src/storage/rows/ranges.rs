//! Rows in ring order, for range reads and split points (`docs/api.md#range-slices`,
//! `#key-ranges`, `docs/api-later.md#key-ranges`): the stretches of a column family's key
//! space that key or token bounds cover ([`RowSpan`]s, two when a token range wraps around the
//! ring), and the rows found in them. 0.6 key bounds and token bounds cut the rows at a
//! token; the later API's key bounds cut them at a row, since rows are stored in row order
//! (token, then key). A row is found when it holds anything in the column family, even only
//! tombstones.

use super::{corrupt_key, EncodedRow};
use crate::error::Result;
use crate::model::RowBounds;
use crate::partitioner::Token;
use crate::storage::encoding::prefix_end;
use crate::storage::keys::{decode_row, encode_row, prefix_upper, CfLayout};
use crate::storage::Store;
use std::ops::Bound;

/// A stretch of one column family's rows, in ring order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowSpan {
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
}

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

/// Lower bound at row `key` itself: rows before it in row order are out, even with its token.
fn rows_from_key(layout: &CfLayout, key: &[u8]) -> Bound<Vec<u8>> {
    Bound::Included(layout.row_prefix(&encode_row(layout.partitioner, key)))
}

/// Upper bound just past row `key`: every entry of it is in, no later row is (row parts are
/// prefix-free, so a later row differs from `key`'s within its length).
fn rows_through_key(layout: &CfLayout, key: &[u8]) -> Bound<Vec<u8>> {
    match prefix_upper(&layout.row_prefix(&encode_row(layout.partitioner, key))) {
        Bound::Unbounded => layout.cf_end(),
        bound => bound,
    }
}

impl RowSpan {
    fn new(lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>) -> RowSpan {
        RowSpan { lower, upper }
    }

    /// The spans a range covers, in ring order.
    pub fn of(layout: &CfLayout, bounds: &RowBounds) -> Vec<RowSpan> {
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
                vec![RowSpan::new(lower, upper)]
            }
            RowBounds::KeySpan { start, end } => {
                let lower = match start.is_empty() {
                    true => start_of_cf(),
                    false => rows_from_key(layout, start),
                };
                let upper = match end.is_empty() {
                    true => layout.cf_end(),
                    false => rows_through_key(layout, end),
                };
                vec![RowSpan::new(lower, upper)]
            }
            RowBounds::KeyToToken { start, end } => {
                let lower = match start.is_empty() {
                    true => start_of_cf(),
                    false => rows_from_key(layout, start),
                };
                let upper = match end.is_minimum() {
                    true => layout.cf_end(),
                    false => layout.rows_through(end),
                };
                vec![RowSpan::new(lower, upper)]
            }
            RowBounds::Tokens { start, end } => {
                let after_start = rows_after(layout, start);
                if end.is_minimum() {
                    vec![RowSpan::new(after_start, layout.cf_end())]
                } else if start < end {
                    vec![RowSpan::new(after_start, layout.rows_through(end))]
                } else {
                    vec![
                        RowSpan::new(after_start, layout.cf_end()),
                        RowSpan::new(start_of_cf(), layout.rows_through(end)),
                    ]
                }
            }
        }
    }

    /// The rest of this span past every row whose token is ≤ `token`.
    pub fn after_token(&self, layout: &CfLayout, token: &Token) -> RowSpan {
        RowSpan::new(rows_after(layout, token), self.upper.clone())
    }

    /// The rest of this span past `row`, or `None` when nothing can follow it.
    fn after_row(&self, layout: &CfLayout, row: &EncodedRow) -> Option<RowSpan> {
        let next = prefix_end(&layout.row_prefix(row.bytes()))?;
        Some(RowSpan::new(Bound::Included(next), self.upper.clone()))
    }
}

impl Store {
    /// The first row of `span` with any entry in the column family: its stored form and key.
    pub fn first_row(
        &self,
        layout: &CfLayout,
        span: &RowSpan,
    ) -> Result<Option<(EncodedRow, Vec<u8>)>> {
        let Some((key, _)) = self.first(span.lower.clone(), span.upper.clone())? else {
            return Ok(None);
        };
        let encoded = key.get(4..).ok_or_else(|| corrupt_key(layout))?;
        let (row_key, len) =
            decode_row(layout.partitioner, encoded).ok_or_else(|| corrupt_key(layout))?;
        Ok(Some((EncodedRow(encoded[..len].to_vec()), row_key)))
    }

    /// The rows a range covers, in ring order, each read when the iterator gets to it.
    pub fn rows<'a>(
        &'a self,
        layout: &'a CfLayout,
        bounds: &RowBounds,
    ) -> impl Iterator<Item = Result<(EncodedRow, Vec<u8>)>> + 'a {
        let mut spans = RowSpan::of(layout, bounds).into_iter();
        let mut current = spans.next();
        std::iter::from_fn(move || loop {
            let span = current.take()?;
            match self.first_row(layout, &span) {
                Err(e) => return Some(Err(e)),
                Ok(None) => current = spans.next(),
                Ok(Some((row, key))) => {
                    current = span.after_row(layout, &row).or_else(|| spans.next());
                    return Some(Ok((row, key)));
                }
            }
        })
    }
}

#[cfg(test)]
mod tests;
