//! A real node for the admin tests: a temporary directory, the test configuration
//! (tests/conf through [`TestConf`]: ThriftPort 0, so AdminPort is a free port too,
//! optionally an AdminToken), the node started in-process,
//! a Thrift client, HTTP requests to the admin endpoint, and `ilion tool` run as the binary.
//!
//! The metrics registry is process-wide (one node per process in production), so the tests
//! of this binary take turns through [`serial`] and compare counters before and after.

use crate::support::conf::TestConf;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::config::Config;
use ilion::node::Node;
use ilion::protocol::{ColumnPath, ConsistencyLevel};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

pub const KS: &str = "Keyspace1";
pub const ONE: ConsistencyLevel = ConsistencyLevel::ONE;

static TURN: Mutex<()> = Mutex::new(());

/// Runs the tests of this binary one at a time (see the module comment).
pub fn serial() -> MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(|p| p.into_inner())
}

/// Cluster name of the test configuration.
pub const CLUSTER: &str = "Test Cluster";

/// tests/conf as the admin tests run it: OrderPreservingPartitioner, CommitLogSync batch
/// with a 1 ms window (every write synced before it is acknowledged) and GCGraceSeconds 0
/// (tombstones purgeable at once). ThriftPort 0 makes the admin port a free one too.
pub fn test_conf() -> TestConf {
    TestConf::new()
        .partitioner("OrderPreservingPartitioner")
        .commit_log("batch", "1.0")
        .set("GCGraceSeconds", "0")
}

/// A serving node and its directory.
pub struct Server {
    node: Option<Node>,
    runtime: tokio::runtime::Runtime,
    pub dir: PathBuf,
    pub config_path: PathBuf,
    pub token: Option<String>,
}

impl Server {
    /// A node in `root` (new, or where a stopped node left its data) on [`test_conf`].
    pub fn start(root: &Path) -> Server {
        Server::start_with(root, test_conf())
    }

    /// A node on `conf` (e.g. [`test_conf`] with an AdminToken or another data directory),
    /// written into `root`, where its relative directories resolve.
    pub fn start_with(root: &Path, conf: TestConf) -> Server {
        let config_path = conf.write(root);
        let config = Config::from_xml(conf.text(), root, root).expect("test config loads");
        let token = config.admin.token.clone();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let node = runtime.block_on(Node::start(config)).expect("node starts");
        assert_ne!(
            node.admin_addr().port(),
            0,
            "the bound admin port is reported"
        );
        Server {
            node: Some(node),
            runtime,
            dir: root.to_path_buf(),
            config_path,
            token,
        }
    }

    fn node(&self) -> &Node {
        self.node.as_ref().expect("running")
    }

    pub fn thrift(&self) -> SocketAddr {
        self.node().local_addr()
    }

    pub fn admin(&self) -> SocketAddr {
        self.node().admin_addr()
    }

    /// A Thrift connection.
    pub fn client(&self) -> Client {
        let style = WireStyle {
            framed: true,
            strict: true,
        };
        Client::connect(self.thrift(), style, Duration::from_secs(10)).expect("connect")
    }

    /// `GET path` with the node's token; (status, body).
    pub fn get(&self, path: &str) -> (u16, String) {
        http(
            "GET",
            &format!("http://{}{path}", self.admin()),
            self.token.as_deref(),
        )
    }

    /// A sample from `/metrics` by name and labels (in any order); 0 when absent.
    pub fn metric(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let (status, text) = self.get("/metrics");
        assert_eq!(status, 200, "{text}");
        sample_value(&text, name, labels).unwrap_or(0.0)
    }

    /// Runs `ilion tool --host 127.0.0.1 --port ADMIN args…`.
    pub fn tool(&self, args: &[&str]) -> Output {
        let port = self.admin().port().to_string();
        let mut command = Command::new(env!("CARGO_BIN_EXE_ilion"));
        command.args(["tool", "--host", "127.0.0.1", "--port", &port]);
        if let Some(t) = &self.token {
            command.args(["--token", t]);
        }
        command.args(args).output().expect("run ilion tool")
    }

    /// `tool` that must succeed; its stdout.
    pub fn tool_ok(&self, args: &[&str]) -> String {
        let out = self.tool(args);
        assert!(
            out.status.success(),
            "ilion tool {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    /// `tool … --json`, parsed.
    pub fn tool_json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = args.to_vec();
        all.push("--json");
        serde_json::from_str(&self.tool_ok(&all)).expect("--json prints JSON")
    }

    /// Stops the node (admin endpoint, Thrift, final sync).
    pub fn stop(mut self) {
        if let Some(node) = self.node.take() {
            self.runtime
                .block_on(node.shutdown())
                .expect("clean shutdown");
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(node) = self.node.take() {
            let _ = self.runtime.block_on(node.shutdown());
        }
    }
}

/// One HTTP request, a POST without a body; (status, body). `token` goes in an
/// Authorization header.
pub fn http(method: &str, url: &str, token: Option<&str>) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    let auth = token.map(|t| format!("Bearer {t}"));
    let sent = match method {
        "GET" => {
            let mut r = agent.get(url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.call()
        }
        _ => {
            let mut r = agent.post(url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.send_empty()
        }
    };
    let mut response = sent.expect("HTTP request");
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().expect("body");
    (status, body)
}

/// The value of the sample `name` with exactly `labels` (in any order) in Prometheus text.
pub fn sample_value(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let mut want: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
    want.sort();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (got_name, got_labels) = match series.split_once('{') {
                Some((n, rest)) => (n, rest.strip_suffix('}')?),
                None => (series, ""),
            };
            let mut got: Vec<String> = got_labels
                .split(',')
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect();
            got.sort();
            (got_name == name && got == want).then(|| value.parse().ok())?
        })
}

/// `n` inserts of one column each into Standard1, rows `{prefix}0…`.
pub fn insert_rows(c: &mut Client, prefix: &str, n: usize) {
    for i in 0..n {
        let path = ColumnPath::new("Standard1".into(), None, b"col".to_vec());
        c.insert(
            KS.into(),
            format!("{prefix}{i}"),
            path,
            b"v".to_vec(),
            1,
            ONE,
        )
        .expect("insert");
    }
}
