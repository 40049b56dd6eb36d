//! Schema changes at run time (`docs/api-later.md#schema`) on every engine: added keyspaces
//! and column families take writes at once, a dropped column family's data is gone and a
//! re-created one starts empty, updates keep the data, and a restart keeps the stored
//! schema — storage-conf.xml only adds what the store has never seen.

use super::*;

const KS2: &str = "Added";

fn keyspace(name: &str, cfs: Vec<CfDef>) -> KeyspaceDef {
    KeyspaceDef {
        name: name.into(),
        replication_factor: 1,
        replica_placement_strategy: "org.apache.cassandra.locator.SimpleStrategy".into(),
        endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".into(),
        strategy_options: [("replication_factor".to_string(), "1".to_string())].into(),
        durable_writes: true,
        column_families: cfs.into_iter().map(|c| (c.name.clone(), c)).collect(),
    }
}

fn put(db: &Db, ks: &str, cf: &str, key: &str, name: &str, value: &str) {
    let mut mutation = RowMutation::new(ks, key);
    mutation.push(cf, ins(name, value, 1));
    db.apply(mutation).unwrap().wait().unwrap();
}

fn read(db: &Db, ks: &str, cf: &str, key: &str) -> Result<Vec<String>> {
    let p = range("", "", false, 100);
    Ok(show(&db.get_slice(
        ks,
        key.as_bytes(),
        &parent(cf, None),
        &p,
    )?))
}

#[test]
fn keyspaces_and_column_families_come_and_go_with_their_data() {
    for (name, db) in fixture(Partitioner::Random).dbs {
        let added = keyspace(KS2, vec![cf("Cf", Comparator::Utf8, None)]);
        let schema = db.add_keyspace(added.clone()).unwrap();
        assert_eq!(schema.keyspace(KS2), Some(&added), "{name}");
        assert!(db.add_keyspace(added).is_err(), "{name}: added twice");
        put(&db, KS2, "Cf", "k", "a", "1");
        assert_eq!(read(&db, KS2, "Cf", "k").unwrap(), ["a=1"], "{name}");

        // A second CF in the keyspace, then dropped: its data goes, a new one is empty.
        db.add_column_family(KS2, cf("Other", Comparator::Bytes, None))
            .unwrap();
        put(&db, KS2, "Other", "k", "b", "2");
        db.drop_column_family(KS2, "Other").unwrap();
        let gone = read(&db, KS2, "Other", "k").unwrap_err().to_string();
        assert!(
            gone.contains("unconfigured columnfamily Other"),
            "{name}: {gone}"
        );
        db.add_column_family(KS2, cf("Other", Comparator::Bytes, None))
            .unwrap();
        assert!(read(&db, KS2, "Other", "k").unwrap().is_empty(), "{name}");
        assert_eq!(read(&db, KS2, "Cf", "k").unwrap(), ["a=1"], "{name}");

        // Updates keep the data; a comparator may only change to one storing names alike.
        let mut updated = cf("Cf", Comparator::Bytes, None);
        updated.comment = Some("now bytes".into());
        let schema = db.update_column_family(KS2, updated).unwrap();
        assert_eq!(
            schema.cf(KS2, "Cf").unwrap().comment.as_deref(),
            Some("now bytes")
        );
        assert_eq!(read(&db, KS2, "Cf", "k").unwrap(), ["a=1"], "{name}");
        assert!(db
            .update_column_family(KS2, cf("Cf", Comparator::Long, None))
            .is_err());
        assert!(db
            .update_column_family(KS2, cf("Cf", Comparator::Bytes, Some(Comparator::Bytes)))
            .is_err());
        let mut replication = keyspace(KS2, Vec::new());
        replication.durable_writes = false;
        let schema = db.update_keyspace(replication).unwrap();
        let ks = schema.keyspace(KS2).unwrap();
        assert!(!ks.durable_writes);
        assert_eq!(ks.column_families.len(), 2, "{name}: CFs untouched");

        // Dropping the keyspace drops its data; re-creating it starts empty.
        db.drop_keyspace(KS2).unwrap();
        assert!(db.schema().keyspace(KS2).is_none());
        assert!(read(&db, KS2, "Cf", "k").is_err());
        db.add_keyspace(keyspace(KS2, vec![cf("Cf", Comparator::Utf8, None)]))
            .unwrap();
        assert!(read(&db, KS2, "Cf", "k").unwrap().is_empty(), "{name}");
        // The configured keyspace never noticed.
        assert!(db.schema().keyspace(KS).is_some());
        assert!(db.drop_keyspace("system").is_err());
    }
}

#[test]
fn drop_removes_the_stored_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut engines: Vec<(&str, Arc<dyn Engine>)> = vec![("memory", Arc::new(MemoryEngine::new()))];
    for (name, open) in openers() {
        engines.push((name, open(&dir.path().join(name))));
    }
    for (name, engine) in engines {
        let db = Db::open(Arc::clone(&engine), schema(), options()).unwrap();
        put(&db, KS, "Standard2", "k", "a", "1");
        let id = Db::cf(&db.catalog(), KS, "Standard2").unwrap().layout.id;
        let prefix = db.catalog().dropped_layout(id).cf_prefix();
        let stored = |engine: &Arc<dyn Engine>| {
            engine
                .scan(
                    std::ops::Bound::Included(prefix.clone()),
                    std::ops::Bound::Unbounded,
                    false,
                )
                .filter_map(|item| item.ok())
                .take_while(|(key, _)| key.starts_with(&prefix))
                .count()
        };
        assert!(
            stored(&engine) > 0,
            "{name}: the write is stored under the CF's id"
        );
        db.drop_column_family(KS, "Standard2").unwrap();
        assert_eq!(stored(&engine), 0, "{name}: data of the dropped CF is left");
        assert_eq!(
            db.catalog().dropped_ids(),
            [id],
            "{name}: removed again at the next start"
        );
        drop(db);
        let db = Db::open(Arc::clone(&engine), schema(), options()).unwrap();
        assert!(
            db.catalog().dropped_ids().is_empty(),
            "{name}: forgotten once removed"
        );
    }
}

