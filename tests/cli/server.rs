//! The node the cli talks to: a real node ([`InProcessNode`]) on 127.0.0.1 and a port the OS
//! picks, over a temporary directory holding its storage-conf.xml (and, for
//! SimpleAuthenticator, passwd.properties and access.properties).

use crate::support::node::InProcessNode;
use ilion::config::Config;
use tempfile::TempDir;

/// Cluster name of the test configuration.
pub const CLUSTER: &str = "CLI Test Cluster";

const KEYSPACES: &str = r#"<Keyspaces>
    <Keyspace Name="Keyspace1">
      <ColumnFamily Name="Standard1" CompareWith="BytesType"/>
      <ColumnFamily Name="Standard2" CompareWith="UTF8Type"><Comment>UTF-8 names</Comment></ColumnFamily>
      <ColumnFamily Name="StdAscii" CompareWith="AsciiType"/>
      <ColumnFamily Name="StdLong" CompareWith="LongType"/>
      <ColumnFamily Name="StdLexical" CompareWith="LexicalUUIDType"/>
      <ColumnFamily Name="StdTime" CompareWith="TimeUUIDType"/>
      <ColumnFamily Name="Super1" ColumnType="Super"/>
      <ColumnFamily Name="SuperLong" ColumnType="Super" CompareWith="UTF8Type"
                    CompareSubcolumnsWith="LongType"/>
      <ColumnFamily Name="SuperTime" ColumnType="Super" CompareWith="TimeUUIDType"
                    CompareSubcolumnsWith="AsciiType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
    <Keyspace Name="Other">
      <ColumnFamily Name="Standard1"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>"#;

/// Who may log in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    AllowAll,
    /// SimpleAuthenticator: jsmith (password havebadpass) may use Keyspace1 only.
    Simple,
}

/// A serving node and the directory it lives in.
pub struct Server {
    node: InProcessNode,
    xml: String,
    _dir: TempDir,
}

impl Server {
    /// A node with RandomPartitioner and no login.
    pub fn start() -> Server {
        Server::start_with(Auth::AllowAll)
    }

    pub fn start_with(auth: Auth) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let authenticator = match auth {
            Auth::AllowAll => "",
            Auth::Simple => {
                std::fs::write(dir.path().join("passwd.properties"), "jsmith=havebadpass\n")
                    .expect("passwd");
                std::fs::write(dir.path().join("access.properties"), "Keyspace1=jsmith\n")
                    .expect("access");
                "<Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>"
            }
        };
        let xml = format!(
            r#"<Storage>
  <ClusterName>{CLUSTER}</ClusterName>
  <Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>
  <CommitLogSync>periodic</CommitLogSync>
  <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>
  <CommitLogDirectory>commitlog</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>saved_caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <ListenAddress>127.0.0.1</ListenAddress>
  <ThriftAddress>127.0.0.1</ThriftAddress>
  <ThriftPort>0</ThriftPort>
  {authenticator}
  {KEYSPACES}
</Storage>
"#
        );
        std::fs::write(dir.path().join("storage-conf.xml"), &xml).expect("write config");
        let config = Config::from_xml(&xml, dir.path(), dir.path())
            .unwrap_or_else(|e| panic!("test config does not load: {e}"));
        Server {
            node: InProcessNode::start(config),
            xml,
            _dir: dir,
        }
    }

    /// The text of its storage-conf.xml.
    pub fn config_text(&self) -> &str {
        &self.xml
    }

    /// The Thrift port.
    pub fn port(&self) -> u16 {
        self.node.addr().port()
    }
}
