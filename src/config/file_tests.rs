//! Tests that touch the outside world: the shipped `conf/storage-conf.xml`, reading and
//! creating files, and resolving host names.

use super::tests::{cf, parse, MINIMAL};
use super::*;
use crate::comparator::Comparator;
use std::net::Ipv4Addr;

#[test]
fn host_names_resolve_and_an_empty_thrift_address_follows_listen_address() {
    let text = MINIMAL.replace(
        "<Partitioner>",
        "<ListenAddress>localhost</ListenAddress><ThriftAddress></ThriftAddress><Partitioner>",
    );
    let c = parse(&text);
    assert_eq!(c.listen_address, IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_eq!(c.thrift_address, IpAddr::V4(Ipv4Addr::LOCALHOST));
}

#[test]
fn the_sample_configuration_loads_with_its_keyspaces() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("conf/storage-conf.xml");
    let c = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let cwd = std::env::current_dir().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.config_dir, path.parent().unwrap_or(Path::new("")));
    assert_eq!(c.cluster_name, "Test Cluster");
    assert_eq!(c.partitioner, Partitioner::Random);
    assert_eq!(c.listen_address, IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_eq!(c.thrift_address, IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_eq!(c.thrift_port, 9160);
    assert_eq!(
        c.commit_log_sync,
        CommitLogSync::Periodic { period_ms: 10_000 }
    );
    assert_eq!(c.authenticator, AuthenticatorKind::AllowAll);
    assert_eq!(c.commit_log_directory, cwd.join("data/commitlog"));
    assert_eq!(c.data_file_directories, vec![cwd.join("data/data")]);
    assert_eq!(c.saved_caches_directory, cwd.join("data/saved_caches"));
    assert_eq!(c.limits, ThriftLimits::default());

    let shape = |ks: &str| -> Vec<(String, ColumnType, Comparator, Option<Comparator>)> {
        c.schema.keyspaces[ks]
            .column_families
            .values()
            .map(|cf| {
                (
                    cf.name.clone(),
                    cf.column_type,
                    cf.comparator,
                    cf.subcomparator,
                )
            })
            .collect()
    };
    use ColumnType::{Standard, Super};
    use Comparator::{Bytes, TimeUuid, Utf8};
    let row = |n: &str, t, c, s| (n.to_string(), t, c, s);
    assert_eq!(
        c.schema.keyspaces.keys().collect::<Vec<_>>(),
        ["BloggyAppy", "Keyspace1", "system"]
    );
    assert_eq!(
        shape("Keyspace1"),
        [
            row("Standard1", Standard, Bytes, None),
            row("Standard2", Standard, Utf8, None),
            row("StandardByUUID1", Standard, TimeUuid, None),
            row("Super1", Super, Bytes, Some(Bytes)),
            row("Super2", Super, Utf8, Some(Utf8)),
        ]
    );
    assert_eq!(
        shape("BloggyAppy"),
        [
            row("Authors", Standard, Bytes, None),
            row("BlogEntries", Standard, Bytes, None),
            row("Comments", Super, TimeUuid, Some(Bytes)),
            row("TaggedPosts", Standard, TimeUuid, None),
        ]
    );
    assert!(cf(&c, "Keyspace1", "Super2").comment.is_some());
    for ks in ["Keyspace1", "BloggyAppy"] {
        assert_eq!(c.schema.keyspaces[ks].replication_factor, 1);
    }
}

#[test]
fn load_names_an_unreadable_file() {
    let err = Config::load(Path::new("/nonexistent/storage-conf.xml"));
    assert!(
        matches!(&err, Err(Error::Config { element, .. }) if element == "/nonexistent/storage-conf.xml"),
        "{err:?}"
    );
}

#[test]
fn create_directories_makes_every_directory() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let c = Config::from_xml(MINIMAL, tmp.path(), tmp.path()).unwrap_or_else(|e| panic!("{e}"));
    c.create_directories().unwrap_or_else(|e| panic!("{e}"));
    for dir in ["cl", "data", "caches"] {
        assert!(tmp.path().join(dir).is_dir(), "{dir} missing");
    }
    // A plain file where a directory should be: the error names the element and the path.
    let blocked = MINIMAL.replace(">caches<", ">caches/blocked<");
    std::fs::write(tmp.path().join("caches/blocked"), b"").unwrap_or_else(|e| panic!("{e}"));
    let c = Config::from_xml(&blocked, tmp.path(), tmp.path()).unwrap_or_else(|e| panic!("{e}"));
    match c.create_directories() {
        Err(Error::Config { element, message }) => {
            assert_eq!(element, "SavedCachesDirectory");
            assert!(message.contains("caches/blocked"), "{message}");
        }
        other => panic!("expected a config error, got {other:?}"),
    }
}
