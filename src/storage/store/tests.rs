//! The row store over a real sled or fjall directory: what it refuses to open.

use super::*;
use crate::partitioner::Partitioner;
use crate::storage::keys::meta_key;
use crate::storage::{open_engine, EngineKind, MAX_CHUNK_BYTES};
use std::path::{Path, PathBuf};

fn packing() -> Packing {
    Packing {
        partitioner: Partitioner::Random,
        max_chunk: MAX_CHUNK_BYTES,
    }
}

/// The file an engine appends its writes to: sled's log, fjall's newest journal.
fn log_file(dir: &Path, kind: EngineKind) -> PathBuf {
    match kind {
        EngineKind::Sled => dir.join("db"),
        EngineKind::Fjall => std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "jnl"))
            .max_by_key(|p| std::fs::metadata(p).unwrap().len())
            .expect("fjall keeps a journal"),
    }
}

fn open_store(dir: &Path, kind: EngineKind) -> crate::Result<Store> {
    let opened = open_engine(dir, kind, 8 << 20)?;
    Store::new(
        opened.engine,
        SyncPolicy::Periodic(std::time::Duration::from_secs(60)),
        packing(),
    )
}

/// Both engines open a store whose log they cannot fully read by dropping what they cannot
/// read (fjall truncates its journal at the first bad record); the watermark turns that into
/// an error instead of a silently shorter (or empty) store.
#[test]
fn a_damaged_store_is_refused_not_reset() {
    for kind in [EngineKind::Sled, EngineKind::Fjall] {
        for (what, offset) in [("head of the log", 0usize), ("middle of the log", 100_000)] {
            let dir = tempfile::tempdir().unwrap();
            {
                let store = open_store(dir.path(), kind).unwrap();
                for i in 0..1000u32 {
                    let mut batch = Batch::default();
                    batch.put(meta_key(&i.to_be_bytes()), vec![7; 100]);
                    store.write_batch(batch).unwrap();
                }
                store.close().unwrap();
            }
            let path = log_file(dir.path(), kind);
            let mut db = std::fs::read(&path).unwrap();
            for b in &mut db[offset..offset + 4096] {
                *b ^= 0x5a;
            }
            std::fs::write(&path, &db).unwrap();
            match open_store(dir.path(), kind) {
                Err(crate::Error::Corrupt(message)) => {
                    assert!(message.contains("damaged"), "{kind:?}, {what}: {message}")
                }
                Err(other) => panic!("{kind:?}, {what}: unexpected error {other}"),
                Ok(_) => panic!("{kind:?}, {what}: a damaged store opened as if nothing happened"),
            }
        }
    }
}

/// fjall's sorted tables carry block checksums: a damaged table is an error, never a panic
/// or a silently shorter store.
#[test]
fn a_damaged_fjall_table_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = open_store(dir.path(), EngineKind::Fjall).unwrap();
        // More than a memtable, so fjall writes sorted tables.
        for i in 0..12_000u32 {
            let mut batch = Batch::default();
            batch.put(meta_key(&i.to_be_bytes()), vec![(i % 251) as u8; 4000]);
            store.write_batch(batch).unwrap();
        }
        store.close().unwrap();
    }
    let tables: Vec<PathBuf> = walk(dir.path())
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("tables")))
        .filter(|p| p.components().any(|c| c.as_os_str() == "1"))
        .collect();
    assert!(!tables.is_empty(), "fjall wrote no table");
    for table in &tables {
        let mut bytes = std::fs::read(table).unwrap();
        let len = bytes.len();
        for b in &mut bytes[len / 4..len / 4 + 4096] {
            *b ^= 0x5a;
        }
        std::fs::write(table, &bytes).unwrap();
    }
    let result = open_store(dir.path(), EngineKind::Fjall).and_then(|store| {
        for i in 0..12_000u32 {
            store.get(&meta_key(&i.to_be_bytes()))?;
        }
        Ok(())
    });
    match result {
        Err(crate::Error::Corrupt(m)) => assert!(m.contains("Checksum"), "{m}"),
        Err(other) => panic!("unexpected error {other}"),
        Ok(()) => panic!("a damaged table read as if nothing happened"),
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
