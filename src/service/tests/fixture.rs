//! A test fixture for everything above `cf`: a [`Service`] over an in-memory database,
//! configured from the suites' shared tests/conf/storage-conf.xml (Standard and Super column
//! families under all six comparators, a keyspace with ReplicationFactor 3, optionally
//! SimpleAuthenticator with its two files). Its engine's sync can be held or made to fail, to
//! test reply gates. Also: builders for Thrift request values and [`Outcome`], the
//! comparable view of a result, both shared with the integration suites
//! (tests/support/requests.rs and outcome.rs, included here by path, as is conf.rs).

use crate::cf::{Db, DbOptions};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use crate::protocol::SlicePredicate;
use crate::service::{Service, Session};
use crate::storage::{Batch, Engine, MemoryEngine, Scan, SyncPolicy};
use std::ops::Bound;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tempfile::TempDir;

// The shared test support; `outcome` and `requests` name the generated types through
// `super::protocol`.
use crate::protocol;
#[path = "../../../tests/support/conf.rs"]
mod conf;
#[path = "../../../tests/support/outcome.rs"]
mod outcome;
#[path = "../../../tests/support/requests.rs"]
mod requests;

use conf::TestConf;
pub(crate) use outcome::{internal, ire, outcome, Outcome};
pub(crate) use requests::{
    col, cosc_col, cosc_super, delete, keys, names, parent, path, put, range, tokens,
};

/// The keyspace with ReplicationFactor 1 and every kind of column family.
pub(crate) const KS: &str = "Keyspace1";
/// A keyspace with ReplicationFactor 3: QUORUM and ALL reads are unavailable on one node.
pub(crate) const KS_RF3: &str = "Replicated";

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
    /// The database's clock (seconds), for tests that let columns expire; the system clock
    /// when None.
    pub clock: Option<Arc<AtomicU32>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            partitioner: Partitioner::Random,
            simple_auth: false,
            initial_token: None,
            thrift_address: None,
            listen_address: "127.0.0.1".into(),
            clock: None,
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
        let conf = test_conf(&options);
        conf.write(dir.path());
        let config = match Config::from_xml(conf.text(), dir.path(), dir.path()) {
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
            clock: match &options.clock {
                None => crate::cf::system_clock(),
                Some(clock) => {
                    let clock = Arc::clone(clock);
                    Arc::new(move || clock.load(Ordering::SeqCst))
                }
            },
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

/// tests/conf/storage-conf.xml varied by `options`, with the batch commit log the fixture's
/// engine runs under.
fn test_conf(options: &Options) -> TestConf {
    let mut conf = TestConf::new()
        .partitioner(options.partitioner.short_name())
        .commit_log("batch", "1")
        .set("ListenAddress", &options.listen_address);
    if options.simple_auth {
        conf = conf.simple_auth();
    }
    if let Some(token) = &options.initial_token {
        conf = conf.set("InitialToken", token);
    }
    if let Some(address) = &options.thrift_address {
        conf = conf.set("ThriftAddress", address);
    }
    conf
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

/// Everything (up to 100 columns), ascending.
pub(crate) fn all() -> SlicePredicate {
    range(b"", b"", false, 100)
}
