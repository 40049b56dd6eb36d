//! The configuration target: storage-conf.xml text, and the passwd and access properties
//! files as SimpleAuthenticator reads them at each login.

use super::test_config;
use crate::auth::{properties, Authenticator, ACCESS_FILE, PASSWD_FILE};
use crate::config::Config;
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::Path;
use std::sync::OnceLock;
use tempfile::TempDir;

/// Whether parsing `text` could make the configuration resolve a host name. Addresses are
/// resolved when the configuration is validated, and a fuzzer typing host names would wait
/// on DNS; such inputs are skipped. An address element is allowed only when its content is
/// empty, `localhost` or an IP literal, written plainly (no entity, no CDATA, no child).
fn may_resolve(text: &str) -> bool {
    if !text.contains("Address") {
        return false;
    }
    if text.contains('&') || text.contains("CDATA") {
        return true;
    }
    text.match_indices("Address").any(|(at, _)| {
        let after = &text[at..];
        let Some(open) = after.find('>') else {
            return false;
        };
        let content = &after[open + 1..];
        let Some(close) = content.find('<') else {
            return false;
        };
        let value = content[..close].trim();
        let plain = content[close..].starts_with("</");
        !plain || !(value.is_empty() || value == "localhost" || value.parse::<IpAddr>().is_ok())
    })
}

/// A directory holding the two properties files, and the two configurations that read them
/// (plain and MD5 passwords).
struct AuthDir {
    dir: TempDir,
    plain: Authenticator,
    md5: Authenticator,
}

fn auth_dir() -> &'static AuthDir {
    static DIR: OnceLock<AuthDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => panic!("no temporary directory: {e}"),
        };
        let simple = "<Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>";
        let auth = |extra: &str| Authenticator::new(&test_config(extra, dir.path()));
        AuthDir {
            plain: auth(simple),
            md5: auth(&format!("{simple}<PasswordMode>MD5</PasswordMode>")),
            dir,
        }
    })
}

/// Target `config`. The first byte picks what the rest is: storage-conf.xml text (as UTF-8,
/// lossily), one properties file, or a passwd file and an access file (split at the first
/// 0xFF byte) that logins are then checked against, with plain and MD5 passwords. Checks: no
/// panic; a parsed properties map is stable (parsing the same bytes twice agrees).
pub fn config(data: &[u8]) {
    let [pick, rest @ ..] = data else {
        return;
    };
    match pick % 3 {
        0 => {
            let text = String::from_utf8_lossy(rest);
            if !may_resolve(&text) {
                let _ = Config::from_xml(&text, Path::new("."), Path::new("."));
            }
        }
        1 => {
            let first = properties::parse_bytes(rest);
            assert_eq!(first, properties::parse_bytes(rest));
        }
        _ => {
            let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
            let (passwd, access) = rest.split_at(split);
            let auth = auth_dir();
            let written =
                std::fs::write(auth.dir.path().join(PASSWD_FILE), passwd).and_then(|()| {
                    std::fs::write(
                        auth.dir.path().join(ACCESS_FILE),
                        &access[access.len().min(1)..],
                    )
                });
            if let Err(e) = written {
                panic!("cannot write the properties files: {e}");
            }
            // Users from the shared test files, and a name the fuzzer can write.
            for (user, password) in [
                ("jsmith", "havebadpass"),
                ("Elvis Presley", "rubberhorse"),
                ("a", "a"),
            ] {
                let credentials = BTreeMap::from([
                    ("username".to_string(), user.to_string()),
                    ("password".to_string(), password.to_string()),
                ]);
                for keyspace in ["Keyspace1", "Replicated", ""] {
                    let _ = auth.plain.login(keyspace, &credentials);
                    let _ = auth.md5.login(keyspace, &credentials);
                }
            }
        }
    }
}
