//! Login outcomes over real sockets (`docs/api.md#auth`; D9–D13, E5–E8 of
//! `docs/compatibility.md`) under SimpleAuthenticator: every failure text in PLAIN and MD5
//! modes (wrong password, unknown user, missing keys, users and keyspaces absent from
//! access.properties, stored values that are not hex), the escaped user name, a later failed
//! login keeping an earlier success, and the properties files read afresh on every login, down
//! to their disappearance. All four wire styles.

use crate::auth::login;
use crate::cases::*;
use crate::harness::{Auth, Options, Server, KS, KS_RF3};
use crate::values::*;
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::protocol::AuthenticationRequest;
use std::collections::BTreeMap;

#[test]
fn login_outcomes_in_plain_mode() {
    let server = Server::start(Options::auth(Auth::Plain));
    let only = |key: &str, value: &str| {
        AuthenticationRequest::new(BTreeMap::from([(key.to_string(), value.to_string())]))
    };
    let required = || ire("Login is required before any other API calls");
    run(
        &server,
        &[
            case("wrong password", bad_login("PLAIN", "jsmith"), |c| {
                login(c, KS, "jsmith", "wrong")
            }),
            case(
                "unknown user: the same text (D11, E7)",
                bad_login("PLAIN", "nobody"),
                |c| login(c, KS, "nobody", "x"),
            ),
            case(
                "missing username",
                Outcome::Authentication(
                    "Authentication request was missing the required key 'username'".into(),
                ),
                move |c| outcome(c.login(KS.into(), only("password", "havebadpass"))),
            ),
            case(
                "missing password",
                Outcome::Authentication(
                    "Authentication request was missing the required key 'password'".into(),
                ),
                move |c| outcome(c.login(KS.into(), only("username", "jsmith"))),
            ),
            case(
                "user not listed for the keyspace",
                not_authorized("dilbert", KS_RF3),
                |c| login(c, KS_RF3, "dilbert", "nomoovertime"),
            ),
            case(
                "keyspace absent from access.properties (D12, E8)",
                not_authorized("jsmith", "Unlisted"),
                |c| login(c, "Unlisted", "jsmith", "havebadpass"),
            ),
            case(
                "names are exact",
                not_authorized("jsmith", "keyspace1"),
                |c| login(c, "keyspace1", "jsmith", "havebadpass"),
            ),
            case(
                "failures leave the connection logged out",
                required(),
                |c| get(c, KS, "k", cpath("Standard1", b"c")),
            ),
            case("an escaped space in a user name", Outcome::Ok, |c| {
                login(c, KS, "Elvis Presley", "graceland4evar")
            }),
            case("a later failed login", bad_login("PLAIN", "jsmith"), |c| {
                login(c, KS, "jsmith", "wrong")
            }),
            case("keeps the earlier success", Outcome::NotFound, |c| {
                get(c, KS, "k", cpath("Standard1", b"c"))
            }),
            case(
                "login does not check that the keyspace exists",
                Outcome::Ok,
                |c| login(c, "Nowhere", "dilbert", "nomoovertime"),
            ),
        ],
    );
}

#[test]
fn login_outcomes_in_md5_mode() {
    let server = Server::start(Options::auth(Auth::Md5));
    run(
        &server,
        &[
            case(
                "the stored hex is not the password",
                bad_login("MD5", "jsmith"),
                |c| login(c, KS, "jsmith", "e1a31eee2136eb73e8e47f9e9d13ab0d"),
            ),
            case("unknown user", bad_login("MD5", "nobody"), |c| {
                login(c, KS, "nobody", "havebadpass")
            }),
            case(
                "D13: a stored value that is not hex fails the check",
                bad_login("MD5", "dilbert"),
                |c| login(c, KS, "dilbert", "nomoovertime"),
            ),
            case("upper-case hex", Outcome::Ok, |c| {
                login(c, KS, "Elvis Presley", "graceland4evar")
            }),
            case("lower-case hex", Outcome::Ok, |c| {
                login(c, KS, "jsmith", "havebadpass")
            }),
            case("logged in", Outcome::Ok, |c| {
                insert(c, KS, "k", cpath("Standard1", b"c"))
            }),
        ],
    );
}

#[test]
fn tables_are_read_on_every_login() {
    let server = Server::start(Options::auth(Auth::Plain));
    let dir = server.dir().to_path_buf();
    let mut c = server.client(WireStyle::ALL[1]);
    std::fs::write(dir.join("passwd.properties"), "jsmith=changed\n").unwrap();
    assert_eq!(
        login(&mut c, KS, "jsmith", "havebadpass"),
        bad_login("PLAIN", "jsmith")
    );
    assert_eq!(login(&mut c, KS, "jsmith", "changed"), Outcome::Ok);
    std::fs::remove_file(dir.join("access.properties")).unwrap();
    let mut c = server.client(WireStyle::ALL[2]);
    let d10 = Outcome::Authorization(
        "Authorization table file access.properties could not be read".into(),
    );
    assert_eq!(login(&mut c, KS, "jsmith", "changed"), d10, "D10");
    std::fs::remove_file(dir.join("passwd.properties")).unwrap();
    let d9 = Outcome::Authentication(
        "Authentication table file passwd.properties could not be read".into(),
    );
    assert_eq!(login(&mut c, KS, "jsmith", "changed"), d9, "D9");
}
