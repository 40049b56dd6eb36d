//! The command line: `-e`, `-f`, `--keyspace`, `--framed`, `--username`/`--password`, a
//! `connect` statement, `quit` in a script, and that piped input prints results only (no
//! banner, no prompt).

use super::run::{cli, run};
use super::server::{Auth, Server, CLUSTER};

#[test]
fn execute_runs_statements_separated_by_semicolons() {
    let server = Server::start();
    let out = cli(
        &server,
        &["-e", "set Keyspace1.Standard2['k']['c'] = 'v' timestamp 3; get Keyspace1.Standard2['k']['c'];"],
        "show cluster name\n",
    )
    .ok();
    // -e replaces standard input: the piped statement is not run.
    assert_eq!(
        out,
        "Value inserted.\n=> (column=c, value=v, timestamp=3)\n"
    );
}

#[test]
fn file_runs_a_script_and_quit_ends_it() {
    let server = Server::start();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("script.txt");
    std::fs::write(
        &path,
        "-- a 0.6-style script\n\
         use Keyspace1\n\
         \n\
         set Standard2['k']['c'] = 'v' timestamp 3\n\
         count Standard2['k']\n\
         quit\n\
         show cluster name\n",
    )
    .expect("write script");
    let out = cli(&server, &["-f", path.to_str().unwrap()], "").ok();
    assert_eq!(
        out,
        "Using keyspace Keyspace1.\nValue inserted.\n1 columns\n"
    );

    let missing = dir.path().join("missing.txt");
    let ran = cli(&server, &["-f", missing.to_str().unwrap()], "");
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .starts_with(&format!("ilion cli: {}: ", missing.display())),
        "{ran:?}"
    );
}

#[test]
fn keyspace_option_and_framed_transport() {
    let server = Server::start();
    for framed in [false, true] {
        let mut args = vec!["--keyspace", "Keyspace1"];
        if framed {
            args.push("--framed");
        }
        let out = cli(
            &server,
            &args,
            "set Standard2['f']['c'] = 'v' timestamp 8\nget Standard2['f']\n",
        )
        .ok();
        assert_eq!(
            out, "Value inserted.\n=> (column=c, value=v, timestamp=8)\nReturned 1 results.\n",
            "framed={framed}"
        );
    }
}

#[test]
fn connect_statement_switches_servers() {
    let a = Server::start();
    let b = Server::start();
    let script = format!(
        "set Keyspace1.Standard2['k']['c'] = 'on a' timestamp 1\n\
         connect 127.0.0.1/{}\n\
         get Keyspace1.Standard2['k']\n",
        b.port()
    );
    let out = cli(&a, &[], &script).ok();
    assert_eq!(
        out,
        format!(
            "Value inserted.\nConnected to: \"{CLUSTER}\" on 127.0.0.1/{}\nReturned 0 results.\n",
            b.port()
        )
    );
}

#[test]
fn login_with_username_and_password() {
    let server = Server::start_with(Auth::Simple);
    let read =
        "set Keyspace1.Standard2['k']['c'] = 'v' timestamp 1\nget Keyspace1.Standard2['k']['c']\n";
    let out = cli(
        &server,
        &[
            "--username",
            "jsmith",
            "--password",
            "havebadpass",
            "--keyspace",
            "Keyspace1",
        ],
        read,
    )
    .ok();
    assert_eq!(
        out,
        "Value inserted.\n=> (column=c, value=v, timestamp=1)\n"
    );

    // Credentials without --keyspace log in at `use`.
    let out = cli(
        &server,
        &["-u", "jsmith", "--password", "havebadpass"],
        &format!("use Keyspace1\n{read}"),
    )
    .ok();
    assert_eq!(out, "Authenticated to keyspace: Keyspace1\nValue inserted.\n=> (column=c, value=v, timestamp=1)\n");

    // Or `use KS USER 'PASSWORD'`.
    let out = cli(
        &server,
        &[],
        &format!("use Keyspace1 jsmith 'havebadpass'\n{read}"),
    )
    .ok();
    assert_eq!(out, "Authenticated to keyspace: Keyspace1\nValue inserted.\n=> (column=c, value=v, timestamp=1)\n");

    let wrong = cli(
        &server,
        &["-u", "jsmith", "--password", "nope", "-k", "Keyspace1"],
        read,
    );
    assert_eq!(wrong.code, 1, "{wrong:?}");
    assert_eq!(wrong.stdout, "");
    assert!(
        wrong.stderr.starts_with("Authentication failed: "),
        "{wrong:?}"
    );

    let anonymous = cli(&server, &[], read);
    assert_eq!(anonymous.code, 1, "{anonymous:?}");
    assert!(
        anonymous.stderr.starts_with("Login is required"),
        "{anonymous:?}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let ran = run(&["cli", "--username", "jsmith"], "");
    assert_eq!(ran.code, 2, "--username needs --password: {ran:?}");
    let ran = run(&["cli", "-e", "quit", "-f", "x"], "");
    assert_eq!(ran.code, 2, "-e and -f conflict: {ran:?}");
}
