//! The login gate over real sockets (`docs/api.md#auth`, `docs/compatibility.md#e6`): under
//! SimpleAuthenticator the 11 data methods are refused before login — before any other check —
//! and the describe family is not; a login is per connection, not tied to a keyspace, and ends
//! with the connection; AllowAllAuthenticator needs no login at all. All four wire styles.

use crate::cases::*;
use crate::harness::{tag, Auth, Options, Server, KS, KS_RF3};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::{
    AuthenticationRequest, ConsistencyLevel, KeyRange, Mutation, SlicePredicate,
};
use std::collections::BTreeMap;

/// Each of the 11 data methods, with a valid request on `ks`.
fn data_calls(c: &mut Client, ks: &str) -> Vec<(&'static str, Outcome)> {
    let p = || cpath("Standard1", b"c");
    let std = || parent("Standard1", None);
    let keys = || vec!["k".to_string()];
    let cfmap = BTreeMap::from([("Standard1".to_string(), vec![cosc_col(b"c", b"v", 1)])]);
    let mutations = mutation_map("k", "Standard1", vec![put(cosc_col(b"c", b"v", 1))]);
    let ks = || ks.to_string();
    vec![
        (
            "insert",
            outcome(c.insert(ks(), "k".into(), p(), b"v".to_vec(), 1, ONE)),
        ),
        ("get", outcome(c.get(ks(), "k".into(), p(), ONE))),
        (
            "get_slice",
            outcome(c.get_slice(ks(), "k".into(), std(), all(), ONE)),
        ),
        ("multiget", outcome(c.multiget(ks(), keys(), p(), ONE))),
        (
            "multiget_slice",
            outcome(c.multiget_slice(ks(), keys(), std(), all(), ONE)),
        ),
        (
            "get_count",
            outcome(c.get_count(ks(), "k".into(), std(), ONE)),
        ),
        (
            "get_range_slice",
            outcome(c.get_range_slice(ks(), std(), all(), "".into(), "".into(), 10, ONE)),
        ),
        (
            "get_range_slices",
            outcome(c.get_range_slices(ks(), std(), all(), crate::values::keys("", "", 10), ONE)),
        ),
        (
            "batch_insert",
            outcome(c.batch_insert(ks(), "k".into(), cfmap, ONE)),
        ),
        (
            "batch_mutate",
            outcome(c.batch_mutate(ks(), mutations, ONE)),
        ),
        (
            "remove",
            outcome(c.remove(ks(), "k".into(), path("Standard1", None, None), 0, ONE)),
        ),
    ]
}

/// The nine methods that never need a login (login itself aside) all answer.
fn assert_describe_allowed(c: &mut Client, at: &str) {
    assert!(c.describe_keyspaces().is_ok(), "{at}");
    assert!(c.describe_cluster_name().is_ok(), "{at}");
    assert!(c.describe_version().is_ok(), "{at}");
    assert!(c.describe_partitioner().is_ok(), "{at}");
    assert!(c.describe_keyspace(KS.into()).is_ok(), "{at}");
    assert!(c.describe_ring(KS.into()).is_ok(), "{at}");
    assert!(
        c.describe_splits("0".into(), "0".into(), 10).is_ok(),
        "{at}"
    );
    assert!(c.get_string_property("version".into()).is_ok(), "{at}");
    assert!(
        c.get_string_list_property("keyspaces".into()).is_ok(),
        "{at}"
    );
}

/// `login` with a username and password.
pub fn login(c: &mut Client, ks: &str, user: &str, password: &str) -> Outcome {
    outcome(c.login(ks.into(), credentials(user, password)))
}

#[test]
fn data_calls_need_a_login_per_connection() {
    let server = Server::start(Options::auth(Auth::Plain));
    let required = ire("Login is required before any other API calls");
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut c = server.client(style);
        let calls = data_calls(&mut c, KS);
        assert_eq!(calls.len(), 11);
        for (method, got) in calls {
            assert_eq!(got, required, "[{at}] {method}");
        }
        assert_describe_allowed(&mut c, at);
        let mut other = server.client(style);
        assert_eq!(
            login(&mut c, KS, "jsmith", "havebadpass"),
            Outcome::Ok,
            "{at}"
        );
        for ks in [KS, KS_RF3] {
            for (method, got) in data_calls(&mut c, ks) {
                assert_eq!(
                    got,
                    Outcome::Ok,
                    "[{at}] {method} on {ks}: not tied to the keyspace"
                );
            }
        }
        assert_eq!(
            insert(&mut other, KS, "k", cpath("Standard1", b"c")),
            required,
            "{at}: per connection"
        );
        drop(c);
        let mut again = server.client(style);
        assert_eq!(
            get(&mut again, KS, "k", cpath("Standard1", b"c")),
            required,
            "{at}: ends with the connection"
        );
    }
}

#[test]
fn login_comes_first() {
    let server = Server::start(Options::auth(Auth::Plain));
    let required = || ire("Login is required before any other API calls");
    let zero = ConsistencyLevel::ZERO;
    run(
        &server,
        &[
            case("get with everything wrong", required(), move |c| {
                outcome(c.get("Nope".into(), "".into(), path("", None, None), zero))
            }),
            case("range slices with everything wrong", required(), move |c| {
                range_slices(
                    c,
                    "Nope",
                    parent("", None),
                    SlicePredicate::new(None, None),
                    KeyRange::new(None, None, None, None, 0),
                    zero,
                )
            }),
            case("remove with an unknown level", required(), |c| {
                outcome(c.remove(
                    KS.into(),
                    "".into(),
                    path("Nope", None, None),
                    1,
                    ConsistencyLevel(42),
                ))
            }),
            case("batch_mutate with a bad mutation", required(), |c| {
                mutate(c, "Nope", "", "", vec![Mutation::new(None, None)])
            }),
        ],
    );
}

#[test]
fn allow_all_needs_no_login() {
    let server = Server::start(Options::default());
    run(
        &server,
        &[
            case("any credentials", Outcome::Ok, |c| {
                login(c, "Anything", "anyone", "anything")
            }),
            case("no credentials", Outcome::Ok, |c| {
                outcome(c.login(KS.into(), AuthenticationRequest::new(BTreeMap::new())))
            }),
        ],
    );
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        for (method, got) in data_calls(&mut c, KS) {
            assert_eq!(got, Outcome::Ok, "[{}] {method}", tag(style));
        }
    }
}
