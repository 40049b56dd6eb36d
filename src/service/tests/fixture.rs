//! A test fixture for everything above `cf`: a [`Service`] over an in-memory database,
//! configured from inline storage-conf.xml with Standard and Super column families using all
//! six comparators, a keyspace with ReplicationFactor 2, and optionally SimpleAuthenticator
//! with its two files. Its engine's sync can be held or made to fail, to test reply gates.
//! Also: builders for Thrift request values and [`Outcome`], a comparable view of a result.

use super::{Service, Session};
use crate::cf::{Db, DbOptions};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use crate::protocol::{
    ApplicationErrorKind, Column, ColumnOrSuperColumn, ColumnParent, ColumnPath, Deletion,
    KeyRange, Mutation, SlicePredicate, SliceRange, SuperColumn,
};
use crate::storage::{Batch, Engine, MemoryEngine, Scan, SyncPolicy};
use std::ops::Bound;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tempfile::TempDir;

/// The keyspace with ReplicationFactor 1 and every kind of column family.
pub(crate) const KS: &str = "Keyspace1";
/// A keyspace with ReplicationFactor 2: QUORUM and ALL reads are unavailable on one node.
pub(crate) const KS_RF2: &str = "Replicated";

const KEYSPACES: &str = r#"
  <Keyspaces>
    <Keyspace Name="Keyspace1">
      <ColumnFamily Name="Standard1" CompareWith="BytesType"/>
      <ColumnFamily Name="Standard2" CompareWith="UTF8Type"><Comment>Described</Comment></ColumnFamily>
      <ColumnFamily Name="StdAscii" CompareWith="AsciiType"/>
      <ColumnFamily Name="StdLong" CompareWith="LongType"/>
      <ColumnFamily Name="StdLexical" CompareWith="LexicalUUIDType"/>
      <ColumnFamily Name="StdTime" CompareWith="TimeUUIDType"/>
      <ColumnFamily Name="Super1" ColumnType="Super"/>
      <ColumnFamily Name="SuperUtf8" ColumnType="Super" CompareWith="UTF8Type"
                    CompareSubcolumnsWith="LongType"/>
      <ColumnFamily Name="SuperTime" ColumnType="Super" CompareWith="TimeUUIDType"
                    CompareSubcolumnsWith="LexicalUUIDType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
    <Keyspace Name="Replicated">
      <ColumnFamily Name="Standard1"/>
      <ColumnFamily Name="Super1" ColumnType="Super"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>2</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>"#;

/// What to vary between fixtures.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub partitioner: Partitioner,
    /// SimpleAuthenticator with `passwd.properties` (`jsmith=havebadpass`, `Elvis Presley`,
    /// `dilbert`) and `access.properties` (Keyspace1 for all three, Replicated for jsmith).
    pub simple_auth: bool,
    pub initial_token: Option<String>,
    pub thrift_address: Option<String>,
    pub listen_address: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            partitioner: Partitioner::Random,
            simple_auth: false,
            initial_token: None,
            thrift_address: None,
            listen_address: "127.0.0.1".into(),
        }
    }
}

/// A service over a fresh in-memory database, and its temporary config directory.
pub(crate) struct Fixture {
    pub service: Service,
    pub config: Arc<Config>,
    pub engine: Arc<TestEngine>,
    pub dir: TempDir,
}

impl Fixture {
    /// RandomPartitioner, AllowAllAuthenticator.
    pub fn new() -> Fixture {
        Fixture::with(Options::default())
    }

