//! The node the cli talks to: a real node ([`InProcessNode`]) on 127.0.0.1 and a port the OS
//! picks, over a temporary directory holding the test configuration (tests/conf, through
//! [`TestConf`]) with its passwd.properties and access.properties.

use crate::support::conf::TestConf;
use crate::support::node::InProcessNode;
use ilion::config::Config;
use tempfile::TempDir;

/// Cluster name of the test configuration.
pub const CLUSTER: &str = "Test Cluster";

/// Who may log in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    AllowAll,
    /// SimpleAuthenticator with tests/conf's users: jsmith (password havebadpass) may use
    /// Keyspace1 and Replicated.
    Simple,
}

/// A serving node and the directory it lives in.
pub struct Server {
    node: InProcessNode,
    conf: TestConf,
    _dir: TempDir,
}

impl Server {
    /// A node on tests/conf as it is: RandomPartitioner and no login.
    pub fn start() -> Server {
        Server::start_with(Auth::AllowAll)
    }

    pub fn start_with(auth: Auth) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let conf = match auth {
            Auth::AllowAll => TestConf::new(),
            Auth::Simple => TestConf::new().simple_auth(),
        };
        conf.write(dir.path());
        let config = Config::from_xml(conf.text(), dir.path(), dir.path())
            .unwrap_or_else(|e| panic!("test config does not load: {e}"));
        Server {
            node: InProcessNode::start(config),
            conf,
            _dir: dir,
        }
    }

    /// The text of its storage-conf.xml.
    pub fn config_text(&self) -> &str {
        self.conf.text()
    }

    /// The Thrift port.
    pub fn port(&self) -> u16 {
        self.node.addr().port()
    }
}
