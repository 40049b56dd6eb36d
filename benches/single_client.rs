//! One Rust client against an in-process node (README.md, *Benchmarks*): insert and get calls
//! per second over each wire style, one call in flight.
//!
//! `cargo bench --bench single_client [-- seconds-per-run]`

use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::config::Config;
use ilion::node::Node;
use ilion::protocol::{ColumnPath, ConsistencyLevel};
use std::time::{Duration, Instant};

/// A failed benchmark run: any error ends it with a message (`main` returns it).
type BenchResult<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

const CONFIG: &str = r#"<Storage>
  <ClusterName>bench</ClusterName>
  <Keyspaces><Keyspace Name="Keyspace1">
    <ColumnFamily Name="Standard1"/>
    <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
    <ReplicationFactor>1</ReplicationFactor>
    <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
  </Keyspace></Keyspaces>
  <Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>
  <CommitLogDirectory>DIR/commitlog</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>DIR/data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>DIR/saved_caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <ThriftAddress>127.0.0.1</ThriftAddress>
  <ThriftPort>0</ThriftPort>
  <CommitLogSync>periodic</CommitLogSync>
  <CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>
</Storage>"#;

fn rate(seconds: f64, mut call: impl FnMut(usize) -> BenchResult<()>) -> BenchResult<f64> {
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed().as_secs_f64() < seconds {
        call(n)?;
        n += 1;
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

fn main() -> BenchResult<()> {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3.0);
    let dir = tempfile::tempdir()?;
    let text = CONFIG.replace("DIR", &dir.path().display().to_string());
    let config = Config::from_xml(&text, dir.path(), dir.path())?;
    let runtime = tokio::runtime::Runtime::new()?;
    let node = runtime.block_on(Node::start(config))?;
    let path = ColumnPath::new("Standard1".to_string(), None, Some(b"C0".to_vec()));
    println!("one Rust client, one call in flight, {seconds} s per figure");
    for style in WireStyle::ALL {
        let mut client = Client::connect(node.local_addr(), style, Duration::from_secs(10))?;
        let inserts = rate(seconds, |n| {
            client.insert(
                "Keyspace1".into(),
                format!("key{n}"),
                path.clone(),
                vec![b'v'; 34],
                n as i64,
                ConsistencyLevel::ONE,
            )?;
            Ok(())
        })?;
        let gets = rate(seconds, |n| {
            client.get(
                "Keyspace1".into(),
                format!("key{}", n % 1000),
                path.clone(),
                ConsistencyLevel::ONE,
            )?;
            Ok(())
        })?;
        let framing = if style.framed { "framed" } else { "unframed" };
        let header = if style.strict { "strict" } else { "non-strict" };
        println!("{framing:>8}, {header:>10}: insert {inserts:>8.0}/s   get {gets:>8.0}/s");
    }
    runtime.block_on(node.shutdown())?;
    Ok(())
}
