//! InetAddressType: 4 or 16 address bytes in unsigned order, shown as Java's
//! `getHostAddress` shows them and read from address literals (`docs/types.md#inetaddresstype`).

use std::net::{IpAddr, Ipv6Addr};

pub(super) fn validate(v: &[u8]) -> Result<(), String> {
    match v.len() {
        0 | 4 | 16 => Ok(()),
        _ => Err(format!(
            "Expected 4 or 16 byte inetaddress; got {}",
            crate::comparator::hex(v)
        )),
    }
}

/// Java's text: dotted IPv4 (also for an IPv4-mapped 16-byte address, which Java turns into
/// an IPv4 address), otherwise eight lowercase hex groups without `::` compression.
pub(super) fn to_text(v: &[u8]) -> String {
    if let Ok(b) = <[u8; 4]>::try_from(v) {
        return std::net::Ipv4Addr::from(b).to_string();
    }
    let Ok(b) = <[u8; 16]>::try_from(v) else {
        return String::new();
    };
    let v6 = Ipv6Addr::from(b);
    if let Some(v4) = v6.to_ipv4_mapped() {
        return v4.to_string();
    }
    let groups: Vec<String> = v6.segments().iter().map(|g| format!("{g:x}")).collect();
    groups.join(":")
}

/// An IPv4 or IPv6 literal (an IPv6 one may be in brackets); IPv4-mapped IPv6 gives 4 bytes,
/// as in Java. Host names are refused: ilion does no name lookups here.
pub(super) fn from_text(s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let literal = s
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(s);
    match literal.parse::<IpAddr>() {
        Ok(IpAddr::V4(a)) => Ok(a.octets().to_vec()),
        Ok(IpAddr::V6(a)) => Ok(match a.to_ipv4_mapped() {
            Some(v4) => v4.octets().to_vec(),
            None => a.octets().to_vec(),
        }),
        Err(_) => Err(format!("Unable to make inet address from '{s}'")),
    }
}
