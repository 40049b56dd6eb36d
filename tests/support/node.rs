//! A real [`Node`] in the test's own process: started inside a tokio runtime this
//! [`InProcessNode`] owns, on a loaded [`Config`], and shut down when it is dropped (a failed
//! shutdown fails the test, unless it is already panicking).

use ilion::config::Config;
use ilion::node::Node;
use std::net::SocketAddr;

/// A serving node and the runtime it runs on.
pub struct InProcessNode {
    node: Option<Node>,
    runtime: tokio::runtime::Runtime,
    addr: SocketAddr,
}

impl InProcessNode {
    /// Starts a node on `config` (ThriftPort 0: the OS picks the port).
    pub fn start(config: Config) -> InProcessNode {
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
        InProcessNode {
            node: Some(node),
            runtime,
            addr,
        }
    }

    /// The Thrift address clients connect to.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The later API's address (IDL 20.1.0), when its listener is enabled.
    pub fn later_addr(&self) -> Option<SocketAddr> {
        let node = self.node.as_ref().expect("the node runs");
        node.thrift20_addr().map(|mut addr| {
            if addr.ip().is_unspecified() {
                addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
            }
            addr
        })
    }

    /// The node's column families.
    pub fn db(&self) -> &std::sync::Arc<ilion::cf::Db> {
        self.node.as_ref().expect("the node runs").db()
    }
}

impl Drop for InProcessNode {
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
