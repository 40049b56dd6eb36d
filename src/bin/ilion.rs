//! The `ilion` binary: wiring only — arguments, logging, configuration, then a node or a tool.

use clap::{Parser, Subcommand};
use ilion::config::Config;
use ilion::migrate::cli::{ExportArgs, ImportArgs};
use ilion::node::Node;
use ilion::tools::cli::CliArgs;
use ilion::tools::stress::StressArgs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// mimalloc rather than glibc's malloc, for the server and the tools alike: under load
/// glibc's arena locks showed in the profile (docs/performance.md#allocator).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The configuration served when none is named.
const DEFAULT_CONFIG: &str = "conf/storage-conf.xml";

#[derive(Parser)]
#[command(
    name = "ilion",
    version,
    about = "A Cassandra 0.6 compatible column-family store (Thrift API 2.2.0) on sled or fjall",
    long_about = "ilion serves the Cassandra 0.6 Thrift API from a single node, keeping its data \
                  in sled or fjall (<StorageEngine>). With no subcommand it serves conf/storage-conf.xml (or --config). \
                  Clients may connect framed or unframed, with strict or old-style binary \
                  messages, on the one Thrift port.\n\n\
                  Logs go to stderr; set RUST_LOG (e.g. RUST_LOG=debug, or \
                  RUST_LOG=ilion=debug) to change the level (default: info). SIGTERM or \
                  Ctrl-C stops the server gracefully: it stops accepting, finishes calls in \
                  flight and makes every write durable before exiting."
)]
struct Cli {
    /// storage-conf.xml to serve when no subcommand is given [default: conf/storage-conf.xml]
    #[arg(long, short = 'c', value_name = "PATH")]
    config: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server in the foreground (the default)
    Serve {
        /// The storage-conf.xml to serve [default: conf/storage-conf.xml]
        #[arg(long, short = 'c', value_name = "PATH")]
        config: Option<PathBuf>,
    },
    /// Operate a running node through its admin endpoint, as nodetool did (info, cfstats,
    /// flush, compact, snapshot, drain, …)
    Tool(ilion::tools::tool::ToolArgs),
    /// Load a Cassandra 0.6-API server, as 0.6's stress.py did (or --serve-noop: the floor)
    Stress(StressArgs),
    /// The cassandra-cli of 0.6: statements from a terminal, a script (-f, -e) or stdin
    Cli(CliArgs),
    /// Write a column family as 0.6's sstable2json JSON (offline, or from a server)
    Export(ExportArgs),
    /// Read sstable2json JSON into a column family, or a Cassandra 0.6 keyspace directory
    Import(ImportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    match cli.command {
        None => serve(cli.config.as_deref()),
        Some(Command::Serve { config }) => serve(config.as_deref().or(cli.config.as_deref())),
        Some(Command::Stress(args)) => ilion::tools::stress::run(args),
        Some(Command::Tool(mut args)) => {
            args.config = args.config.or(cli.config);
            ilion::tools::tool::run(args)
        }
        Some(Command::Cli(args)) => ilion::tools::cli::run(args),
        Some(Command::Export(args)) => ilion::migrate::cli::export(args),
        Some(Command::Import(args)) => ilion::migrate::cli::import(args),
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only for a terminal: logs piped to a file or a test harness stay plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .init();
}

fn serve(config: Option<&Path>) -> ExitCode {
    let path = config.unwrap_or(Path::new(DEFAULT_CONFIG));
    let config = match Config::load(path) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("ilion: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(ilion::server::request_threads())
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ilion: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let cluster = config.cluster_name.clone();
        // Watch for signals before announcing the node: a SIGTERM sent as soon as the
        // "listening" line appears must stop it cleanly, not kill it.
        let stop = shutdown_signal();
        let node = match Node::start(config).await {
            Ok(node) => node,
            Err(e) => {
                eprintln!("ilion: {e}");
                return ExitCode::from(2);
            }
        };
        tracing::info!("admin endpoint on http://{}/", node.admin_addr());
        // Logged before the "listening on" line, so that waiting for that line covers both.
        if let Some(later) = node.thrift20_addr() {
            tracing::info!("later API (Thrift 20.1.0) on {later}");
        }
        // Tests and scripts read the port from this line when ThriftPort is 0.
        tracing::info!(
            "ilion {} serving cluster {cluster:?}; listening on {}",
            env!("CARGO_PKG_VERSION"),
            node.local_addr()
        );
        stop.await;
        tracing::info!("shutting down");
        match node.shutdown().await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!("shutdown: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

/// Registers the SIGTERM and SIGINT handlers now; the returned future completes on the
/// first of them.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let term = signal(SignalKind::terminate());
    let interrupt = signal(SignalKind::interrupt());
    async move {
        match (term, interrupt) {
            (Ok(mut term), Ok(mut interrupt)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = interrupt.recv() => {}
                }
            }
            (Ok(mut only), Err(e)) | (Err(e), Ok(mut only)) => {
                tracing::warn!("cannot watch one of SIGTERM/SIGINT ({e}); the other stops ilion");
                only.recv().await;
            }
            (Err(e), Err(_)) => {
                tracing::warn!("cannot watch SIGTERM or SIGINT ({e}); stop ilion with SIGKILL");
                std::future::pending::<()>().await;
            }
        }
    }
}
