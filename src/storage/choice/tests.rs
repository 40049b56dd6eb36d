//! How a data directory's engine is chosen and remembered.

use super::*;
use crate::storage::Batch;

fn put(engine: &dyn Engine, key: &[u8], value: &[u8]) {
    let mut batch = Batch::default();
    batch.put(key.to_vec(), value.to_vec());
    engine.apply(batch).unwrap();
    engine.sync().unwrap();
}

#[test]
fn a_new_directory_gets_the_requested_engine_and_keeps_it() {
    for (kind, other) in [
        (EngineKind::Sled, EngineKind::Fjall),
        (EngineKind::Fjall, EngineKind::Sled),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data");
        {
            let opened = open_engine(&path, kind, 8 << 20).unwrap();
            assert_eq!(opened.kind, kind);
            put(opened.engine.as_ref(), b"k", kind.name().as_bytes());
        }
        assert_eq!(
            fs::read_to_string(path.join(ENGINE_FILE)).unwrap(),
            kind.name()
        );
        // A configuration naming the other engine reopens the store with its own.
        let reopened = open_engine(&path, other, 8 << 20).unwrap();
        assert_eq!(reopened.kind, kind, "{kind:?} store opened as {other:?}");
        assert_eq!(
            reopened.engine.get(b"k").unwrap(),
            Some(kind.name().as_bytes().to_vec())
        );
    }
}

#[test]
fn a_sled_store_without_the_marker_is_sled() {
    let dir = tempfile::tempdir().unwrap();
    {
        let engine = SledEngine::open(dir.path(), 8 << 20).unwrap();
        put(&engine, b"old", b"store");
    }
    let opened = open_engine(dir.path(), EngineKind::Fjall, 8 << 20).unwrap();
    assert_eq!(opened.kind, EngineKind::Sled);
    assert_eq!(opened.engine.get(b"old").unwrap(), Some(b"store".to_vec()));
}

#[test]
fn foreign_directories_and_markers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    for kind in [EngineKind::Sled, EngineKind::Fjall] {
        let err = open_engine(dir.path(), kind, 8 << 20).err().unwrap();
        assert!(
            matches!(&err, Error::Corrupt(m) if m.contains("holds no ilion store")),
            "{err}"
        );
    }
    assert!(!dir.path().join(ENGINE_FILE).exists());

    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(ENGINE_FILE), "rocksdb").unwrap();
    let err = open_engine(dir.path(), EngineKind::Sled, 8 << 20)
        .err()
        .unwrap();
    assert!(
        matches!(&err, Error::Corrupt(m) if m.contains("does not name a storage engine")),
        "{err}"
    );
}

#[test]
fn an_engine_refuses_the_other_engines_store() {
    let dir = tempfile::tempdir().unwrap();
    drop(FjallEngine::open(dir.path(), 8 << 20).unwrap());
    let err = SledEngine::open(dir.path(), 8 << 20).err().unwrap();
    assert!(matches!(&err, Error::Corrupt(_)), "{err}");

    let dir = tempfile::tempdir().unwrap();
    drop(SledEngine::open(dir.path(), 8 << 20).unwrap());
    let err = FjallEngine::open(dir.path(), 8 << 20).err().unwrap();
    assert!(matches!(&err, Error::Corrupt(_)), "{err}");
}
