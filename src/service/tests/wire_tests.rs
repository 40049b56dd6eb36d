//! Calls over the Thrift encoding through [`Connection::process`], decoded by the generated
//! client: every exception the errors table maps must fit the method's result struct (an
//! undeclared one would reach the client as an UNKNOWN application error instead).

use super::*;
use crate::protocol::generated::{CassandraSyncClient, TCassandraSyncClient};
use crate::protocol::{AuthenticationRequest, Connection, Mode};
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};

type Client<'a> =
    CassandraSyncClient<TBinaryInputProtocol<&'a [u8]>, TBinaryOutputProtocol<&'a mut Vec<u8>>>;

/// Sends what `call` encodes through `session` and decodes the reply the same way.
fn wire<T>(session: &mut Session, call: impl Fn(&mut Client<'_>) -> thrift::Result<T>) -> Outcome {
    let mut request = Vec::new();
    {
        let mut client = CassandraSyncClient::new(
            TBinaryInputProtocol::new(&[][..], true),
            TBinaryOutputProtocol::new(&mut request, true),
        );
        let _ = call(&mut client); // the reply is read below
    }
    let mode = Mode {
        framed: false,
        strict: true,
    };
    let reply = session.process(&request, mode).expect("a well-formed call");
    let mut sink = Vec::new();
    let mut client = CassandraSyncClient::new(
        TBinaryInputProtocol::new(&reply[..], true),
        TBinaryOutputProtocol::new(&mut sink, true),
    );
    outcome(call(&mut client))
}

fn ks() -> String {
    KS.to_string()
}

#[test]
fn declared_exceptions_reach_the_client() {
    let f = Fixture::new();
    let mut s = f.session();
    let c = || path("Standard1", None, Some(b"c"));
    let std = || parent("Standard1", None);
    let rf3 = || KS_RF3.to_string();
    let q = ConsistencyLevel::QUORUM;
    assert_eq!(
        wire(&mut s, |c_| c_.get(ks(), "k".into(), c(), ONE)),
        Outcome::NotFound
    );
    assert_eq!(
        wire(&mut s, |cl| cl.get(
            ks(),
            "k".into(),
            path("Nope", None, None),
            ONE
        )),
        ire("unconfigured columnfamily Nope")
    );
    let unavailable = [
        wire(&mut s, |cl| cl.get(rf3(), "k".into(), c(), q)),
        wire(&mut s, |cl| {
            cl.get_slice(rf3(), "k".into(), std(), all(), q)
        }),
        wire(&mut s, |cl| cl.multiget(rf3(), vec!["k".into()], c(), q)),
        wire(&mut s, |cl| {
            cl.multiget_slice(rf3(), vec!["k".into()], std(), all(), q)
        }),
        wire(&mut s, |cl| cl.get_count(rf3(), "k".into(), std(), q)),
        wire(&mut s, |cl| {
            cl.get_range_slice(rf3(), std(), all(), "".into(), "".into(), 1, q)
        }),
        wire(&mut s, |cl| {
            cl.get_range_slices(rf3(), std(), all(), keys("", "", 1), q)
        }),
    ];
    for (i, got) in unavailable.into_iter().enumerate() {
        assert_eq!(got, Outcome::Unavailable, "read #{i}");
    }
    assert_eq!(
        wire(&mut s, |cl| cl.describe_keyspace("Nope".into())),
        Outcome::NotFound
    );
    assert_eq!(
        wire(&mut s, |cl| cl.describe_ring("system".into())),
        ire("There is no ring for the keyspace: system")
    );
    assert_eq!(
        wire(&mut s, |cl| cl.describe_splits("x".into(), "0".into(), 5)),
        internal("Invalid token 'x': RandomPartitioner tokens are decimal integers")
    );
    assert_eq!(wire(&mut s, |cl| cl.describe_version()), Outcome::Ok);
    // remove's level is optional on the wire, so an unknown one reaches the handler (D7).
    assert_eq!(
        wire(&mut s, |cl| cl.remove(
            ks(),
            "k".into(),
            c(),
            1,
            ConsistencyLevel(9)
        )),
        ire("Unknown consistency level 9")
    );
}

#[test]
fn login_and_gated_writes_over_the_wire() {
    let f = Fixture::with(Options {
        simple_auth: true,
        ..Options::default()
    });
    let mut s = f.session();
    let required = ire("Login is required before any other API calls");
    let c = || path("Standard1", None, Some(b"c"));
    let writes = [
        wire(&mut s, |cl| {
            cl.insert(ks(), "k".into(), c(), b"v".to_vec(), 1, ONE)
        }),
        wire(&mut s, |cl| {
            cl.batch_insert(ks(), "k".into(), BTreeMap::new(), ONE)
        }),
        wire(&mut s, |cl| cl.remove(ks(), "k".into(), c(), 1, ONE)),
        wire(&mut s, |cl| cl.batch_mutate(ks(), BTreeMap::new(), ONE)),
    ];
    for (i, got) in writes.into_iter().enumerate() {
        assert_eq!(got, required, "write #{i}");
    }
    let login = |user: &str, password: &str| {
        AuthenticationRequest::new(BTreeMap::from([
            ("username".to_string(), user.to_string()),
            ("password".to_string(), password.to_string()),
        ]))
    };
    assert_eq!(
        wire(&mut s, |cl| cl.login(ks(), login("jsmith", "nope"))),
        Outcome::Authentication(
            "Given password in password mode PLAIN could not be validated for user jsmith".into()
        )
    );
    assert_eq!(
        wire(&mut s, |cl| cl
            .login(KS_RF3.into(), login("dilbert", "nomoovertime"))),
        Outcome::Authorization(
            "User dilbert could not be authorized to use keyspace Replicated".into()
        )
    );
    assert_eq!(
        wire(&mut s, |cl| cl.login(ks(), login("jsmith", "havebadpass"))),
        Outcome::Ok
    );
    f.engine.set_sync(SyncMode::Fail);
    assert_eq!(
        wire(&mut s, |cl| cl.insert(
            ks(),
            "k".into(),
            c(),
            b"v".to_vec(),
            1,
            ONE
        )),
        Outcome::Ok,
        "the handler succeeds; the gate withholds the reply"
    );
    assert!(s.take_reply_gate().is_some());
}
