//! Every login outcome of `docs/api.md#auth` with ilion's D9–D13 and E5–E8
//! (`docs/compatibility.md#d9` onwards), in both password modes, against property files written
//! to a temporary directory.

use super::*;
use std::fs;

const PASSWD: &str = "jsmith=havebadpass\nElvis\\ Presley=graceland4evar\ndilbert=nomoovertime\n";
const ACCESS: &str = "Keyspace1=jsmith,Elvis Presley,dilbert\nSpaced=jsmith, dilbert\n";

/// A temporary config directory; it is deleted when the Setup is dropped, so tests keep
/// the Setup bound for as long as they log in.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new(passwd: Option<&str>, access: Option<&str>) -> Setup {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let setup = Setup { dir };
        if let Some(text) = passwd {
            setup.write(PASSWD_FILE, text);
        }
        if let Some(text) = access {
            setup.write(ACCESS_FILE, text);
        }
        setup
    }

    fn write(&self, file: &str, text: &str) {
        fs::write(self.dir.path().join(file), text).unwrap_or_else(|e| panic!("{e}"));
    }

    fn auth(&self, mode: PasswordMode) -> Authenticator {
        Authenticator {
            kind: AuthenticatorKind::Simple,
            mode,
            config_dir: self.dir.path().to_path_buf(),
        }
    }
}

