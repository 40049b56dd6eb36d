//! Server behaviour around connections (`docs/compatibility.md#e9`): the connection limit, the
//! idle timeout, pipelined requests answered in order, and the binary's command line (help,
//! config errors naming the element, exit codes).

use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(10);

/// The binary tests' config with `<element>value</element>` set, written into `dir`.
fn config_with(dir: &std::path::Path, element: &str, value: &str) -> std::path::PathBuf {
    crate::support::process::binary_conf("periodic")
        .set(element, value)
        .write(dir)
}

fn closed(stream: &mut TcpStream) -> bool {
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    let mut buf = [0u8; 64];
    match stream.read(&mut buf) {
        Ok(0) => true,
        Err(e) => matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::BrokenPipe),
        Ok(_) => false,
    }
}

#[test]
fn connections_over_the_limit_are_closed_and_others_keep_working() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with(dir.path(), "ThriftMaxConnections", "2");
    let server = crate::support::process::ServerProcess::start(&config);
    let mut first = Client::connect(server.addr, WireStyle::ALL[0], TIMEOUT).unwrap();
    let mut second = Client::connect(server.addr, WireStyle::ALL[1], TIMEOUT).unwrap();
    assert_eq!(first.describe_version().unwrap(), "2.2.0");
    assert_eq!(second.describe_version().unwrap(), "2.2.0");
    let mut third = TcpStream::connect(server.addr).unwrap();
    assert!(
        closed(&mut third),
        "a third connection was served over a limit of 2"
    );
    assert_eq!(first.describe_cluster_name().unwrap(), "Test Cluster");
    drop(second);
    // A freed slot is available again (the server notices the close asynchronously).
    let mut served = false;
    for _ in 0..50 {
        let mut again = Client::connect(server.addr, WireStyle::ALL[2], TIMEOUT).unwrap();
        if again.describe_version().is_ok() {
            served = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(served, "the slot of a closed connection was never reused");
}

#[test]
fn idle_connections_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let config = config_with(dir.path(), "ThriftIdleTimeoutInSeconds", "1");
    let server = crate::support::process::ServerProcess::start(&config);
    let mut idle = TcpStream::connect(server.addr).unwrap();
    assert!(
        closed(&mut idle),
        "an idle connection outlived the idle timeout"
    );
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let server = crate::support::process::ServerProcess::start_in(dir.path(), "periodic");
    // Ten unframed strict describe_version calls with seqids 1..=10, in one write.
    let mut burst = Vec::new();
    for seq in 1..=10i32 {
        burst.extend_from_slice(&[0x80, 0x01, 0x00, 0x01, 0, 0, 0, 16]);
        burst.extend_from_slice(b"describe_version");
        burst.extend_from_slice(&seq.to_be_bytes());
        burst.push(0); // empty args struct
    }
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.write_all(&burst).unwrap();
    // Each reply: header (4) + name (4+16) + seqid (4) + result struct {0: "2.2.0"} (1+2+4+5+1).
    let reply_len = 4 + 20 + 4 + 13;
    let mut replies = vec![0u8; reply_len * 10];
    stream.read_exact(&mut replies).unwrap();
    for (i, reply) in replies.chunks(reply_len).enumerate() {
        assert_eq!(
            &reply[..4],
            &[0x80, 0x01, 0x00, 0x02],
            "reply {i} is a versioned REPLY"
        );
        assert_eq!(
            &reply[24..28],
            &(i as i32 + 1).to_be_bytes(),
            "reply {i} out of order"
        );
        assert_eq!(&reply[35..40], b"2.2.0");
    }
}

#[test]
fn help_and_config_errors() {
    let help = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success());
    for needle in ["serve", "--config", "RUST_LOG", "conf/storage-conf.xml"] {
        assert!(
            text.contains(needle),
            "--help does not mention {needle}:\n{text}"
        );
    }

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("storage-conf.xml");
    std::fs::write(
        &bad,
        "<Storage><Partitioner>org.example.Nope</Partitioner></Storage>",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(["serve", "--config"])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a config error exits with 2: {err}"
    );
    assert!(
        err.contains("Partitioner"),
        "the error names the element: {err}"
    );

    let missing = Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(["--config", "/nonexistent/conf.xml"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/conf.xml"));
}
