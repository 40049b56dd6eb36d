//! The command lines of `ilion export` and `ilion import`, and running them: choosing the
//! offline store (`--config`, default `conf/storage-conf.xml`) or a server (`--host`/`--port`),
//! then handing over to [`super::export`] / [`super::import`]. Summaries and errors go to
//! stderr; the exit status is 0 on success, 1 on a failed run (configuration, input or
//! store), 2 on a bad command line.

use super::apply::{self, OfflineCf};
use super::export::{self, Filter};
use super::import;
use super::remote::RemoteCf;
use super::{RowSink, RowSource};
use crate::config::Config;
use crate::error::{Error, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const DEFAULT_CONFIG: &str = "conf/storage-conf.xml";
const DEFAULT_PORT: u16 = 9160;

/// Where the data is: a stopped data directory or a running server.
#[derive(Args, Debug, Clone)]
pub struct Place {
    /// Work offline on this configuration's data directory [default: conf/storage-conf.xml]
    #[arg(long, short = 'c', value_name = "PATH", conflicts_with_all = ["host", "port"])]
    pub config: Option<PathBuf>,
    /// Go through the server at this host over Thrift
    #[arg(long, value_name = "H")]
    pub host: Option<String>,
    /// The server's Thrift port [default: 9160]
    #[arg(long, value_name = "P")]
    pub port: Option<u16>,
}

/// `ilion export`.
#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "ilion export [--config PATH | --host H --port P] KEYSPACE CF [-k KEY]... [-x KEY]... [-o FILE]"
)]
pub struct ExportArgs {
    /// Where the data is.
    #[command(flatten)]
    pub place: Place,
    /// Keyspace
    pub keyspace: String,
    /// Column family
    pub column_family: String,
    /// Export only this key (repeatable)
    #[arg(short = 'k', value_name = "KEY")]
    pub keys: Vec<String>,
    /// Leave this key out (repeatable)
    #[arg(short = 'x', value_name = "KEY")]
    pub exclude: Vec<String>,
    /// Write to FILE instead of stdout
    #[arg(short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `ilion import`.
#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "ilion import [--config PATH | --host H --port P] KEYSPACE CF FILE\n       \
                            ilion import --config PATH --from-cassandra06 KEYSPACE_DIR"
)]
pub struct ImportArgs {
    /// Where the data goes.
    #[command(flatten)]
    pub place: Place,
    /// Read the SSTables of a drained Cassandra 0.6 keyspace directory (needs --config)
    #[arg(long, value_name = "KEYSPACE_DIR", conflicts_with_all = ["host", "port"])]
    pub from_cassandra06: Option<PathBuf>,
    /// Keyspace, column family and JSON file (`-` for stdin)
    #[arg(value_names = ["KEYSPACE", "CF", "FILE"], num_args = 0..=3)]
    pub target: Vec<String>,
}

fn load_config(path: Option<&Path>) -> Result<Config> {
    let path = path.unwrap_or(Path::new(DEFAULT_CONFIG));
    Config::load(path).map_err(|e| match e {
        Error::Config { .. } => Error::invalid(format!("{}: {e}", path.display())),
        other => other,
    })
}

/// The error text for a user: the `why` of a refused request without its kind.
fn message(e: &Error) -> String {
    match e {
        // Migration errors already name the file, CF and row at fault.
        Error::InvalidRequest(why) | Error::Corrupt(why) => why.clone(),
        other => other.to_string(),
    }
}

fn fail(verb: &str, e: &Error) -> ExitCode {
    eprintln!("ilion {verb}: {}", message(e));
    ExitCode::FAILURE
}

fn remote(place: &Place, keyspace: &str, cf: &str) -> Result<RemoteCf> {
    let host = place.host.as_deref().unwrap_or("127.0.0.1");
    RemoteCf::connect(host, place.port.unwrap_or(DEFAULT_PORT), keyspace, cf)
}

fn is_remote(place: &Place) -> bool {
    place.host.is_some() || place.port.is_some()
}

