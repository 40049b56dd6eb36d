//! Whole exports: the visible rows of one column family as sstable2json text, all rows in
//! partitioner order or only the `-k` keys (in the order given), minus the `-x` keys. Rows
//! that read empty are left out (they carry nothing to import). 0.6's text has no TTL: a live
//! expiring column is exported as a plain column, an expired one is left out as a deleted
//! one is. Written to a file, the text
//! goes to a temporary sibling that is renamed into place only when the export succeeded,
//! so a failed export leaves no partial file behind.

use super::json::JsonWriter;
use super::progress::Progress;
use super::RowSource;
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Which rows to export.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only these keys (all rows when empty).
    pub keys: Vec<String>,
    /// Never these keys.
    pub exclude: Vec<String>,
}

/// Streams the selected rows of `source` to `out`; returns the summary line.
pub fn to_writer(source: &mut dyn RowSource, filter: &Filter, out: impl Write) -> Result<String> {
    let io_err = |e: io::Error| Error::Storage(format!("cannot write the export: {e}"));
    let exclude: HashSet<&str> = filter.exclude.iter().map(String::as_str).collect();
    let mut writer = JsonWriter::new(BufWriter::with_capacity(1 << 16, out)).map_err(io_err)?;
    let mut progress = Progress::new("exporting", None);
    let mut emit = |row: super::row::Row| -> Result<()> {
        if !exclude.contains(row.key.as_str()) {
            writer.row(&row).map_err(io_err)?;
            progress.row(&row, None);
        }
        Ok(())
    };
    if filter.keys.is_empty() {
        while let Some(row) = source.next_row()? {
            emit(row)?;
        }
    } else {
        for key in &filter.keys {
            if let Some(row) = source.get_row(key)? {
                emit(row)?;
            }
        }
    }
    writer.finish().map_err(io_err)?;
    Ok(progress.finish("exported"))
}

/// Exports to `path` through a temporary file renamed into place on success.
pub fn to_file(source: &mut dyn RowSource, filter: &Filter, path: &Path) -> Result<String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| Error::Storage(format!("cannot create a file in {}: {e}", dir.display())))?;
    let summary = to_writer(source, filter, tmp.as_file())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)
        .map_err(|e| Error::Storage(format!("cannot write {}: {e}", path.display())))?;
    Ok(summary)
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
