//! The crate's one error type. Every layer returns [`Result`]; the kinds are the few that
//! mean something different to a client (they map one-to-one onto the Thrift exceptions in
//! `service::errors`) plus the operator-facing kinds for configuration and storage.

use std::fmt;

/// Everything that can go wrong in ilion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The request is malformed or names something that does not exist; the text is the
    /// exact `why` a Cassandra 0.6 client sees in InvalidRequestException.
    InvalidRequest(String),
    /// Nothing live was found where `get` looked.
    NotFound,
    /// Not enough replicas for the requested consistency level.
    Unavailable,
    /// Login failed (AuthenticationException).
    Authentication(String),
    /// Login succeeded but the user may not use the keyspace (AuthorizationException).
    Authorization(String),
    /// storage-conf.xml is wrong; `element` names the XML element or attribute at fault.
    Config {
        /// The path of the element or attribute below `<Storage>`.
        element: String,
        /// What is wrong with it.
        message: String,
    },
    /// An I/O or engine failure while reading or writing data.
    Storage(String),
    /// The data directory holds something ilion did not write or can no longer read.
    Corrupt(String),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An InvalidRequestException with the given `why`.
    pub fn invalid(why: impl Into<String>) -> Self {
        Error::InvalidRequest(why.into())
    }

    /// A configuration error naming the element at fault.
    pub fn config(element: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Config {
            element: element.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRequest(why) => write!(f, "invalid request: {why}"),
            Error::NotFound => f.write_str("not found"),
            Error::Unavailable => f.write_str("unavailable"),
            Error::Authentication(why) => write!(f, "authentication failed: {why}"),
            Error::Authorization(why) => write!(f, "authorization failed: {why}"),
            Error::Config { element, message } => {
                write!(f, "configuration error in <{element}>: {message}")
            }
            Error::Storage(msg) => write!(f, "storage error: {msg}"),
            Error::Corrupt(msg) => write!(f, "corrupt data directory: {msg}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Storage(e.to_string())
    }
}
