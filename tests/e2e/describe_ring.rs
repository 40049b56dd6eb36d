//! The ring over real sockets (`docs/api.md#describe`): describe_partitioner, describe_ring and
//! the "token map" property under each partitioner, with the token in that partitioner's string
//! form and the endpoint clients reach; the refusal for system and unknown keyspaces; and
//! describe_splits with and without data, wrapping, and the D5 INTERNAL_ERROR texts
//! (`docs/compatibility.md#d5`). All four wire styles.

use crate::cases::ONE;
use crate::harness::{tag, Options, Server, KS, KS_RF3};
use crate::values::*;
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::partitioner::Partitioner;
use ilion::protocol::{ApplicationErrorKind, TokenRange};

#[test]
fn ring_and_token_map_per_partitioner() {
    let forms = [
        (
            Partitioner::Random,
            "12345",
            "12345",
            r#"{"12345":"127.0.0.1"}"#,
        ),
        (
            Partitioner::OrderPreserving,
            "m",
            "m",
            r#"{"m":"127.0.0.1"}"#,
        ),
        (
            Partitioner::CollatingOrderPreserving,
            "00AB",
            "00ab",
            r#"{"Token(bytes[00ab])":"127.0.0.1"}"#,
        ),
    ];
    for (p, initial, token, map) in forms {
        let server = Server::start(Options {
            initial_token: Some(initial),
            ..Options::partitioner(p)
        });
        let ring = vec![TokenRange::new(
            token.into(),
            token.into(),
            vec!["127.0.0.1".into()],
        )];
        for style in WireStyle::ALL {
            let mut c = server.client(style);
            let at = format!("{p:?} [{}]", tag(style));
            assert_eq!(
                c.describe_partitioner().unwrap(),
                format!("org.apache.cassandra.dht.{}", p.short_name()),
                "{at}"
            );
            assert_eq!(c.describe_ring(KS.into()).unwrap(), ring, "{at}");
            assert_eq!(c.describe_ring(KS_RF3.into()).unwrap(), ring, "{at}");
            for ks in ["system", "Nope"] {
                let why = format!("There is no ring for the keyspace: {ks}");
                assert_eq!(outcome(c.describe_ring(ks.into())), ire(&why), "{at}");
            }
            assert_eq!(
                c.get_string_property("token map".into()).unwrap(),
                map,
                "{at}"
            );
        }
    }
    // Without InitialToken the node picks one; the ring and the token map agree on it.
    let server = Server::start(Options::default());
    let mut c = server.client(WireStyle::ALL[3]);
    let ring = c.describe_ring(KS.into()).unwrap();
    assert_eq!(ring.len(), 1);
    assert_eq!(ring[0].start_token, ring[0].end_token);
    assert!(ring[0].start_token.parse::<u128>().is_ok(), "{ring:?}");
    let map: serde_json::Value =
        serde_json::from_str(&c.get_string_property("token map".into()).unwrap()).unwrap();
    assert_eq!(
        map,
        serde_json::json!({ ring[0].start_token.clone(): "127.0.0.1" })
    );
}

#[test]
fn describe_splits_and_d5() {
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[0]);
    let (a, b, key1, key2) = (
        "16955237001963240173058271559858726497",
        "144992942750327304334463589818972416113",
        "81509516161424251288255223397843705139",
        "160795813082586690235759048260910463706",
    );
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        assert_eq!(
            c.describe_splits("0".into(), "0".into(), 128).unwrap(),
            ["0", "0"],
            "{at}: no data"
        );
    }
    for key in ["a", "b", "key1", "key2"] {
        w.insert(
            KS.into(),
            key.into(),
            cpath("Standard1", b"c"),
            b"v".to_vec(),
            1,
            ONE,
        )
        .unwrap();
    }
    w.insert(
        KS_RF3.into(),
        "a".into(),
        cpath("Standard1", b"c"),
        b"v".to_vec(),
        1,
        ONE,
    )
    .unwrap();
    let d4 = |t: &str| {
        internal(&format!(
            "Invalid token '{t}': RandomPartitioner tokens are decimal integers"
        ))
    };
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        let mut splits = |s: &str, e: &str, n| c.describe_splits(s.into(), e.into(), n).unwrap();
        assert_eq!(
            splits("0", "0", 1),
            ["0", a, key1, b, key2, "0"],
            "{at}: a row in two keyspaces counts once"
        );
        assert_eq!(splits("0", "0", 2), ["0", key1, key2, "0"], "{at}");
        assert_eq!(splits("0", "0", 128), ["0", "0"], "{at}");
        assert_eq!(
            splits(key1, b, 1),
            [key1, b],
            "{at}: the end is not a split point"
        );
        assert_eq!(splits(key2, key1, 1), [key2, a, key1], "{at}: wrapping");
        assert_eq!(
            outcome(c.describe_splits("x".into(), "0".into(), 1)),
            d4("x"),
            "{at}: D5"
        );
        assert_eq!(
            outcome(c.describe_splits("0".into(), "1.5".into(), 1)),
            d4("1.5"),
            "{at}: D5"
        );
        match outcome(c.describe_splits("0".into(), "0".into(), 0)) {
            Outcome::Application(kind, _) => {
                assert_eq!(kind, ApplicationErrorKind::InternalError, "{at}")
            }
            other => panic!("{at}: keys_per_split 0 gave {other:?}"),
        }
        assert_eq!(
            c.describe_version().unwrap(),
            "2.2.0",
            "{at}: still connected"
        );
    }
    let copp = Server::start(Options::partitioner(Partitioner::CollatingOrderPreserving));
    let mut c = copp.client(WireStyle::ALL[2]);
    let d4 = "Invalid token 'abc': CollatingOrderPreservingPartitioner tokens are hex strings of even length";
    assert_eq!(
        outcome(c.describe_splits("abc".into(), "".into(), 1)),
        internal(d4)
    );
    assert_eq!(
        c.describe_splits("00AB".into(), "".into(), 1).unwrap(),
        ["00ab", ""]
    );
}
