//! Whole-document tests: a configuration using every element of `docs/api.md#config` (with the
//! legacy and unused ones, comments, empty elements and the ignored `Comment=` attribute) reads
//! to the expected values, and the minimal file gets the documented defaults.

use super::*;
use crate::comparator::Comparator;
use std::net::Ipv4Addr;

const FULL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root -->
<Storage>
  <ClusterName>Full Cluster</ClusterName>
  <AutoBootstrap>TRUE</AutoBootstrap>
  <HintedHandoffEnabled>False</HintedHandoffEnabled>
  <IndexInterval>256</IndexInterval>
  <Keyspaces>
    <Keyspace Name="Keyspace1">
      <!-- legacy attribute form of Comment: ignored -->
      <ColumnFamily Name="Standard1" CompareWith="org.apache.cassandra.db.marshal.BytesType"
                    KeysCached="1000" RowsCached="100" Comment="ignored"/>
      <ColumnFamily Name="Standard2" CompareWith="UTF8Type" KeysCached="100%"
                    KeysCachedFraction="0.5" RowCacheSavePeriodInSeconds="0"
                    KeyCacheSavePeriodInSeconds="3600"/>
      <ColumnFamily Name="Super2" ColumnType="Super" CompareWith="UTF8Type"
                    CompareSubcolumnsWith="LongType" RowsCached="10000" KeysCached="50%">
        <Comment> described </Comment>
      </ColumnFamily>
      <ColumnFamily Name="Super1" ColumnType="Super" CompareWith="" />
      <Unknown>skipped</Unknown>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackAwareStrategy</ReplicaPlacementStrategy>
      <ColumnFamily Name="ByUUID" CompareWith="TimeUUIDType"/>
      <ReplicationFactor>3</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
    <Keyspace Name="Empty">
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>
  <Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>
  <PasswordMode>md5</PasswordMode>
  <Partitioner>OrderPreservingPartitioner</Partitioner>
  <InitialToken>m</InitialToken>
  <SavedCachesDirectory>/var/lib/ilion/saved_caches</SavedCachesDirectory>
  <CommitLogDirectory>commitlog</CommitLogDirectory>
  <DataFileDirectories>
    <DataFileDirectory>data/one/</DataFileDirectory>
    <DataFileDirectory></DataFileDirectory>
    <DataFileDirectory>./data/./two</DataFileDirectory>
  </DataFileDirectories>
  <BootstrapFileDirectory>/var/lib/cassandra/bootstrap</BootstrapFileDirectory>
  <Seeds>
    <Seed>10.0.0.1</Seed>
    <Seed/>
    <Seed>seed.example</Seed>
  </Seeds>
  <RpcTimeoutInMillis>5000</RpcTimeoutInMillis>
  <PhiConvictThreshold>12</PhiConvictThreshold>
  <CommitLogRotationThresholdInMB>64</CommitLogRotationThresholdInMB>
  <ListenAddress>127.0.0.2</ListenAddress>
  <StoragePort>7001</StoragePort>
  <ThriftAddress>0.0.0.0</ThriftAddress>
  <ThriftPort>0</ThriftPort>
  <ThriftFramedTransport>true</ThriftFramedTransport>
  <DiskAccessMode>mmap_index_only</DiskAccessMode>
  <RowWarningThresholdInMB>32</RowWarningThresholdInMB>
  <SlicedBufferSizeInKB>128</SlicedBufferSizeInKB>
  <FlushDataBufferSizeInMB>16.5</FlushDataBufferSizeInMB>
  <FlushIndexBufferSizeInMB>4</FlushIndexBufferSizeInMB>
  <ColumnIndexSizeInKB>32</ColumnIndexSizeInKB>
  <MemtableThroughputInMB>128</MemtableThroughputInMB>
  <BinaryMemtableThroughputInMB>512</BinaryMemtableThroughputInMB>
  <MemtableOperationsInMillions>0.3</MemtableOperationsInMillions>
  <MemtableFlushAfterMinutes>30</MemtableFlushAfterMinutes>
  <ConcurrentReads>4</ConcurrentReads>
  <ConcurrentWrites>
      64
  </ConcurrentWrites>
  <CommitLogSync>batch</CommitLogSync>
  <CommitLogSyncPeriodInMS></CommitLogSyncPeriodInMS>
  <CommitLogSyncBatchWindowInMS>1.5</CommitLogSyncBatchWindowInMS>
  <GCGraceSeconds>3600</GCGraceSeconds>
  <DoConsistencyChecksBoolean>false</DoConsistencyChecksBoolean>
  <SnapshotBeforeCompaction>true</SnapshotBeforeCompaction>
  <JobTrackerHost>tracker.example</JobTrackerHost>
  <JobJarFileLocation>/opt/jobs.jar</JobJarFileLocation>
  <ThriftMaxFrameSizeInMB>4</ThriftMaxFrameSizeInMB>
  <ThriftMaxMessageSizeInMB>8</ThriftMaxMessageSizeInMB>
  <ThriftMaxNestingDepth>32</ThriftMaxNestingDepth>
  <ThriftMaxConnections>10</ThriftMaxConnections>
  <ThriftIdleTimeoutInSeconds>60</ThriftIdleTimeoutInSeconds>
  <ThriftReadTimeoutInSeconds>5</ThriftReadTimeoutInSeconds>
  <StorageCacheSizeInMB>64</StorageCacheSizeInMB>
  <StorageEngine>fjall</StorageEngine>
