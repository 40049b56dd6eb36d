//! One row per configuration error: a small change to the minimal valid file, the element
//! path the error must name, and a fragment of its message.

use super::tests::MINIMAL;
use super::*;

/// `MINIMAL` with `old` replaced by `new` (which must occur).
fn with(old: &str, new: &str) -> String {
    assert!(MINIMAL.contains(old), "MINIMAL lacks {old}");
    MINIMAL.replacen(old, new, 1)
}

/// `MINIMAL` with extra top-level elements.
fn top(extra: &str) -> String {
    with("<Storage>", &format!("<Storage>{extra}"))
}

/// `MINIMAL` with the column family C replaced by `cfs`.
fn cfs(cfs: &str) -> String {
    with(r#"<ColumnFamily Name="C"/>"#, cfs)
}

/// `MINIMAL` with everything from `from` up to (not including) `to` replaced by `new`.
fn between(from: &str, to: &str, new: &str) -> String {
    match (MINIMAL.find(from), MINIMAL.find(to)) {
        (Some(start), Some(end)) => with(&MINIMAL[start..end], new),
        _ => panic!("MINIMAL lacks {from} or {to}"),
    }
}

/// `MINIMAL` with the keyspace's replication elements replaced by `elements`.
fn replication(elements: &str) -> String {
    between("<ReplicaPlacementStrategy>", "</Keyspace>", elements)
}

const RPS: &str =
    "<ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>";
const RF: &str = "<ReplicationFactor>1</ReplicationFactor>";
const SNITCH: &str = "<EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>";
const PERIODIC: &str =
    "<CommitLogSync>periodic</CommitLogSync>\n  <CommitLogSyncPeriodInMS>1000</CommitLogSyncPeriodInMS>";
const KS: &str = "Keyspaces/Keyspace[@Name='K']";
const CF: &str = "Keyspaces/Keyspace[@Name='K']/ColumnFamily[@Name='C']";

#[rustfmt::skip]
fn cases() -> Vec<(String, String, &'static str)> {
    let ks = |rest: &str| format!("{KS}{rest}");
    let cf = |rest: &str| format!("{CF}{rest}");
    let s = |e: &str| e.to_string();
    let ksdef = |name: &str| format!(r#"<Keyspace Name="{name}">{RPS}{RF}{SNITCH}</Keyspace>"#);
    vec![
        // The document.
        (s("<Storage><ClusterName>a</Storage>"), s("Storage"), "not well-formed XML at line 1"),
        (s("<Config/>"), s("Storage"), "root element must be <Storage>, not <Config>"),
        (s("<!-- nothing -->"), s("Storage"), "no root element"),
        (top("<ClusterName>a</ClusterName><ClusterName>b</ClusterName>"), s("ClusterName"), "appears more than once"),
        (top("<ClusterName><b>x</b></ClusterName>"), s("b"), "where a text value was expected"),
        // Partitioning.
        (with("<Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>", ""), s("Partitioner"), "is required"),
        // Murmur3Partitioner and ByteOrderedPartitioner are known since the later API (its
        // spec §3.2); RandomPartitioner2 is no partitioner.
        (with("org.apache.cassandra.dht.RandomPartitioner", "RandomPartitioner2"), s("Partitioner"), "unknown partitioner 'RandomPartitioner2'"),
        (top("<InitialToken>abc</InitialToken>"), s("InitialToken"), "Invalid token 'abc': RandomPartitioner tokens are decimal integers"),
        (with("org.apache.cassandra.dht.RandomPartitioner", "Murmur3Partitioner").replacen("<Storage>", "<Storage><InitialToken>abc</InitialToken>", 1), s("InitialToken"), "Invalid token for Murmur3Partitioner. Got abc but expected a long value (unsigned 8 bytes integer)."),
        (with("org.apache.cassandra.dht.RandomPartitioner", "ByteOrderedPartitioner").replacen("<Storage>", "<Storage><InitialToken>xyz</InitialToken>", 1), s("InitialToken"), "Token xyz contains non-hex digits"),
        // Commit log.
        (with(PERIODIC, ""), s("CommitLogSync"), "is required: periodic or batch"),
        (with(">periodic<", ">Periodic<"), s("CommitLogSync"), "must be periodic or batch, not 'Periodic'"),
        (with("<CommitLogSyncPeriodInMS>1000</CommitLogSyncPeriodInMS>", ""), s("CommitLogSyncPeriodInMS"), "is required when CommitLogSync is periodic"),
        (top("<CommitLogSyncBatchWindowInMS>1</CommitLogSyncBatchWindowInMS>"), s("CommitLogSyncBatchWindowInMS"), "may not be set when CommitLogSync is periodic"),
        (with(PERIODIC, "<CommitLogSync>batch</CommitLogSync>"), s("CommitLogSyncBatchWindowInMS"), "is required when CommitLogSync is batch"),
        (with(">periodic<", ">batch<"), s("CommitLogSyncPeriodInMS"), "may not be set when CommitLogSync is batch"),
        (with(">1000<", ">10s<"), s("CommitLogSyncPeriodInMS"), "must be an integer of at least 1, not '10s'"),
        (with(PERIODIC, "<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>soon</CommitLogSyncBatchWindowInMS>"), s("CommitLogSyncBatchWindowInMS"), "must be a number of at least 0, not 'soon'"),
        // Directories.
        (with("<CommitLogDirectory>cl</CommitLogDirectory>", ""), s("CommitLogDirectory"), "is required"),
        (with(">cl<", ">data<"), s("CommitLogDirectory"), "must differ from every DataFileDirectory"),
        (with(">cl<", ">./data/<"), s("CommitLogDirectory"), "must differ from every DataFileDirectory"),
        (with("<DataFileDirectory>data</DataFileDirectory>", "<DataFileDirectory/>"), s("DataFileDirectories/DataFileDirectory"), "at least one is required"),
        (with("<SavedCachesDirectory>caches</SavedCachesDirectory>", ""), s("SavedCachesDirectory"), "is required"),
        (with("<Seed>127.0.0.1</Seed>", ""), s("Seeds/Seed"), "at least one is required"),
        // The admin endpoint (ilion).
        (top("<AdminAddress>0.0.0.0</AdminAddress>"), s("AdminAddress"), "0.0.0.0 is not a loopback address: set <AdminToken>"),
        (top("<AdminAddress>10.1.2.3</AdminAddress><AdminToken/>"), s("AdminAddress"), "is not a loopback address"),
        (top("<AdminPort>http</AdminPort>"), s("AdminPort"), "must be an integer from 0 to 65535, not 'http'"),
        (top("<AdminPort>65536</AdminPort>"), s("AdminPort"), "must be an integer from 0 to 65535"),
        (top("<AdminToken>two words</AdminToken>"), s("AdminToken"), "must not contain spaces"),
        // Booleans.
        (top("<AutoBootstrap>yes</AutoBootstrap>"), s("AutoBootstrap"), "must be true or false, not 'yes'"),
        (top("<HintedHandoffEnabled>1</HintedHandoffEnabled>"), s("HintedHandoffEnabled"), "must be true or false"),
        (top("<ThriftFramedTransport>on</ThriftFramedTransport>"), s("ThriftFramedTransport"), "must be true or false"),
        (top("<SnapshotBeforeCompaction>no</SnapshotBeforeCompaction>"), s("SnapshotBeforeCompaction"), "must be true or false"),
        (top("<DoConsistencyChecksBoolean>maybe</DoConsistencyChecksBoolean>"), s("DoConsistencyChecksBoolean"), "must be true or false"),
        // Addresses and ports.
        (top("<ListenAddress>0.0.0.0</ListenAddress>"), s("ListenAddress"), "may not be the wildcard address 0.0.0.0"),
        (top("<ListenAddress>no-such-host.invalid</ListenAddress>"), s("ListenAddress"), "'no-such-host.invalid' does not resolve"),
        (top("<ThriftAddress>no-such-host.invalid</ThriftAddress>"), s("ThriftAddress"), "does not resolve"),
        (top("<ThriftPort>65536</ThriftPort>"), s("ThriftPort"), "must be an integer from 0 to 65535, not '65536'"),
        (top("<StoragePort>-1</StoragePort>"), s("StoragePort"), "must be an integer from 0 to 65535"),
        // Other top-level values.
        (top("<Authenticator>com.example.LdapAuthenticator</Authenticator>"), s("Authenticator"), "unknown authenticator 'com.example.LdapAuthenticator'"),
        (top("<PasswordMode>SHA1</PasswordMode>"), s("PasswordMode"), "must be PLAIN or MD5, not 'SHA1'"),
        (top("<DiskAccessMode>MMAP</DiskAccessMode>"), s("DiskAccessMode"), "must be auto, mmap, mmap_index_only or standard"),
        (top("<GCGraceSeconds>ten days</GCGraceSeconds>"), s("GCGraceSeconds"), "must be an integer of at least 0"),
        (top("<RpcTimeoutInMillis>0</RpcTimeoutInMillis>"), s("RpcTimeoutInMillis"), "must be an integer of at least 1"),
        (top("<IndexInterval>0</IndexInterval>"), s("IndexInterval"), "must be an integer of at least 1, not '0'"),
        (top("<PhiConvictThreshold>4</PhiConvictThreshold>"), s("PhiConvictThreshold"), "must be an integer from 5 to 16, not '4'"),
        (top("<PhiConvictThreshold>17</PhiConvictThreshold>"), s("PhiConvictThreshold"), "must be an integer from 5 to 16"),
        (top("<ConcurrentReads>1</ConcurrentReads>"), s("ConcurrentReads"), "must be an integer of at least 2"),
        (top("<ConcurrentWrites>1</ConcurrentWrites>"), s("ConcurrentWrites"), "must be an integer of at least 2"),
        (top("<MemtableOperationsInMillions>0</MemtableOperationsInMillions>"), s("MemtableOperationsInMillions"), "must be a number greater than 0, not '0'"),
        (top("<CommitLogRotationThresholdInMB>x</CommitLogRotationThresholdInMB>"), s("CommitLogRotationThresholdInMB"), "must be an integer"),
        (top("<RowWarningThresholdInMB>x</RowWarningThresholdInMB>"), s("RowWarningThresholdInMB"), "must be an integer"),
        (top("<SlicedBufferSizeInKB>x</SlicedBufferSizeInKB>"), s("SlicedBufferSizeInKB"), "must be an integer"),
        (top("<FlushDataBufferSizeInMB>NaN</FlushDataBufferSizeInMB>"), s("FlushDataBufferSizeInMB"), "must be a number greater than 0"),
        (top("<FlushIndexBufferSizeInMB>-8</FlushIndexBufferSizeInMB>"), s("FlushIndexBufferSizeInMB"), "must be a number greater than 0"),
        (top("<ColumnIndexSizeInKB>x</ColumnIndexSizeInKB>"), s("ColumnIndexSizeInKB"), "must be an integer"),
        (top("<MemtableThroughputInMB>0</MemtableThroughputInMB>"), s("MemtableThroughputInMB"), "must be an integer"),
        (top("<BinaryMemtableThroughputInMB>x</BinaryMemtableThroughputInMB>"), s("BinaryMemtableThroughputInMB"), "must be an integer"),
        (top("<MemtableFlushAfterMinutes>x</MemtableFlushAfterMinutes>"), s("MemtableFlushAfterMinutes"), "must be an integer"),
        // ilion wire limits.
        (top("<ThriftMaxFrameSizeInMB>0</ThriftMaxFrameSizeInMB>"), s("ThriftMaxFrameSizeInMB"), "must be an integer of at least 1"),
        (top("<ThriftMaxMessageSizeInMB>x</ThriftMaxMessageSizeInMB>"), s("ThriftMaxMessageSizeInMB"), "must be an integer of at least 1"),
        (top("<ThriftMaxFrameSizeInMB>17</ThriftMaxFrameSizeInMB>"), s("ThriftMaxFrameSizeInMB"), "may not exceed ThriftMaxMessageSizeInMB (16 MB)"),
        (top("<ThriftMaxMessageSizeInMB>99999999999999999</ThriftMaxMessageSizeInMB>"), s("ThriftMaxMessageSizeInMB"), "is too large"),
        (top("<ThriftMaxNestingDepth>0</ThriftMaxNestingDepth>"), s("ThriftMaxNestingDepth"), "must be an integer of at least 1"),
        (top("<ThriftMaxConnections>-1</ThriftMaxConnections>"), s("ThriftMaxConnections"), "must be an integer of at least 1"),
        (top("<ThriftIdleTimeoutInSeconds>0</ThriftIdleTimeoutInSeconds>"), s("ThriftIdleTimeoutInSeconds"), "must be an integer of at least 1"),
        (top("<ThriftReadTimeoutInSeconds>0</ThriftReadTimeoutInSeconds>"), s("ThriftReadTimeoutInSeconds"), "must be an integer of at least 1"),
        (top("<StorageCacheSizeInMB>0</StorageCacheSizeInMB>"), s("StorageCacheSizeInMB"), "must be an integer from 1 to 1048576"),
        (top("<StorageCacheSizeInMB>lots</StorageCacheSizeInMB>"), s("StorageCacheSizeInMB"), "must be an integer from 1 to 1048576"),
        (top("<StorageEngine>rocksdb</StorageEngine>"), s("StorageEngine"), "must be sled, fjall or redis-cluster, not 'rocksdb'"),
        (top("<StorageEngine>Fjall</StorageEngine>"), s("StorageEngine"), "must be sled, fjall or redis-cluster, not 'Fjall'"),
        // Keyspaces.
        (with("<Keyspace Name=\"K\">", "<Keyspace>"), s("Keyspaces/Keyspace[1]/@Name"), "is required"),
        (with("</Keyspaces>", "<Keyspace Name=\"\"/></Keyspaces>"), s("Keyspaces/Keyspace[2]/@Name"), "is required"),
        (with("</Keyspaces>", &format!("{}</Keyspaces>", ksdef("System"))), s("Keyspaces/Keyspace[@Name='System']/@Name"), "'System' is reserved"),
        (with("</Keyspaces>", &format!("{}</Keyspaces>", ksdef("K"))), ks("/@Name"), "keyspace 'K' is defined more than once"),
        (between("<Keyspace ", "</Keyspaces>", "<!-- none -->"), s("Keyspaces/Keyspace"), "at least one is required"),
        (replication(&format!("{RF}{SNITCH}")), ks("/ReplicaPlacementStrategy"), "is required"),
        (replication(&format!("{RPS}{SNITCH}")), ks("/ReplicationFactor"), "is required"),
        (replication(&format!("{RPS}<ReplicationFactor></ReplicationFactor>{SNITCH}")), ks("/ReplicationFactor"), "is required"),
        (replication(&format!("{RPS}{RF}")), ks("/EndPointSnitch"), "is required"),
        (replication(&format!("{RPS}<ReplicationFactor>0</ReplicationFactor>{SNITCH}")), ks("/ReplicationFactor"), "must be an integer of at least 1, not '0'"),
        (replication(&format!("{RPS}<ReplicationFactor>one</ReplicationFactor>{SNITCH}")), ks("/ReplicationFactor"), "must be an integer of at least 1"),
        (replication(&format!("{RPS}{RF}{RF}{SNITCH}")), ks("/ReplicationFactor"), "appears more than once"),
        // Column families.
        (cfs(r#"<ColumnFamily Name="C"/><ColumnFamily CompareWith="UTF8Type"/>"#), ks("/ColumnFamily[2]/@Name"), "is required"),
        (cfs(r#"<ColumnFamily Name="a-b"/>"#), ks("/ColumnFamily[@Name='a-b']/@Name"), "'a-b' may not contain '-'"),
        (cfs(r#"<ColumnFamily Name="C"/><ColumnFamily Name="C"/>"#), cf("/@Name"), "column family 'C' is defined more than once in keyspace 'K'"),
        (cfs(r#"<ColumnFamily Name="C" ColumnSort="Time"/>"#), cf("/@ColumnSort"), "is no longer accepted; use CompareWith"),
        (cfs(r#"<ColumnFamily Name="C" ColumnType="super"/>"#), cf("/@ColumnType"), "must be Standard or Super, not 'super'"),
        (cfs(r#"<ColumnFamily Name="C" CompareWith="com.example.MyType"/>"#), cf("/@CompareWith"), "column family 'C' names comparator 'com.example.MyType'"),
        (cfs(r#"<ColumnFamily Name="C" CompareWith="IntegerType"/>"#), cf("/@CompareWith"), "names comparator 'IntegerType'"),
        (cfs(r#"<ColumnFamily Name="C" ColumnType="Super" CompareSubcolumnsWith="Utf8Type"/>"#), cf("/@CompareSubcolumnsWith"), "names comparator 'Utf8Type'"),
        (cfs(r#"<ColumnFamily Name="C" CompareSubcolumnsWith="UTF8Type"/>"#), cf("/@CompareSubcolumnsWith"), "is only allowed on a column family with ColumnType=\"Super\""),
        (cfs(r#"<ColumnFamily Name="C" KeysCached="lots"/>"#), cf("/@KeysCached"), "must be a count, a fraction below 1 or a percentage"),
        (cfs(r#"<ColumnFamily Name="C" RowsCached="150%"/>"#), cf("/@RowsCached"), "not '150%'"),
        (cfs(r#"<ColumnFamily Name="C" KeysCachedFraction="-0.5"/>"#), cf("/@KeysCachedFraction"), "must be a count"),
        (cfs(r#"<ColumnFamily Name="C" RowCacheSavePeriodInSeconds="x"/>"#), cf("/@RowCacheSavePeriodInSeconds"), "must be an integer of at least 0"),
        (cfs(r#"<ColumnFamily Name="C" KeyCacheSavePeriodInSeconds="-5"/>"#), cf("/@KeyCacheSavePeriodInSeconds"), "must be an integer of at least 0"),
        (cfs(r#"<ColumnFamily Name="C"><Comment>a</Comment><Comment>b</Comment></ColumnFamily>"#), cf("/Comment"), "appears more than once"),
    ]
}

#[test]
fn every_error_names_its_element() {
    let mut failures = Vec::new();
    for (xml, element, fragment) in cases() {
        match Config::from_xml(&xml, Path::new("/etc/ilion"), Path::new("/work")) {
            Err(Error::Config {
                element: got,
                message,
            }) => {
                if got != element || !message.contains(fragment) {
                    failures.push(format!(
                        "want <{element}>: …{fragment}…\n got <{got}>: {message}"
                    ));
                }
            }
            other => failures.push(format!("want <{element}>: {fragment}\n got {other:?}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn the_minimal_file_is_valid() {
    assert!(Config::from_xml(MINIMAL, Path::new("/etc"), Path::new("/work")).is_ok());
}

#[test]
fn the_later_api_partitioners_are_accepted() {
    for (name, partitioner, token) in [
        ("Murmur3Partitioner", Partitioner::Murmur3, "-42"),
        (
            "org.apache.cassandra.dht.ByteOrderedPartitioner",
            Partitioner::ByteOrdered,
            "0aBc",
        ),
    ] {
        let xml = with("org.apache.cassandra.dht.RandomPartitioner", name).replacen(
            "<Storage>",
            &format!("<Storage><InitialToken>{token}</InitialToken>"),
            1,
        );
        let config = Config::from_xml(&xml, Path::new("/etc/ilion"), Path::new("/work")).unwrap();
        assert_eq!(config.partitioner, partitioner);
        assert_eq!(config.initial_token.as_deref(), Some(token));
    }
}
