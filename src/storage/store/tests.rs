//! The row store over a real sled directory: what it refuses to open.

use super::*;
use crate::partitioner::Partitioner;
use crate::storage::keys::meta_key;
use crate::storage::{SledEngine, MAX_CHUNK_BYTES};

fn packing() -> Packing {
    Packing {
        partitioner: Partitioner::Random,
        max_chunk: MAX_CHUNK_BYTES,
    }
}

/// sled opens a store whose log it cannot fully read by dropping what it cannot read; the
/// watermark turns that into an error instead of a silently shorter (or empty) store.
#[test]
fn a_damaged_store_is_refused_not_reset() {
    for (what, offset) in [("head of the log", 0usize), ("middle of the log", 100_000)] {
        let dir = tempfile::tempdir().unwrap();
        {
            let engine = Arc::new(SledEngine::open(dir.path(), 8 << 20).unwrap());
            let store = Store::new(
                engine,
                SyncPolicy::Periodic(std::time::Duration::from_secs(60)),
                packing(),
            )
            .unwrap();
            for i in 0..1000u32 {
                let mut batch = Batch::default();
                batch.put(meta_key(&i.to_be_bytes()), vec![7; 100]);
                store.write_batch(batch).unwrap();
            }
            store.close().unwrap();
        }
        let path = dir.path().join("db");
        let mut db = std::fs::read(&path).unwrap();
        for b in &mut db[offset..offset + 4096] {
            *b ^= 0x5a;
        }
        std::fs::write(&path, &db).unwrap();
        let reopened = SledEngine::open(dir.path(), 8 << 20).and_then(|engine| {
            Store::new(
                Arc::new(engine),
                SyncPolicy::Periodic(std::time::Duration::from_secs(60)),
                packing(),
            )
        });
        match reopened {
            Err(crate::Error::Corrupt(message)) => {
                assert!(message.contains("damaged"), "{what}: {message}")
            }
            Err(other) => panic!("{what}: unexpected error {other}"),
            Ok(_) => panic!("{what}: a damaged store opened as if nothing happened"),
        }
    }
}