</Storage>
"#;

/// The smallest valid file: only what has no default.
pub(super) const MINIMAL: &str = r#"<Storage>
  <Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>
  <CommitLogSync>periodic</CommitLogSync>
  <CommitLogSyncPeriodInMS>1000</CommitLogSyncPeriodInMS>
  <CommitLogDirectory>cl</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <Keyspaces>
    <Keyspace Name="K">
      <ColumnFamily Name="C"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>
</Storage>"#;

pub(super) fn parse(text: &str) -> Config {
    match Config::from_xml(text, Path::new("/etc/ilion"), Path::new("/work")) {
        Ok(config) => config,
        Err(e) => panic!("config did not load: {e}"),
    }
}

/// The element and message of the error `text` is refused with.
pub(super) fn parse_err(text: &str) -> (String, String) {
    match Config::from_xml(text, Path::new("/etc/ilion"), Path::new("/work")) {
        Err(Error::Config { element, message }) => (element, message),
        Err(e) => panic!("not a configuration error: {e}"),
        Ok(_) => panic!("config loaded"),
    }
}

pub(super) fn cf(config: &Config, ks: &str, name: &str) -> CfDef {
    config
        .schema
        .cf(ks, name)
        .unwrap_or_else(|| panic!("no {ks}.{name}"))
        .clone()
}

