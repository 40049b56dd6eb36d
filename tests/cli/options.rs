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

/// The first bytes `ilion cli` (with `args`) sends to a listener that answers nothing.
fn first_bytes_sent(args: &[&str]) -> [u8; 6] {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("addr").port().to_string();
    let reader = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().expect("accept");
        let mut head = [0u8; 6];
        std::io::Read::read_exact(&mut conn, &mut head).expect("read the first bytes");
        head
        // Dropping the connection makes the cli's call fail.
    });
    let mut all = vec!["cli", "--host", "127.0.0.1", "--port", &port];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-e", "show api version"]);
    let ran = run(&all, "");
    assert_eq!(ran.code, 1, "nothing answered: {ran:?}");
    reader.join().expect("reader")
}

#[test]
fn framed_sends_length_prefixed_frames() {
    // Unframed: the message starts with the versioned header 0x8001.
    let plain = first_bytes_sent(&[]);
    assert_eq!(plain[..2], [0x80, 0x01], "{plain:02x?}");
    // Framed: a 4-byte length comes first, then the same header.
    let framed = first_bytes_sent(&["--framed"]);
    let len = u32::from_be_bytes([framed[0], framed[1], framed[2], framed[3]]);
    assert!(
        (12..1000).contains(&len),
        "frame length {len}: {framed:02x?}"
    );
    assert_eq!(framed[4..], [0x80, 0x01], "{framed:02x?}");
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
