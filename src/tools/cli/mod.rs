//! `ilion cli`: the cassandra-cli of Cassandra 0.6 — its statements, its output lines — plus
//! `use`, `list`, explicit timestamps, names read and printed through each column family's
//! comparator, scripts (`-e`, `-f`, standard input) and, on a terminal, line editing,
//! history and tab completion. It speaks only the Thrift API through [`crate::client`], so
//! it works against a real Cassandra 0.6 node as well. docs/cli.md is the language reference.
//!
//! Files: `lexer` and `parser` turn a line into statements, `format` moves names and values
//! between bytes and text, `session` holds the connection and metadata, `exec` runs a
//! statement, `repl` is the terminal loop, `help` the help text.

mod exec;
mod format;
mod help;
mod lexer;
mod parser;
mod repl;
mod session;

use clap::Args;
use exec::{execute, Flow};
use session::Session;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `ilion cli`'s arguments.
#[derive(Args, Debug, Clone)]
pub struct CliArgs {
    /// Server host name or address
    #[arg(long, default_value = "localhost")]
    pub host: String,
    /// Server Thrift port
    #[arg(long, short = 'p', default_value_t = 9160)]
    pub port: u16,
    /// Use framed transport (as a 0.6 server with ThriftFramedTransport needs)
    #[arg(long)]
    pub framed: bool,
    /// User name for SimpleAuthenticator (logs in to --keyspace, or at `use KS`)
    #[arg(long, short = 'u', requires = "password")]
    pub username: Option<String>,
    /// Password for --username
    #[arg(long, requires = "username")]
    pub password: Option<String>,
    /// Keyspace to use from the start, as `use KS` would
    #[arg(long, short = 'k')]
    pub keyspace: Option<String>,
    /// Run the statements of FILE instead of reading a terminal
    #[arg(long, short = 'f', value_name = "FILE", conflicts_with = "execute")]
    pub file: Option<PathBuf>,
    /// Run STATEMENT (several may be separated by ';'), then exit
    #[arg(long, short = 'e', value_name = "STATEMENT")]
    pub execute: Option<String>,
    /// In a script, go on after a failed statement (the exit status is still 1)
    #[arg(long = "continue")]
    pub keep_going: bool,
}

/// Runs `ilion cli`. Scripts (`-e`, `-f`, or standard input that is not a terminal) print
/// only results, errors on standard error, and exit 1 after the first failed statement (at
/// the end with `--continue`); a terminal gets the interactive loop.
pub fn run(args: CliArgs) -> ExitCode {
    let mut session = Session::new(args.host.clone(), args.port, args.framed);
    session.credentials = args.username.clone().zip(args.password.clone());
    session.keyspace.clone_from(&args.keyspace);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(text) = &args.execute {
        return run_script(&mut session, text.as_bytes(), &mut out, args.keep_going);
    }
    if let Some(path) = &args.file {
        return match std::fs::File::open(path) {
            Ok(file) => run_script(
                &mut session,
                std::io::BufReader::new(file),
                &mut out,
                args.keep_going,
            ),
            Err(e) => {
                eprintln!("ilion cli: {}: {e}", path.display());
                ExitCode::from(2)
            }
        };
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        drop(out);
        repl::run(session)
    } else {
        run_script(&mut session, stdin.lock(), &mut out, args.keep_going)
    }
}

/// Runs the statements of `input`, one line at a time as it arrives.
fn run_script(
    session: &mut Session,
    input: impl BufRead,
    out: &mut dyn Write,
    keep_going: bool,
) -> ExitCode {
    let mut failed = false;
    for (n, line) in input.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("ilion cli: cannot read the script: {e}");
                return ExitCode::from(2);
            }
        };
        match run_line(session, &line, out) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break,
            Err(why) => {
                eprintln!("{why}");
                failed = true;
                if !keep_going {
                    eprintln!("ilion cli: stopped at line {} (--continue goes on)", n + 1);
                    break;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Parses and runs one line; the first failed statement ends it.
fn run_line(session: &mut Session, line: &str, out: &mut dyn Write) -> Result<Flow, String> {
    let statements = parser::parse_line(line).map_err(|e| format!("Syntax error: {e}"))?;
    for stmt in &statements {
        if execute(session, stmt, out)? == Flow::Quit {
            return Ok(Flow::Quit);
        }
    }
    Ok(Flow::Continue)
}
