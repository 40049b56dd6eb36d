//! One store, two APIs (`docs/api-later.md#data`, spec §9): rows written through the later
//! listener (IDL 20.1.0, a generated client of its own) are the rows the 0.6 listener reads,
//! and the other way round — for every partitioner, since both must place a key at the same
//! row. A key that is not UTF-8 is a row only the later API sees.

use crate::cases::ONE;
use crate::harness::{Options, Server, KS};
use ilion::client::{TCassandraSyncClient as Client06, WireStyle};
use ilion::partitioner::Partitioner;
use ilion::protocol::v20::generated as v20;
use ilion::protocol::{self as p06};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
use thrift::transport::{
    ReadHalf, TFramedReadTransport, TFramedWriteTransport, TIoChannel, TTcpChannel, WriteHalf,
};
use v20::TCassandraSyncClient as _;

pub type Later = v20::CassandraSyncClient<
    TBinaryInputProtocol<TFramedReadTransport<ReadHalf<TTcpChannel>>>,
    TBinaryOutputProtocol<TFramedWriteTransport<WriteHalf<TTcpChannel>>>,
>;

/// A framed, strict client of the later listener, its session keyspace set to `KS`.
pub fn later(addr: SocketAddr) -> Later {
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let (read, write) = TTcpChannel::with_stream(stream).split().unwrap();
    let mut client = v20::CassandraSyncClient::new(
        TBinaryInputProtocol::new(TFramedReadTransport::new(read), true),
        TBinaryOutputProtocol::new(TFramedWriteTransport::new(write), true),
    );
    client.set_keyspace(KS.into()).unwrap();
    client
}

const LATER_ONE: v20::ConsistencyLevel = v20::ConsistencyLevel::ONE;

fn everything06() -> p06::SlicePredicate {
    p06::SlicePredicate::new(None, p06::SliceRange::new(vec![], vec![], false, 100))
}

fn everything20() -> v20::SlicePredicate {
    v20::SlicePredicate::new(None, v20::SliceRange::new(vec![], vec![], false, 100))
}

/// (name, value, timestamp) of a 0.6 slice.
fn cells06(got: Vec<p06::ColumnOrSuperColumn>) -> Vec<(Vec<u8>, Vec<u8>, i64)> {
    got.into_iter()
        .map(|c| c.column.unwrap())
        .map(|c| (c.name, c.value, c.timestamp))
        .collect()
}

/// (name, value, timestamp) of a later slice.
fn cells20(got: Vec<v20::ColumnOrSuperColumn>) -> Vec<(Vec<u8>, Vec<u8>, i64)> {
    got.into_iter()
        .map(|c| c.column.unwrap())
        .map(|c| (c.name, c.value.unwrap(), c.timestamp.unwrap()))
        .collect()
}

fn keys06(server: &Server) -> Vec<String> {
    let mut old = server.client(WireStyle::ALL[1]);
    let range = p06::KeyRange::new(String::new(), String::new(), None, None, 100);
    let parent = p06::ColumnParent::new("Standard1".into(), None);
    let rows = old
        .get_range_slices(KS.into(), parent, everything06(), range, ONE)
        .unwrap();
    let mut keys: Vec<String> = rows.into_iter().map(|r| r.key).collect();
    keys.sort();
    keys
}

fn keys20(client: &mut Later) -> Vec<Vec<u8>> {
    let range = v20::KeyRange::new(vec![], vec![], None, None, 100, None);
    let parent = v20::ColumnParent::new("Standard1".into(), None);
    let rows = client
        .get_range_slices(parent, everything20(), range, LATER_ONE)
        .unwrap();
    let mut keys: Vec<Vec<u8>> = rows.into_iter().map(|r| r.key).collect();
    keys.sort();
    keys
}

fn rows_cross_between_the_apis(partitioner: Partitioner) {
    let server = Server::start(Options::partitioner(partitioner));
    let mut new = later(server.later_addr());
    let mut old = server.client(WireStyle::ALL[1]);
    let parent20 = || v20::ColumnParent::new("Standard1".into(), None);
    let parent06 = || p06::ColumnParent::new("Standard1".into(), None);
    let label = partitioner.short_name();

    // Later → 0.6: a UTF-8 key is the 0.6 key of the same string.
    let column = v20::Column::new(b"later".to_vec(), b"1".to_vec(), 7, None);
    new.insert("crossé".as_bytes().to_vec(), parent20(), column, LATER_ONE)
        .unwrap();
    let got = old
        .get_slice(KS.into(), "crossé".into(), parent06(), everything06(), ONE)
        .unwrap();
    assert_eq!(
        cells06(got),
        vec![(b"later".to_vec(), b"1".to_vec(), 7)],
        "{label}"
    );

    // 0.6 → later, and a later tombstone hides what 0.6 wrote.
    let path06 = p06::ColumnPath::new("Standard1".into(), None, b"old".to_vec());
    old.insert(KS.into(), "crossé".into(), path06, b"2".to_vec(), 8, ONE)
        .unwrap();
    let got = new
        .get_slice(
            "crossé".as_bytes().to_vec(),
            parent20(),
            everything20(),
            LATER_ONE,
        )
        .unwrap();
    assert_eq!(
        cells20(got),
        vec![
            (b"later".to_vec(), b"1".to_vec(), 7),
            (b"old".to_vec(), b"2".to_vec(), 8)
        ],
        "{label}"
    );
    let path20 = v20::ColumnPath::new("Standard1".into(), None, b"old".to_vec());
    new.remove("crossé".as_bytes().to_vec(), path20, 9, LATER_ONE)
        .unwrap();
    let got = old
        .get_slice(KS.into(), "crossé".into(), parent06(), everything06(), ONE)
        .unwrap();
    assert_eq!(
        cells06(got).len(),
        1,
        "{label}: the later tombstone hides the 0.6 column"
    );

    // A key that is not UTF-8: the later API's alone. (COPP refuses it, spec F5.)
    let binary = vec![0xFF, 0x00, 0x41];
    let column = v20::Column::new(b"c".to_vec(), b"v".to_vec(), 1, None);
    let written = new.insert(binary.clone(), parent20(), column, LATER_ONE);
    if partitioner == Partitioner::CollatingOrderPreserving {
        assert!(written.is_err(), "{label}");
        assert_eq!(
            keys20(&mut new),
            vec!["crossé".as_bytes().to_vec()],
            "{label}"
        );
    } else {
        written.unwrap();
        let mut expected = vec!["crossé".as_bytes().to_vec(), binary];
        expected.sort();
        assert_eq!(keys20(&mut new), expected, "{label}");
    }
    assert_eq!(keys06(&server), vec!["crossé".to_string()], "{label}");

    // Truncate through the later API empties the table for both.
    new.truncate("Standard1".into()).unwrap();
    assert!(keys06(&server).is_empty(), "{label}");
    assert!(keys20(&mut new).is_empty(), "{label}");
}

#[test]
fn rows_cross_between_the_apis_under_every_partitioner() {
    for partitioner in Partitioner::ALL {
        rows_cross_between_the_apis(partitioner);
    }
}
