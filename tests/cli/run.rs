//! Running `ilion cli` as a child process: arguments, a script on standard input, and what
//! came back (standard output, standard error, exit status).

use super::server::Server;
use std::io::Write;
use std::process::{Command, Stdio};

/// What one run of `ilion cli` printed and returned.
#[derive(Debug)]
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Ran {
    /// Asserts the run succeeded and printed nothing on standard error; returns stdout.
    pub fn ok(self) -> String {
        assert_eq!(
            (self.code, self.stderr.as_str()),
            (0, ""),
            "cli failed; stdout:\n{}",
            self.stdout
        );
        self.stdout
    }
}

/// Runs `ilion cli --port PORT ARGS…` with `stdin` piped in.
pub fn cli(server: &Server, args: &[&str], stdin: &str) -> Ran {
    let port = server.port().to_string();
    let mut all = vec!["cli", "--host", "127.0.0.1", "--port", &port];
    all.extend_from_slice(args);
    run(&all, stdin)
}

/// Runs `ilion ARGS…` with `stdin` piped in.
pub fn run(args: &[&str], stdin: &str) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ilion cli");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("write the script");
    drop(input);
    let out = child.wait_with_output().expect("wait for ilion cli");
    Ran {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        code: out.status.code().expect("exit status"),
    }
}

/// Runs a script piped to standard input and returns its output, asserting success.
pub fn script(server: &Server, lines: &str) -> String {
    cli(server, &[], lines).ok()
}
