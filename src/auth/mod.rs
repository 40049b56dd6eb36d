//! Login for both APIs (`docs/api.md#auth`, `docs/api-later.md#sessions`):
//! AllowAllAuthenticator, which admits everyone and needs no login, and SimpleAuthenticator,
//! which checks a user's password against `passwd.properties` and the keyspace against
//! `access.properties`. The 0.6 `login` checks both at once; the later API checks the
//! password at `login` and the keyspace when a call uses one. Both files sit in the
//! directory of storage-conf.xml (`docs/compatibility.md#e5`) and are read afresh at every
//! check (a later-API session checks a keyspace once per login), so edits take effect
//! without a restart. Clients see only the short 0.6/ilion
//! messages; the server log gets the full path and cause of any file problem.

pub mod properties;

use crate::config::{AuthenticatorKind, Config, PasswordMode};
use crate::error::{Error, Result};
use md5::{Digest, Md5};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// File of `user=password` lines read by SimpleAuthenticator.
pub const PASSWD_FILE: &str = "passwd.properties";
/// File of `keyspace=user1,user2,…` lines read by SimpleAuthenticator.
pub const ACCESS_FILE: &str = "access.properties";

/// Decides `login` calls. Cheap to clone; holds no file contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authenticator {
    kind: AuthenticatorKind,
    mode: PasswordMode,
    config_dir: PathBuf,
}

impl Authenticator {
    /// The authenticator `<Authenticator>` and `<PasswordMode>` of `config` ask for.
    pub fn new(config: &Config) -> Self {
        Authenticator {
            kind: config.authenticator,
            mode: config.password_mode,
            config_dir: config.config_dir.clone(),
        }
    }

    /// Whether data calls need a successful login first (false for AllowAll,
    /// `docs/api.md#auth`).
    pub fn requires_login(&self) -> bool {
        self.kind == AuthenticatorKind::Simple
    }

    /// Checks a login to `keyspace`, in 0.6's order: `username` key, `password` key, passwd
    /// file, password, access file, keyspace entry. AllowAll admits every request.
    pub fn login(&self, keyspace: &str, credentials: &BTreeMap<String, String>) -> Result<()> {
        if let Some(user) = self.authenticate(credentials)? {
            self.authorize(&user, keyspace)?;
        }
        Ok(())
    }

    /// Checks the credentials alone (the later API's `login`, which names no keyspace):
    /// `username` key, `password` key, passwd file, password. Returns the user, or `None`
    /// under AllowAll, which admits everyone and checks nothing.
    pub fn authenticate(&self, credentials: &BTreeMap<String, String>) -> Result<Option<String>> {
        if self.kind == AuthenticatorKind::AllowAll {
            return Ok(None);
        }
        // The password mode was validated with the configuration, so it is known here.
        let required = |key: &str| {
            credentials.get(key).ok_or_else(|| {
                Error::Authentication(format!(
                    "Authentication request was missing the required key '{key}'"
                ))
            })
        };
        let username = required("username")?;
        let password = required("password")?;

        let users = self.read_table(PASSWD_FILE).ok_or_else(|| {
            Error::Authentication(format!(
                "Authentication table file {PASSWD_FILE} could not be read"
            ))
        })?;
        // Unknown user and wrong password give the same answer (ilion D11, E7).
        if !self.password_matches(username, password, users.get(username)) {
            tracing::info!(user = %username, "login refused: unknown user or wrong password");
            return Err(Error::Authentication(format!(
                "Given password in password mode {} could not be validated for user {username}",
                self.mode.as_str()
            )));
        }
        Ok(Some(username.clone()))
    }

    /// Whether `user` may use `keyspace`: listed under that key of access.properties
    /// (comma-separated, exact matches; a key with no entry admits nobody, D12, E8). The
    /// later API asks with the special key `<modify-keyspaces>` for keyspace schema changes.
    pub fn authorize(&self, user: &str, keyspace: &str) -> Result<()> {
        let access = self.read_table(ACCESS_FILE).ok_or_else(|| {
            Error::Authorization(format!(
                "Authorization table file {ACCESS_FILE} could not be read"
            ))
        })?;
        let allowed = access
            .get(keyspace)
            .is_some_and(|users| users.split(',').any(|listed| listed == user));
        if !allowed {
            tracing::info!(user = %user, keyspace, "refused: not authorized");
            return Err(Error::Authorization(format!(
                "User {user} could not be authorized to use keyspace {keyspace}"
            )));
        }
        Ok(())
    }

    /// Reads one of the two tables, or logs why it cannot and returns `None`.
    fn read_table(&self, file: &str) -> Option<BTreeMap<String, String>> {
        let path = self.config_dir.join(file);
        let parsed = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| properties::parse_bytes(&bytes).map_err(|e| e.to_string()));
        match parsed {
            Ok(table) => Some(table),
            Err(cause) => {
                log_unreadable(&path, &cause);
                None
            }
        }
    }

    /// Compares in constant time with respect to the password and the stored value: both
    /// sides are reduced to 16-byte MD5 digests first, and an unknown user is compared
    /// against a dummy so that it takes as long as a known one.
    fn password_matches(&self, user: &str, given: &str, stored: Option<&String>) -> bool {
        let given_digest = md5(given.as_bytes());
        let expected = match (self.mode, stored) {
            (_, None) => None,
            (PasswordMode::Plain, Some(stored)) => Some(md5(stored.as_bytes())),
            (PasswordMode::Md5, Some(stored)) => {
                let digest = hex_digest(stored);
                if digest.is_none() {
                    // D13: a broken entry fails like a wrong password, and the operator is told.
                    tracing::warn!(
                        user = %user,
                        file = PASSWD_FILE,
                        "password entry is not a 32-digit hex MD5 digest; \
                         refusing the login as PasswordMode is MD5"
                    );
                }
                digest
            }
        };
        let equal = constant_time_eq(&given_digest, &expected.unwrap_or([0; 16]));
        equal && expected.is_some()
    }
}

fn log_unreadable(path: &Path, cause: &str) {
    tracing::warn!(path = %path.display(), %cause, "authentication table could not be read");
}

fn md5(bytes: &[u8]) -> [u8; 16] {
    Md5::digest(bytes).into()
}

/// The 16 bytes of a hex MD5 digest in either case; `None` for anything else (odd length,
/// non-hex characters, or a length that cannot be an MD5).
fn hex_digest(hex: &str) -> Option<[u8; 16]> {
    let bytes = hex.as_bytes();
    if bytes.len() != 32 {
        return None;
    }
    let mut digest = [0u8; 16];
    for (out, pair) in digest.iter_mut().zip(bytes.chunks_exact(2)) {
        let high = char::from(pair[0]).to_digit(16)?;
        let low = char::from(pair[1]).to_digit(16)?;
        *out = u8::try_from(high * 16 + low).ok()?;
    }
    Some(digest)
}

/// Equality without an early exit: every byte is looked at whatever the first difference.
fn constant_time_eq(a: &[u8; 16], b: &[u8; 16]) -> bool {
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests;
