//! The test server: a real [`Node`] listening on `127.0.0.1:0`, started inside a tokio
//! runtime that the [`Server`] owns, over a temporary directory that holds the inline
//! storage-conf.xml (every comparator, Standard and Super column families, a replicated
//! keyspace), the data directories and, for SimpleAuthenticator, `passwd.properties` and
//! `access.properties`. Tests talk to it through the blocking [`Client`] on their own thread,
//! in any of the four wire styles; dropping the server shuts the node down.

use ilion::client::{Client, WireStyle};
use ilion::config::Config;
use ilion::node::Node;
use ilion::partitioner::Partitioner;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tempfile::TempDir;

/// The keyspace with ReplicationFactor 1 and every kind of column family.
pub const KS: &str = "Keyspace1";
/// A keyspace with ReplicationFactor 3: QUORUM and ALL reads are unavailable on one node.
pub const KS_RF3: &str = "Replicated";
/// The cluster name of the test configuration.
pub const CLUSTER: &str = "E2E Test Cluster";

const KEYSPACES: &str = r#"<Keyspaces>
    <Keyspace Name="Keyspace1">
      <ColumnFamily Name="Standard1" CompareWith="BytesType"/>
      <ColumnFamily Name="Standard2" CompareWith="UTF8Type"><Comment>UTF-8 names</Comment></ColumnFamily>
      <ColumnFamily Name="StdAscii" CompareWith="AsciiType"/>
      <ColumnFamily Name="StdLong" CompareWith="LongType"/>
      <ColumnFamily Name="StdLexical" CompareWith="org.apache.cassandra.db.marshal.LexicalUUIDType"/>
      <ColumnFamily Name="StdTime" CompareWith="TimeUUIDType"/>
      <ColumnFamily Name="Super1" ColumnType="Super"/>
      <ColumnFamily Name="SuperLong" ColumnType="Super" CompareWith="UTF8Type"
                    CompareSubcolumnsWith="LongType"/>
      <ColumnFamily Name="SuperUtf8" ColumnType="Super" CompareWith="LongType"
                    CompareSubcolumnsWith="UTF8Type"/>
      <ColumnFamily Name="SuperTime" ColumnType="Super" CompareWith="TimeUUIDType"
                    CompareSubcolumnsWith="LexicalUUIDType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
    <Keyspace Name="Replicated">
      <ColumnFamily Name="Standard1"/>
      <ColumnFamily Name="Super1" ColumnType="Super" CompareSubcolumnsWith="AsciiType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>3</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>"#;

/// Which authenticator the server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// AllowAllAuthenticator (the element absent).
    AllowAll,
    /// SimpleAuthenticator, `<PasswordMode>` absent (PLAIN).
    Plain,
    /// SimpleAuthenticator with `<PasswordMode>MD5</PasswordMode>`.
    Md5,
}

/// What to vary between servers.
#[derive(Debug, Clone)]
pub struct Options {
    pub partitioner: Partitioner,
    pub auth: Auth,
    /// `<InitialToken>`, in the partitioner's string form.
    pub initial_token: Option<&'static str>,
    /// `CommitLogSync` batch (every write acknowledged after a sync) instead of periodic.
    pub batch_sync: bool,
    /// `<ThriftAddress>`; clients of an unspecified address connect through 127.0.0.1.
    pub thrift_address: &'static str,
    /// `<ThriftFramedTransport>`, which ilion validates but does not obey (spec E1).
    pub framed_transport: Option<bool>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            partitioner: Partitioner::Random,
            auth: Auth::AllowAll,
            initial_token: None,
            batch_sync: false,
            thrift_address: "127.0.0.1",
            framed_transport: None,
        }
    }
}

impl Options {
    /// The defaults with another partitioner.
    pub fn partitioner(partitioner: Partitioner) -> Options {
        Options {
            partitioner,
            ..Options::default()
        }
    }

    /// The defaults with another authenticator.
    pub fn auth(auth: Auth) -> Options {
        Options {
            auth,
            ..Options::default()
        }
    }
}

/// Users, passwords and grants of the SimpleAuthenticator variants. `Elvis Presley` tests
/// the `\ ` escape; `Nowhere` is a keyspace that is granted but not configured.
const PLAIN_PASSWD: &str = "# users\njsmith=havebadpass\nElvis\\ Presley=graceland4evar\n\
                            dilbert=nomoovertime\n";
