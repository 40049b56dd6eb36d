//! Several ilion front ends over one Redis Cluster (docs/redis.md), with real servers on
//! real sockets and a real cluster: `ILION_TEST_REDIS` lists its nodes (as
//! `scripts/redis-cluster.sh up` prints them); without it every test here returns at once.
//! `failover` kills a primary, so run this suite alone and one test at a time
//! (`-- --test-threads=1`), as scripts/test-all.sh does.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "../support/mod.rs"]
mod support;

mod failover;

use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::config::Config;
use ilion::protocol::{ConsistencyLevel, TokenRange};
use std::time::Duration;
use support::conf::{TestConf, REDIS_CLUSTER, REDIS_ENV};
use support::node::InProcessNode;
use support::outcome::{outcome, Outcome};
use support::requests::path;

/// The keyspace of the test configuration.
const KS: &str = "Keyspace1";

/// These tests are `#[ignore]`d in a plain `cargo test`; run with `--include-ignored`, they
/// fail rather than pass vacuously when no cluster is named.
fn require_cluster() {
    assert!(
        std::env::var(REDIS_ENV).is_ok(),
        "{REDIS_ENV} must list the test cluster's nodes (scripts/redis-cluster.sh up prints them)"
    );
}

/// One test configuration (one namespace) on redis-cluster, whatever ILION_TEST_ENGINE says.
fn shared_conf(sync: &str) -> TestConf {
    std::env::set_var(support::conf::ENGINE_ENV, REDIS_CLUSTER);
    let interval = if sync == "batch" { "1" } else { "1000" };
    TestConf::new().commit_log(sync, interval)
}

/// A front end on `conf`, in a directory of its own.
fn front_end(conf: &TestConf) -> (InProcessNode, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    conf.write(dir.path());
    let config = Config::from_xml(conf.text(), dir.path(), dir.path()).unwrap();
    (InProcessNode::start(config), dir)
}

fn client(node: &InProcessNode) -> Client {
    Client::connect(node.addr(), WireStyle::ALL[0], Duration::from_secs(30)).unwrap()
}

fn insert(c: &mut Client, key: &str, column: &[u8], value: &[u8], ts: i64) -> thrift::Result<()> {
    c.insert(
        KS.into(),
        key.into(),
        path("Standard1", None, Some(column)),
        value.to_vec(),
        ts,
        ConsistencyLevel::ONE,
    )
}

fn read(c: &mut Client, key: &str, column: &[u8]) -> Option<Vec<u8>> {
    match c.get(
        KS.into(),
        key.into(),
        path("Standard1", None, Some(column)),
        ConsistencyLevel::ONE,
    ) {
        Ok(cosc) => Some(cosc.column.unwrap().value),
        Err(e) => match outcome(Err::<(), _>(e)) {
            Outcome::NotFound => None,
            other => panic!("get {key}: {other:?}"),
        },
    }
}

/// Two and three front ends on one namespace: what one writes, every other reads, and a
/// later write through another front end wins by timestamp as on one node.
#[test]
#[ignore = "needs a Redis Cluster named by ILION_TEST_REDIS; scripts/test-all.sh starts one and runs these"]
fn a_write_through_one_front_end_is_read_through_the_others() {
    require_cluster();
    let conf = shared_conf("batch");
    let nodes: Vec<_> = (0..3).map(|_| front_end(&conf)).collect();
    let mut clients: Vec<Client> = nodes.iter().map(|(n, _)| client(n)).collect();
    for count in [2, 3] {
        for writer in 0..count {
            let key = format!("k{count}-{writer}");
            insert(&mut clients[writer], &key, b"c", b"first", 1).unwrap();
            for (reader, c) in clients.iter_mut().enumerate().take(count) {
                assert_eq!(
                    read(c, &key, b"c").as_deref(),
                    Some(&b"first"[..]),
                    "written through {writer}, read through {reader} of {count}"
                );
            }
            let next = (writer + 1) % count;
            insert(&mut clients[next], &key, b"c", b"second", 2).unwrap();
            insert(&mut clients[writer], &key, b"c", b"stale", 1).unwrap();
            assert_eq!(
                read(&mut clients[writer], &key, b"c").as_deref(),
                Some(&b"second"[..])
            );
        }
    }
}

/// Concurrent writers to one row through three front ends: every column arrives (the row
/// lease keeps each read-modify-write of the row's chunk whole).
#[test]
#[ignore = "needs a Redis Cluster named by ILION_TEST_REDIS; scripts/test-all.sh starts one and runs these"]
fn concurrent_writes_to_one_row_through_three_front_ends_all_arrive() {
    require_cluster();
    let conf = shared_conf("periodic");
    let nodes: Vec<_> = (0..3).map(|_| front_end(&conf)).collect();
    const EACH: usize = 40;
    std::thread::scope(|scope| {
        for (i, (node, _)) in nodes.iter().enumerate() {
            scope.spawn(move || {
                let mut c = client(node);
                for n in 0..EACH {
                    let column = format!("c{i}-{n:03}");
                    insert(&mut c, "hot", column.as_bytes(), b"v", 1).unwrap();
                }
            });
        }
    });
    let mut c = client(&nodes[0].0);
    let count = c
        .get_count(
            KS.into(),
            "hot".into(),
            support::requests::parent("Standard1", None),
            ConsistencyLevel::ONE,
        )
        .unwrap();
    assert_eq!(count, (3 * EACH) as i32);
}

/// `describe_ring` lists every live front end, each with an even share of the ring, and
/// drops a front end once it has shut down.
#[test]
#[ignore = "needs a Redis Cluster named by ILION_TEST_REDIS; scripts/test-all.sh starts one and runs these"]
fn describe_ring_lists_the_live_front_ends() {
    require_cluster();
    let conf = shared_conf("periodic").partitioner("RandomPartitioner");
    let mut nodes: Vec<_> = (0..3).map(|_| front_end(&conf)).collect();
    let mut endpoints: Vec<String> = nodes
        .iter()
        .map(|(n, _)| format!("127.0.0.1:{}", n.addr().port()))
        .collect();
    endpoints.sort();
    let step = (1u128 << 127) / 3;
    let tokens: Vec<String> = (0..3u128).map(|i| (i * step).to_string()).collect();
    let want: Vec<TokenRange> = (0..3)
        .map(|i| {
            TokenRange::new(
                tokens[(i + 2) % 3].clone(),
                tokens[i].clone(),
                vec![endpoints[i].clone()],
            )
        })
        .collect();
    for (node, _) in &nodes {
        assert_eq!(client(node).describe_ring(KS.into()).unwrap(), want);
    }
    let (gone, _dir) = nodes.pop().unwrap();
    let gone_endpoint = format!("127.0.0.1:{}", gone.addr().port());
    drop(gone);
    let ring = client(&nodes[0].0).describe_ring(KS.into()).unwrap();
    assert_eq!(ring.len(), 2);
    assert!(ring
        .iter()
        .all(|r| r.endpoints != vec![gone_endpoint.clone()]));
}
