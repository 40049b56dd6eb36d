//! The command line of `ilion stress`. Flags follow Cassandra 0.6's `contrib/py_stress`
//! (`-n -t -c -S -o -r -s -g -h -p -k -e -i`), so an old invocation keeps working, plus
//! `--cf`, `--duration`, `--rate` (open loop), `--json`, `--serve-noop`, and `--ops`,
//! `--first-key` and `--key-width`, which let a benchmark grow one store in steps (insert keys
//! K..n-1, then read a fixed number of random keys of all n, every key spelled alike). `-h` is the host,
//! as in stress.py, so clap's short help flag is switched off; `--help` still works.

use super::keys::{KeyDist, KeyFormat};
use crate::protocol::ConsistencyLevel;
use clap::{ArgAction, Args, ValueEnum};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

/// What each operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Operation {
    /// `batch_insert` of columns C0..C(c-1) into one row per key, keys in order.
    Insert,
    /// `get_slice` of the first `c` columns of a random key's row.
    Read,
    /// `get_range_slices` of `-g` rows from a random key, `c` columns each.
    Rangeslice,
    /// `batch_insert` of super columns S0..S(u-1), each holding C0..C(c-1) (Super CF).
    InsertSuper,
    /// `get_slice` of the first `u` super columns, with their subcolumns, of a random key's
    /// row (Super CF).
    ReadSuper,
    /// Reads and inserts of random keys, `--read-fraction` of them reads.
    Mixed,
}

/// `ilion stress`: load a Cassandra 0.6-API server, or serve the no-op floor.
#[derive(Debug, Clone, Args)]
#[command(disable_help_flag = true)]
pub struct StressArgs {
    /// Keys: inserts write keys 0..n-1 (from `--first-key`), reads pick among them; also the
    /// number of operations when neither `--ops` nor `--duration` is given.
    #[arg(short = 'n', long = "num-keys", default_value_t = 1_000_000)]
    pub num_keys: u64,
    /// Operations to run (default: one per key to insert, or n for reads).
    #[arg(long = "ops")]
    pub ops: Option<u64>,
    /// Inserts start at this key: keys K..n-1 are written, K..n-1 again if `--ops` asks
    /// for more.
    #[arg(long = "first-key", default_value_t = 0)]
    pub first_key: u64,
    /// Digits every key is padded to (default: those of n), so runs with different `-n`
    /// spell the same key the same way.
    #[arg(long = "key-width")]
    pub key_width: Option<usize>,
    /// Connections, each with one call outstanding (stress.py's threads).
    #[arg(short = 't', long = "threads", default_value_t = 50)]
    pub threads: usize,
    /// Columns per key.
    #[arg(short = 'c', long = "columns", default_value_t = 5)]
    pub columns: usize,
    /// Super columns per key (insert-super).
    #[arg(short = 'u', long = "supercolumns", default_value_t = 1)]
    pub supercolumns: usize,
    /// Bytes per column value.
    #[arg(short = 'S', long = "column-size", default_value_t = 34)]
    pub column_size: usize,
    /// The operation.
    #[arg(short = 'o', long = "operation", value_enum, default_value_t = Operation::Insert)]
    pub operation: Operation,
    /// Uniformly random keys (default: Gaussian around n/2).
    #[arg(short = 'r', long = "random")]
    pub random: bool,
    /// Standard deviation of the Gaussian key choice, as a fraction of n.
    #[arg(short = 's', long = "stdev", default_value_t = 0.1)]
    pub stdev: f64,
    /// Rows per get_range_slices (rangeslice).
    #[arg(short = 'g', long = "get-range-slice-count", default_value_t = 1000)]
    pub range_count: i32,
    /// Framed transport (default: unframed, as 0.6).
    #[arg(long = "framed")]
    pub framed: bool,
    /// Server host(s), comma separated; connections are spread over them.
    #[arg(
        short = 'h',
        long = "host",
        alias = "nodes",
        default_value = "localhost"
    )]
    pub host: String,
    /// Thrift port (also the port `--serve-noop` listens on).
    #[arg(short = 'p', long = "port", default_value_t = 9160)]
    pub port: u16,
    /// Keyspace.
    #[arg(short = 'k', long = "keyspace", default_value = "Keyspace1")]
    pub keyspace: String,
    /// Column family (default Standard1, or Super1 for insert-super).
    #[arg(long = "cf")]
    pub cf: Option<String>,
    /// Consistency level: a name (ONE, QUORUM, ALL, ...) or its number.
    #[arg(short = 'e', long = "consistency-level", default_value = "ONE", value_parser = parse_consistency)]
    pub consistency: ConsistencyLevel,
    /// Seconds between CSV progress lines.
    #[arg(short = 'i', long = "progress-interval", default_value_t = 10)]
    pub interval: u64,
    /// Run for this many seconds instead of a fixed number of operations.
    #[arg(long = "duration", value_parser = parse_seconds)]
    pub duration: Option<Duration>,
    /// Open loop: start this many operations per second on a fixed schedule, latency
    /// measured from each one's scheduled start.
    #[arg(long = "rate")]
    pub rate: Option<f64>,
    /// Fraction of mixed operations that are reads.
    #[arg(long = "read-fraction", default_value_t = 0.5)]
    pub read_fraction: f64,
    /// Write the summary as JSON to this file.
    #[arg(long = "json")]
    pub json: Option<PathBuf>,
    /// Seed of the key choice (default: from the clock).
    #[arg(long = "seed")]
    pub seed: Option<u64>,
    /// Serve the no-op floor on `-h`:`-p` instead of generating load.
    #[arg(long = "serve-noop")]
    pub serve_noop: bool,
    /// Print help.
    #[arg(long = "help", action = ArgAction::Help)]
    pub help: Option<bool>,
}

