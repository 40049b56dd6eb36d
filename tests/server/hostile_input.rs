//! Hostile input against the real binary (`docs/compatibility.md#e4`): garbage, HTTP and TLS
//! clients, huge frame, string and list lengths, negative sizes, million-deep nesting in a
//! skipped field and truncated messages each close only their own connection, while a
//! well-behaved client keeps working and the server's resident memory does not follow what
//! length fields claim.

use crate::support::process::ServerProcess;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{ColumnPath, ConsistencyLevel};
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

/// Longest a test waits for the server to hang up (the server's read timeout here is 1 s).
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// A versioned CALL header for `name` with seqid 1.
fn call_header(name: &str) -> Vec<u8> {
    let mut out = vec![0x80, 0x01, 0x00, 0x01];
    out.extend_from_slice(&(name.len() as i32).to_be_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&1i32.to_be_bytes());
    out
}

/// True when the server closes the connection (EOF or reset) before `CLOSE_WAIT`.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    stream.set_read_timeout(Some(CLOSE_WAIT)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // a reply to something valid before the bad part
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::BrokenPipe) => {
                return true
            }
            Err(_) => return false,
        }
    }
}

/// Sends `bytes` (ignoring write errors: the server may hang up first) and checks the hang-up.
fn assert_rejected(server: &ServerProcess, what: &str, bytes: &[u8], half_close: bool) {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let _ = stream.write_all(bytes);
    if half_close {
        let _ = stream.shutdown(Shutdown::Write);
    }
    assert!(
        closed_by_server(&mut stream),
        "{what}: connection not closed by the server"
    );
}

fn good_client_works(server: &ServerProcess, round: usize) {
    for style in WireStyle::ALL {
        let mut client = Client::connect(server.addr, style, Duration::from_secs(10)).unwrap();
        assert_eq!(client.describe_version().unwrap(), "2.2.0");
        let path = ColumnPath::new("Standard1".to_string(), None, Some(b"c".to_vec()));
        let key = format!("good-{round}");
        client
            .insert(
                "Keyspace1".into(),
                key.clone(),
                path.clone(),
                b"v".to_vec(),
                1,
                ConsistencyLevel::ONE,
            )
            .unwrap();
        let got = client
            .get("Keyspace1".into(), key, path, ConsistencyLevel::ONE)
            .unwrap();
        assert_eq!(got.column.unwrap().value, b"v");
    }
}

fn hostile_payloads() -> Vec<(&'static str, Vec<u8>, bool)> {
    let mut cases: Vec<(&'static str, Vec<u8>, bool)> = vec![
        (
            "garbage",
            b"\xde\xad\xbe\xef garbage \x00\x01\x02".to_vec(),
            false,
        ),
        (
            "HTTP",
            b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec(),
            false,
        ),
        (
            "TLS hello",
            vec![
                0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03,
            ],
            false,
        ),
        (
            "2 GiB frame",
            vec![0x7f, 0xff, 0xff, 0xff, 0x80, 0x01, 0x00, 0x01],
            false,
        ),
        (
            "negative frame",
            vec![0xff, 0xff, 0xff, 0xf0, 0x80, 0x01, 0x00, 0x01],
            false,
        ),
    ];

    let mut big_string = call_header("get");
    big_string.extend_from_slice(&[11, 0, 1]);
    big_string.extend_from_slice(&0x6000_0000i32.to_be_bytes()); // 1.5 GiB keyspace name
    big_string.extend_from_slice(b"Keyspace1");
    cases.push(("1.5 GiB string", big_string, false));

    let mut big_list = call_header("multiget");
    big_list.extend_from_slice(&[11, 0, 1, 0, 0, 0, 1, b'K', 15, 0, 2, 11]);
    big_list.extend_from_slice(&i32::MAX.to_be_bytes());
    cases.push(("2^31-1 list", big_list, false));

    let mut negative_string = call_header("get");
    negative_string.extend_from_slice(&[11, 0, 1, 0xff, 0xff, 0xff, 0xff]);
    cases.push(("negative string length", negative_string, false));

    let mut negative_list = call_header("multiget");
    negative_list.extend_from_slice(&[15, 0, 2, 11]);
    negative_list.extend_from_slice(&(-5i32).to_be_bytes());
    cases.push(("negative list size", negative_list, false));

    // A field the method does not have (id 99), so Thrift would skip it: nested structs,
    // a million deep.
    let mut deep = call_header("get");
    for _ in 0..1_000_000 {
        deep.extend_from_slice(&[12, 0, 99]);
    }
    cases.push(("1,000,000-deep nesting", deep, false));

    let mut truncated = call_header("describe_version");
    truncated.truncate(truncated.len() - 2);
    cases.push(("truncated, then half-closed", truncated.clone(), true));
    cases.push(("truncated, then silent", truncated, false));
    cases
}

#[test]
fn hostile_connections_close_alone_and_memory_stays_flat() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start_in(dir.path(), "periodic");
    good_client_works(&server, 0);
    let before = server.rss_kib();
    for (round, (what, bytes, half_close)) in hostile_payloads().into_iter().enumerate() {
        assert_rejected(&server, what, &bytes, half_close);
        good_client_works(&server, round + 1);
    }

    // Many connections each claiming a maximal frame but sending only a little of it: the
    // server holds what arrived, not what was claimed (50 × 15 MiB would be 750 MiB).
    let mut open: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            let mut claim = (15 * 1024 * 1024i32).to_be_bytes().to_vec();
            claim.extend_from_slice(&call_header("describe_version"));
            claim.extend_from_slice(&[0u8; 1024]);
            s.write_all(&claim).unwrap();
            s
        })
        .collect();
    good_client_works(&server, 1000);
    let during = server.rss_kib();
    for s in &mut open {
        assert!(
            closed_by_server(s),
            "a stalled 15 MiB frame outlived the read timeout"
        );
    }
    let after = server.rss_kib();
    good_client_works(&server, 1001);
    let growth_mib = (during.max(after).saturating_sub(before)) / 1024;
    assert!(growth_mib < 100, "resident memory grew by {growth_mib} MiB (before {before} KiB, during {during}, after {after})");
}
