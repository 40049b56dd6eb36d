//! Export's read loop, shared by both ends a row can come from: a [`Pager`] walks a column
//! family's visible rows with range reads of bounded size, in partitioner order, and
//! completes rows wider than a page with slice reads. A [`SliceReader`] is the two reads it
//! needs — `cf::Db` offline ([`super::apply`]) or Thrift ([`super::remote`]).

use super::row::{Column, Row, RowBody, SuperColumn};
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use std::collections::VecDeque;

/// Rows fetched per range read.
pub const PAGE_ROWS: usize = 100;
/// Columns (or super columns) per row in a range read: a page holds at most
/// `PAGE_ROWS × PAGE_COLUMNS` of them.
pub const PAGE_COLUMNS: usize = 100;
/// Columns per slice read when a row is wider than `PAGE_COLUMNS`.
pub const SLICE_COLUMNS: usize = 1000;

/// One entry of a read row: a column of a standard CF or a super column (visible data only).
pub enum Entry {
    /// A column.
    Column(Column),
    /// A super column with its subcolumns.
    Super(SuperColumn),
}

impl Entry {
    fn name(&self) -> &[u8] {
        match self {
            Entry::Column(c) => &c.name,
            Entry::Super(s) => &s.name,
        }
    }
}

/// The two reads paging needs, from one column family.
pub trait SliceReader {
    /// The partitioner that orders the rows.
    fn partitioner(&self) -> Partitioner;
    /// Up to `rows` rows from key `start` (inclusive; "" is the beginning), each with its
    /// first `columns` entries.
    fn range(
        &mut self,
        start: &str,
        rows: usize,
        columns: usize,
    ) -> Result<Vec<(String, Vec<Entry>)>>;
    /// Up to `count` entries of row `key` from name `start` (inclusive).
    fn slice(&mut self, key: &str, start: Vec<u8>, count: usize) -> Result<Vec<Entry>>;
}

/// Where an export stands: the rows read but not yet returned, and where to read on.
#[derive(Default)]
pub struct Pager {
    /// Key of the last row a range read returned.
    after: Option<String>,
    page: VecDeque<Row>,
    exhausted: bool,
}

impl Pager {
    /// The next row with at least one visible column.
    pub fn next_row(&mut self, reader: &mut impl SliceReader) -> Result<Option<Row>> {
        while self.page.is_empty() && !self.exhausted {
            self.fetch_page(reader)?;
        }
        Ok(self.page.pop_front())
    }

    fn fetch_page(&mut self, reader: &mut impl SliceReader) -> Result<()> {
        let start = self.after.clone().unwrap_or_default();
        let slices = reader.range(&start, PAGE_ROWS, PAGE_COLUMNS)?;
        self.exhausted = slices.len() < PAGE_ROWS;
        let p = reader.partitioner();
        let floor = self
            .after
            .as_ref()
            .map(|k| (p.token(k.as_bytes()), k.clone()));
        let mut progressed = false;
        for (key, entries) in slices {
            // The range starts at the last key's token, inclusive: skip what was seen.
            if let Some(floor) = &floor {
                if (p.token(key.as_bytes()), key.clone()) <= *floor {
                    continue;
                }
            }
            progressed = true;
            self.after = Some(key.clone());
            if entries.is_empty() {
                continue; // a range ghost: nothing visible to export
            }
            let entries = whole_row(reader, &key, entries)?;
            self.page.push_back(to_row(key, entries));
        }
        if !progressed && !self.exhausted {
            return Err(Error::Storage(format!(
                "more than {PAGE_ROWS} rows share the token of {start:?}; cannot page past them"
            )));
        }
        Ok(())
    }
}

/// One row by key, `None` when nothing in it is visible.
pub fn get_row(reader: &mut impl SliceReader, key: &str) -> Result<Option<Row>> {
    let first = reader.slice(key, Vec::new(), PAGE_COLUMNS)?;
    if first.is_empty() {
        return Ok(None);
    }
    let entries = whole_row(reader, key, first)?;
    Ok(Some(to_row(key.to_string(), entries)))
}

/// `entries` (the first `PAGE_COLUMNS` of a row) completed with the rest of the row, read
/// `SLICE_COLUMNS` at a time.
fn whole_row(
    reader: &mut impl SliceReader,
    key: &str,
    mut entries: Vec<Entry>,
) -> Result<Vec<Entry>> {
    let mut more_to_read = entries.len() >= PAGE_COLUMNS;
    while more_to_read {
        let Some(last) = entries.last().map(|e| e.name().to_vec()) else {
            break;
        };
        let more = reader.slice(key, last, SLICE_COLUMNS + 1)?;
        more_to_read = more.len() > SLICE_COLUMNS;
        entries.extend(more.into_iter().skip(1));
    }
    Ok(entries)
}

/// Read entries as a migration row (visible data only: no tombstones).
fn to_row(key: String, entries: Vec<Entry>) -> Row {
    let mut columns = Vec::new();
    let mut supers = Vec::new();
    for e in entries {
        match e {
            Entry::Column(c) => columns.push(c),
            Entry::Super(s) => supers.push(s),
        }
    }
    let body = if supers.is_empty() {
        RowBody::Standard(columns)
    } else {
        RowBody::Super(supers)
    };
    Row {
        key,
        deleted_at: None,
        body,
    }
}