    /// A fixture with these options.
    pub fn with(options: Options) -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        let xml = storage_conf(&options);
        std::fs::write(dir.path().join("storage-conf.xml"), &xml).expect("write config");
        if options.simple_auth {
            let passwd =
                "jsmith=havebadpass\nElvis\\ Presley=graceland4evar\ndilbert=nomoovertime\n";
            let access = "Keyspace1=jsmith,Elvis Presley,dilbert\nReplicated=jsmith\n";
            std::fs::write(dir.path().join("passwd.properties"), passwd).expect("passwd");
            std::fs::write(dir.path().join("access.properties"), access).expect("access");
        }
        let config = match Config::from_xml(&xml, dir.path(), dir.path()) {
            Ok(config) => Arc::new(config),
            Err(e) => panic!("fixture config does not load: {e}"),
        };
        let initial_token = config
            .initial_token
            .as_deref()
            .map(|t| config.partitioner.parse_token(t).expect("token"));
        let db_options = DbOptions {
            partitioner: config.partitioner,
            sync: SyncPolicy::Batch(Duration::ZERO),
            gc_grace_seconds: config.gc_grace_seconds,
            initial_token,
            chunk_bytes: crate::storage::MAX_CHUNK_BYTES,
            clock: crate::cf::system_clock(),
        };
        let engine = Arc::new(TestEngine::default());
        let schema = Arc::new(config.schema.clone());
        let db = Db::open(engine.clone(), schema, db_options).expect("open db");
        let service = Service::new(Arc::new(db), Arc::clone(&config));
        Fixture {
            service,
            config,
            engine,
            dir,
        }
    }

    /// A new connection's session.
    pub fn session(&self) -> Session {
        self.service.session()
    }
}

fn storage_conf(options: &Options) -> String {
    let mut extra = String::new();
    if options.simple_auth {
        extra.push_str(
            "<Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>\n",
        );
    }
    if let Some(token) = &options.initial_token {
        extra.push_str(&format!("<InitialToken>{token}</InitialToken>\n"));
    }
    if let Some(address) = &options.thrift_address {
        extra.push_str(&format!("<ThriftAddress>{address}</ThriftAddress>\n"));
    }
    format!(
        r#"<Storage>
  <ClusterName>Service Test Cluster</ClusterName>
  <Partitioner>org.apache.cassandra.dht.{partitioner}</Partitioner>
  <CommitLogSync>batch</CommitLogSync>
  <CommitLogSyncBatchWindowInMS>1</CommitLogSyncBatchWindowInMS>
  <CommitLogDirectory>commitlog</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>saved_caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <ListenAddress>{listen}</ListenAddress>
  {extra}{KEYSPACES}
</Storage>
"#,
        partitioner = options.partitioner.short_name(),
        listen = options.listen_address,
    )
}

/// What [`TestEngine::sync`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum SyncMode {
    #[default]
    Succeed,
    /// Blocks until the mode changes.
    Hold,
    Fail,
}

/// The in-memory engine with a sync that can be held back or made to fail.
#[derive(Debug, Default)]
pub(crate) struct TestEngine {
    inner: MemoryEngine,
    mode: Mutex<SyncMode>,
    changed: Condvar,
}

impl TestEngine {
    /// Sets what the next syncs do (and releases held ones).
    pub fn set_sync(&self, mode: SyncMode) {
        *self.mode.lock().unwrap_or_else(|p| p.into_inner()) = mode;
        self.changed.notify_all();
    }
}

impl Engine for TestEngine {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        self.inner.get(key)
    }

    fn scan(&self, lower: Bound<Vec<u8>>, upper: Bound<Vec<u8>>, reverse: bool) -> Scan<'_> {
        self.inner.scan(lower, upper, reverse)
    }

    fn apply(&self, batch: Batch) -> Result<()> {
        self.inner.apply(batch)
    }

    fn sync(&self) -> Result<()> {
        let mut mode = self.mode.lock().unwrap_or_else(|p| p.into_inner());
        while *mode == SyncMode::Hold {
            mode = self.changed.wait(mode).unwrap_or_else(|p| p.into_inner());
        }
        match *mode {
            SyncMode::Fail => Err(Error::Storage("injected fsync failure".into())),
            _ => Ok(()),
        }
    }
}

/// A result reduced to what a client can tell apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    Ok,
    Invalid(String),
    NotFound,
    Unavailable,
    Authentication(String),
    Authorization(String),
    /// A TApplicationException: its kind and message.
    Application(ApplicationErrorKind, String),
    Other(String),
}

