//! A streaming reader of one `<CF>-<gen>-Data.db` (`docs/migrate.md#what-is-read`): rows in file
//! order, one at a time, so memory is bounded by the largest row. Each row's length is checked
//! against the bytes left in the file before its body is read; the body is then parsed with every
//! field bounds-checked ([`super::input`]) and must end exactly where `rowSize` said. Rows are
//! checked against the target CF's shape and must be in strictly increasing partitioner order; the
//! column index and bloom filters are skipped (a full scan needs neither).

use super::input::{modified_utf8, FieldResult, Input};
use super::keys::{order_is_exact, split_disk_key, RowOrder};
use crate::error::{Error, Result};
use crate::migrate::row::{deletion, Column, Row, RowBody, SuperColumn};
use crate::migrate::shape::CfShape;
use crate::partitioner::Partitioner;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// 0.6's `Integer.MIN_VALUE` local deletion time: "no tombstone".
const NO_LOCAL_DELETION: i32 = i32::MIN;

/// Smallest serialized column (§5.1: empty name and value) — bounds a claimed count.
const MIN_COLUMN_BYTES: usize = 2 + 1 + 8 + 4;
/// Smallest serialized super column (§5.2).
const MIN_SUPER_BYTES: usize = 2 + 4 + 8 + 4;

/// A row as read from a data file, with its place in the file and in partitioner order.
#[derive(Debug, Clone)]
pub struct FileRow {
    /// The row as stored in this file.
    pub row: Row,
    /// Its place in partitioner order.
    pub order: RowOrder,
    /// Offset of the row in the data file.
    pub offset: u64,
}

/// An open data file, read front to back.
pub struct DataFile {
    input: BufReader<File>,
    path: PathBuf,
    len: u64,
    pos: u64,
    shape: CfShape,
    partitioner: Partitioner,
    last: Option<(RowOrder, bool)>,
}

impl DataFile {
    /// Opens `path` for a CF of `shape` under `partitioner`.
    pub fn open(path: &Path, shape: CfShape, partitioner: Partitioner) -> Result<DataFile> {
        let file = File::open(path)
            .map_err(|e| Error::Storage(format!("cannot open {}: {e}", path.display())))?;
        let len = file.metadata()?.len();
        Ok(DataFile {
            input: BufReader::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            len,
            pos: 0,
            shape,
            partitioner,
            last: None,
        })
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes read so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    fn corrupt(&self, offset: u64, message: impl std::fmt::Display) -> Error {
        Error::Corrupt(format!(
            "{} at byte {offset}: {message}",
            self.path.display()
        ))
    }

    /// Reads `n` bytes, which the caller has checked fit in the file.
    fn read_bytes(&mut self, n: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0; n];
        self.input
            .read_exact(&mut buf)
            .map_err(|e| self.corrupt(self.pos, format!("read failed: {e}")))?;
        self.pos += n as u64;
        Ok(buf)
    }

    /// Reads `n` bytes of a field, refusing lengths that run past the end of the file.
    fn field(&mut self, n: usize, what: &str) -> Result<Vec<u8>> {
        let left = self.len - self.pos;
        if n as u64 > left {
            return Err(self.corrupt(
                self.pos,
                format!("{what} needs {n} bytes but the file has {left} left"),
            ));
        }
        self.read_bytes(n)
    }

