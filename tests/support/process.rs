//! Running the real `ilion` binary for tests: a temporary directory with a storage-conf.xml
//! (ThriftPort 0), the child process, the port read back from its "listening on" log line,
//! signals, restarts on the same data, and the process's resident memory.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A storage-conf.xml for tests; `{dir}` is the data directory and `{sync}` the commit-log
/// elements.
const CONFIG: &str = r#"<Storage>
  <ClusterName>Test Cluster</ClusterName>
  <Keyspaces>
    <Keyspace Name="Keyspace1">
      <ColumnFamily Name="Standard1" CompareWith="BytesType"/>
      <ColumnFamily Name="Super1" ColumnType="Super" CompareWith="BytesType" CompareSubcolumnsWith="BytesType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
  </Keyspaces>
  <Partitioner>org.apache.cassandra.dht.OrderPreservingPartitioner</Partitioner>
  <CommitLogDirectory>{dir}/commitlog</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>{dir}/data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>{dir}/saved_caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <ListenAddress>127.0.0.1</ListenAddress>
  <ThriftAddress>127.0.0.1</ThriftAddress>
  <ThriftPort>0</ThriftPort>
  <ThriftReadTimeoutInSeconds>1</ThriftReadTimeoutInSeconds>
  {sync}
</Storage>
"#;

/// Commit-log elements for `batch` (1 ms window) or `periodic` (1 s) mode.
pub fn sync_elements(mode: &str) -> &'static str {
    match mode {
        "batch" => "<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>1.0</CommitLogSyncBatchWindowInMS>",
        _ => "<CommitLogSync>periodic</CommitLogSync><CommitLogSyncPeriodInMS>1000</CommitLogSyncPeriodInMS>",
    }
}

/// The test storage-conf.xml with its data under `dir`, in commit-log `mode`.
pub fn config_text(dir: &Path, mode: &str) -> String {
    CONFIG
        .replace("{dir}", &dir.display().to_string())
        .replace("{sync}", sync_elements(mode))
}

/// A running `ilion serve` child process.
pub struct ServerProcess {
    child: Child,
    pub addr: SocketAddr,
    pub config: PathBuf,
}

impl ServerProcess {
    /// Writes the test config into `dir` and starts the server on it.
    pub fn start_in(dir: &Path, mode: &str) -> ServerProcess {
        let config = dir.join("storage-conf.xml");
        std::fs::write(&config, config_text(dir, mode)).expect("write config");
        Self::start(&config)
    }

    /// Starts the server on an existing config and waits until it listens.
    pub fn start(config: &Path) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
            .args(["serve", "--config"])
            .arg(config)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start ilion");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        // Read the log in the background so the child never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(addr) = line.split("listening on ").nth(1) {
                    let _ = tx.send(addr.trim().to_string());
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("ilion did not start listening");
        ServerProcess {
            child,
            addr: addr.parse().expect("address in log line"),
            config: config.to_path_buf(),
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory in KiB, from /proc.
    pub fn rss_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).expect("proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("VmRSS")
    }

    /// Sends `signal` (e.g. "TERM", "KILL") and waits for the exit; returns the exit code
    /// (None when killed by a signal).
    pub fn stop(mut self, signal: &str) -> Option<i32> {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.pid().to_string())
            .status();
        assert!(status.is_ok_and(|s| s.success()), "kill -{signal} failed");
        self.child.wait().expect("wait for ilion").code()
    }

    /// Still running?
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
