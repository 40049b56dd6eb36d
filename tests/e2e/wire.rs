//! The protocol below the generated client (`docs/api.md#wire`; E1–E3 of
//! `docs/compatibility.md`), with hand-made bytes on plain TCP connections in each of the four
//! wire styles: replies are byte-exact, always carry the versioned header and are framed
//! exactly when the request was; an unknown method gets TApplicationException UNKNOWN_METHOD
//! and the connection stays usable; the message type is not checked; a burst of pipelined
//! requests in one write is answered in order.

use crate::cases::ONE;
use crate::harness::{tag, Options, Server, KS};
use crate::raw::*;
use crate::values::*;
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::protocol::generated::CassandraSyncClient;
use ilion::protocol::ApplicationErrorKind;
use std::net::TcpStream;
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TInputProtocol, TMessageType, TOutputProtocol,
};
use thrift::transport::{
    TBufferedReadTransport, TFramedReadTransport, TFramedWriteTransport, TReadTransport,
};

/// The exact reply to `describe_version` with sequence id `seq`.
fn version_reply(seq: i32) -> Vec<u8> {
    let mut m = vec![0x80, 0x01, 0x00, 0x02, 0, 0, 0, 16];
    m.extend_from_slice(b"describe_version");
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(&[0x0B, 0, 0, 0, 0, 0, 5]); // field 0: string, length 5
    m.extend_from_slice(b"2.2.0");
    m.push(0); // field stop
    m
}

#[test]
fn replies_are_versioned_and_framed_exactly_when_requests_are() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut raw = Raw::connect(&server, style);
        let request = call(style, "describe_version", 7, |_| Ok(()));
        assert_eq!(
            request[0] == 0x80,
            style.strict,
            "the request itself is in {style:?}"
        );
        raw.send(&[request]);
        let expected = match style.framed {
            true => frame(&version_reply(7)),
            false => version_reply(7),
        };
        assert_eq!(raw.read_exact(expected.len()), expected, "{}", tag(style));
        // Nothing else was sent: the next reply starts right where this one ended.
        raw.send(&[call(style, "describe_cluster_name", 8, |_| Ok(()))]);
        let next = raw.reply();
        assert_eq!(
            header(&next),
            ("describe_cluster_name".into(), TMessageType::Reply, 8)
        );
    }
}

#[test]
fn unknown_methods_keep_the_connection() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let at = tag(style);
        let mut raw = Raw::connect(&server, style);
        let args = |o: &mut Out<'_>| string_field(o, 1, b"ignored");
        raw.send(&[call(style, "no_such_method", 3, args)]);
        let reply = raw.reply();
        let mut i = TBinaryInputProtocol::new(&reply[..], true);
        let m = i.read_message_begin().unwrap();
        assert_eq!(
            (m.name.as_str(), m.message_type, m.sequence_number),
            ("no_such_method", TMessageType::Exception, 3),
            "{at}"
        );
        let e = thrift::Error::read_application_error_from_in_protocol(&mut i).unwrap();
        assert_eq!(e.kind, ApplicationErrorKind::UnknownMethod, "{at}");
        assert_eq!(e.message, "Invalid method name: 'no_such_method'", "{at}");
        // 0.7's set_keyspace is unknown to a 0.6 server too.
        raw.send(&[call(style, "set_keyspace", 4, |o| {
            string_field(o, 1, KS.as_bytes())
        })]);
        let reply = raw.reply();
        assert_eq!(header(&reply).1, TMessageType::Exception, "{at}");
        raw.send(&[call(style, "describe_version", 5, |_| Ok(()))]);
        assert_eq!(raw.reply(), version_reply(5), "{at}: still usable");
    }
}

#[test]
fn the_message_type_is_not_checked() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        let mut raw = Raw::connect(&server, style);
        for (seq, kind) in [
            (1, TMessageType::Reply),
            (2, TMessageType::Exception),
            (3, TMessageType::Call),
        ] {
            raw.send(&[message(style.strict, "describe_version", kind, seq, |_| {
                Ok(())
            })]);
            assert_eq!(
                raw.reply(),
                version_reply(seq),
                "{} as {kind:?}",
                tag(style)
            );
        }
    }
}