    /// The next row, or `None` at the end of the file.
    pub fn next_row(&mut self) -> Result<Option<FileRow>> {
        if self.pos == self.len {
            return Ok(None);
        }
        let offset = self.pos;
        let key_len = self.field(2, "the row key length")?;
        let key_len = usize::from(u16::from_be_bytes([key_len[0], key_len[1]]));
        let disk_key = self.field(key_len, "the row key")?;
        let disk_key = modified_utf8(&disk_key).map_err(|e| self.corrupt(offset, e))?;
        let size = self.field(4, "the row size")?;
        let size = i32::from_be_bytes([size[0], size[1], size[2], size[3]]);
        let size = usize::try_from(size)
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| self.corrupt(offset, format!("row size {size} is not positive")))?;
        let body_at = self.pos;
        let body = self.field(size, "the row body")?;
        let (key, order) =
            split_disk_key(self.partitioner, disk_key).map_err(|e| self.corrupt(offset, e))?;
        let (deleted_at, body) = match parse_body(&body, self.shape.is_super) {
            Ok(parsed) => parsed,
            // The file does not say the CF's kind; when the other kind parses, say so.
            Err(_) if parse_body(&body, !self.shape.is_super).is_ok() => {
                return Err(self.corrupt(
                    offset,
                    format!(
                        "row {key:?} is a {} row, but the configuration defines {}",
                        if self.shape.is_super {
                            "Standard"
                        } else {
                            "Super"
                        },
                        self.shape.describe()
                    ),
                ))
            }
            Err(e) => {
                return Err(self.corrupt(
                    body_at + e.offset as u64,
                    format!("row {key:?}: {}", e.message),
                ))
            }
        };
        let row = Row {
            key,
            deleted_at,
            body,
        };
        self.shape.check_row(&row, true).map_err(|e| {
            self.corrupt(
                offset,
                format!(
                    "row {:?} does not fit {} as configured: {e}",
                    row.key,
                    self.shape.describe()
                ),
            )
        })?;
        self.check_order(&order, &row.key, offset)?;
        Ok(Some(FileRow { row, order, offset }))
    }

    /// Rows must come in strictly increasing partitioner order; a file that does not was
    /// written under another partitioner (or is damaged). Skipped where ilion cannot
    /// reproduce the order exactly (COPP keys outside ASCII).
    fn check_order(&mut self, order: &RowOrder, key: &str, offset: u64) -> Result<()> {
        let exact = order_is_exact(self.partitioner, key);
        if let Some((last, last_exact)) = &self.last {
            if exact && *last_exact && last >= order {
                return Err(self.corrupt(
                    offset,
                    format!(
                        "row {key:?} is out of {} order; was the file written under \
                         another partitioner?",
                        self.partitioner.short_name()
                    ),
                ));
            }
        }
        self.last = Some((order.clone(), exact));
        Ok(())
    }
}

/// Parses a row body (§5): skips the bloom filter and column index, reads the row tombstone
/// and the columns, and requires the body to end exactly after the last column.
fn parse_body(body: &[u8], is_super: bool) -> FieldResult<(Option<i64>, RowBody)> {
    let mut input = Input::new(body);
    let bf = input.length("bloom filter size")?;
    input.take(bf, "bloom filter")?;
    let index = input.length("column index size")?;
    input.take(index, "column index")?;
    let _local_deletion = input.i32("row local deletion time")?;
    let deleted_at = deletion(input.i64("row markedForDeleteAt")?);
    let count = count(
        &mut input,
        if is_super {
            MIN_SUPER_BYTES
        } else {
            MIN_COLUMN_BYTES
        },
    )?;
    let body = if is_super {
        let mut supers = Vec::with_capacity(count);
        for _ in 0..count {
            supers.push(super_column(&mut input)?);
        }
        RowBody::Super(supers)
    } else {
        RowBody::Standard(columns(&mut input, count)?)
    };
    if input.remaining() != 0 {
        return Err(input.error(format!(
            "{} bytes after the last column (row size and columns disagree)",
            input.remaining()
        )));
    }
    Ok((deleted_at, body))
}

/// A column count, refused when the remaining bytes cannot hold that many entries.
fn count(input: &mut Input<'_>, min_entry: usize) -> FieldResult<usize> {
    let at = input.offset();
    let n = input.i32("column count")?;
    match usize::try_from(n) {
        Ok(n) if n <= input.remaining() / min_entry => Ok(n),
        _ => Err(super::input::FieldError {
            offset: at,
            message: format!(
                "column count {n} cannot fit in the {} bytes left",
                input.remaining()
            ),
        }),
    }
}

fn columns(input: &mut Input<'_>, count: usize) -> FieldResult<Vec<Column>> {
    let mut cols = Vec::with_capacity(count);
    for _ in 0..count {
        let name = input.name("column name")?.to_vec();
        let deleted = input.u8("column deleted flag")? != 0;
        let timestamp = input.i64("column timestamp")?;
        let value = input.value("column value")?.to_vec();
        cols.push(Column {
            name,
            value,
            timestamp,
            deleted,
        });
    }
    Ok(cols)
}

fn super_column(input: &mut Input<'_>) -> FieldResult<SuperColumn> {
    let name = input.name("super column name")?.to_vec();
    let at = input.offset();
    let local_deletion = input.i32("super column local deletion time")?;
    if local_deletion != NO_LOCAL_DELETION && local_deletion <= 0 {
        return Err(super::input::FieldError {
            offset: at,
            message: format!("super column local deletion time {local_deletion} is invalid"),
        });
    }
    let deleted_at = deletion(input.i64("super column markedForDeleteAt")?);
    let n = count(input, MIN_COLUMN_BYTES)?;
    let columns = columns(input, n)?;
    Ok(SuperColumn {
        name,
        deleted_at,
        columns,
    })
}

#[cfg(test)]
#[path = "data_tests.rs"]
mod tests;