fn options() -> DbOptions {
    DbOptions {
        partitioner: Partitioner::Random,
        sync: SyncPolicy::Batch(std::time::Duration::ZERO),
        gc_grace_seconds: 100,
        initial_token: None,
        chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
        clock: system_clock(),
    }
}

type Opener = fn(&std::path::Path) -> Arc<dyn Engine>;

fn openers() -> [(&'static str, Opener); 2] {
    [
        ("sled", |p| Arc::new(SledEngine::open(p, 8 << 20).unwrap())),
        ("fjall", |p| {
            Arc::new(FjallEngine::open(p, 8 << 20).unwrap())
        }),
    ]
}

#[test]
fn a_restart_keeps_the_stored_schema_and_takes_only_new_conf_definitions() {
    for (name, open) in openers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        {
            let db = Db::open(open(&path), schema(), options()).unwrap();
            db.add_keyspace(keyspace(KS2, vec![cf("Cf", Comparator::Utf8, None)]))
                .unwrap();
            put(&db, KS2, "Cf", "k", "a", "1");
            db.drop_column_family(KS, "Standard2").unwrap();
            db.close().unwrap();
        }
        // The same conf again, plus a keyspace and a CF it did not have before.
        let mut conf = (*schema()).clone();
        conf.keyspaces.insert(
            "Later".into(),
            keyspace("Later", vec![cf("L", Comparator::Bytes, None)]),
        );
        if let Some(ks) = conf.keyspaces.get_mut(KS) {
            let new = cf("NewInConf", Comparator::Long, None);
            ks.column_families.insert(new.name.clone(), new);
        }
        let db = Db::open(open(&path), Arc::new(conf.clone()), options()).unwrap();
        let stored = db.schema();
        assert_eq!(read(&db, KS2, "Cf", "k").unwrap(), ["a=1"], "{name}");
        assert!(
            stored.cf(KS, "Standard2").is_none(),
            "{name}: dropped stays dropped"
        );
        assert!(
            stored.cf(KS, "NewInConf").is_some(),
            "{name}: new conf CF added"
        );
        assert!(
            stored.cf("Later", "L").is_some(),
            "{name}: new conf keyspace added"
        );
        db.close().unwrap();
        drop(db);

        // A conf contradicting a stored CF's comparator is refused.
        if let Some(ks) = conf.keyspaces.get_mut(KS) {
            ks.column_families
                .insert("Standard1".into(), cf("Standard1", Comparator::Long, None));
        }
        let refused = Db::open(open(&path), Arc::new(conf), options())
            .err()
            .unwrap()
            .to_string();
        assert!(refused.contains("cannot change"), "{name}: {refused}");
    }
}

#[test]
fn a_store_from_before_stored_schemas_is_seeded_from_the_conf_and_keeps_its_data() {
    let engine: Arc<dyn Engine> = Arc::new(MemoryEngine::new());
    let db = Db::open(Arc::clone(&engine), schema(), options()).unwrap();
    put(&db, KS, "Standard1", "k", "a", "1");
    db.close().unwrap();
    drop(db);
    // What an older ilion left: the catalog's ids, no schema.
    let mut batch = crate::storage::Batch::default();
    batch.delete([&[0u8; 4][..], b"schema"].concat());
    engine.apply(batch).unwrap();
    let db = Db::open(Arc::clone(&engine), schema(), options()).unwrap();
    assert_eq!(read(&db, KS, "Standard1", "k").unwrap(), ["a=1"]);
    assert_eq!(db.schema(), schema_with_system());
    db.close().unwrap();
    drop(db);
    // ... and a damaged stored schema is refused, never reset.
    let mut batch = crate::storage::Batch::default();
    batch.put([&[0u8; 4][..], b"schema"].concat(), b"{not json".to_vec());
    engine.apply(batch).unwrap();
    let refused = Db::open(engine, schema(), options()).err().unwrap();
    assert!(matches!(refused, crate::Error::Corrupt(_)), "{refused:?}");
}

fn schema_with_system() -> Arc<Schema> {
    let mut s = (*schema()).clone();
    s.keyspaces.insert(
        crate::config::SYSTEM_KEYSPACE.into(),
        Schema::system_keyspace(),
    );
    Arc::new(s)
}

#[test]
fn a_column_familys_own_gc_grace_decides_its_purge() {
    let fixture = fixture(Partitioner::Random);
    for (name, db) in &fixture.dbs {
        let mut short = cf("Short", Comparator::Bytes, None);
        short.later.gc_grace_seconds = Some(10);
        db.add_column_family(KS, short).unwrap();
        for cf in ["Short", "Standard1"] {
            let mut mutation = RowMutation::new(KS, "k");
            mutation.push(cf, del("c", 1));
            db.apply(mutation).unwrap().wait().unwrap();
        }
        // The node's grace is 100 s: after 11 s only Short's tombstone may go.
        fixture.clock.fetch_add(11, Ordering::SeqCst);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 1, "{name}");
        fixture.clock.fetch_add(100, Ordering::SeqCst);
        assert_eq!(db.purge_expired_tombstones().unwrap(), 1, "{name}");
        fixture.clock.fetch_sub(111, Ordering::SeqCst);
    }
}
