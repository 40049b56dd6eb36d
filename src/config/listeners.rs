//! ilion's listener elements beside 0.6's `<ThriftAddress>`/`<ThriftPort>`: `<ThriftEnabled>`
//! for the 0.6 listener, and `<Thrift20Enabled>`, `<Thrift20Address>`, `<Thrift20Port>` and
//! `<Thrift20Version>` for the listener of the later API (Cassandra 0.7–3.11, IDL 20.1.0).
//! Both listeners serve the same store; the two APIs share method names with different
//! argument shapes, so each has its own port instead of being told apart on one.

use super::raw::RawStorage;
use super::values::{address, boolean, integer};
use crate::error::{Error, Result};
use std::net::IpAddr;

/// `<Thrift20Port>` when absent (and `<ThriftPort>` is not 0): next to 0.6's 9160, so 0.6
/// clients keep their port.
pub const DEFAULT_THRIFT20_PORT: u16 = 9161;

/// What `describe_version` reports on the later listener unless `<Thrift20Version>` says
/// otherwise.
pub const DEFAULT_THRIFT20_VERSION: &str = "20.1.0";

/// The later API's listener.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thrift20Settings {
    /// `<Thrift20Enabled>`, true when absent.
    pub enabled: bool,
    /// `<Thrift20Address>`, the 0.6 listener's address when absent.
    pub address: IpAddr,
    /// `<Thrift20Port>`; 0 asks the OS for a free port.
    pub port: u16,
    /// `<Thrift20Version>`: the string `describe_version` returns. Clients of 0.7–2.1 that
    /// insist on a 19.x server (pycassa 1.1–1.6) are served with e.g. `19.36.2`.
    pub version: String,
}

/// Reads `<ThriftEnabled>` and the later listener's elements, given the validated 0.6
/// address and port. A node asked to pick a free 0.6 port (tests, benchmarks) also picks a
/// free later port unless `<Thrift20Port>` names one. Refuses a configuration where no
/// listener is enabled, or where both would bind the same address and port.
pub(super) fn listeners(
    raw: &RawStorage,
    thrift_address: IpAddr,
    thrift_port: u16,
) -> Result<(bool, Thrift20Settings)> {
    let thrift_enabled = boolean("ThriftEnabled", raw.thrift_enabled.as_deref(), true)?;
    let enabled = boolean("Thrift20Enabled", raw.thrift20_enabled.as_deref(), true)?;
    let address = match raw.thrift20_address.as_deref() {
        Some(v) => address("Thrift20Address", v)?,
        None => thrift_address,
    };
    let default_port = if thrift_port == 0 {
        0
    } else {
        DEFAULT_THRIFT20_PORT
    };
    let port = integer(
        "Thrift20Port",
        raw.thrift20_port.as_deref(),
        default_port,
        0,
        Some(u16::MAX),
    )?;
    let version = match raw.thrift20_version.as_deref() {
        Some(v) => api_version(v)?,
        None => DEFAULT_THRIFT20_VERSION.to_string(),
    };
    if !thrift_enabled && !enabled {
        return Err(Error::config(
            "ThriftEnabled",
            "is false and so is <Thrift20Enabled>: at least one listener must serve clients",
        ));
    }
    let overlap =
        address == thrift_address || address.is_unspecified() || thrift_address.is_unspecified();
    if thrift_enabled && enabled && port != 0 && port == thrift_port && overlap {
        return Err(Error::config(
            "Thrift20Port",
            format!(
                "{port} is also <ThriftPort>: the 0.6 API and the later API need a port each; \
                 to serve only later clients on {port}, set <ThriftEnabled>false</ThriftEnabled> \
                 or move <ThriftPort>"
            ),
        ));
    }
    let settings = Thrift20Settings {
        enabled,
        address,
        port,
        version,
    };
    Ok((thrift_enabled, settings))
}