#[test]
fn every_element_reads_to_its_value() {
    let c = parse(FULL);
    assert_eq!(c.cluster_name, "Full Cluster");
    assert!(c.auto_bootstrap);
    assert!(!c.hinted_handoff_enabled);
    assert_eq!(c.authenticator, AuthenticatorKind::Simple);
    assert_eq!(c.password_mode, PasswordMode::Md5);
    assert_eq!(c.partitioner, Partitioner::OrderPreserving);
    assert_eq!(c.initial_token.as_deref(), Some("m"));
    assert_eq!(
        c.saved_caches_directory,
        PathBuf::from("/var/lib/ilion/saved_caches")
    );
    assert_eq!(c.commit_log_directory, PathBuf::from("/work/commitlog"));
    assert_eq!(
        c.data_file_directories,
        vec![
            PathBuf::from("/work/data/one"),
            PathBuf::from("/work/data/two")
        ]
    );
    assert_eq!(
        c.seeds,
        vec!["10.0.0.1".to_string(), "seed.example".to_string()]
    );
    assert_eq!(c.rpc_timeout_ms, 5000);
    assert_eq!(c.listen_address, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
    assert_eq!(c.storage_port, 7001);
    assert_eq!(c.thrift_address, IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    assert_eq!(c.thrift_port, 0);
    assert!(c.thrift_framed_transport);
    assert_eq!(c.disk_access_mode, DiskAccessMode::MmapIndexOnly);
    assert_eq!(c.commit_log_sync, CommitLogSync::Batch { window_ms: 1.5 });
    assert_eq!(c.gc_grace_seconds, 3600);
    assert_eq!(
        c.limits,
        ThriftLimits {
            max_frame_bytes: 4 << 20,
            max_message_bytes: 8 << 20,
            max_depth: 32,
            max_connections: 10,
            idle_timeout_secs: 60,
            read_timeout_secs: 5,
        }
    );
    assert_eq!(c.storage_cache_bytes, 64 << 20);
    assert_eq!(c.storage_engine, StorageEngine::Fjall);
    assert_eq!(
        c.tuning,
        Tuning {
            index_interval: 256,
            phi_convict_threshold: 12,
            commit_log_rotation_threshold_mb: 64,
            row_warning_threshold_mb: 32,
            sliced_buffer_size_kb: 128,
            flush_data_buffer_size_mb: 16.5,
            flush_index_buffer_size_mb: 4.0,
            column_index_size_kb: 32,
            memtable_throughput_mb: 128,
            binary_memtable_throughput_mb: 512,
            memtable_operations_millions: 0.3,
            memtable_flush_after_minutes: 30,
            concurrent_reads: 4,
            concurrent_writes: 64,
            do_consistency_checks: false,
            snapshot_before_compaction: true,
        }
    );
    assert_eq!(c.config_dir, PathBuf::from("/etc/ilion"));
    assert_eq!(c.config_text, FULL);
}

#[test]
fn keyspaces_and_column_families_read_to_their_definitions() {
    let c = parse(FULL);
    let names: Vec<&str> = c.schema.keyspaces.keys().map(String::as_str).collect();
    assert_eq!(names, ["Empty", "Keyspace1", "system"]);
    let ks = &c.schema.keyspaces["Keyspace1"];
    assert_eq!(ks.replication_factor, 3);
    assert_eq!(
        ks.replica_placement_strategy,
        "org.apache.cassandra.locator.RackAwareStrategy"
    );
    assert_eq!(
        ks.endpoint_snitch,
        "org.apache.cassandra.locator.EndPointSnitch"
    );
    let cf_names: Vec<&str> = ks.column_families.keys().map(String::as_str).collect();
    assert_eq!(
        cf_names,
        ["ByUUID", "Standard1", "Standard2", "Super1", "Super2"]
    );

    let standard1 = cf(&c, "Keyspace1", "Standard1");
    assert_eq!(standard1.column_type, ColumnType::Standard);
    assert_eq!(standard1.comparator, Comparator::Bytes);
    assert_eq!(standard1.subcomparator, None);
    assert_eq!(standard1.comment, None, "the Comment attribute is ignored");
    assert_eq!(
        cf(&c, "Keyspace1", "Standard2").comparator,
        Comparator::Utf8
    );
    assert_eq!(
        cf(&c, "Keyspace1", "ByUUID").comparator,
        Comparator::TimeUuid
    );

    let super1 = cf(&c, "Keyspace1", "Super1");
    assert_eq!(super1.column_type, ColumnType::Super);
    assert_eq!(
        super1.comparator,
        Comparator::Bytes,
        "empty CompareWith is absent"
    );
    assert_eq!(super1.subcomparator, Some(Comparator::Bytes));

    let super2 = cf(&c, "Keyspace1", "Super2");
    assert_eq!(super2.comparator, Comparator::Utf8);
    assert_eq!(super2.subcomparator, Some(Comparator::Long));
    assert_eq!(super2.comment.as_deref(), Some("described"));

    assert_eq!(c.schema.keyspaces["system"], Schema::system_keyspace());
    assert!(c.schema.keyspaces["Empty"].column_families.is_empty());
}

#[test]
fn absent_elements_take_their_defaults() {
    let c = parse(MINIMAL);
    assert_eq!(c.cluster_name, "Test Cluster");
    assert!(!c.auto_bootstrap);
    assert!(c.hinted_handoff_enabled);
    assert_eq!(c.authenticator, AuthenticatorKind::AllowAll);
    assert_eq!(c.password_mode, PasswordMode::Plain);
    assert_eq!(c.initial_token, None);
    assert_eq!(
        c.commit_log_sync,
        CommitLogSync::Periodic { period_ms: 1000 }
    );
    assert_eq!(c.listen_address, IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_eq!(c.thrift_address, c.listen_address);
    assert_eq!(c.thrift_port, 9160);
    assert_eq!(c.storage_port, 7000);
    assert!(!c.thrift_framed_transport);
    assert_eq!(c.disk_access_mode, DiskAccessMode::Auto);
    assert_eq!(c.gc_grace_seconds, 864_000);
    assert_eq!(c.rpc_timeout_ms, 2000);
    assert_eq!(c.storage_cache_bytes, 128 << 20);
    assert_eq!(c.storage_engine, StorageEngine::Sled);
    assert_eq!(c.limits, ThriftLimits::default());
    assert_eq!(c.tuning.index_interval, 128);
    assert_eq!(c.tuning.phi_convict_threshold, 8);
    assert_eq!(c.tuning.memtable_operations_millions, 0.1);
    assert_eq!(
        (c.tuning.concurrent_reads, c.tuning.concurrent_writes),
        (8, 32)
    );
    assert!(c.tuning.do_consistency_checks);
    assert!(!c.tuning.snapshot_before_compaction);
    let cf = cf(&c, "K", "C");
    assert_eq!(
        (cf.column_type, cf.comparator),
        (ColumnType::Standard, Comparator::Bytes)
    );
}
