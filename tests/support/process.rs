//! Running the real `ilion` binary for tests: a temporary directory with the test
//! configuration (tests/conf, ThriftPort 0) and the binary started in it, the child process, the port read back from its "listening on" log line,
//! signals, restarts on the same data, and the process's resident memory.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::conf::TestConf;

/// tests/conf/storage-conf.xml as the binary tests run it: OrderPreservingPartitioner, a 1 s
/// read timeout (so hostile half-messages are dropped quickly), and CommitLogSync `mode` —
/// `batch` with a 1 ms window or `periodic` every second.
pub fn binary_conf(mode: &str) -> TestConf {
    let conf = TestConf::new()
        .partitioner("OrderPreservingPartitioner")
        .set("ThriftReadTimeoutInSeconds", "1");
    match mode {
        "batch" => conf.commit_log("batch", "1.0"),
        _ => conf.commit_log("periodic", "1000"),
    }
}

/// A running `ilion serve` child process.
pub struct ServerProcess {
    child: Child,
    pub addr: SocketAddr,
    pub config: PathBuf,
}

impl ServerProcess {
    /// Writes the test config ([`binary_conf`]) into `dir` and starts the server on it.
    pub fn start_in(dir: &Path, mode: &str) -> ServerProcess {
        let config = binary_conf(mode).write(dir);
        Self::start(&config)
    }

    /// Starts the server on an existing config, in the config's directory (where its relative
    /// directories resolve), and waits until it listens.
    pub fn start(config: &Path) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
            .args(["serve", "--config"])
            .arg(config)
            .current_dir(config.parent().expect("config in a directory"))
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