/// The same users in MD5 mode: lowercase hex, uppercase hex, and a value that is not hex.
const MD5_PASSWD: &str = "jsmith=e1a31eee2136eb73e8e47f9e9d13ab0d\n\
                          Elvis\\ Presley=B209244FC805CD512178D4C58B93E7F6\n\
                          dilbert=nomoovertime\n";
const ACCESS: &str = "Keyspace1=jsmith,Elvis Presley,dilbert\nReplicated=jsmith\nNowhere=dilbert\n";

/// A serving node and everything it lives on.
pub struct Server {
    node: Option<Node>,
    runtime: tokio::runtime::Runtime,
    addr: SocketAddr,
    dir: TempDir,
}

impl Server {
    /// Writes the configuration for `options` into a fresh temporary directory and starts a
    /// node on it, listening on 127.0.0.1 and a port the OS picks.
    pub fn start(options: Options) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let xml = storage_conf(&options);
        std::fs::write(dir.path().join("storage-conf.xml"), &xml).expect("write config");
        if options.auth != Auth::AllowAll {
            let passwd = match options.auth {
                Auth::Md5 => MD5_PASSWD,
                _ => PLAIN_PASSWD,
            };
            std::fs::write(dir.path().join("passwd.properties"), passwd).expect("passwd");
            std::fs::write(dir.path().join("access.properties"), ACCESS).expect("access");
        }
        let config = Config::from_xml(&xml, dir.path(), dir.path())
            .unwrap_or_else(|e| panic!("test config does not load: {e}"));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let node = runtime
            .block_on(Node::start(config))
            .unwrap_or_else(|e| panic!("node does not start: {e}"));
        let mut addr = node.local_addr();
        assert_ne!(addr.port(), 0, "port 0 must be replaced by a real port");
        if addr.ip().is_unspecified() {
            addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        Server {
            node: Some(node),
            runtime,
            addr,
            dir,
        }
    }

    /// The address clients connect to.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The directory holding storage-conf.xml and the properties files.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A new connection in `style`.
    pub fn client(&self, style: WireStyle) -> Client {
        Client::connect(self.addr, style, Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("connect {style:?}: {e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(node) = self.node.take() {
            let closed = self.runtime.block_on(node.shutdown());
            if let Err(e) = closed {
                if !std::thread::panicking() {
                    panic!("node shutdown failed: {e}");
                }
            }
        }
    }
}

/// A short name for a wire style, for labels and per-style row keys.
pub fn tag(style: WireStyle) -> &'static str {
    match (style.framed, style.strict) {
        (false, true) => "buffered-strict",
        (true, true) => "framed-strict",
        (false, false) => "buffered-old",
        (true, false) => "framed-old",
    }
}

fn storage_conf(options: &Options) -> String {
    let mut extra = String::new();
    if options.auth != Auth::AllowAll {
        extra.push_str(
            "<Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>\n  ",
        );
    }
    if options.auth == Auth::Md5 {
        extra.push_str("<PasswordMode>MD5</PasswordMode>\n  ");
    }
    if let Some(token) = options.initial_token {
        extra.push_str(&format!("<InitialToken>{token}</InitialToken>\n  "));
    }
    if let Some(framed) = options.framed_transport {
        extra.push_str(&format!(
            "<ThriftFramedTransport>{framed}</ThriftFramedTransport>\n  "
        ));
    }
    let sync = if options.batch_sync {
        "<CommitLogSync>batch</CommitLogSync>\n  \
         <CommitLogSyncBatchWindowInMS>1</CommitLogSyncBatchWindowInMS>"
    } else {
        "<CommitLogSync>periodic</CommitLogSync>\n  \
         <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>"
    };
    format!(
        r#"<Storage>
  <ClusterName>{CLUSTER}</ClusterName>
  <Partitioner>org.apache.cassandra.dht.{partitioner}</Partitioner>
  {sync}
  <CommitLogDirectory>commitlog</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>saved_caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <ListenAddress>127.0.0.1</ListenAddress>
  <ThriftAddress>{thrift_address}</ThriftAddress>
  <ThriftPort>0</ThriftPort>
  {extra}{KEYSPACES}
</Storage>
"#,
        partitioner = options.partitioner.short_name(),
        thrift_address = options.thrift_address,
    )
}
