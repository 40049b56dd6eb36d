//! The admin endpoint: an HTTP server (axum) on `<AdminAddress>:<AdminPort>` beside the
//! Thrift listener, started and stopped with the node. It serves `/metrics` (Prometheus
//! text), the status page at `/` (one embedded HTML file that polls `/api/status`), and the
//! JSON API of `ilion tool` under `/api/` (GET reads, POST actions). With `<AdminToken>` set,
//! every request must carry `Authorization: Bearer TOKEN` (or `?token=TOKEN`, which lets a
//! browser open the page); others get 401. docs/admin.md documents every route.

pub mod api;
mod report;
mod snapshots;

pub use report::SNAPSHOTS_DIR;

use crate::cf::Db;
use crate::config::Config;
use api::{ApiError, Selection, SnapshotName};
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use report::{Answer, Failure, Node};
use serde::Serialize;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The status page: HTML, CSS and script in one file, no outside resources.
const STATUS_PAGE: &str = include_str!("status.html");

/// How long shutdown waits for admin requests in progress.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// A running admin endpoint.
pub struct AdminServer {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    server: JoinHandle<()>,
    sampler: JoinHandle<()>,
}

#[derive(Clone)]
struct AppState {
    node: Arc<Node>,
    token: Option<Arc<str>>,
}

impl AdminServer {
    /// Binds the configured admin address (port 0 picks one) and starts serving `db`.
    pub async fn start(db: Arc<Db>, config: Arc<Config>) -> std::io::Result<AdminServer> {
        let addr = SocketAddr::new(config.admin.address, config.admin.port);
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let state = AppState {
            token: config.admin.token.as_deref().map(Arc::from),
            node: Arc::new(Node::new(db, config)),
        };
        let (stop, stopped) = watch::channel(false);
        let sampler = tokio::spawn(sample(Arc::clone(&state.node), stopped.clone()));
        let app = router(state);
        let mut until = stopped;
        let server = tokio::spawn(async move {
            let shutdown = async move {
                let _ = until.wait_for(|s| *s).await;
            };
            if let Err(e) = axum::serve(listener, app)
                .with_graceful_shutdown(shutdown)
                .await
            {
                tracing::warn!("admin endpoint stopped: {e}");
            }
        });
        Ok(AdminServer {
            local_addr,
            stop,
            server,
            sampler,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Stops accepting and waits briefly for requests in progress.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let mut server = self.server;
        if tokio::time::timeout(SHUTDOWN_GRACE, &mut server)
            .await
            .is_err()
        {
            server.abort();
        }
        self.sampler.abort();
    }
}

/// Samples the chart series until stopped.
async fn sample(node: Arc<Node>, mut stopped: watch::Receiver<bool>) {
    let mut tick =
        tokio::time::interval(Duration::from_secs(crate::metrics::series::SAMPLE_SECONDS));
    loop {
        tokio::select! {
            _ = tick.tick() => node.series.sample(),
            _ = stopped.changed() => return,
        }
    }
}

fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/metrics", get(metrics))
        .route("/api/status", get(|s| blocking(s, |n| n.status())))
        .route("/api/version", get(version))
        .route("/api/info", get(|s| blocking(s, |n| n.info())))
        .route("/api/ring", get(|s| blocking(s, |n| n.ring())))
        .route("/api/cfstats", get(|s| blocking(s, |n| n.cfstats())))
        .route("/api/tpstats", get(|s| blocking(s, |n| Ok(n.tpstats()))))
        .route("/api/cfhistograms/{keyspace}/{cf}", get(cfhistograms))
        .route("/api/snapshots", get(|s| blocking(s, |n| n.snapshots())))
        .route("/api/flush", post(flush))
        .route("/api/compact", post(compact))
        .route("/api/drain", post(|s| blocking(s, |n| n.drain())))
        .route("/api/snapshot", post(snapshot))
        .route("/api/clearsnapshot", post(clear_snapshot))
        .fallback(|| async { failure(Failure::new(404, "no such admin endpoint")) })
        .layer(middleware::from_fn_with_state(state.clone(), require_token))
        .with_state(state)
}

/// Runs `f` on the blocking pool and answers with its JSON.
async fn blocking<T: Serialize + Send + 'static>(
    State(state): State<AppState>,
    f: impl FnOnce(&Node) -> Answer<T> + Send + 'static,
) -> Response {
    let node = state.node;
    match tokio::task::spawn_blocking(move || f(&node)).await {
        Ok(Ok(body)) => Json(body).into_response(),
        Ok(Err(f)) => failure(f),
        Err(e) => failure(Failure::new(500, format!("admin task failed: {e}"))),
    }
}

fn failure(f: Failure) -> Response {
    let status = StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, Json(ApiError { error: f.message })).into_response()
}

async fn page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        STATUS_PAGE,
    )
        .into_response()
}

async fn metrics(State(state): State<AppState>) -> Response {
    let node = state.node;
    match tokio::task::spawn_blocking(move || node.metrics_text()).await {
        Ok(Ok(text)) => ([(header::CONTENT_TYPE, prometheus::TEXT_FORMAT)], text).into_response(),
        Ok(Err(f)) => failure(f),
        Err(e) => failure(Failure::new(500, format!("admin task failed: {e}"))),
    }
}

async fn version() -> Json<api::Version> {
    Json(api::Version {
        version: env!("CARGO_PKG_VERSION").to_string(),
        api_version: crate::protocol::VERSION.to_string(),
    })
}

async fn cfhistograms(
    state: State<AppState>,
    Path((keyspace, cf)): Path<(String, String)>,
) -> Response {
    blocking(state, move |n| n.cfhistograms(&keyspace, &cf)).await
}

// Action bodies are optional: `curl -X POST …/api/flush` means "everything".

async fn flush(state: State<AppState>, body: Option<Json<Selection>>) -> Response {
    let sel = body.map(|Json(b)| b).unwrap_or_default();
    blocking(state, move |n| n.flush(&sel)).await
}

async fn compact(state: State<AppState>, body: Option<Json<Selection>>) -> Response {
    let sel = body.map(|Json(b)| b).unwrap_or_default();
    blocking(state, move |n| n.compact(&sel)).await
}

async fn snapshot(state: State<AppState>, body: Option<Json<SnapshotName>>) -> Response {
    let name = body.and_then(|Json(b)| b.name);
    blocking(state, move |n| n.snapshot(name.as_deref())).await
}

async fn clear_snapshot(state: State<AppState>, body: Option<Json<SnapshotName>>) -> Response {
    let name = body.and_then(|Json(b)| b.name);
    blocking(state, move |n| n.clear_snapshot(name.as_deref())).await
}

/// Lets a request through when no token is configured or it carries the token.
async fn require_token(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(token) = &state.token else {
        return next.run(request).await;
    };
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let query = Query::<HashMap<String, String>>::try_from_uri(request.uri())
        .ok()
        .and_then(|Query(mut q)| q.remove("token"));
    if [bearer, query.as_deref()]
        .into_iter()
        .flatten()
        .any(|given| same(given.as_bytes(), token.as_bytes()))
    {
        return next.run(request).await;
    }
    let mut response = failure(Failure::new(
        401,
        "this admin endpoint needs its token: Authorization: Bearer TOKEN (<AdminToken>)",
    ));
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// Compares without stopping at the first difference, so timing does not reveal how much
/// of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
