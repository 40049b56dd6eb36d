//! Reading the fixture's real 0.6.13 SSTables: sstable2json reproduced byte for byte,
//! `--from-cassandra06` reading back exactly what Cassandra read, and refusals (wrong CF type
//! or comparator, damaged files, unknown keyspace) that leave the store untouched.

use super::*;
use ilion::config::Config;
use ilion::migrate::json::JsonWriter;
use ilion::migrate::shape::CfShape;
use ilion::migrate::sstable06::{self, DataFile};

fn config() -> (Store, Config) {
    let store = Store::fresh();
    let config = Config::load(&store.config).unwrap();
    (store, config)
}

#[test]
fn sstable2json_output_is_reproduced_byte_for_byte() {
    let (_store, config) = config();
    let tables = sstable06::list(&keyspace_dir()).unwrap();
    assert_eq!(tables.values().map(Vec::len).sum::<usize>(), 27);
    for (cf, tables) in &tables {
        let shape = CfShape::of(config.schema.cf(KEYSPACE, cf).unwrap());
        for table in tables {
            let mut file = DataFile::open(&table.data, shape, config.partitioner).unwrap();
            let mut writer = JsonWriter::new(Vec::new()).unwrap();
            while let Some(row) = file.next_row().unwrap() {
                writer.row(&row.row).unwrap();
            }
            let ours = writer.finish().unwrap();
            let theirs = std::fs::read(table.data.with_extension("db.json")).unwrap();
            assert!(
                ours == theirs,
                "{}: our sstable2json differs from 0.6's",
                table.data.display()
            );
        }
    }
}

#[test]
fn from_cassandra06_reads_back_what_cassandra_read() {
    let store = Store::fresh();
    let out = ilion(&store.import06(&keyspace_dir()), None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for cf in CFS {
        assert!(stderr.contains(&format!("{cf}: imported")), "{stderr}");
    }
    assert_same_reads(&store.reads(), &expected_reads());
}

/// Runs a `--from-cassandra06` import that must fail; returns its message after checking
/// that nothing at all was written.
fn refused(store: &Store, dir: &Path) -> String {
    let stderr = ilion_fails(&store.import06(dir), None);
    let reads = store.reads();
    assert!(
        reads.values().all(BTreeMap::is_empty),
        "a refused import wrote rows"
    );
    stderr
}

#[test]
fn a_cf_defined_with_another_type_or_comparator_is_refused() {
    let store = Store::with_config(|t| {
        t.replace(
            r#"<ColumnFamily Name="Scores"   CompareWith="LongType"/>"#,
            r#"<ColumnFamily Name="Scores"   CompareWith="BytesType"/>"#,
        )
    });
    let e = refused(&store, &keyspace_dir());
    assert!(
        e.contains("Scores") && e.contains("not in BytesType order"),
        "{e}"
    );

    let store = Store::with_config(|t| {
        t.replace(
            r#"<ColumnFamily Name="Posts"    ColumnType="Super" CompareWith="UTF8Type" CompareSubcolumnsWith="BytesType"/>"#,
            r#"<ColumnFamily Name="Posts"    CompareWith="UTF8Type"/>"#,
        )
    });
    let e = refused(&store, &keyspace_dir());
    assert!(
        e.contains("column family Posts")
            && e.contains("is a Super row, but the configuration defines a Standard CF (UTF8Type)"),
        "{e}"
    );

    let store = Store::with_config(|t| {
        t.replace(
            r#"<ColumnFamily Name="Users"    CompareWith="BytesType"/>"#,
            r#"<ColumnFamily Name="Users"    ColumnType="Super" CompareWith="BytesType"/>"#,
        )
    });
    let e = refused(&store, &keyspace_dir());
    assert!(
        e.contains("column family Users")
            && e.contains("is a Standard row, but the configuration defines a Super CF"),
        "{e}"
    );
}

#[test]
fn a_damaged_sstable_is_refused_with_its_name_and_offset() {
    let copy = tempfile::tempdir().unwrap();
    let dir = copy.path().join(KEYSPACE);
    std::fs::create_dir(&dir).unwrap();
    for entry in std::fs::read_dir(keyspace_dir()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let victim = dir.join("Users-2-Data.db");
    let bytes = std::fs::read(&victim).unwrap();
    std::fs::write(&victim, &bytes[..bytes.len() - 100]).unwrap();
    let store = Store::fresh();
    let e = refused(&store, &dir);
    assert!(e.contains("Users-2-Data.db at byte"), "{e}");
}

#[test]
fn every_truncation_of_a_real_data_file_is_an_error() {
    let (_store, config) = config();
    let shape = CfShape::of(config.schema.cf(KEYSPACE, "Posts").unwrap());
    let bytes = std::fs::read(keyspace_dir().join("Posts-3-Data.db")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Posts-3-Data.db");
    let mut row_ends = Vec::new();
    {
        std::fs::write(&path, &bytes).unwrap();
        let mut file = DataFile::open(&path, shape, config.partitioner).unwrap();
        while file.next_row().unwrap().is_some() {
            row_ends.push(file.position() as usize);
        }
    }
    for cut in (1..bytes.len()).filter(|c| !row_ends.contains(c)) {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let mut file = DataFile::open(&path, shape, config.partitioner).unwrap();
        let outcome = std::iter::from_fn(|| file.next_row().transpose()).find(Result::is_err);
        assert!(outcome.is_some(), "a file cut at {cut} read cleanly");
    }
}

#[test]
fn a_keyspace_the_configuration_lacks_is_refused() {
    let copy = tempfile::tempdir().unwrap();
    let dir = copy.path().join("Other");
    std::fs::create_dir(&dir).unwrap();
    let store = Store::fresh();
    let e = refused(&store, &dir);
    assert!(e.contains("keyspace Other"), "{e}");
}
