//! ilion's admin endpoint elements: `<AdminAddress>`, `<AdminPort>` and `<AdminToken>`. The
//! endpoint (metrics, status page, the API of `ilion tool`) can drain and snapshot the node,
//! so it listens on loopback unless a token guards it: a non-loopback address without
//! `<AdminToken>` is refused here, at start-up.

use super::raw::RawStorage;
use super::values::{address, integer};
use crate::error::{Error, Result};
use std::net::{IpAddr, Ipv4Addr};

/// `<AdminPort>` when absent (and `<ThriftPort>` is not 0).
pub const DEFAULT_ADMIN_PORT: u16 = 8160;

/// Where the admin endpoint listens and what it asks of callers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminSettings {
    /// `<AdminAddress>`, 127.0.0.1 when absent.
    pub address: IpAddr,
    /// `<AdminPort>`; 0 asks the OS for a free port.
    pub port: u16,
    /// `<AdminToken>`: when set, every request must carry `Authorization: Bearer TOKEN`.
    pub token: Option<String>,
}

/// Reads the admin elements. `thrift_port` is the validated `<ThriftPort>`: a node asked to
/// pick a free Thrift port (tests, benchmarks) also picks a free admin port unless
/// `<AdminPort>` says otherwise, so that such nodes never fight over 8160.
pub(super) fn admin(raw: &RawStorage, thrift_port: u16) -> Result<AdminSettings> {
    let address = match raw.admin_address.as_deref() {
        Some(v) => address("AdminAddress", v)?,
        None => IpAddr::V4(Ipv4Addr::LOCALHOST),
    };
    let default_port = if thrift_port == 0 {
        0
    } else {
        DEFAULT_ADMIN_PORT
    };
    let port = integer(
        "AdminPort",
        raw.admin_port.as_deref(),
        default_port,
        0,
        Some(u16::MAX),
    )?;
    let token = raw.admin_token.clone();
    if let Some(t) = &token {
        if t.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(Error::config(
                "AdminToken",
                "must not contain spaces or control characters (it travels in an HTTP header)",
            ));
        }
    }
    if !address.is_loopback() && token.is_none() {
        return Err(Error::config(
            "AdminAddress",
            format!(
                "{address} is not a loopback address: set <AdminToken> so that only callers \
                 who know it can use the admin endpoint, or listen on 127.0.0.1"
            ),
        ));
    }
    Ok(AdminSettings {
        address,
        port,
        token,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{parse, MINIMAL};
    use super::*;

    fn with_top(extra: &str) -> String {
        MINIMAL.replacen("<Storage>", &format!("<Storage>{extra}"), 1)
    }

    #[test]
    fn loopback_8160_and_no_token_by_default() {
        let admin = parse(MINIMAL).admin;
        assert_eq!(admin.address, IpAddr::V4(Ipv4Addr::LOCALHOST));
        assert_eq!(admin.port, DEFAULT_ADMIN_PORT);
        assert_eq!(admin.token, None);
    }

    #[test]
    fn a_free_thrift_port_means_a_free_admin_port_unless_one_is_named() {
        let free = parse(&with_top("<ThriftPort>0</ThriftPort>")).admin;
        assert_eq!(free.port, 0);
        let named = parse(&with_top(
            "<ThriftPort>0</ThriftPort><AdminPort>9999</AdminPort>",
        ))
        .admin;
        assert_eq!(named.port, 9999);
    }

    #[test]
    fn a_token_allows_any_address() {
        let admin = parse(&with_top(
            "<AdminAddress>0.0.0.0</AdminAddress><AdminToken>s3cret</AdminToken>",
        ))
        .admin;
        assert_eq!(admin.address, IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        assert_eq!(admin.token.as_deref(), Some("s3cret"));
    }
}
