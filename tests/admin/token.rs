//! `<AdminToken>`: every request must carry it — as a bearer token, or in the query for a
//! browser — or gets 401; the tool sends it.

use crate::harness::{http, serial, test_conf, Server};

#[test]
fn with_a_token_every_request_must_carry_it() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start_with(dir.path(), test_conf().set("AdminToken", "s3cret+/="));
    let base = format!("http://{}", server.admin());
    for path in ["/", "/metrics", "/api/info", "/api/nowhere"] {
        let (status, body) = http("GET", &format!("{base}{path}"), None);
        assert_eq!(status, 401, "{path}: {body}");
        assert!(body.contains("needs its token"), "{body}");
        let (status, _) = http("GET", &format!("{base}{path}"), Some("wrong"));
        assert_eq!(status, 401, "{path} with a wrong token");
    }
    let (status, _) = http("POST", &format!("{base}/api/drain"), None);
    assert_eq!(status, 401, "actions too");
    let (status, body) = http("GET", &format!("{base}/api/info"), Some("s3cret+/="));
    assert_eq!(status, 200, "{body}");
    // In the query the token is percent-encoded, as the browser sends it.
    let (status, body) = http("GET", &format!("{base}/?token=s3cret%2B%2F%3D"), None);
    assert_eq!(status, 200);
    assert!(body.contains("<title>ilion status</title>"));
    let (status, _) = http("GET", &format!("{base}/api/nowhere"), Some("s3cret+/="));
    assert_eq!(status, 404);

    // The tool sends --token; without it the node's refusal is shown.
    assert!(server.tool_ok(&["version"]).contains("ReleaseVersion: "));
    let port = server.admin().port().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ilion"))
        .args(["tool", "--host", "127.0.0.1", "--port", &port, "info"])
        .output()
        .expect("run ilion tool");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("needs its token") && err.contains("HTTP 401"),
        "{err}"
    );
}

#[test]
fn without_a_token_no_header_is_needed() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(dir.path());
    let (status, body) = http(
        "GET",
        &format!("http://{}/api/version", server.admin()),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"api_version\":\"2.2.0\""), "{body}");
    // An action without a body takes its defaults: flush everything.
    let (status, body) = http(
        "POST",
        &format!("http://{}/api/flush", server.admin()),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("durable"), "{body}");
}