/// The outcome of a handler call.
pub(crate) fn outcome<T>(result: thrift::Result<T>) -> Outcome {
    use crate::protocol::{
        AuthenticationException, AuthorizationException, InvalidRequestException,
        NotFoundException, UnavailableException,
    };
    let e = match result {
        Ok(_) => return Outcome::Ok,
        Err(e) => e,
    };
    match e {
        thrift::Error::User(u) => {
            if let Some(x) = u.downcast_ref::<InvalidRequestException>() {
                Outcome::Invalid(x.why.clone())
            } else if u.downcast_ref::<NotFoundException>().is_some() {
                Outcome::NotFound
            } else if u.downcast_ref::<UnavailableException>().is_some() {
                Outcome::Unavailable
            } else if let Some(x) = u.downcast_ref::<AuthenticationException>() {
                Outcome::Authentication(x.why.clone())
            } else if let Some(x) = u.downcast_ref::<AuthorizationException>() {
                Outcome::Authorization(x.why.clone())
            } else {
                Outcome::Other(u.to_string())
            }
        }
        thrift::Error::Application(a) => Outcome::Application(a.kind, a.message),
        other => Outcome::Other(other.to_string()),
    }
}

/// An INTERNAL_ERROR TApplicationException with `message`.
pub(crate) fn internal(message: &str) -> Outcome {
    Outcome::Application(ApplicationErrorKind::InternalError, message.to_string())
}

/// InvalidRequestException with `why`.
pub(crate) fn ire(why: &str) -> Outcome {
    Outcome::Invalid(why.to_string())
}

/// A ColumnPath.
pub(crate) fn path(cf: &str, super_column: Option<&[u8]>, column: Option<&[u8]>) -> ColumnPath {
    ColumnPath::new(
        cf.to_string(),
        super_column.map(<[u8]>::to_vec),
        column.map(<[u8]>::to_vec),
    )
}

/// A ColumnParent.
pub(crate) fn parent(cf: &str, super_column: Option<&[u8]>) -> ColumnParent {
    ColumnParent::new(cf.to_string(), super_column.map(<[u8]>::to_vec))
}

/// A names predicate.
pub(crate) fn names(names: &[&[u8]]) -> SlicePredicate {
    SlicePredicate::new(names.iter().map(|n| n.to_vec()).collect::<Vec<_>>(), None)
}

/// A range predicate.
pub(crate) fn range(start: &[u8], finish: &[u8], reversed: bool, count: i32) -> SlicePredicate {
    let range = SliceRange::new(start.to_vec(), finish.to_vec(), reversed, count);
    SlicePredicate::new(None, range)
}

/// Everything (up to 100 columns), ascending.
pub(crate) fn all() -> SlicePredicate {
    range(b"", b"", false, 100)
}

/// A KeyRange over keys.
pub(crate) fn keys(start: &str, end: &str, count: i32) -> KeyRange {
    KeyRange::new(start.to_string(), end.to_string(), None, None, count)
}

/// A KeyRange over tokens.
pub(crate) fn tokens(start: &str, end: &str, count: i32) -> KeyRange {
    KeyRange::new(None, None, start.to_string(), end.to_string(), count)
}

/// A Column.
pub(crate) fn col(name: &[u8], value: &[u8], timestamp: i64) -> Column {
    Column::new(name.to_vec(), value.to_vec(), timestamp)
}

/// A ColumnOrSuperColumn holding a column.
pub(crate) fn cosc_col(name: &[u8], value: &[u8], timestamp: i64) -> ColumnOrSuperColumn {
    ColumnOrSuperColumn::new(col(name, value, timestamp), None)
}

/// A ColumnOrSuperColumn holding a super column.
pub(crate) fn cosc_super(name: &[u8], columns: Vec<Column>) -> ColumnOrSuperColumn {
    ColumnOrSuperColumn::new(None, SuperColumn::new(name.to_vec(), columns))
}

/// A Mutation inserting `cosc`.
pub(crate) fn put(cosc: ColumnOrSuperColumn) -> Mutation {
    Mutation::new(cosc, None)
}

/// A Mutation deleting.
pub(crate) fn delete(
    timestamp: i64,
    super_column: Option<&[u8]>,
    predicate: Option<SlicePredicate>,
) -> Mutation {
    Mutation::new(
        None,
        Deletion::new(timestamp, super_column.map(<[u8]>::to_vec), predicate),
    )
}
