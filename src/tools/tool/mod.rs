//! `ilion tool`: the nodetool of ilion. It talks HTTP to a node's admin endpoint (see
//! `server::admin`): reads are GETs of `/api/…`, actions are POSTs. Without `--host` and
//! `--port` it finds the endpoint in `--config`, else in the sample conf/storage-conf.xml
//! (and takes the token from there too, unless `--token` is given). Output is a readable
//! table, or with `--json` the endpoint's JSON as it was received.

mod render;

use crate::client::admin::Endpoint;
use crate::config::{Config, DEFAULT_ADMIN_PORT};
use crate::server::admin::api;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The configuration consulted when neither `--config` nor `--host`/`--port` are given.
const SAMPLE_CONFIG: &str = "conf/storage-conf.xml";

/// `ilion tool` arguments.
#[derive(Args, Debug, Clone)]
pub struct ToolArgs {
    /// The configuration to take the admin endpoint and token from.
    #[arg(
        long,
        short = 'c',
        value_name = "PATH",
        help = "storage-conf.xml whose <AdminAddress>, <AdminPort> and <AdminToken> to use \
                [default: conf/storage-conf.xml]"
    )]
    pub config: Option<PathBuf>,
    /// The admin endpoint's host, overriding the configuration's.
    #[arg(
        long,
        short = 'H',
        value_name = "HOST",
        help = "Admin host [default: <AdminAddress> of the configuration]"
    )]
    pub host: Option<String>,
    /// The admin endpoint's port, overriding the configuration's.
    #[arg(
        long,
        short = 'p',
        value_name = "ADMIN_PORT",
        help = "Admin port [default: <AdminPort> of the configuration, else 8160]"
    )]
    pub port: Option<u16>,
    /// The admin token, overriding the configuration's.
    #[arg(
        long,
        value_name = "TOKEN",
        help = "Admin token [default: <AdminToken> of the configuration]"
    )]
    pub token: Option<String>,
    /// Print the endpoint's JSON instead of a table
    #[arg(long, global = true)]
    pub json: bool,
    /// What to ask the node.
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
    Cfhistograms {
        /// The keyspace
        keyspace: String,
        /// The column family
        cf: String,
    },
    /// Make everything written so far durable now
    Flush {
        /// Only this keyspace
        keyspace: Option<String>,
        /// Only these column families of it
        cfs: Vec<String>,
    },
    /// Purge tombstones older than GCGraceSeconds now
    Compact {
        /// Only this keyspace
        keyspace: Option<String>,
        /// Only these column families of it
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
    Clearsnapshot {
        /// The snapshot to remove [default: every snapshot]
        name: Option<String>,
    },
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
    let (host, port, token) = target(args)?;
    Ok(Endpoint::new(&host, port, token))
}

/// Host, port and token, from the flags and the configuration.
fn target(args: &ToolArgs) -> Result<(String, u16, Option<String>), String> {
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
    Ok((host, port, token))
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        tool: ToolArgs,
    }

    fn args(line: &[&str]) -> ToolArgs {
        Cli::try_parse_from(std::iter::once("tool").chain(line.iter().copied()))
            .expect("arguments parse")
            .tool
    }

    fn config_with(dir: &Path, admin: &str) -> PathBuf {
        let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE_CONFIG);
        let text = std::fs::read_to_string(sample).expect("sample config");
        let end = text.rfind("</Storage>").expect("the root closes");
        let text = format!("{}{admin}{}", &text[..end], &text[end..]);
        let path = dir.join("storage-conf.xml");
        std::fs::write(&path, text).expect("write config");
        path
    }

    #[test]
    fn the_endpoint_comes_from_the_configuration_unless_flags_say_otherwise() {
        let dir = tempfile::tempdir().expect("temp dir");
        let wildcard = config_with(
            dir.path(),
            "<AdminAddress>0.0.0.0</AdminAddress><AdminPort>9999</AdminPort>\
             <AdminToken>t0k</AdminToken>",
        );
        let c = wildcard.to_str().expect("path");
        let from_config = target(&args(&["--config", c, "info"])).expect("target");
        assert_eq!(from_config, ("127.0.0.1".into(), 9999, Some("t0k".into())));
        let flags = [
            "--config", c, "--host", "::1", "--port", "1", "--token", "x", "ring",
        ];
        assert_eq!(
            target(&args(&flags)).expect("target"),
            ("::1".into(), 1, Some("x".into()))
        );
    }

    #[test]
    fn json_is_accepted_after_the_verb_and_verbs_take_their_arguments() {
        let a = args(&["cfhistograms", "Keyspace1", "Standard1", "--json"]);
        assert!(a.json);
        assert_eq!(
            a.verb,
            Verb::Cfhistograms {
                keyspace: "Keyspace1".into(),
                cf: "Standard1".into()
            }
        );
        let a = args(&["compact", "Keyspace1", "Standard1", "Super1"]);
        let Verb::Compact { keyspace, cfs } = a.verb else {
            panic!("compact")
        };
        assert_eq!((keyspace.as_deref(), cfs.len()), (Some("Keyspace1"), 2));
        assert!(Cli::try_parse_from(["tool", "cfhistograms", "Keyspace1"]).is_err());
    }
}