fn parse_consistency(s: &str) -> Result<ConsistencyLevel, String> {
    const NAMES: [&str; 7] = [
        "ZERO",
        "ONE",
        "QUORUM",
        "DCQUORUM",
        "DCQUORUMSYNC",
        "ALL",
        "ANY",
    ];
    if let Ok(n) = s.parse::<i32>() {
        return Ok(ConsistencyLevel(n));
    }
    NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(s))
        .map(|i| ConsistencyLevel(i as i32))
        .ok_or_else(|| {
            format!(
                "unknown consistency level {s:?} (one of {})",
                NAMES.join(", ")
            )
        })
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim_end_matches('s')
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    Duration::try_from_secs_f64(secs).map_err(|e| format!("{s:?}: {e}"))
}

impl StressArgs {
    /// Checks the values clap cannot; the message names the flag.
    pub fn validate(&self) -> Result<(), String> {
        let fail = |why: &str| Err(why.to_string());
        if self.num_keys == 0 {
            return fail("-n must be at least 1");
        }
        if self.threads == 0 {
            return fail("-t must be at least 1");
        }
        if self.columns == 0 || self.columns > i32::MAX as usize {
            return fail("-c must be at least 1");
        }
        if self.supercolumns == 0 {
            return fail("-u must be at least 1");
        }
        if self.range_count <= 0 {
            return fail("-g must be at least 1");
        }
        if self.interval == 0 {
            return fail("-i must be at least 1 second");
        }
        if !(self.stdev > 0.0 && self.stdev.is_finite()) {
            return fail("-s must be a positive fraction");
        }
        if !(0.0..=1.0).contains(&self.read_fraction) {
            return fail("--read-fraction must be between 0 and 1");
        }
        if let Some(rate) = self.rate {
            if !(rate > 0.0 && rate.is_finite()) {
                return fail("--rate must be a positive number of operations per second");
            }
        }
        if self.duration == Some(Duration::ZERO) {
            return fail("--duration must be positive");
        }
        if self.ops == Some(0) {
            return fail("--ops must be at least 1");
        }
        if self.first_key >= self.num_keys {
            return fail("--first-key must be below -n");
        }
        let digits = (self.num_keys - 1).to_string().len();
        if let Some(width) = self.key_width {
            if !(digits..=20).contains(&width) {
                return fail(&format!(
                    "--key-width must be between {digits} (the digits of the last key) and 20"
                ));
            }
        }
        Ok(())
    }

    /// Whether the operation writes rows in key order.
    pub fn inserts(&self) -> bool {
        matches!(self.operation, Operation::Insert | Operation::InsertSuper)
    }

    /// Operations in a run bounded by count: `--ops`, or one per key from `--first-key` to
    /// n-1 for inserts, or n.
    pub fn operations(&self) -> u64 {
        match (self.ops, self.inserts()) {
            (Some(ops), _) => ops,
            (None, true) => self.num_keys - self.first_key,
            (None, false) => self.num_keys,
        }
    }

    /// How keys are spelled: `--key-width` digits, or those of n.
    pub fn key_format(&self) -> KeyFormat {
        match self.key_width {
            Some(width) => KeyFormat::with_width(width),
            None => KeyFormat::for_count(self.num_keys),
        }
    }

    /// The column family to use.
    pub fn column_family(&self) -> &str {
        match (&self.cf, self.operation) {
            (Some(cf), _) => cf,
            (None, Operation::InsertSuper | Operation::ReadSuper) => "Super1",
            (None, _) => "Standard1",
        }
    }

    /// How random keys are chosen.
    pub fn key_dist(&self) -> KeyDist {
        match self.random {
            true => KeyDist::Uniform { n: self.num_keys },
            false => KeyDist::gaussian(self.num_keys, self.stdev),
        }
    }

    /// The server addresses, one per `-h` host (a host may carry its own `:port`).
    pub fn addresses(&self) -> Result<Vec<SocketAddr>, String> {
        self.host
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(|host| {
                let resolved = match host.parse::<SocketAddr>() {
                    Ok(addr) => Ok(vec![addr]),
                    Err(_) if host.contains(':') && !host.contains("::") => {
                        host.to_socket_addrs().map(Iterator::collect)
                    }
                    Err(_) => (host, self.port).to_socket_addrs().map(Iterator::collect),
                };
                let addrs: Vec<SocketAddr> = resolved.map_err(|e| format!("-h {host}: {e}"))?;
                // localhost resolves to ::1 first on some hosts; servers usually bind IPv4.
                addrs
                    .iter()
                    .find(|a| a.is_ipv4())
                    .or(addrs.first())
                    .copied()
                    .ok_or_else(|| format!("-h {host}: no address"))
            })
            .collect::<Result<Vec<_>, _>>()
            .and_then(|v| match v.is_empty() {
                true => Err("-h names no host".to_string()),
                false => Ok(v),
            })
    }
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
