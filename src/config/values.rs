//! Reading single values of storage-conf.xml: booleans, bounded integers, decimals, cache
//! sizes, directories and addresses. Each helper takes the element path it is reading so that
//! its error names it, and says what a valid value looks like.

use crate::error::{Error, Result};
use std::fmt::Display;
use std::net::{IpAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// `true`/`false` in any case, as 0.6 accepted; `default` when absent.
pub(super) fn boolean(element: &str, value: Option<&str>, default: bool) -> Result<bool> {
    match value {
        None => Ok(default),
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        Some(v) => Err(Error::config(
            element,
            format!("must be true or false, not '{v}'"),
        )),
    }
}

/// A whole number of at least `min` (and at most `max`, if given); `default` when absent.
pub(super) fn integer<T>(
    element: &str,
    value: Option<&str>,
    default: T,
    min: T,
    max: Option<T>,
) -> Result<T>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    let Some(v) = value else {
        return Ok(default);
    };
    match v.parse::<T>() {
        Ok(n) if n >= min && max.is_none_or(|m| n <= m) => Ok(n),
        _ => {
            let wanted = match max {
                Some(max) => format!("an integer from {min} to {max}"),
                None => format!("an integer of at least {min}"),
            };
            Err(Error::config(
                element,
                format!("must be {wanted}, not '{v}'"),
            ))
        }
    }
}

/// A decimal number: greater than 0, or at least 0 when `zero_allowed`.
pub(super) fn decimal(element: &str, value: &str, zero_allowed: bool) -> Result<f64> {
    match value.parse::<f64>() {
        Ok(n) if n.is_finite() && (n > 0.0 || (zero_allowed && n == 0.0)) => Ok(n),
        _ => {
            let wanted = if zero_allowed {
                "a number of at least 0"
            } else {
                "a number greater than 0"
            };
            Err(Error::config(
                element,
                format!("must be {wanted}, not '{value}'"),
            ))
        }
    }
}

/// A decimal number greater than 0; `default` when absent.
pub(super) fn positive_decimal(element: &str, value: Option<&str>, default: f64) -> Result<f64> {
    value.map_or(Ok(default), |v| decimal(element, v, false))
}

/// A cache size in one of 0.6's three forms: a fraction below 1, a percentage `N%`, or an
/// absolute count. Only the form is checked: a single node keeps no sstable caches.
pub(super) fn cache_size(element: &str, value: Option<&str>) -> Result<()> {
    let Some(v) = value else {
        return Ok(());
    };
    let valid = match v.strip_suffix('%') {
        Some(percent) => percent
            .trim()
            .parse::<f64>()
            .is_ok_and(|p| (0.0..=100.0).contains(&p)),
        None => v.parse::<f64>().is_ok_and(|n| n.is_finite() && n >= 0.0),
    };
    if valid {
        Ok(())
    } else {
        Err(Error::config(
            element,
            format!("must be a count, a fraction below 1 or a percentage such as 50%, not '{v}'"),
        ))
    }
}

/// A required directory, made absolute against `working_dir` and lexically tidied
/// (`a/./b/` and `a/b` are the same directory).
pub(super) fn directory(element: &str, value: Option<&str>, working_dir: &Path) -> Result<PathBuf> {
    let v = value.ok_or_else(|| Error::config(element, "is required"))?;
    Ok(working_dir.join(v).components().collect())
}

/// A host name or IP address, resolved to one IP (IPv4 preferred, as `localhost` should
/// mean 127.0.0.1 even where it also resolves to ::1).
pub(super) fn address(element: &str, value: &str) -> Result<IpAddr> {
    let bare = value.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(ip);
    }
    let resolved: Vec<IpAddr> = (bare, 0)
        .to_socket_addrs()
        .map_err(|e| {
            Error::config(
                element,
                format!("'{value}' does not resolve to an IP address: {e}"),
            )
        })?
        .map(|a| a.ip())
        .collect();
    resolved
        .iter()
        .find(|ip| ip.is_ipv4())
        .or(resolved.first())
        .copied()
        .ok_or_else(|| {
            Error::config(
                element,
                format!("'{value}' does not resolve to an IP address"),
            )
        })
}
