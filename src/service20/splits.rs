//! `describe_splits` and `describe_splits_ex` (`docs/api-later.md#splits`): a token range cut
//! into sub-ranges of about `keys_per_split` rows of one column family, for Hadoop-style
//! jobs. Cassandra estimated from samples; a single node can count, so the rows of the
//! column family in `(start, end]` are walked once and the cuts fall on row tokens, evenly
//! spaced in that list.

use super::session::table;
use super::validation::invalid;
use super::Session20;
use crate::error::Result;
use crate::model::{self, ColumnParent, KeyFilter, Predicate, RowBounds};
use crate::partitioner::Token;
use crate::protocol::v20::generated::CfSplit;

impl Session20 {
    /// `describe_splits_ex`: the sub-ranges with their row counts, in ring order from
    /// `start`; always at least one.
    pub(super) fn describe_splits_ex(
        &self,
        column_family: &str,
        start: &str,
        end: &str,
        keys_per_split: i32,
    ) -> Result<Vec<CfSplit>> {
        let schema = self.service.db.schema();
        let ks = self.session_keyspace(&schema)?;
        let cf = table(ks, column_family)?;
        let per_split = usize::try_from(keys_per_split).unwrap_or(0);
        if per_split == 0 {
            return invalid("keys_per_split must be positive");
        }
        let partitioner = self.partitioner();
        let (start, end) = (
            partitioner.parse_token(start)?,
            partitioner.parse_token(end)?,
        );
        let range = model::KeyRange {
            bounds: RowBounds::Tokens {
                start: start.clone(),
                end: end.clone(),
            },
            count: usize::MAX,
            keys: KeyFilter::Any,
        };
        let parent = ColumnParent {
            column_family: cf.name.clone(),
            super_column: None,
        };
        // No names: only the keys of the rows are read.
        let nothing = Predicate::Names(Vec::new());
        let rows = self
            .service
            .db
            .get_range_slices(&ks.name, &parent, &nothing, &range)?;
        let tokens: Vec<Token> = rows.iter().map(|r| partitioner.token(&r.key)).collect();
        Ok(cut(start, tokens, end, per_split))
    }

    /// `describe_splits`: the boundaries of [`Self::describe_splits_ex`]'s sub-ranges.
    pub(super) fn describe_splits(
        &self,
        column_family: &str,
        start: &str,
        end: &str,
        keys_per_split: i32,
    ) -> Result<Vec<String>> {
        let splits = self.describe_splits_ex(column_family, start, end, keys_per_split)?;
        let mut out = Vec::with_capacity(splits.len() + 1);
        if let Some(first) = splits.first() {
            out.push(first.start_token.clone());
        }
        out.extend(splits.into_iter().map(|s| s.end_token));
        Ok(out)
    }
}

/// Cuts `(start, end]`, holding rows with `tokens` (ring order), into
/// max(1, rows / per_split) sub-ranges. With L = [start] + tokens + [end], sub-range i
/// (1-based) of n ends at L[round(i × (len(L) − 1) / n)], rounding halves up, so the last
/// ends at `end`; each counts the rows whose tokens it covers.
fn cut(start: Token, tokens: Vec<Token>, end: Token, per_split: usize) -> Vec<CfSplit> {
    let rows = tokens.len();
    let splits = (rows / per_split).max(1);
    let mut list = Vec::with_capacity(rows + 2);
    list.push(start);
    list.extend(tokens);
    list.push(end);
    let last = list.len() - 1;
    let mut out = Vec::with_capacity(splits);
    let mut from = 0usize;
    for i in 1..=splits {
        // round(i × last / splits) with halves up, in integers.
        let to = (2 * i * last + splits) / (2 * splits);
        let row_count = to.min(rows) - from.min(rows);
        out.push(CfSplit::new(
            list[from].to_string(),
            list[to].to_string(),
            i64::try_from(row_count).unwrap_or(i64::MAX),
        ));
        from = to;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partitioner::Partitioner;

    fn token(s: &str) -> Token {
        Partitioner::Murmur3.parse_token(s).unwrap()
    }

    fn splits(rows: &[&str], per_split: usize) -> Vec<(String, String, i64)> {
        let tokens = rows.iter().map(|s| token(s)).collect();
        cut(token("0"), tokens, token("100"), per_split)
            .into_iter()
            .map(|s| (s.start_token, s.end_token, s.row_count))
            .collect()
    }

    fn split(a: &str, b: &str, n: i64) -> (String, String, i64) {
        (a.to_string(), b.to_string(), n)
    }

    #[test]
    fn fewer_rows_than_a_split_give_the_whole_range() {
        assert_eq!(splits(&[], 10), vec![split("0", "100", 0)]);
        assert_eq!(splits(&["5", "7"], 10), vec![split("0", "100", 2)]);
    }

    #[test]
    fn cuts_fall_on_row_tokens_evenly_spaced() {
        // L = [0, 10, 20, 30, 40, 100]: two splits, step 2.5 → ends at L[3] (2.5 rounds
        // up) and L[5].
        let rows = ["10", "20", "30", "40"];
        assert_eq!(
            splits(&rows, 2),
            vec![split("0", "30", 3), split("30", "100", 1)]
        );
        // Four splits, step 1.25 → L[1], L[3] (2.5 up), L[4] (3.75), L[5].
        assert_eq!(
            splits(&rows, 1),
            vec![
                split("0", "10", 1),
                split("10", "30", 2),
                split("30", "40", 1),
                split("40", "100", 0)
            ]
        );
    }

    #[test]
    fn row_counts_add_up_to_the_rows() {
        let rows: Vec<String> = (1..=37).map(|i| i.to_string()).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        for per_split in 1..=40 {
            let out = splits(&rows, per_split);
            assert_eq!(out.len(), (37 / per_split).max(1));
            assert_eq!(out.iter().map(|s| s.2).sum::<i64>(), 37);
            assert_eq!(out.first().unwrap().0, "0");
            assert_eq!(out.last().unwrap().1, "100");
            for pair in out.windows(2) {
                assert_eq!(pair[0].1, pair[1].0, "contiguous");
            }
        }
    }
}
