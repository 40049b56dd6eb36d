//! One cli session's connection state: where it connects (host, port, framing), who it logs
//! in as, the keyspace in `use`, the Thrift [`Client`], and each keyspace's column family
//! metadata from `describe_keyspace` (cached until the next connect). Thrift errors become
//! the one-line messages the cli prints.

use super::format::NameType;
use crate::client::{Client, TCassandraSyncClient, WireStyle};
use crate::protocol::{
    AuthenticationException, AuthenticationRequest, AuthorizationException,
    InvalidRequestException, NotFoundException, ThriftError, TimedOutException,
    UnavailableException,
};
use std::collections::{BTreeMap, HashMap};
use std::net::ToSocketAddrs;
use std::time::Duration;

/// How long connecting, and waiting for one reply, may take.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What describe_keyspace says of one column family, as the cli needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CfMeta {
    pub is_super: bool,
    /// Columns of a Standard CF, super columns of a Super CF.
    pub names: NameType,
    /// Columns inside super columns.
    pub subnames: NameType,
}

impl CfMeta {
    fn from_description(attrs: &BTreeMap<String, String>) -> CfMeta {
        let class = |key: &str| NameType::from_class(attrs.get(key).map_or("", String::as_str));
        CfMeta {
            is_super: attrs.get("Type").is_some_and(|t| t == "Super"),
            names: class("CompareWith"),
            subnames: class("CompareSubcolumnsWith"),
        }
    }
}

/// Everything a session remembers between statements.
pub struct Session {
    pub host: String,
    pub port: u16,
    pub framed: bool,
    pub credentials: Option<(String, String)>,
    /// The keyspace of `use` (or `--keyspace`): paths may leave it out.
    pub keyspace: Option<String>,
    client: Option<Client>,
    meta: HashMap<String, BTreeMap<String, CfMeta>>,
}

impl Session {
    /// A session that connects to `host`/`port` when first needed.
    pub fn new(host: String, port: u16, framed: bool) -> Session {
        Session {
            host,
            port,
            framed,
            credentials: None,
            keyspace: None,
            client: None,
            meta: HashMap::new(),
        }
    }

    /// Connects to the current host and port, logs in when credentials and a keyspace are
    /// known, and returns the cluster name.
    pub fn connect(&mut self) -> Result<String, String> {
        self.client = None;
        self.meta.clear();
        let failed = |why: String| {
            format!(
                "Exception connecting to {}/{} - {why}",
                self.host, self.port
            )
        };
        let addrs = (self.host.as_str(), self.port)
            .to_socket_addrs()
            .map_err(|e| failed(e.to_string()))?;
        let style = WireStyle {
            framed: self.framed,
            strict: true,
        };
        let mut last = "no address".to_string();
        for addr in addrs {
            match Client::connect(addr, style, TIMEOUT) {
                Ok(client) => {
                    self.client = Some(client);
                    break;
                }
                Err(e) => last = detail(&e),
            }
        }
        if self.client.is_none() {
            return Err(failed(last));
        }
        if let Some(keyspace) = self.keyspace.clone() {
            self.login(&keyspace)?;
        }
        self.call(|c| c.describe_cluster_name())
    }

    /// Logs in to `keyspace` with the session's credentials, if it has any.
    pub fn login(&mut self, keyspace: &str) -> Result<(), String> {
        let Some((user, password)) = self.credentials.clone() else {
            return Ok(());
        };
        let credentials = BTreeMap::from([
            ("username".to_string(), user),
            ("password".to_string(), password),
        ]);
        let request = AuthenticationRequest::new(credentials);
        self.call(|c| c.login(keyspace.to_string(), request))
    }

    /// The connected client, connecting first when there is none.
    pub fn client(&mut self) -> Result<&mut Client, String> {
        if self.client.is_none() {
            self.connect()?;
        }
        self.client
            .as_mut()
            .ok_or_else(|| "Not connected to a cassandra instance.".to_string())
    }

    /// Runs one call; its error becomes the cli's message. A transport or protocol error
    /// leaves the stream in an unknown state, so the connection is dropped (the next
    /// statement connects again).
    pub fn call<T>(
        &mut self,
        f: impl FnOnce(&mut Client) -> thrift::Result<T>,
    ) -> Result<T, String> {
        let result = f(self.client()?);
        result.map_err(|e| {
            if matches!(e, ThriftError::Transport(_) | ThriftError::Protocol(_)) {
                self.client = None;
            }
            message(&e)
        })
    }

    /// The column families of `keyspace`, asked of the server once per connection.
    pub fn keyspace_meta(&mut self, keyspace: &str) -> Result<&BTreeMap<String, CfMeta>, String> {
        if !self.meta.contains_key(keyspace) {
            let described = self
                .call(|c| c.describe_keyspace(keyspace.to_string()))
                .map_err(|e| not_found_as(e, keyspace))?;
            let cfs = described
                .iter()
                .map(|(cf, attrs)| (cf.clone(), CfMeta::from_description(attrs)))
                .collect();
            self.meta.insert(keyspace.to_string(), cfs);
        }
        Ok(&self.meta[keyspace])
    }

    /// One column family's metadata, or the 0.6 message for a missing one.
    pub fn cf_meta(&mut self, keyspace: &str, cf: &str) -> Result<CfMeta, String> {
        self.keyspace_meta(keyspace)?
            .get(cf)
            .copied()
            .ok_or_else(|| format!("No such column family: {cf}"))
    }

