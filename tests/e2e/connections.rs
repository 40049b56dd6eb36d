//! Connections (`docs/api.md#wire`, `#describe`; E1–E3 of `docs/compatibility.md`): the test
//! client really speaks the four wire styles (checked byte for byte against a fake listener, so
//! the style loops elsewhere mean what they say); many connections in mixed styles are served
//! at once, each keeping its own style; `<ThriftFramedTransport>` is accepted either way
//! without changing what the port speaks; and a node bound to 0.0.0.0 advertises its
//! ListenAddress in the ring and token map, an address clients can reach.

use crate::cases::ONE;
use crate::harness::{tag, Options, Server, KS};
use crate::raw::{call, frame};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::protocol::TokenRange;
use std::io::Read;
use std::net::TcpListener;
use std::time::Duration;

#[test]
fn the_client_speaks_each_style() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    for style in WireStyle::ALL {
        let client = std::thread::spawn(move || {
            let mut c = Client::connect(addr, style, Duration::from_secs(2)).unwrap();
            c.describe_version()
                .expect_err("the fake server never answers")
        });
        let (mut stream, _) = listener.accept().unwrap();
        let message = call(style, "describe_version", 1, |_| Ok(()));
        let expected = match style.framed {
            true => frame(&message),
            false => message,
        };
        let mut got = vec![0; expected.len()];
        stream.read_exact(&mut got).unwrap();
        assert_eq!(got, expected, "{}", tag(style));
        drop(stream);
        client.join().unwrap();
    }
}

#[test]
fn many_connections_in_mixed_styles_at_once() {
    let server = Server::start(Options::default());
    let addr = server.addr();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                let style = WireStyle::ALL[t % 4];
                let mut c = Client::connect(addr, style, Duration::from_secs(10)).unwrap();
                for n in 0..50 {
                    let key = format!("t{t}-{n}");
                    let value = key.clone().into_bytes();
                    let p = || cpath("Standard1", b"c");
                    c.insert(KS.into(), key.clone(), p(), value.clone(), n, ONE)
                        .unwrap();
                    let got = c.get(KS.into(), key, p(), ONE).unwrap();
                    assert_eq!(got, cosc_col(b"c", &value, n), "{}", tag(style));
                }
                let count =
                    c.get_count(KS.into(), format!("t{t}-0"), parent("Standard1", None), ONE);
                assert_eq!(count.unwrap(), 1);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("every connection served");
    }
    let mut c = server.client(WireStyle::ALL[0]);
    let rows = c.get_range_slices(
        KS.into(),
        parent("Standard1", None),
        names(&[b"c"]),
        keys("", "", 1000),
        ONE,
    );
    assert_eq!(rows.unwrap().len(), 8 * 50);
}

#[test]
fn thrift_framed_transport_is_validated_but_not_obeyed() {
    for framed in [true, false] {
        let server = Server::start(Options {
            framed_transport: Some(framed),
            ..Options::default()
        });
        for style in WireStyle::ALL {
            let at = format!("ThriftFramedTransport {framed} [{}]", tag(style));
            let mut c = server.client(style);
            assert_eq!(c.describe_version().unwrap(), "2.2.0", "{at}");
            let key = tag(style).to_string();
            c.insert(
                KS.into(),
                key.clone(),
                cpath("Standard1", b"c"),
                b"v".to_vec(),
                1,
                ONE,
            )
            .unwrap();
            assert!(
                c.get(KS.into(), key, cpath("Standard1", b"c"), ONE).is_ok(),
                "{at}"
            );
        }
    }
}

#[test]
fn an_unspecified_thrift_address_advertises_the_listen_address() {
    let server = Server::start(Options {
        thrift_address: "0.0.0.0",
        initial_token: Some("12345"),
        ..Options::default()
    });
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut c = server.client(style);
        let ring = vec![TokenRange::new(
            "12345".into(),
            "12345".into(),
            vec!["127.0.0.1".into()],
        )];
        assert_eq!(c.describe_ring(KS.into()).unwrap(), ring, "{at}");
        let map = c.get_string_property("token map".into()).unwrap();
        assert_eq!(map, r#"{"12345":"127.0.0.1"}"#, "{at}");
    }
}
