//! A primary killed in the middle of a write load (docs/redis.md#failover): in batch mode no
//! acknowledged write is lost, clients see errors only between the kill and the shard's
//! recovery, and the same front end serves again afterwards without a restart.

use super::*;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// `redis-cli` against `addr` (`host:port`), its output as text.
fn redis_cli(addr: &str, args: &[&str]) -> String {
    let (host, port) = addr.rsplit_once(':').unwrap();
    let out = Command::new("redis-cli")
        .args(["-h", host, "-p", port])
        .args(args)
        .output()
        .expect("redis-cli runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A field of `INFO` output.
fn info_field(info: &str, name: &str) -> Option<String> {
    info.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|v| v.trim().to_string())
}

/// The primaries of the cluster as `CLUSTER NODES` on `seed` lists them, alive ones only.
fn primaries(seed: &str) -> Vec<String> {
    redis_cli(seed, &["cluster", "nodes"])
        .lines()
        .filter(|l| {
            let flags = l.split(' ').nth(2).unwrap_or("");
            flags.contains("master") && !flags.contains("fail")
        })
        .filter_map(|l| l.split(' ').nth(1))
        .map(|a| a.split('@').next().unwrap().to_string())
        .collect()
}

/// True when every node answering through `seed` sees a healthy cluster in which every
/// primary has a replica with its link up.
fn healthy(seed: &str) -> bool {
    let info = redis_cli(seed, &["cluster", "info"]);
    if info_field(&info, "cluster_state").as_deref() != Some("ok") {
        return false;
    }
    let nodes = redis_cli(seed, &["cluster", "nodes"]);
    let replicas: Vec<&str> = nodes
        .lines()
        .filter(|l| {
            let flags = l.split(' ').nth(2).unwrap_or("");
            flags.contains("slave") && !flags.contains("fail")
        })
        .filter_map(|l| l.split(' ').nth(1))
        .collect();
    replicas.len() >= 3
        && replicas.iter().all(|r| {
            let addr = r.split('@').next().unwrap();
            let info = redis_cli(addr, &["info", "replication"]);
            info_field(&info, "master_link_status").as_deref() == Some("up")
        })
}

fn wait_until(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(Instant::now() < deadline, "{what} within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "needs a Redis Cluster named by ILION_TEST_REDIS; scripts/test-all.sh starts one and runs these"]
fn failover_loses_no_acknowledged_batch_write() {
    require_cluster();
    let seeds = std::env::var(REDIS_ENV).unwrap();
    let seed = seeds
        .split([',', ' '])
        .find(|s| !s.is_empty())
        .unwrap()
        .to_string();
    wait_until("a healthy cluster", Duration::from_secs(60), || {
        healthy(&seed)
    });
    let conf = shared_conf("batch");
    let (node, _dir) = front_end(&conf);

    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(Mutex::new(Vec::<(String, Instant)>::new()));
    let failed = Arc::new(Mutex::new(Vec::<Instant>::new()));
    let start = Instant::now();
    let writers: Vec<_> = (0..3)
        .map(|w| {
            let (stop, acked, failed) = (stop.clone(), acked.clone(), failed.clone());
            let addr = node.addr();
            std::thread::spawn(move || {
                let connect =
                    || Client::connect(addr, WireStyle::ALL[0], Duration::from_secs(60)).unwrap();
                let mut c = connect();
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let key = format!("w{w}-{n}");
                    match insert(&mut c, &key, b"c", key.as_bytes(), 1) {
                        Ok(()) => acked.lock().unwrap().push((key, Instant::now())),
                        Err(e) => {
                            failed.lock().unwrap().push(Instant::now());
                            if matches!(e, thrift::Error::Transport(_) | thrift::Error::Protocol(_))
                            {
                                c = connect();
                            }
                        }
                    }
                    n += 1;
                }
            })
        })
        .collect();

    std::thread::sleep(Duration::from_millis(1500));
    // Kill one primary outright, as a crash would; another one answers questions meanwhile.
    let before = primaries(&seed);
    let victim = before.last().unwrap().clone();
    let survivor = before[0].clone();
    let info = redis_cli(&victim, &["info", "server"]);
    let pid = info_field(&info, "process_id").unwrap();
    let config_file = info_field(&info, "config_file").unwrap();
    let killed = Instant::now();
    assert!(Command::new("kill")
        .args(["-9", &pid])
        .status()
        .unwrap()
        .success());
    // A replica takes over the dead primary's slots…
    wait_until("failover", Duration::from_secs(30), || {
        let info = redis_cli(&survivor, &["cluster", "info"]);
        info_field(&info, "cluster_state").as_deref() == Some("ok")
            && primaries(&survivor).len() == 3
            && !primaries(&survivor).contains(&victim)
    });
    let promoted = Instant::now();
    // …and the dead node comes back as its replica, so batch writes find a replica again.
    assert!(Command::new("redis-server")
        .arg(&config_file)
        .status()
        .unwrap()
        .success());
    wait_until("recovery", Duration::from_secs(60), || healthy(&survivor));
    let recovered = Instant::now();
    std::thread::sleep(Duration::from_secs(3));
    stop.store(true, Ordering::Relaxed);
    for writer in writers {
        writer.join().unwrap();
    }

    let acked = acked.lock().unwrap().clone();
    let failed = failed.lock().unwrap().clone();
    let at = |t: Instant| t.duration_since(start).as_secs_f64();
    eprintln!(
        "failover: killed {victim} at {:.2} s, promoted at {:.2} s, recovered at {:.2} s; \
         {} writes acknowledged, {} failed (first {:?}, last {:?})",
        at(killed),
        at(promoted),
        at(recovered),
        acked.len(),
        failed.len(),
        failed.first().map(|t| at(*t)),
        failed.last().map(|t| at(*t)),
    );
    // Errors only inside the failover window (a write started just before the recovery may
    // still end in an error up to the replication wait later).
    let window_end = recovered + Duration::from_secs(3);
    for t in &failed {
        assert!(
            *t >= killed && *t <= window_end,
            "an error at {:.2} s",
            at(*t)
        );
    }
    // The same front end served again after the failover.
    let after = acked.iter().filter(|(_, t)| *t > recovered).count();
    assert!(after > 0, "no write acknowledged after the recovery");
    // Every acknowledged write is there.
    let mut c = client(&node);
    for (key, _) in &acked {
        assert_eq!(
            read(&mut c, key, b"c").as_deref(),
            Some(key.as_bytes()),
            "acknowledged write {key} lost"
        );
    }
}