/// A Thrift API version: three dot-separated whole numbers, as every IDL `VERSION` is.
fn api_version(value: &str) -> Result<String> {
    let parts: Vec<&str> = value.split('.').collect();
    let numeric = |p: &&str| !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit());
    if parts.len() == 3 && parts.iter().all(numeric) {
        Ok(value.to_string())
    } else {
        Err(Error::config(
            "Thrift20Version",
            format!("must be an API version such as 20.1.0 or 19.36.2, not '{value}'"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{parse, parse_err, MINIMAL};
    use super::*;
    use std::net::Ipv4Addr;

    fn with_top(extra: &str) -> String {
        MINIMAL.replacen("<Storage>", &format!("<Storage>{extra}"), 1)
    }

    #[test]
    fn later_listener_on_9161_beside_9160_by_default() {
        let config = parse(MINIMAL);
        assert!(config.thrift_enabled);
        assert_eq!(config.thrift_port, 9160);
        let later = config.thrift20;
        assert!(later.enabled);
        assert_eq!(later.port, DEFAULT_THRIFT20_PORT);
        assert_eq!(later.address, config.thrift_address);
        assert_eq!(later.version, "20.1.0");
    }

    #[test]
    fn elements_are_read() {
        let config = parse(&with_top(
            "<Thrift20Address>0.0.0.0</Thrift20Address><Thrift20Port>9260</Thrift20Port>\
             <Thrift20Version>19.36.2</Thrift20Version><Thrift20Enabled>FALSE</Thrift20Enabled>",
        ));
        let later = config.thrift20;
        assert!(!later.enabled);
        assert_eq!(later.address, IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        assert_eq!(later.port, 9260);
        assert_eq!(later.version, "19.36.2");
    }

    #[test]
    fn a_free_thrift_port_means_a_free_later_port_unless_one_is_named() {
        let free = parse(&with_top("<ThriftPort>0</ThriftPort>"));
        assert_eq!(free.thrift20.port, 0);
        let named = parse(&with_top(
            "<ThriftPort>0</ThriftPort><Thrift20Port>9999</Thrift20Port>",
        ));
        assert_eq!(named.thrift20.port, 9999);
    }

    #[test]
    fn later_clients_can_take_over_9160() {
        let config = parse(&with_top(
            "<ThriftEnabled>false</ThriftEnabled><Thrift20Port>9160</Thrift20Port>",
        ));
        assert!(!config.thrift_enabled);
        assert_eq!(config.thrift20.port, 9160);
        let moved = parse(&with_top(
            "<ThriftPort>9170</ThriftPort><Thrift20Port>9160</Thrift20Port>",
        ));
        assert_eq!((moved.thrift_port, moved.thrift20.port), (9170, 9160));
    }

    #[test]
    fn bad_values_name_their_element() {
        let (element, message) = parse_err(&with_top("<Thrift20Port>9160</Thrift20Port>"));
        assert_eq!(element, "Thrift20Port");
        assert!(message.contains("also <ThriftPort>"), "{message}");
        let (element, _) = parse_err(&with_top("<ThriftEnabled>no</ThriftEnabled>"));
        assert_eq!(element, "ThriftEnabled");
        let (element, message) = parse_err(&with_top(
            "<ThriftEnabled>false</ThriftEnabled><Thrift20Enabled>false</Thrift20Enabled>",
        ));
        assert_eq!(element, "ThriftEnabled");
        assert!(message.contains("at least one listener"), "{message}");
        for bad in ["20.1", "20.1.x", "v20.1.0", "20..0", "1.2.3.4"] {
            let (element, message) = parse_err(&with_top(&format!(
                "<Thrift20Version>{bad}</Thrift20Version>"
            )));
            assert_eq!(element, "Thrift20Version", "{bad}");
            assert!(message.contains(bad), "{message}");
        }
        let (element, _) = parse_err(&with_top("<Thrift20Port>65536</Thrift20Port>"));
        assert_eq!(element, "Thrift20Port");
        let (element, _) = parse_err(&with_top(
            "<Thrift20Address>nowhere.invalid</Thrift20Address>",
        ));
        assert_eq!(element, "Thrift20Address");
    }

    #[test]
    fn different_addresses_may_share_a_port() {
        let config = parse(&with_top(
            "<ThriftAddress>127.0.0.1</ThriftAddress><Thrift20Address>127.0.0.2</Thrift20Address>\
             <Thrift20Port>9160</Thrift20Port>",
        ));
        assert_eq!(config.thrift20.port, 9160);
    }
}
