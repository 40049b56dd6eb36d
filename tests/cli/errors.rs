//! What a failed statement prints and does to a script: the declared exception's `why` (or
//! the cli's own message) on standard error, exit status 1, the rest of the script not run —
//! unless `--continue` — and answers that are not failures (a missing column) on standard
//! output with status 0.

use super::run::cli;
use super::server::{Server, CLUSTER};

/// (statement, what standard error says)
const FAILURES: [(&str, &str); 11] = [
    // Declared InvalidRequestExceptions: their `why`, as 0.6's cli printed them.
    (
        "set Keyspace1.StdTime['k'][0x01] = 'v'",
        "TimeUUID should be 16 or 0 bytes (1)",
    ),
    (
        "set Keyspace1.Super1['k']['c'] = 'v'",
        "supercolumn parameter is not optional for super CF Super1",
    ),
    (
        "get Keyspace1.Standard1['k']['a']['b']",
        "supercolumn parameter is invalid for standard CF Standard1",
    ),
    (
        "set Keyspace1.Standard1['']['c'] = 'v'",
        "Key may not be empty",
    ),
    // 0.6's own messages.
    (
        "describe keyspace Nope",
        "Keyspace Nope could not be found.",
    ),
    (
        "get Nope.Standard1['k']",
        "Keyspace Nope could not be found.",
    ),
    ("get Keyspace1.Nope['k']", "No such column family: Nope"),
    (
        "set Keyspace1.Standard1['k']['c'] = 'v'; set Keyspace1.Standard1['k']['c']",
        "Syntax error: expected '=' at the end of the statement",
    ),
    // ilion's.
    (
        "get Standard1['k']",
        "No keyspace: write KEYSPACE.COLUMN_FAMILY, or 'use KEYSPACE' first.",
    ),
    (
        "set Keyspace1.StdLong['k']['abc'] = 'v'",
        "'abc' is not a LongType name: write a 64-bit integer such as 42",
    ),
    (
        "count Keyspace1.Standard1['k']['c']",
        "count takes a row, or a super column of a Super column family.",
    ),
];

#[test]
fn each_failure_prints_its_message_and_stops_the_script() {
    let server = Server::start();
    for (statement, why) in FAILURES {
        let ran = cli(&server, &[], &format!("{statement}\nshow api version\n"));
        assert_eq!(ran.code, 1, "{statement}: {ran:?}");
        assert_eq!(
            ran.stderr,
            format!("{why}\nilion cli: stopped at line 1 (--continue goes on)\n"),
            "{statement}"
        );
        assert_eq!(
            ran.stdout, "",
            "{statement}: nothing after the failure runs"
        );
    }
}

#[test]
fn continue_runs_the_rest_and_still_fails() {
    let server = Server::start();
    let ran = cli(
        &server,
        &["--continue"],
        "get Keyspace1.Nope['k']\nshow api version\nfrobnicate\nshow cluster name\n",
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.stdout, format!("2.2.0\n{CLUSTER}\n"));
    assert_eq!(
        ran.stderr,
        "No such column family: Nope\nSyntax error: expected a statement (type 'help' or '?' \
         for the list) at position 1, found 'frobnicate'\n"
    );
}

#[test]
fn a_missing_column_is_an_answer_not_a_failure() {
    let server = Server::start();
    let ran = cli(
        &server,
        &[],
        "get Keyspace1.Standard1['nobody']['c']\nget Keyspace1.Standard1['nobody']\n",
    );
    assert_eq!(ran.stdout, "Value was not found\nReturned 0 results.\n");
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""));
}

#[test]
fn no_server_is_a_failure_that_names_the_address() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
        .to_string();
    let ran = super::run::run(
        &[
            "cli",
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "-e",
            "show api version",
        ],
        "",
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.stdout, "");
    let first = ran.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!(
            "Exception connecting to 127.0.0.1/{port} - Connection refused"
        )),
        "{first}"
    );
}
