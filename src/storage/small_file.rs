//! Small files ilion keeps beside an engine's own (the engine marker, the fjall key layout,
//! the durability watermark): each is replaced whole and durably, so that after a crash it
//! holds either its old content or its new one, never a torn mix or nothing.

use crate::error::Result;
use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

/// Replaces the file at `path` with `bytes`: written to `<path>.tmp`, fsynced, renamed over
/// `path`, and the directory fsynced so that the rename itself survives a power cut.
pub(super) fn write_durably(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&tmp, path)?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_content_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ilion-example");
        write_durably(&path, b"first").unwrap();
        write_durably(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("ilion-example")]);
    }
}