/// Runs `ilion export`.
pub fn export(args: ExportArgs) -> ExitCode {
    let filter = Filter {
        keys: args.keys.clone(),
        exclude: args.exclude.clone(),
    };
    let run = |source: &mut dyn RowSource| match &args.output {
        Some(path) => export::to_file(source, &filter, path),
        None => export::to_writer(source, &filter, std::io::stdout().lock()),
    };
    let outcome = if is_remote(&args.place) {
        remote(&args.place, &args.keyspace, &args.column_family).and_then(|mut cf| run(&mut cf))
    } else {
        offline(args.place.config.as_deref(), |db| {
            let mut cf = OfflineCf::new(db, &args.keyspace, &args.column_family)?;
            run(&mut cf)
        })
    };
    match outcome {
        Ok(summary) => {
            eprintln!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => fail("export", &e),
    }
}

/// Opens the configuration's store, runs `f`, and closes the store whatever happened.
fn offline<T>(
    config: Option<&Path>,
    f: impl FnOnce(std::sync::Arc<crate::cf::Db>) -> Result<T>,
) -> Result<T> {
    let config = load_config(config)?;
    let db = apply::open(&config)?;
    let outcome = f(db.clone());
    let closed = db.close();
    let value = outcome?;
    closed?;
    Ok(value)
}

/// Runs `ilion import`.
pub fn import(args: ImportArgs) -> ExitCode {
    if let Some(dir) = &args.from_cassandra06 {
        if !args.target.is_empty() {
            eprintln!("ilion import: --from-cassandra06 takes no KEYSPACE CF FILE");
            return ExitCode::from(2);
        }
        if args.place.config.is_none() {
            eprintln!("ilion import: --from-cassandra06 needs --config (it imports offline)");
            return ExitCode::from(2);
        }
        return match from_cassandra06(args.place.config.as_deref(), dir) {
            Ok(lines) => {
                lines.iter().for_each(|l| eprintln!("{l}"));
                ExitCode::SUCCESS
            }
            Err(e) => fail("import", &e),
        };
    }
    let [keyspace, cf, file] = args.target.as_slice() else {
        eprintln!("ilion import: expected KEYSPACE CF FILE (or --from-cassandra06 KEYSPACE_DIR)");
        return ExitCode::from(2);
    };
    let outcome = if is_remote(&args.place) {
        remote(&args.place, keyspace, cf).and_then(|sink| {
            let shape = sink.shape();
            import::json(file, shape, || Ok(sink))
        })
    } else {
        import_offline(args.place.config.as_deref(), keyspace, cf, file)
    };
    match outcome {
        Ok(summary) => {
            eprintln!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => fail("import", &e),
    }
}

/// An offline JSON import: the store is opened only once the whole input has been checked.
fn import_offline(config: Option<&Path>, keyspace: &str, cf: &str, file: &str) -> Result<String> {
    let config = load_config(config)?;
    let shape = apply::shape(&config.schema, keyspace, cf)?;
    let mut opened = None;
    let outcome = import::json(file, shape, || {
        let db = apply::open(&config)?;
        opened = Some(db.clone());
        OfflineCf::new(db, keyspace, cf)
    });
    let closed = opened.map_or(Ok(()), |db| db.close());
    let summary = outcome?;
    closed?;
    Ok(summary)
}

/// `--from-cassandra06`: plan, check everything, then open the store and write; one summary
/// line per CF.
fn from_cassandra06(config_path: Option<&Path>, dir: &Path) -> Result<Vec<String>> {
    let started = std::time::Instant::now();
    let config = load_config(config_path)?;
    let (keyspace, cfs, skipped) = import::plan_cassandra06(&config, dir)?;
    for cf in &skipped {
        eprintln!(
            "ilion import: skipping column family {cf}: not defined in keyspace {keyspace} of the configuration"
        );
    }
    let checked = import::check_cassandra06(&cfs, &config)?;
    let db = apply::open(&config)?;
    let mut sink_for = |cf: &str| -> Result<Box<dyn RowSink>> {
        Ok(Box::new(OfflineCf::new(db.clone(), &keyspace, cf)?))
    };
    let outcome = import::write_cassandra06(&cfs, &config, &mut sink_for);
    let closed = db.close();
    let mut lines = outcome?;
    closed?;
    if !cfs.is_empty() {
        let secs = started.elapsed().as_secs_f64();
        lines.push(format!(
            "keyspace {keyspace}: {}",
            super::progress::summary("imported", checked, secs)
        ));
    } else {
        lines.push(format!(
            "no SSTables of keyspace {keyspace} found in {}",
            dir.display()
        ));
    }
    Ok(lines)
}
