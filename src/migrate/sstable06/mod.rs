//! Reading a Cassandra 0.6 keyspace directory without a JVM (the format:
//! `docs/migrate.md`, which restates the 0.6 file format). [`list`] finds the live SSTables
//! of each column family — `<CF>-<gen>-Data.db`, skipping unfinished `-tmp` files and
//! generations marked `-Compacted` — and [`DataFile`] streams the rows of one data file.
//! The `-Index.db` and `-Filter.db` files are not needed for a full scan and are not read.

mod data;
mod input;
mod keys;

pub use data::{DataFile, FileRow};
pub use keys::RowOrder;

use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One SSTable: its generation and data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SsTable {
    /// The generation number of its file names.
    pub generation: u64,
    /// Its `-Data.db` file.
    pub data: PathBuf,
}

/// The live SSTables of every column family in a 0.6 keyspace directory, by CF name, each
/// list in generation order.
pub fn list(keyspace_dir: &Path) -> Result<BTreeMap<String, Vec<SsTable>>> {
    let entries = std::fs::read_dir(keyspace_dir)
        .map_err(|e| Error::Storage(format!("cannot read {}: {e}", keyspace_dir.display())))?;
    let mut out: BTreeMap<String, Vec<SsTable>> = BTreeMap::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some((cf, generation)) = parse_data_name(name) else {
            continue;
        };
        if !entry.file_type()?.is_file() {
            continue;
        }
        // A compaction replaced this SSTable; its rows live on in the newer one.
        if keyspace_dir
            .join(format!("{cf}-{generation}-Compacted"))
            .exists()
        {
            continue;
        }
        // 0.6 deletes zero-length files at start-up; they carry nothing.
        if entry.metadata()?.len() == 0 {
            continue;
        }
        out.entry(cf.to_string()).or_default().push(SsTable {
            generation,
            data: entry.path(),
        });
    }
    for tables in out.values_mut() {
        tables.sort_by_key(|t| t.generation);
    }
    Ok(out)
}

/// `<CF>-<gen>-Data.db` → (CF, gen); `None` for anything else, including `-tmp` files.
fn parse_data_name(name: &str) -> Option<(&str, u64)> {
    let stem = name.strip_suffix("-Data.db")?;
    let (cf, generation) = stem.split_once('-')?;
    if cf.is_empty() || !generation.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((cf, generation.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_file_names() {
        assert_eq!(parse_data_name("Users-12-Data.db"), Some(("Users", 12)));
        assert_eq!(parse_data_name("Users-tmp-12-Data.db"), None);
        assert_eq!(parse_data_name("Users-12-Index.db"), None);
        assert_eq!(parse_data_name("Users-12-Data.db.json"), None);
        assert_eq!(parse_data_name("-1-Data.db"), None);
    }

    #[test]
    fn compacted_tmp_and_empty_sstables_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let put = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
        put("A-1-Data.db", b"x");
        put("A-1-Compacted", b"");
        put("A-3-Data.db", b"x");
        put("A-2-Data.db", b"x");
        put("A-tmp-4-Data.db", b"x");
        put("B-1-Data.db", b"");
        put("B-1-Index.db", b"x");
        let found = list(dir.path()).unwrap();
        let gens: Vec<u64> = found["A"].iter().map(|t| t.generation).collect();
        assert_eq!(gens, [2, 3]);
        assert!(!found.contains_key("B"));
    }
}
