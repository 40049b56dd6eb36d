//! The fjall engine's own machinery: ilion's journal sync, the memtable keeper and the key
//! layout of old and new stores.

use super::*;
use std::time::{Duration, Instant};

fn open(dir: &Path) -> FjallEngine {
    FjallEngine::open(dir, 8 << 20).unwrap()
}

fn put(engine: &FjallEngine, key: &[u8], value: &[u8]) {
    let mut batch = Batch::default();
    batch.put(key.to_vec(), value.to_vec());
    engine.apply(batch).unwrap();
}

/// Waits until `done` holds (the keeper looks every 20 ms), or panics after 10 s.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_keeper_frees_every_flushed_memtable_and_holds_the_active_one() {
    let dir = tempfile::tempdir().unwrap();
    let engine = open(dir.path());
    const ROUNDS: u8 = 5;
    for round in 0..ROUNDS {
        put(&engine, &[b'k', round], b"value");
        // Let the keeper see this memtable before it is sealed.
        eventually("the keeper holds the memtable", || {
            engine.background.counts().0 >= 1
        });
        std::thread::sleep(Duration::from_millis(50));
        engine.data.rotate_memtable_and_wait().unwrap();
    }
    // Every flushed memtable but the last (which the newest old version still lists until
    // the next rotation's clean-up) was let go by fjall and freed by the keeper.
    eventually("the flushed memtables freed by the keeper", || {
        engine.background.counts().1 >= usize::from(ROUNDS - 1)
    });
    let (held, _) = engine.background.counts();
    assert!(held <= 2, "the keeper still holds {held} memtables");
    for round in 0..ROUNDS {
        assert_eq!(engine.get(&[b'k', round]).unwrap(), Some(b"value".to_vec()));
    }
}

#[test]
fn a_sync_reaches_the_newest_journal_after_rotations() {
    let dir = tempfile::tempdir().unwrap();
    let engine = open(dir.path());
    put(&engine, b"a", b"1");
    engine.sync().unwrap();
    let first = engine.journal.active_id().unwrap();
    // fjall rotates its journal at a flush once the journal holds over 64 MB (it
    // compresses large values, so these are not compressible).
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let big: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 56) as u8
        })
        .collect();
    for i in 0..70u8 {
        put(&engine, &[b'b', i], &big);
    }
    engine.data.rotate_memtable_and_wait().unwrap();
    put(&engine, b"c", b"3");
    engine.sync().unwrap();
    let newest = super::journal_sync::newest_journal(dir.path()).unwrap();
    assert!(
        newest > first,
        "rotations made no new journal ({first} → {newest})"
    );
    assert_eq!(engine.journal.active_id(), Some(newest));
    drop(engine);
    let engine = open(dir.path());
    assert_eq!(engine.get(b"c").unwrap(), Some(b"3".to_vec()));
    assert_eq!(engine.get(&[b'b', 69]).unwrap(), Some(big));
}

#[test]
fn a_reopened_store_has_every_synced_write() {
    let dir = tempfile::tempdir().unwrap();
    {
        let engine = open(dir.path());
        for i in 0..100u8 {
            put(&engine, &[b'r', i], &[i; 40]);
            if i % 30 == 0 {
                engine.data.rotate_memtable_and_wait().unwrap();
            }
        }
        engine.sync().unwrap();
    }
    let engine = open(dir.path());
    for i in 0..100u8 {
        assert_eq!(engine.get(&[b'r', i]).unwrap(), Some(vec![i; 40]));
    }
}

#[test]
fn tables_written_after_the_first_look_are_written_back() {
    let dir = tempfile::tempdir().unwrap();
    let engine = open(dir.path());
    // Let the first look (which leaves existing tables alone) pass.
    std::thread::sleep(Duration::from_millis(250));
    assert_eq!(engine.background.tables_synced(), 0);
    for i in 0..200u8 {
        put(&engine, &[b't', i], &[i; 100]);
    }
    engine.data.rotate_memtable_and_wait().unwrap();
    eventually("the flushed table written back", || {
        engine.background.tables_synced() >= 1
    });
}

#[test]
fn the_cache_setting_covers_the_memtable_and_the_block_cache() {
    assert_eq!(block_cache_bytes(128 << 20), 96 << 20);
    assert_eq!(block_cache_bytes(1 << 30), (1 << 30) - MEMTABLE_BYTES);
    // A setting smaller than the memtable still leaves fjall a cache.
    assert_eq!(block_cache_bytes(8 << 20), 2 << 20);
}

#[test]
fn a_store_from_before_the_compact_layout_is_read_and_written_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let meta = crate::storage::keys::meta_key(b"generation");
    let row = [0, 0, 0, 1, 7, 7, 0, 0];
    // What ilion wrote before the layout file existed: logical keys as fjall's keys.
    {
        let db = fjall::Database::builder(dir.path()).open().unwrap();
        let data = db
            .keyspace(KEYSPACE, fjall::KeyspaceCreateOptions::default)
            .unwrap();
        data.insert(&meta, 5u64.to_be_bytes()).unwrap();
        data.insert(row, b"row").unwrap();
        db.persist(fjall::PersistMode::SyncAll).unwrap();
    }
    let engine = open(dir.path());
    assert_eq!(engine.layout, key_layout::KeyLayout::Plain);
    assert!(!dir.path().join(LAYOUT_FILE).exists());
    assert_eq!(engine.get(&row).unwrap(), Some(b"row".to_vec()));
    assert_eq!(
        engine.get(&meta).unwrap(),
        Some(5u64.to_be_bytes().to_vec())
    );
    put(&engine, &[0, 0, 0, 1, 8], b"new");
    let keys: Vec<Vec<u8>> = engine
        .scan(Bound::Unbounded, Bound::Unbounded, false)
        .map(|entry| entry.unwrap().0)
        .collect();
    assert_eq!(keys, vec![meta.clone(), row.to_vec(), vec![0, 0, 0, 1, 8]]);
    engine.sync().unwrap();
    drop(engine);
    // Still plain after a reopen, and the new write was stored as the old ones were.
    let engine = open(dir.path());
    assert_eq!(engine.layout, key_layout::KeyLayout::Plain);
    assert_eq!(
        engine
            .data
            .get([0, 0, 0, 1, 8])
            .unwrap()
            .map(|v| v.to_vec()),
        Some(b"new".to_vec())
    );
}

#[test]
fn a_new_store_keeps_the_compact_layout_across_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let engine = open(dir.path());
    assert_eq!(engine.layout, key_layout::KeyLayout::Compact);
    put(&engine, &[0, 0, 0, 3, 1], b"a");
    // The CF id takes one byte in fjall.
    assert_eq!(
        engine.data.get([3, 1]).unwrap().map(|v| v.to_vec()),
        Some(b"a".to_vec())
    );
    engine.sync().unwrap();
    drop(engine);
    let engine = open(dir.path());
    assert_eq!(engine.layout, key_layout::KeyLayout::Compact);
    assert_eq!(engine.get(&[0, 0, 0, 3, 1]).unwrap(), Some(b"a".to_vec()));
}
