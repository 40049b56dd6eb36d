//! `ilion tool`: the nodetool of ilion. It talks HTTP to a node's admin endpoint (see
//! `server::admin`): reads are GETs of `/api/…`, actions are POSTs. Without `--host` and
//! `--port` it finds the endpoint in `--config`, else in the sample conf/storage-conf.xml
//! (and takes the token from there too, unless `--token` is given). Output is a readable
//! table, or with `--json` the endpoint's JSON as it was received.

mod http;
mod render;

use crate::config::{Config, DEFAULT_ADMIN_PORT};
use crate::server::admin::api;
use clap::{Args, Subcommand};
use http::Endpoint;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The configuration consulted when neither `--config` nor `--host`/`--port` are given.
const SAMPLE_CONFIG: &str = "conf/storage-conf.xml";

/// `ilion tool` arguments.
#[derive(Args, Debug, Clone)]
pub struct ToolArgs {
    #[arg(
        long,
        short = 'c',
        value_name = "PATH",
        help = "storage-conf.xml whose <AdminAddress>, <AdminPort> and <AdminToken> to use \
                [default: conf/storage-conf.xml]"
    )]
    pub config: Option<PathBuf>,
    #[arg(
        long,
        short = 'H',
        value_name = "HOST",
        help = "Admin host [default: <AdminAddress> of the configuration]"
    )]
    pub host: Option<String>,
    #[arg(
        long,
        short = 'p',
        value_name = "ADMIN_PORT",
        help = "Admin port [default: <AdminPort> of the configuration, else 8160]"
    )]
    pub port: Option<u16>,
    #[arg(
        long,
        value_name = "TOKEN",
        help = "Admin token [default: <AdminToken> of the configuration]"
    )]
    pub token: Option<String>,
    /// Print the endpoint's JSON instead of a table
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub verb: Verb,
}

/// What to ask the node.
#[derive(Subcommand, Debug, Clone, PartialEq)]
pub enum Verb {
    /// Token, load, uptime, memory, data size, generation
    Info,
    /// The ring: this node, its token and load
    Ring,
    /// Per column family: live rows and columns, tombstones, bytes, reads and writes with
    /// their latency
    Cfstats {
        /// Only this keyspace
        keyspace: Option<String>,
        /// Only these column families of it
        cfs: Vec<String>,
    },
    /// Connections, calls in flight, replies waiting for a sync
    Tpstats,
    /// Read and write latency histograms of one column family
    Cfhistograms { keyspace: String, cf: String },
    /// Make everything written so far durable now
    Flush {
        keyspace: Option<String>,
        cfs: Vec<String>,
    },
    /// Purge tombstones older than GCGraceSeconds now
    Compact {
        keyspace: Option<String>,
        cfs: Vec<String>,
    },
    /// Write a consistent copy of the data that `ilion serve` can start from
    Snapshot {
        /// The snapshot's name [default: the time in milliseconds]
        name: Option<String>,
    },
    /// List snapshots
    Listsnapshots,
    /// Remove one snapshot, or all of them
    Clearsnapshot { name: Option<String> },
    /// Refuse every further write, make everything durable; writes stay refused until restart
    Drain,
    /// ilion's version and the Thrift API version
    Version,
}

/// Runs one verb: exit 0 on success, 1 when the node refused or could not be reached, 2 on
/// a configuration problem.
pub fn run(args: ToolArgs) -> ExitCode {
    let endpoint = match endpoint(&args) {
        Ok(e) => e,
        Err(why) => {
            eprintln!("ilion tool: {why}");
            return ExitCode::from(2);
        }
    };
    match execute(&endpoint, &args.verb, args.json) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("ilion tool: {why}");
            ExitCode::FAILURE
        }
    }
}

