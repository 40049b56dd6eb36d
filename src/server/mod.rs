//! The network edge: one tokio listener, an accept loop with a connection limit, one task per
//! connection (see `connection`), and graceful shutdown — stop accepting, let in-flight calls
//! finish and reply, close idle connections, and return once every connection is gone or the
//! grace period has run out. Only this module (and the client) owns sockets.

pub mod admin;
mod connection;
mod log_limit;

use crate::protocol::{ConnectionFactory, Limits};
use log_limit::{left_out_note, LogLimit};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

/// Log lines a second for connections refused past the limit, and for connections closed
/// for a broken rule, a timeout or a reset: events any client can cause as often as it likes.
static REFUSED_LOG: LogLimit = LogLimit::new(5);
static CLOSED_LOG: LogLimit = LogLimit::new(10);

/// How the server treats its connections.
#[derive(Debug, Clone, Copy)]
pub struct ServerSettings {
    /// Wire limits (`docs/compatibility.md#e4`).
    pub limits: Limits,
    /// Connections served at once; more are accepted and closed at once.
    pub max_connections: usize,
    /// How long a connection may wait between requests.
    pub idle_timeout: Duration,
    /// How long a request may take to arrive once its first byte has.
    pub read_timeout: Duration,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            limits: Limits::default(),
            max_connections: 1024,
            idle_timeout: Duration::from_secs(3600),
            read_timeout: Duration::from_secs(30),
        }
    }
}

/// The tokio variable that names a runtime's worker count; honoured here as tokio honours it.
const WORKER_THREADS_VAR: &str = "TOKIO_WORKER_THREADS";

/// How many request threads (tokio workers) a serving runtime should have: one more than the
/// machine's cores, unless `TOKIO_WORKER_THREADS` names a number.
///
/// Why the spare thread: requests run on the workers, and a worker that loses its core (to a
/// client or a neighbour on the same cores, or to the engine's background work) holds up every
/// connection queued on it until the scheduler gives it back. With one thread per core that is
/// what set the open-loop read tail; with a spare, an idle worker takes those connections up
/// (docs/stalls.md#spare-thread).
pub fn request_threads() -> usize {
    let named = std::env::var(WORKER_THREADS_VAR).ok();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    request_threads_for(named.as_deref(), cores)
}

/// [`request_threads`] for a given `TOKIO_WORKER_THREADS` value and core count.
fn request_threads_for(named: Option<&str>, cores: usize) -> usize {
    match named.and_then(|v| v.trim().parse::<usize>().ok()) {
        Some(n) if n > 0 => n,
        _ => cores + 1,
    }
}

/// A server accepting connections in the background.
pub struct RunningServer {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    accept_loop: tokio::task::JoinHandle<()>,
}

impl RunningServer {
    /// Binds `addr` (port 0 picks a free port) and starts serving `factory`'s connections.
    pub async fn start(
        addr: SocketAddr,
        factory: Arc<dyn ConnectionFactory>,
        settings: ServerSettings,
    ) -> std::io::Result<RunningServer> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let (stop, stopped) = watch::channel(false);
        let accept_loop = tokio::spawn(accept_loop(listener, factory, settings, stopped));
        Ok(RunningServer {
            local_addr,
            stop,
            accept_loop,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Stops accepting, lets in-flight requests finish, and waits up to `grace` for every
    /// connection to close; connections still open after that are dropped.
    pub async fn shutdown(self, grace: Duration) {
        let _ = self.stop.send(true);
        let mut accept_loop = self.accept_loop;
        if tokio::time::timeout(grace, &mut accept_loop).await.is_err() {
            tracing::warn!("connections still open after {grace:?}; closing them");
            accept_loop.abort();
        }
    }
}

async fn accept_loop(
    listener: TcpListener,
    factory: Arc<dyn ConnectionFactory>,
    settings: ServerSettings,
    mut stopped: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(settings.max_connections));
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            _ = stopped.changed() => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                        if let Some(left_out) = REFUSED_LOG.admit() {
                            tracing::warn!(
                                "refusing {peer}: {} connections open{}",
                                settings.max_connections,
                                left_out_note(left_out)
                            );
                        }
                        drop(stream);
                        continue;
                    };
                    let conn = factory.connect(peer);
                    let stopped = stopped.clone();
                    connections.spawn(async move {
                        serve_one(stream, peer, conn, settings, stopped).await;
                        drop(permit);
                    });
                }
                // Out of file descriptors and the like: back off instead of spinning.
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        }
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
}

async fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    conn: Box<dyn crate::protocol::Connection>,
    settings: ServerSettings,
    stopped: watch::Receiver<bool>,
) {
    // Replies are single writes; Nagle would hold them back waiting for an ACK.
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!("{peer}: cannot set TCP_NODELAY: {e}");
    }
    let _open = crate::metrics::connection();
    match connection::run(stream, conn, settings, stopped).await {
        Ok(()) => tracing::debug!("{peer}: closed"),
        Err(why) => {
            if let Some(left_out) = CLOSED_LOG.admit() {
                tracing::info!("{peer}: closed: {why}{}", left_out_note(left_out));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::request_threads_for;

    #[test]
    fn one_spare_thread_unless_tokio_s_variable_names_a_count() {
        assert_eq!(request_threads_for(None, 2), 3);
        assert_eq!(request_threads_for(None, 1), 2);
        assert_eq!(request_threads_for(Some("5"), 2), 5);
        assert_eq!(request_threads_for(Some(" 4 "), 2), 4);
        // tokio itself refuses 0 and non-numbers; here they fall back to the default.
        assert_eq!(request_threads_for(Some("0"), 2), 3);
        assert_eq!(request_threads_for(Some("many"), 8), 9);
    }
}
