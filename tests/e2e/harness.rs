//! The test server: a real node ([`InProcessNode`], in its own tokio runtime) listening on
//! `127.0.0.1:0`, over a temporary directory that holds the test
//! configuration (tests/conf: every comparator, Standard and Super column families, a
//! replicated keyspace) varied by [`Options`], its `passwd.properties` and
//! `access.properties`, and the data directories. Tests talk to it through the blocking
//! [`Client`] on their own thread, in any of the four wire styles; dropping the server shuts
//! the node down. The store is on the engine `ILION_TEST_ENGINE` names (sled by default);
//! CI runs the suite once per engine.

use crate::support::conf::{test_engine, TestConf, REDIS_CLUSTER};
use crate::support::node::InProcessNode;
use ilion::client::{Client, WireStyle};
use ilion::config::Config;
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
pub const CLUSTER: &str = "Test Cluster";

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
    /// `<ThriftFramedTransport>`, which ilion validates but does not obey
    /// (`docs/compatibility.md#e1`).
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

/// A serving node and everything it lives on.
pub struct Server {
    node: InProcessNode,
    dir: TempDir,
}

impl Server {
    /// Writes the configuration for `options` into a fresh temporary directory and starts a
    /// node on it, listening on 127.0.0.1 and a port the OS picks.
    pub fn start(options: Options) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let conf = test_conf(&options);
        conf.write(dir.path());
        let config = Config::from_xml(conf.text(), dir.path(), dir.path())
            .unwrap_or_else(|e| panic!("test config does not load: {e}"));
        let data_dir = config.data_file_directories[0].clone();
        let node = InProcessNode::start(config);
        // The store really is on the engine the run asks for (ILION_TEST_ENGINE): a directory
        // store records it; a redis-cluster store lists its front ends.
        if test_engine() == REDIS_CLUSTER {
            let front_ends = node.db().front_ends().expect("the cluster answers");
            assert!(front_ends.is_some(), "the store is not on redis-cluster");
        } else {
            let engine = std::fs::read_to_string(data_dir.join(ilion::storage::ENGINE_FILE))
                .expect("the store records its engine");
            assert_eq!(engine, test_engine(), "the store's engine");
        }
        Server { node, dir }
    }

    /// The address clients connect to.
    pub fn addr(&self) -> SocketAddr {
        self.node.addr()
    }

    /// The later API's address.
    pub fn later_addr(&self) -> SocketAddr {
        self.node.later_addr().expect("the later listener is on")
    }

    /// The directory holding storage-conf.xml and the properties files.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A new connection in `style`.
    pub fn client(&self, style: WireStyle) -> Client {
        Client::connect(self.addr(), style, Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("connect {style:?}: {e}"))
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

/// tests/conf/storage-conf.xml varied by `options`.
fn test_conf(options: &Options) -> TestConf {
    let mut conf = TestConf::new()
        .partitioner(options.partitioner.short_name())
        .set("ThriftAddress", options.thrift_address);
    match options.auth {
        Auth::AllowAll => {}
        Auth::Plain => conf = conf.simple_auth(),
        Auth::Md5 => conf = conf.simple_auth().md5_passwords(),
    }
    if let Some(token) = options.initial_token {
        conf = conf.set("InitialToken", token);
    }
    if let Some(framed) = options.framed_transport {
        conf = conf.set("ThriftFramedTransport", &framed.to_string());
    }
    if options.batch_sync {
        conf = conf.commit_log("batch", "1");
    }
    conf
}