/// Where to connect, from the flags and the configuration.
fn endpoint(args: &ToolArgs) -> Result<Endpoint, String> {
    let from_config = match (&args.config, &args.host, args.port) {
        (Some(path), _, _) => Some(load(path)?),
        (None, Some(_), Some(_)) => None,
        (None, _, _) if Path::new(SAMPLE_CONFIG).exists() => Some(load(Path::new(SAMPLE_CONFIG))?),
        (None, _, _) => None,
    };
    let admin = from_config.as_ref().map(|c| &c.admin);
    let host = match (&args.host, admin) {
        (Some(h), _) => h.clone(),
        // A wildcard listener is reached through loopback.
        (None, Some(a)) if a.address.is_unspecified() => "127.0.0.1".into(),
        (None, Some(a)) => a.address.to_string(),
        (None, None) => "127.0.0.1".into(),
    };
    let port = match (args.port, admin) {
        (Some(p), _) => p,
        (None, Some(a)) if a.port == 0 => {
            return Err(
                "the configuration's <AdminPort> is 0 (picked at start-up): \
                        give --port (the server logs it)"
                    .into(),
            )
        }
        (None, Some(a)) => a.port,
        (None, None) => DEFAULT_ADMIN_PORT,
    };
    let token = args
        .token
        .clone()
        .or_else(|| admin.and_then(|a| a.token.clone()));
    Ok(Endpoint::new(&host, port, token))
}

fn load(path: &Path) -> Result<Config, String> {
    Config::load(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn selection(keyspace: &Option<String>, cfs: &[String]) -> api::Selection {
    api::Selection {
        keyspace: keyspace.clone(),
        cfs: cfs.to_vec(),
    }
}

/// Asks the node and returns what to print.
pub fn execute(endpoint: &Endpoint, verb: &Verb, json: bool) -> Result<String, String> {
    let name = |n: &Option<String>| api::SnapshotName { name: n.clone() };
    match verb {
        Verb::Info => show(endpoint.get::<api::Info>("info")?, json, render::info),
        Verb::Ring => show(endpoint.get::<Vec<api::RingEntry>>("ring")?, json, |v| {
            render::ring(v)
        }),
        Verb::Cfstats { keyspace, cfs } => {
            let all = endpoint.get::<Vec<api::CfStats>>("cfstats")?;
            show(render::pick(all, keyspace, cfs)?, json, |v| {
                render::cfstats(v)
            })
        }
        Verb::Tpstats => show(
            endpoint.get::<api::TpStats>("tpstats")?,
            json,
            render::tpstats,
        ),
        Verb::Cfhistograms { keyspace, cf } => show(
            endpoint.get::<api::CfHistograms>(&format!("cfhistograms/{keyspace}/{cf}"))?,
            json,
            render::cfhistograms,
        ),
        Verb::Flush { keyspace, cfs } => {
            done(endpoint.post("flush", &selection(keyspace, cfs))?, json)
        }
        Verb::Compact { keyspace, cfs } => {
            done(endpoint.post("compact", &selection(keyspace, cfs))?, json)
        }
        Verb::Snapshot { name: n } => done(endpoint.post("snapshot", &name(n))?, json),
        Verb::Listsnapshots => show(
            endpoint.get::<Vec<api::Snapshot>>("snapshots")?,
            json,
            |v| render::snapshots(v),
        ),
        Verb::Clearsnapshot { name: n } => done(endpoint.post("clearsnapshot", &name(n))?, json),
        Verb::Drain => done(endpoint.post("drain", &())?, json),
        Verb::Version => show(
            endpoint.get::<api::Version>("version")?,
            json,
            render::version,
        ),
    }
}

fn show<T: serde::Serialize>(
    value: T,
    json: bool,
    table: impl Fn(&T) -> String,
) -> Result<String, String> {
    match json {
        true => render::json(&value),
        false => Ok(table(&value)),
    }
}

fn done(value: api::Done, json: bool) -> Result<String, String> {
    show(value, json, |d| format!("{}\n", d.message))
}