fn creds(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn user(name: &str, password: &str) -> BTreeMap<String, String> {
    creds(&[("username", name), ("password", password)])
}

fn authn(text: &str) -> Result<()> {
    Err(Error::Authentication(text.to_string()))
}

fn authz(text: &str) -> Result<()> {
    Err(Error::Authorization(text.to_string()))
}

fn md5_hex(password: &str) -> String {
    md5(password.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn allow_all_admits_anything_and_needs_no_login() {
    let auth = Authenticator {
        kind: AuthenticatorKind::AllowAll,
        mode: PasswordMode::Plain,
        config_dir: PathBuf::from("/nonexistent"),
    };
    assert!(!auth.requires_login());
    assert_eq!(auth.login("AnyKeyspace", &BTreeMap::new()), Ok(()));
}

#[test]
fn simple_needs_login() {
    assert!(Setup::new(None, None)
        .auth(PasswordMode::Plain)
        .requires_login());
}

#[test]
fn plain_passwords_admit_listed_users() {
    let setup = Setup::new(Some(PASSWD), Some(ACCESS));
    let auth = setup.auth(PasswordMode::Plain);
    for (name, password) in [
        ("jsmith", "havebadpass"),
        ("Elvis Presley", "graceland4evar"),
        ("dilbert", "nomoovertime"),
    ] {
        assert_eq!(
            auth.login("Keyspace1", &user(name, password)),
            Ok(()),
            "{name}"
        );
    }
}

#[test]
fn missing_credential_keys_are_checked_first() {
    // No files at all: the key checks come before any file is read.
    let setup = Setup::new(None, None);
    let auth = setup.auth(PasswordMode::Plain);
    assert_eq!(
        auth.login("Keyspace1", &creds(&[("password", "x")])),
        authn("Authentication request was missing the required key 'username'")
    );
    assert_eq!(
        auth.login("Keyspace1", &creds(&[("username", "jsmith")])),
        authn("Authentication request was missing the required key 'password'")
    );
}

#[test]
fn an_unreadable_passwd_file_is_an_authentication_error() {
    let missing = Setup::new(None, Some(ACCESS));
    let unreadable = Setup::new(None, Some(ACCESS));
    fs::create_dir(unreadable.dir.path().join(PASSWD_FILE)).unwrap_or_else(|e| panic!("{e}"));
    let malformed = Setup::new(Some("jsmith=\\uZZZZ\n"), Some(ACCESS));
    for setup in [missing, unreadable, malformed] {
        assert_eq!(
            setup
                .auth(PasswordMode::Plain)
                .login("Keyspace1", &user("jsmith", "havebadpass")),
            authn("Authentication table file passwd.properties could not be read")
        );
    }
}

#[test]
fn unknown_user_and_wrong_password_get_the_same_message() {
    let setup = Setup::new(Some(PASSWD), None);
    let auth = setup.auth(PasswordMode::Plain);
    // The access file is missing, which shows the password is checked before it is read.
    assert_eq!(
        auth.login("Keyspace1", &user("jsmith", "wrong")),
        authn("Given password in password mode PLAIN could not be validated for user jsmith")
    );
    assert_eq!(
        auth.login("Keyspace1", &user("nobody", "havebadpass")),
        authn("Given password in password mode PLAIN could not be validated for user nobody")
    );
    assert_eq!(
        auth.login("Keyspace1", &user("jsmith", "havebadpass ")),
        authn("Given password in password mode PLAIN could not be validated for user jsmith")
    );
}

#[test]
fn an_unreadable_access_file_is_an_authorization_error() {
    let setup = Setup::new(Some(PASSWD), None);
    let auth = setup.auth(PasswordMode::Plain);
    assert_eq!(
        auth.login("Keyspace1", &user("jsmith", "havebadpass")),
        authz("Authorization table file access.properties could not be read")
    );
}

#[test]
fn users_must_be_listed_exactly_for_the_keyspace() {
    let setup = Setup::new(Some(PASSWD), Some(ACCESS));
    let auth = setup.auth(PasswordMode::Plain);
    // Keyspace absent from the file (D12), then present but without the user.
    assert_eq!(
        auth.login("Keyspace2", &user("jsmith", "havebadpass")),
        authz("User jsmith could not be authorized to use keyspace Keyspace2")
    );
    setup.write(ACCESS_FILE, "Keyspace1=jsmith\n");
    assert_eq!(
        auth.login("Keyspace1", &user("dilbert", "nomoovertime")),
        authz("User dilbert could not be authorized to use keyspace Keyspace1")
    );
    // Lists are split on commas only, so " dilbert" is not "dilbert".
    setup.write(ACCESS_FILE, ACCESS);
    assert_eq!(auth.login("Spaced", &user("jsmith", "havebadpass")), Ok(()));
    assert_eq!(
        auth.login("Spaced", &user("dilbert", "nomoovertime")),
        authz("User dilbert could not be authorized to use keyspace Spaced")
    );
}

#[test]
fn files_are_read_again_at_every_login() {
    let setup = Setup::new(Some(PASSWD), Some(ACCESS));
    let auth = setup.auth(PasswordMode::Plain);
    assert_eq!(
        auth.login("Keyspace1", &user("jsmith", "havebadpass")),
        Ok(())
    );
    setup.write(PASSWD_FILE, "jsmith=newpass\n");
    assert!(auth
        .login("Keyspace1", &user("jsmith", "havebadpass"))
        .is_err());
    assert_eq!(auth.login("Keyspace1", &user("jsmith", "newpass")), Ok(()));
}

#[test]
fn md5_mode_compares_digests_in_either_case() {
    let passwd = format!(
        "jsmith={}\ndilbert={}\n",
        md5_hex("havebadpass"),
        md5_hex("nomoovertime").to_uppercase()
    );
    let setup = Setup::new(Some(&passwd), Some(ACCESS));
    let auth = setup.auth(PasswordMode::Md5);
    assert_eq!(
        auth.login("Keyspace1", &user("jsmith", "havebadpass")),
        Ok(())
    );
    assert_eq!(
        auth.login("Keyspace1", &user("dilbert", "nomoovertime")),
        Ok(())
    );
    assert_eq!(
        auth.login("Keyspace1", &user("jsmith", "wrong")),
        authn("Given password in password mode MD5 could not be validated for user jsmith")
    );
    assert_eq!(
        auth.login("Keyspace1", &user("nobody", "x")),
        authn("Given password in password mode MD5 could not be validated for user nobody")
    );
}

#[test]
fn md5_mode_refuses_entries_that_are_not_hex_digests() {
    // Odd length, non-hex, and a plain password: each fails like a wrong password (D13).
    let passwd = "odd=abc\nnonhex=zz\nplain=havebadpass\n";
    let setup = Setup::new(Some(passwd), Some(ACCESS));
    let auth = setup.auth(PasswordMode::Md5);
    for (name, password) in [("odd", "abc"), ("nonhex", "zz"), ("plain", "havebadpass")] {
        assert_eq!(
            auth.login("Keyspace1", &user(name, password)),
            authn(&format!(
                "Given password in password mode MD5 could not be validated for user {name}"
            ))
        );
    }
}

#[test]
fn digest_helpers() {
    assert_eq!(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
    assert_eq!(
        hex_digest("D41D8CD98F00B204E9800998ECF8427E"),
        Some(md5(b""))
    );
    assert_eq!(hex_digest("d41d8cd98f00b204e9800998ecf8427"), None);
    assert_eq!(hex_digest("g41d8cd98f00b204e9800998ecf8427e"), None);
    assert!(constant_time_eq(&[7; 16], &[7; 16]));
    let mut other = [7; 16];
    other[15] = 8;
    assert!(!constant_time_eq(&[7; 16], &other));
}

#[test]
fn the_sample_files_admit_their_users() {
    let conf = Path::new(env!("CARGO_MANIFEST_DIR")).join("conf/storage-conf.xml");
    let mut config = Config::load(&conf).unwrap_or_else(|e| panic!("{e}"));
    assert!(!Authenticator::new(&config).requires_login());
    config.authenticator = AuthenticatorKind::Simple;
    let auth = Authenticator::new(&config);
    assert_eq!(
        auth.login("Keyspace1", &user("Elvis Presley", "graceland4evar")),
        Ok(())
    );
    assert_eq!(
        auth.login("BloggyAppy", &user("jsmith", "havebadpass")),
        authz("User jsmith could not be authorized to use keyspace BloggyAppy")
    );
}