/// The same calls, made in encoding and in decoding: inserts and reads that depend on them,
/// errors of each kind, and a long run of small calls.
fn burst(c: &mut impl TCassandraSyncClient) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..4 {
        let key = format!("p{i}");
        let v = format!("v{i}").into_bytes();
        out.push(format!(
            "{:?}",
            outcome(c.insert(KS.into(), key.clone(), cpath("Standard1", b"c"), v, i, ONE))
        ));
        let got = c.get(KS.into(), key, cpath("Standard1", b"c"), ONE);
        out.push(format!(
            "{:?}",
            got.map(|cosc| cosc.column.map(|col| (col.value, col.timestamp)))
        ));
    }
    out.push(format!(
        "{:?}",
        outcome(c.get(KS.into(), "".into(), cpath("Standard1", b"c"), ONE))
    ));
    out.push(format!("{:?}", outcome(c.describe_keyspace("Nope".into()))));
    out.push(format!(
        "{:?}",
        outcome(c.describe_splits("x".into(), "0".into(), 1))
    ));
    let keys = (0..4).map(|i| format!("p{i}")).collect();
    out.push(format!(
        "{:?}",
        c.multiget(KS.into(), keys, cpath("Standard1", b"c"), ONE)
            .map(|m| m.len())
    ));
    for i in 0..100 {
        out.push(format!(
            "{:?}",
            c.get_count(
                KS.into(),
                format!("p{}", i % 5),
                parent("Standard1", None),
                ONE
            )
        ));
    }
    out.push(format!("{:?}", c.describe_version()));
    out
}

fn expected_burst() -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..4 {
        out.push("Ok".to_string());
        out.push(format!(
            "{:?}",
            Ok::<_, ()>(Some((format!("v{i}").into_bytes(), i as i64)))
        ));
    }
    out.push(format!("{:?}", ire("Key may not be empty")));
    out.push(format!("{:?}", Outcome::NotFound));
    out.push(format!(
        "{:?}",
        internal("Invalid token 'x': RandomPartitioner tokens are decimal integers")
    ));
    out.push("Ok(4)".to_string());
    out.extend((0..100).map(|i| format!("Ok({})", i32::from(i % 5 != 4))));
    out.push("Ok(\"2.2.0\")".to_string());
    out
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let server = Server::start(Options::default());
    for style in WireStyle::ALL {
        // Every request encoded up front, sequence ids 1, 2, 3…, and sent in one write.
        let mut requests = Vec::new();
        {
            let output: Box<dyn TOutputProtocol> = match style.framed {
                true => Box::new(TBinaryOutputProtocol::new(
                    TFramedWriteTransport::new(&mut requests),
                    style.strict,
                )),
                false => Box::new(TBinaryOutputProtocol::new(&mut requests, style.strict)),
            };
            let mut encoder =
                CassandraSyncClient::new(TBinaryInputProtocol::new(&[][..], true), output);
            burst(&mut encoder); // each call fails reading its (absent) reply
        }
        let mut stream = TcpStream::connect(server.addr()).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        std::io::Write::write_all(&mut stream, &requests).unwrap();
        // The generated client then reads the replies, checking each one's name and sequence id.
        let read: Box<dyn TReadTransport> = match style.framed {
            true => Box::new(TFramedReadTransport::new(stream)),
            false => Box::new(TBufferedReadTransport::new(stream)),
        };
        let input: Box<dyn TInputProtocol> = Box::new(TBinaryInputProtocol::new(read, true));
        let mut decoder =
            CassandraSyncClient::new(input, TBinaryOutputProtocol::new(std::io::sink(), true));
        assert_eq!(burst(&mut decoder), expected_burst(), "{}", tag(style));
    }
}
