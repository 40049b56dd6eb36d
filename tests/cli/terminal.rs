//! One session on a real terminal, under tmux: the banner and the prompt, output, tab
//! completion of a keyword and of a `KS.CF` name, history recalled with the Up arrow, and
//! the history file written at `quit`. tmux must be installed (scripts/test-all.sh does it):
//! without it the test fails.

use super::server::{Server, CLUSTER};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of its own (`-L`), so the test never touches a user's sessions.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("tmux is required for this test (apt install tmux): {e}"));
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("tmux output is UTF-8")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "cli"];
        args.extend_from_slice(keys);
        self.cmd(&args);
    }

    fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p", "-t", "cli"])
    }

    /// Waits until the screen satisfies `done`, returning it.
    fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// True when the last non-blank line of `screen` is `prompt` (tmux drops trailing spaces).
fn prompt_shown(screen: &str, prompt: &str) -> bool {
    screen.trim_end().lines().last() == Some(prompt)
}

/// The lines of `screen` up to the last non-blank one.
fn trimmed(screen: &str) -> String {
    screen
        .trim_end()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_terminal_session_with_completion_and_history() {
    let server = Server::start();
    let home = tempfile::tempdir().expect("home");
    let tmux = Tmux {
        socket: format!("ilion-cli-test-{}", std::process::id()),
    };
    let command = format!(
        "env HOME={} RUST_LOG=warn {} cli --host 127.0.0.1 --port {}",
        home.path().display(),
        env!("CARGO_BIN_EXE_ilion"),
        server.port()
    );
    tmux.cmd(&[
        "new-session",
        "-d",
        "-s",
        "cli",
        "-x",
        "150",
        "-y",
        "50",
        &command,
    ]);
    let screen = tmux.wait_for("the prompt", |s| prompt_shown(s, "ilion>"));
    assert!(
        screen.starts_with(&format!(
            "ilion cli {}: the cassandra-cli of Cassandra 0.6.\n",
            env!("CARGO_PKG_VERSION")
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "Connected to: \"{CLUSTER}\" on 127.0.0.1/{}",
            server.port()
        )),
        "{screen}"
    );

    // A keyword completes with Tab; the keyspace in use shows in the prompt.
    tmux.keys(&["us", "Tab", "Keyspace1", "Enter"]);
    tmux.wait_for("use", |s| prompt_shown(s, "ilion:Keyspace1>"));
    // A unique KS.CF prefix completes in place; an ambiguous one lists the choices.
    tmux.keys(&[
        "set Keyspace1.StdLo",
        "Tab",
        "['k'][42] = 'answer' timestamp 7",
        "Enter",
    ]);
    tmux.wait_for("the set", |s| s.contains("Value inserted."));
    tmux.keys(&["get Keyspace1.Su", "Tab", "Tab"]);
    tmux.wait_for("the choices", |s| {
        s.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words
                == [
                    "Keyspace1.Super1",
                    "Keyspace1.SuperLong",
                    "Keyspace1.SuperTime",
                    "Keyspace1.SuperTimeBytes",
                    "Keyspace1.SuperUtf8",
                ]
        })
    });
    tmux.keys(&["C-u", "get StdLong['k']", "Enter"]);
    tmux.wait_for("the get", |s| s.contains("Returned 1 results."));
    // Up recalls the last statement; Enter runs it again.
    tmux.keys(&["Up", "Enter"]);
    let screen = tmux.wait_for("the repeated get", |s| {
        s.matches("Returned 1 results.").count() == 2
    });
    let want = "ilion:Keyspace1> get StdLong['k']\n\
                => (column=42, value=answer, timestamp=7)\n\
                Returned 1 results.\n\
                ilion:Keyspace1> get StdLong['k']\n\
                => (column=42, value=answer, timestamp=7)\n\
                Returned 1 results.\n\
                ilion:Keyspace1>";
    assert!(trimmed(&screen).ends_with(want), "{screen}");
    // Errors are printed and the session goes on.
    tmux.keys(&["get Nope['k']", "Enter"]);
    tmux.wait_for("the error", |s| s.contains("No such column family: Nope"));

    tmux.keys(&["quit", "Enter"]);
    let history = home.path().join(".ilion_cli_history");
    wait_for_file(&history);
    let saved = std::fs::read_to_string(&history).expect("history");
    for line in ["use Keyspace1", "get StdLong['k']", "get Nope['k']", "quit"] {
        assert!(
            saved.lines().any(|l| l == line),
            "history lacks {line:?}:\n{saved}"
        );
    }
}

fn wait_for_file(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} was never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
