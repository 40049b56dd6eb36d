//! `docs/api.md#auth`: which calls need a login under SimpleAuthenticator, and the login flag's
//! life.

use super::*;
use crate::protocol::AuthenticationRequest;

fn credentials(user: &str, password: &str) -> AuthenticationRequest {
    AuthenticationRequest::new(BTreeMap::from([
        ("username".to_string(), user.to_string()),
        ("password".to_string(), password.to_string()),
    ]))
}

fn login(s: &Session, ks: &str, user: &str, password: &str) -> Outcome {
    outcome(s.handle_login(ks.into(), credentials(user, password)))
}

/// Each of the 11 data methods, with a valid request.
fn data_calls(s: &Session, ks: &str) -> Vec<(&'static str, Outcome)> {
    let p = || path("Standard1", None, Some(b"c"));
    let std = || parent("Standard1", None);
    let keys = || vec!["k".to_string()];
    let cfmap = BTreeMap::from([("Standard1".to_string(), vec![cosc_col(b"c", b"v", 1)])]);
    let mutations = BTreeMap::from([(
        "k".to_string(),
        BTreeMap::from([("Standard1".to_string(), vec![put(cosc_col(b"c", b"v", 1))])]),
    )]);
    let ks = || ks.to_string();
    vec![
        (
            "insert",
            outcome(s.handle_insert(ks(), "k".into(), p(), b"v".to_vec(), 1, ONE)),
        ),
        ("get", outcome(s.handle_get(ks(), "k".into(), p(), ONE))),
        (
            "get_slice",
            outcome(s.handle_get_slice(ks(), "k".into(), std(), all(), ONE)),
        ),
        (
            "multiget",
            outcome(s.handle_multiget(ks(), keys(), p(), ONE)),
        ),
        (
            "multiget_slice",
            outcome(s.handle_multiget_slice(ks(), keys(), std(), all(), ONE)),
        ),
        (
            "get_count",
            outcome(s.handle_get_count(ks(), "k".into(), std(), ONE)),
        ),
        (
            "get_range_slice",
            outcome(s.handle_get_range_slice(ks(), std(), all(), "".into(), "".into(), 10, ONE)),
        ),
        (
            "get_range_slices",
            outcome(s.handle_get_range_slices(ks(), std(), all(), keys_range(), ONE)),
        ),
        (
            "batch_insert",
            outcome(s.handle_batch_insert(ks(), "k".into(), cfmap, ONE)),
        ),
        (
            "batch_mutate",
            outcome(s.handle_batch_mutate(ks(), mutations, ONE)),
        ),
        (
            "remove",
            outcome(s.handle_remove(ks(), "k".into(), path("Standard1", None, None), 0, ONE)),
        ),
    ]
}

fn keys_range() -> KeyRange {
    keys("", "", 10)
}

fn simple() -> Fixture {
    Fixture::with(Options {
        simple_auth: true,
        ..Options::default()
    })
}

#[test]
fn data_calls_need_a_login() {
    let f = simple();
    let s = f.session();
    let required = ire("Login is required before any other API calls");
    let calls = data_calls(&s, KS);
    assert_eq!(calls.len(), 11);
    for (method, got) in calls {
        assert_eq!(got, required, "{method}");
    }
    // Never gated: describe_* and the properties.
    assert!(s.handle_describe_keyspaces().is_ok());
    assert!(s.handle_describe_cluster_name().is_ok());
    assert!(s.handle_describe_version().is_ok());
    assert!(s.handle_describe_partitioner().is_ok());
    assert!(s.handle_describe_keyspace(KS.into()).is_ok());
    assert!(s.handle_describe_ring(KS.into()).is_ok());
    assert!(s.handle_describe_splits("0".into(), "0".into(), 10).is_ok());
    assert!(s.handle_get_string_property("version".into()).is_ok());
    assert!(s
        .handle_get_string_list_property("keyspaces".into())
        .is_ok());

    assert_eq!(login(&s, KS, "dilbert", "nomoovertime"), Outcome::Ok);
    assert!(s.is_logged_in());
    // Not tied to the keyspace logged in to.
    for ks in [KS, KS_RF3] {
        for (method, got) in data_calls(&s, ks) {
            assert_eq!(got, Outcome::Ok, "{method} on {ks}");
        }
    }
}

#[test]
fn the_flag_is_per_connection_and_survives_failed_logins() {
    let f = simple();
    let s = f.session();
    assert_eq!(
        login(&s, KS, "jsmith", "wrong"),
        Outcome::Authentication(
            "Given password in password mode PLAIN could not be validated for user jsmith".into()
        )
    );
    assert!(!s.is_logged_in());
    assert_eq!(
        login(&s, KS, "nobody", "x"),
        Outcome::Authentication(
            "Given password in password mode PLAIN could not be validated for user nobody".into()
        )
    );
    assert_eq!(
        login(&s, KS_RF3, "dilbert", "nomoovertime"),
        Outcome::Authorization(
            "User dilbert could not be authorized to use keyspace Replicated".into()
        )
    );
    assert!(!s.is_logged_in());
    assert_eq!(
        login(&s, KS, "Elvis Presley", "graceland4evar"),
        Outcome::Ok
    );
    assert_eq!(
        login(&s, KS, "jsmith", "wrong"),
        Outcome::Authentication(
            "Given password in password mode PLAIN could not be validated for user jsmith".into()
        )
    );
    assert!(
        s.is_logged_in(),
        "a failed login does not clear an earlier success"
    );
    assert_eq!(
        insert(&s, KS, "k", path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );

    let other = f.session();
    assert!(!other.is_logged_in());
    assert_eq!(
        insert(&other, KS, "k", path("Standard1", None, Some(b"c"))),
        ire("Login is required before any other API calls")
    );
    let missing_password = AuthenticationRequest::new(BTreeMap::from([(
        "username".to_string(),
        "jsmith".to_string(),
    )]));
    assert_eq!(
        outcome(other.handle_login(KS.into(), missing_password)),
        Outcome::Authentication(
            "Authentication request was missing the required key 'password'".into()
        )
    );
}

#[test]
fn unreadable_tables() {
    let f = simple();
    let s = f.session();
    std::fs::remove_file(f.dir.path().join("access.properties")).unwrap();
    assert_eq!(
        login(&s, KS, "jsmith", "havebadpass"),
        Outcome::Authorization(
            "Authorization table file access.properties could not be read".into()
        )
    );
    std::fs::remove_file(f.dir.path().join("passwd.properties")).unwrap();
    assert_eq!(
        login(&s, KS, "jsmith", "havebadpass"),
        Outcome::Authentication(
            "Authentication table file passwd.properties could not be read".into()
        )
    );
}

#[test]
fn allow_all_needs_no_login() {
    let f = Fixture::new();
    let s = f.session();
    for (method, got) in data_calls(&s, KS) {
        assert_eq!(got, Outcome::Ok, "{method}");
    }
    assert_eq!(login(&s, "Anything", "anyone", "anything"), Outcome::Ok);
    let empty = AuthenticationRequest::new(BTreeMap::new());
    assert_eq!(outcome(s.handle_login(KS.into(), empty)), Outcome::Ok);
}
