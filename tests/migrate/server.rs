//! The real `ilion serve` as a child process on a test configuration (ThriftPort 0): started,
//! its port read back from the "listening on" log line, stopped with SIGTERM.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running server.
pub struct Served {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Served {
    /// Starts `ilion serve --config CONFIG` and waits until it listens.
    pub fn start(config: &Path) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
            .args(["serve", "--config"])
            .arg(config)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        // Keep reading the log so the child never blocks on a full pipe.
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
        Served {
            child,
            addr: addr.parse().unwrap(),
        }
    }

    /// SIGTERM, then waits for a clean exit (the handlers are in place before the
    /// "listening on" line).
    pub fn stop(mut self) {
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success());
        let exit = self.child.wait().unwrap();
        assert!(exit.success(), "ilion did not shut down cleanly: {exit}");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