    /// The keyspace a statement means: the one it names, else the one in use.
    pub fn resolve_keyspace(&self, named: Option<&str>) -> Result<String, String> {
        named
            .or(self.keyspace.as_deref())
            .map(str::to_string)
            .ok_or_else(|| {
                "No keyspace: write KEYSPACE.COLUMN_FAMILY, or 'use KEYSPACE' first.".to_string()
            })
    }

    /// Describes every keyspace once per connection, so that completion knows their names.
    /// Quietly does nothing when not connected or when the server refuses.
    pub fn learn_names(&mut self) {
        if self.client.is_none() || !self.meta.is_empty() {
            return;
        }
        let Ok(keyspaces) = self.call(|c| c.describe_keyspaces()) else {
            return;
        };
        for ks in keyspaces {
            let _ = self.keyspace_meta(&ks);
        }
    }

    /// Keyspaces and `KS.CF` names already known, for tab completion.
    pub fn known_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for (ks, cfs) in &self.meta {
            names.push(ks.clone());
            for cf in cfs.keys() {
                names.push(format!("{ks}.{cf}"));
                if self.keyspace.as_deref() == Some(ks.as_str()) {
                    names.push(cf.clone());
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }
}

/// The marker [`message`] gives a NotFoundException, replaced where the caller knows better.
const NOT_FOUND: &str = "Value was not found";

/// Turns describe_keyspace's NotFoundException into 0.6's message for a missing keyspace.
pub fn not_found_as(message: String, keyspace: &str) -> String {
    if message == NOT_FOUND {
        format!("Keyspace {keyspace} could not be found.")
    } else {
        message
    }
}

/// True when `message` came from a NotFoundException.
pub fn is_not_found(message: &str) -> bool {
    message == NOT_FOUND
}

/// The line the cli prints for a failed call: the `why` of a declared exception, as 0.6's
/// cli printed an InvalidRequestException, and a short sentence for the others.
pub fn message(e: &ThriftError) -> String {
    match e {
        ThriftError::User(inner) => {
            if let Some(ire) = inner.downcast_ref::<InvalidRequestException>() {
                ire.why.clone()
            } else if inner.downcast_ref::<NotFoundException>().is_some() {
                NOT_FOUND.to_string()
            } else if inner.downcast_ref::<UnavailableException>().is_some() {
                "Unavailable: too few replicas are up for this consistency level.".to_string()
            } else if inner.downcast_ref::<TimedOutException>().is_some() {
                "Timed out: the server did not answer in time.".to_string()
            } else if let Some(a) = inner.downcast_ref::<AuthenticationException>() {
                format!("Authentication failed: {}", a.why)
            } else if let Some(a) = inner.downcast_ref::<AuthorizationException>() {
                format!("Not authorized: {}", a.why)
            } else {
                format!("Exception {inner}")
            }
        }
        ThriftError::Application(a) => format!("Exception {}", a.message),
        other => format!("Exception {}", detail(other)),
    }
}

/// The most telling text of a transport or protocol error: its message (e.g. "Connection
/// refused (os error 111)") rather than its kind ("not open").
fn detail(e: &ThriftError) -> String {
    match e {
        ThriftError::Transport(t) if !t.message.is_empty() => t.message.clone(),
        ThriftError::Protocol(p) if !p.message.is_empty() => p.message.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ApplicationError, ApplicationErrorKind};

    #[test]
    fn describe_keyspace_attributes_give_the_name_types() {
        let attrs = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let standard = attrs(&[
            ("Type", "Standard"),
            ("CompareWith", "org.apache.cassandra.db.marshal.LongType"),
        ]);
        assert_eq!(
            CfMeta::from_description(&standard),
            CfMeta {
                is_super: false,
                names: NameType::Long,
                subnames: NameType::Bytes
            }
        );
        let sup = attrs(&[
            ("Type", "Super"),
            ("CompareWith", "org.apache.cassandra.db.marshal.UTF8Type"),
            (
                "CompareSubcolumnsWith",
                "org.apache.cassandra.db.marshal.TimeUUIDType",
            ),
        ]);
        assert_eq!(
            CfMeta::from_description(&sup),
            CfMeta {
                is_super: true,
                names: NameType::Utf8,
                subnames: NameType::TimeUuid
            }
        );
    }

    #[test]
    fn each_exception_has_its_line() {
        let user = |e: Box<dyn std::error::Error + Send + Sync>| ThriftError::User(e);
        let table: Vec<(ThriftError, &str)> = vec![
            (
                user(Box::new(InvalidRequestException::new(
                    "Key may not be empty".into(),
                ))),
                "Key may not be empty",
            ),
            (user(Box::new(NotFoundException::new())), NOT_FOUND),
            (
                user(Box::new(UnavailableException::new())),
                "Unavailable: too few replicas are up for this consistency level.",
            ),
            (
                user(Box::new(TimedOutException::new())),
                "Timed out: the server did not answer in time.",
            ),
            (
                user(Box::new(AuthenticationException::new(
                    "bad password".into(),
                ))),
                "Authentication failed: bad password",
            ),
            (
                user(Box::new(AuthorizationException::new("no access".into()))),
                "Not authorized: no access",
            ),
            (
                ThriftError::Application(ApplicationError::new(
                    ApplicationErrorKind::InternalError,
                    "Internal error processing get",
                )),
                "Exception Internal error processing get",
            ),
            (
                std::io::Error::from(std::io::ErrorKind::ConnectionRefused).into(),
                "Exception connection refused",
            ),
        ];
        for (e, want) in table {
            assert_eq!(message(&e), want, "{e:?}");
        }
        assert_eq!(
            not_found_as(NOT_FOUND.to_string(), "Nope"),
            "Keyspace Nope could not be found."
        );
        assert_eq!(not_found_as("other".to_string(), "Nope"), "other");
    }
}
