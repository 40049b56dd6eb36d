//! The admin API's client (for `ilion tool`): a blocking HTTP client (ureq) that sends the token,
//! turns the endpoint's `{"error": …}` answers into messages, and decodes the JSON bodies
//! declared in `server::admin::api`.

use crate::server::admin::api::ApiError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::time::Duration;

/// Longest wait for one answer: a compaction or a snapshot of a large store takes a while.
const TIMEOUT: Duration = Duration::from_secs(3600);

/// One node's admin endpoint.
pub struct Endpoint {
    base: String,
    token: Option<String>,
    agent: ureq::Agent,
}

impl Endpoint {
    /// The endpoint at `host:port`, sending `token` with every request when given.
    pub fn new(host: &str, port: u16, token: Option<String>) -> Endpoint {
        let host = match host.contains(':') && !host.starts_with('[') {
            true => format!("[{host}]"),
            false => host.to_string(),
        };
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(TIMEOUT))
            .build()
            .into();
        Endpoint {
            base: format!("http://{host}:{port}"),
            token,
            agent,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api/{path}", self.base)
    }

    fn auth(&self) -> Option<String> {
        self.token.as_ref().map(|t| format!("Bearer {t}"))
    }

    /// `GET /api/PATH`.
    pub fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, String> {
        let mut request = self.agent.get(&self.url(path));
        if let Some(auth) = self.auth() {
            request = request.header("Authorization", auth);
        }
        self.answer(request.call())
    }

    /// `POST /api/PATH` with a JSON body.
    pub fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, String> {
        let mut request = self.agent.post(&self.url(path));
        if let Some(auth) = self.auth() {
            request = request.header("Authorization", auth);
        }
        self.answer(request.send_json(body))
    }

    fn answer<T: DeserializeOwned>(
        &self,
        sent: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<T, String> {
        let mut response =
            sent.map_err(|e| format!("cannot reach the admin endpoint at {}: {e}", self.base))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("reading the answer from {}: {e}", self.base))?;
        if status != 200 {
            let why = serde_json::from_str::<ApiError>(&text)
                .map(|e| e.error)
                .unwrap_or(text);
            return Err(format!("{why} (HTTP {status})"));
        }
        serde_json::from_str(&text)
            .map_err(|e| format!("unexpected answer from {}: {e}", self.base))
    }
}
