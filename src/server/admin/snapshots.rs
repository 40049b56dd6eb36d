//! Named snapshots in `<DataFileDirectory>/snapshots/NAME`: taking one (a consistent copy of
//! the store, see `cf::admin`), listing them, and removing one or all. A name is what
//! nodetool would accept as a tag and is safe as a directory name; without one, the time in
//! milliseconds since the epoch names it, as in Cassandra.

use super::api::Snapshot;
use super::report::{Answer, Failure};
use crate::cf::Db;
use crate::storage::snapshot::dir_bytes;
use std::fs;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100.
fn check_name(name: &str) -> Answer<()> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    match ok {
        true => Ok(()),
        false => Err(Failure::new(
            400,
            format!(
                "bad snapshot name {name:?}: use letters, digits, '.', '_' and '-', \
                 starting with a letter or digit"
            ),
        )),
    }
}

fn describe(dir: &Path, name: &str) -> Snapshot {
    let path = dir.join(name);
    Snapshot {
        name: name.to_string(),
        bytes: dir_bytes(&path, None),
        path: path.display().to_string(),
    }
}

/// Every snapshot under `dir`, by name.
pub fn list(dir: &Path) -> Answer<Vec<Snapshot>> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    Ok(names.iter().map(|n| describe(dir, n)).collect())
}

/// Writes a snapshot of `db` named `name` (or the current time) under `dir`.
pub fn take(db: &Db, dir: &Path, name: Option<&str>) -> Answer<Snapshot> {
    let name = match name {
        Some(n) => n.to_string(),
        None => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0)
            .to_string(),
    };
    check_name(&name)?;
    let path = dir.join(&name);
    if path.exists() {
        return Err(Failure::new(409, format!("snapshot {name} exists already")));
    }
    fs::create_dir_all(dir)
        .map_err(|e| Failure::new(500, format!("cannot create {}: {e}", dir.display())))?;
    if let Err(e) = db.snapshot(&path) {
        // A half-written copy must not be mistaken for a snapshot.
        let _ = fs::remove_dir_all(&path);
        return Err(e.into());
    }
    Ok(describe(dir, &name))
}

/// Removes the snapshot `name`, or every snapshot; returns what was removed.
pub fn clear(dir: &Path, name: Option<&str>) -> Answer<Vec<Snapshot>> {
    let doomed = match name {
        Some(n) => {
            check_name(n)?;
            let found: Vec<Snapshot> = list(dir)?.into_iter().filter(|s| s.name == n).collect();
            if found.is_empty() {
                return Err(Failure::new(404, format!("no snapshot named {n}")));
            }
            found
        }
        None => list(dir)?,
    };
    for s in &doomed {
        fs::remove_dir_all(dir.join(&s.name))
            .map_err(|e| Failure::new(500, format!("cannot remove {}: {e}", s.path)))?;
    }
    Ok(doomed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_directory_names() {
        for good in ["before-upgrade", "1700000000000", "v1.2_b"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "..",
            "../x",
            "a/b",
            ".hidden",
            "sp ace",
            &"x".repeat(101),
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clearing_an_unknown_snapshot_is_an_error_and_clearing_all_removes_each() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(
            clear(dir.path(), Some("nope")).map_err(|f| f.status).err(),
            Some(404)
        );
        for n in ["a", "b"] {
            fs::create_dir_all(dir.path().join(n).join("inner")).expect("mkdir");
        }
        let removed = clear(dir.path(), None).expect("clear");
        assert_eq!(removed.len(), 2);
        assert!(list(dir.path()).expect("list").is_empty());
    }
}
