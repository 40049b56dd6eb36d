//! The status page in a real browser: Debian's Chromium, headless, loads `/`, runs its
//! script against the live node and the DOM it leaves behind is read back. The figures it
//! shows must be the ones `/metrics` exports. Chromium is required (scripts/test-all.sh
//! installs it): without it this test fails rather than skips.

use crate::harness::{insert_rows, sample_value, serial, test_conf, Server, CLUSTER, KS};
use std::process::Command;
use std::time::{Duration, Instant};

/// The DOM of `url` after its scripts ran, from `chromium --headless --dump-dom`.
fn rendered_dom(url: &str) -> String {
    let profile = tempfile::tempdir().expect("profile dir");
    let out = Command::new("timeout")
        .arg("120")
        .arg("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("chromium must be installed (scripts/test-all.sh installs it)");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 DOM")
}

/// The text of the element with `id` in `dom`.
fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page:\n{dom}"));
    let rest = &dom[start..];
    let open = rest.find('>').expect("tag end") + 1;
    let close = rest[open..].find('<').expect("text end");
    &rest[open..open + close]
}

/// A non-negative number from `/metrics`.
fn count(metrics: &str, name: &str, labels: &[(&str, &str)]) -> u64 {
    sample_value(metrics, name, labels).unwrap_or(0.0) as u64
}

#[test]
fn the_status_page_renders_the_figures_of_metrics() {
    let _turn = serial();
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start_with(dir.path(), test_conf().set("AdminToken", "pagetoken"));
    let mut c = server.client();
    insert_rows(&mut c, "page", 9);
    drop(c);

    // Wait for two samples of the chart series (one every two seconds).
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, body) = server.get("/api/status");
        assert_eq!(status, 200, "{body}");
        let s: serde_json::Value = serde_json::from_str(&body).expect("status JSON");
        if s["series"].as_array().is_some_and(|p| !p.is_empty()) {
            break;
        }
        assert!(Instant::now() < deadline, "no chart points: {s}");
        std::thread::sleep(Duration::from_millis(300));
    }

    let (_, metrics) = server.get("/metrics");
    let url = format!("http://{}/?token=pagetoken", server.admin());
    let dom = rendered_dom(&url);
    assert!(
        dom.contains("data-loaded=\"1\""),
        "the script rendered a status:\n{dom}"
    );
    assert_eq!(text_of(&dom, "cluster"), CLUSTER);
    assert_eq!(text_of(&dom, "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(text_of(&dom, "error"), "", "the page reached the node");

    let inserts = count(&metrics, "ilion_requests_total", &[("method", "insert")]);
    assert!(inserts >= 9);
    assert_eq!(text_of(&dom, "req-insert"), inserts.to_string());
    let cf = [("keyspace", KS), ("cf", "Standard1")];
    let rows = count(&metrics, "ilion_cf_live_rows", &cf);
    assert_eq!(rows, 9);
    assert_eq!(
        text_of(&dom, "cf-Keyspace1-Standard1-rows"),
        rows.to_string()
    );
    let writes = count(&metrics, "ilion_cf_writes_total", &cf);
    assert_eq!(
        text_of(&dom, "cf-Keyspace1-Standard1-writes"),
        writes.to_string()
    );
    let total: u64 = metrics
        .lines()
        .filter(|l| l.starts_with("ilion_requests_total{"))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<u64>().ok())
        .sum();
    // The page's own polls are HTTP, not Thrift calls: the total cannot have moved.
    assert_eq!(text_of(&dom, "requests-total"), total.to_string());

    // Both charts were drawn from the series.
    for chart in ["chart-ops", "chart-p99"] {
        let at = dom.find(&format!("id=\"{chart}\"")).expect("chart");
        let svg = &dom[at..at + dom[at..].find("</svg>").expect("svg end")];
        let points = svg.split("<polyline points=\"").nth(1).expect("a polyline");
        assert!(
            points.split('"').next().is_some_and(|p| p.contains(',')),
            "{svg}"
        );
        assert!(!svg.contains("data-points=\"0\""), "{svg}");
    }
}
