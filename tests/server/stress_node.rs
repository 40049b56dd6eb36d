//! `ilion stress` against a real node (in-process, port 0, a temporary data directory), and
//! the `ilion stress` binary itself. The reads after the inserts must find every key they
//! pick, which shows the inserts really stored the rows. Counts only, never timings.

use clap::Parser;
use ilion::config::Config;
use ilion::node::Node;
use ilion::tools::stress::noop::{self, NoopShape};
use ilion::tools::stress::{stress, StressArgs, Summary};
use std::path::Path;
use std::process::Command;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: StressArgs,
}

async fn run(port: u16, extra: &[&str]) -> (String, Summary) {
    let port = port.to_string();
    let base = ["stress", "-h", "127.0.0.1", "-p", &port, "--seed", "5"];
    let args = Cli::try_parse_from(base.iter().chain(extra)).unwrap().args;
    let mut out = Vec::new();
    let summary = stress(&args, &mut out, false).await.unwrap();
    (String::from_utf8(out).unwrap(), summary)
}

fn config(dir: &Path) -> Config {
    let conf = crate::support::process::binary_conf("batch");
    Config::from_xml(conf.text(), dir, dir).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insert_then_read_everything_back_in_both_framings() {
    let dir = tempfile::tempdir().unwrap();
    let node = Node::start(config(dir.path())).await.unwrap();
    let port = node.local_addr().port();
    for framing in [&[][..], &["--framed"][..]] {
        let with = |ops: &[&'static str]| -> Vec<&'static str> {
            ops.iter().chain(framing).copied().collect()
        };
        let (text, s) = run(port, &with(&["-n", "500", "-t", "4", "-o", "insert"])).await;
        assert_eq!((s.operations, s.errors), (500, 0), "{text}");
        let (text, s) = run(port, &with(&["-n", "500", "-t", "4", "-o", "read"])).await;
        assert_eq!(
            (s.operations, s.errors, s.empty_reads),
            (500, 0, 0),
            "{text}"
        );
        let (text, s) = run(port, &with(&["-n", "500", "-t", "4", "-o", "read", "-r"])).await;
        assert_eq!(
            (s.operations, s.errors, s.empty_reads),
            (500, 0, 0),
            "{text}"
        );
        let rs = [
            "-n",
            "500",
            "-t",
            "2",
            "-o",
            "rangeslice",
            "-g",
            "20",
            "--duration",
            "0.2",
        ];
        let (text, s) = run(port, &with(&rs)).await;
        assert!(s.operations > 0, "{text}");
        assert_eq!((s.errors, s.empty_reads), (0, 0), "{text}");
        let (text, s) = run(
            port,
            &with(&["-n", "100", "-t", "3", "-o", "insert-super", "-u", "2"]),
        )
        .await;
        assert_eq!((s.operations, s.errors), (100, 0), "{text}");
        let (text, s) = run(port, &with(&["-n", "300", "-t", "3", "-o", "mixed"])).await;
        assert_eq!(
            (s.operations, s.errors, s.empty_reads),
            (300, 0, 0),
            "{text}"
        );
    }
    node.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn super_rows_read_back_and_a_store_grows_in_steps() {
    let dir = tempfile::tempdir().unwrap();
    let node = Node::start(config(dir.path())).await.unwrap();
    let port = node.local_addr().port();
    let (text, s) = run(
        port,
        &["-n", "200", "-t", "3", "-o", "insert-super", "-u", "2"],
    )
    .await;
    assert_eq!((s.operations, s.errors), (200, 0), "{text}");
    let (text, s) = run(
        port,
        &["-n", "200", "-t", "3", "-o", "read-super", "-u", "2"],
    )
    .await;
    // Every row read holds both super columns.
    assert_eq!(
        (s.operations, s.errors, s.empty_reads, s.items),
        (200, 0, 0, 400),
        "{text}"
    );
    // Grow Standard1 to 300 keys, then to 700 from key 300 on, every key three digits wide.
    let (text, s) = run(port, &["-n", "300", "-t", "3", "--key-width", "3"]).await;
    assert_eq!((s.operations, s.errors), (300, 0), "{text}");
    let step = [
        "-n",
        "700",
        "-t",
        "3",
        "--first-key",
        "300",
        "--key-width",
        "3",
    ];
    let (text, s) = run(port, &step).await;
    assert_eq!((s.operations, s.errors), (400, 0), "{text}");
    // A fixed number of uniform reads over all 700 keys finds every one, 5 columns each.
    let reads = ["-n", "700", "-t", "3", "-o", "read", "-r", "--ops", "500"];
    let (text, s) = run(port, &reads).await;
    assert_eq!(
        (s.operations, s.errors, s.empty_reads, s.items),
        (500, 0, 0, 2500),
        "{text}"
    );
    // Keys past the grown store are not there: the reads above could have failed.
    let beyond = ["-n", "900", "-t", "3", "-o", "read", "--ops", "300", "-r"];
    let (text, s) = run(port, &beyond).await;
    assert!(s.empty_reads > 0, "{text}");
    node.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_are_counted_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let node = Node::start(config(dir.path())).await.unwrap();
    let port = node.local_addr().port();
    // No such column family: every call is an InvalidRequestException.
    let (text, s) = run(port, &["-n", "40", "-t", "2", "--cf", "Nope"]).await;
    assert_eq!((s.operations, s.errors), (40, 40), "{text}");
    node.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_runs_a_stress_and_exits_zero() {
    let shape = NoopShape {
        columns: 5,
        value_size: 34,
        rows: 1000,
    };
    let server = noop::start("127.0.0.1:0".parse().unwrap(), shape)
        .await
        .unwrap();
    let port = server.local_addr().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_ilion"))
            .args([
                "stress",
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-n",
                "300",
                "-t",
                "3",
            ])
            .args(["-o", "read", "--json"])
            .arg(&json)
            .output()
            .map(|o| (o, std::fs::read_to_string(&json)))
    })
    .await
    .unwrap()
    .unwrap();
    let (output, json) = out;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.starts_with("total,interval_op_rate,avg_latency,elapsed_time\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\n300,"), "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&json.unwrap()).unwrap();
    assert_eq!(v["operations"], 300);
    server.shutdown(std::time::Duration::from_secs(5)).await;
}
