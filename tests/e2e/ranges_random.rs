//! Range reads under RandomPartitioner (`docs/api.md#range-slices`, `#random-partitioner`,
//! `#key-ranges`) over real sockets: rows in MD5 token order (checked against the documented
//! reference tokens and an independent
//! |signed MD5| computation), key and token ranges, wrapping, the minimum token `-1` as the
//! end of the ring, and the paging idiom (next start_key = last key seen, end_key "") under
//! both RandomPartitioner and OrderPreservingPartitioner, in all four wire styles.

use crate::cases::{range_keys, ONE};
use crate::harness::{tag, Options, Server, KS};
use crate::values::*;
use ilion::client::{Client, TCassandraSyncClient, WireStyle};
use ilion::partitioner::Partitioner;
use md5::{Digest, Md5};

/// RandomPartitioner's token: |MD5 read as a signed 128-bit big-endian integer|.
fn md5_token(key: &str) -> u128 {
    let digest: [u8; 16] = Md5::digest(key.as_bytes()).into();
    i128::from_be_bytes(digest).unsigned_abs()
}

const TOKEN_A: &str = "16955237001963240173058271559858726497";
const TOKEN_B: &str = "144992942750327304334463589818972416113";
const TOKEN_KEY1: &str = "81509516161424251288255223397843705139";
const TOKEN_KEY2: &str = "160795813082586690235759048260910463706";

#[test]
fn random_partitioner_orders_rows_by_md5() {
    for (key, token) in [
        ("a", TOKEN_A),
        ("b", TOKEN_B),
        ("key1", TOKEN_KEY1),
        ("key2", TOKEN_KEY2),
    ] {
        assert_eq!(
            md5_token(key).to_string(),
            token,
            "the test's own token oracle"
        );
    }
    let server = Server::start(Options::default());
    let mut w = server.client(WireStyle::ALL[1]);
    for key in ["key2", "b", "key1", "a"] {
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
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        let mut std = |r| range_keys(&mut c, "Standard1", all(), r);
        let ring = ["a", "key1", "b", "key2"];
        assert_eq!(std(keys("", "", 10)), ring, "{at}: token order");
        assert_eq!(std(keys("key1", "", 10)), ["key1", "b", "key2"], "{at}");
        assert_eq!(
            std(keys("a", "b", 10)),
            ["a", "key1", "b"],
            "{at}: keys inclusive"
        );
        assert_eq!(std(keys("b", "b", 10)), ["b"], "{at}");
        assert_eq!(
            std(tokens(TOKEN_A, TOKEN_B, 10)),
            ["key1", "b"],
            "{at}: start token exclusive"
        );
        assert_eq!(
            std(tokens(TOKEN_B, TOKEN_KEY1, 10)),
            ["key2", "a", "key1"],
            "{at}: wrapping"
        );
        assert_eq!(std(tokens("0", "0", 10)), ring, "{at}: full ring");
        assert_eq!(
            std(tokens(TOKEN_KEY2, TOKEN_KEY2, 10)),
            ["a", "key1", "b", "key2"],
            "{at}"
        );
        assert_eq!(
            std(tokens(TOKEN_KEY1, "-1", 10)),
            ["b", "key2"],
            "{at}: -1 is the end of the ring"
        );
        assert_eq!(
            std(tokens(TOKEN_KEY1, TOKEN_KEY1, 2)),
            ["b", "key2"],
            "{at}: count"
        );
        let old = c
            .get_range_slice(
                KS.into(),
                parent("Standard1", None),
                all(),
                "key1".into(),
                "b".into(),
                10,
                ONE,
            )
            .unwrap();
        let old: Vec<String> = old.into_iter().map(|r| r.key).collect();
        assert_eq!(old, ["key1", "b"], "{at}: get_range_slice");
    }
}

/// Walks the whole CF in pages of `page` rows the way 0.6 clients did; returns every key
/// once, in the order seen.
fn page_through(c: &mut Client, cf: &str, page: i32) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut start = String::new();
    loop {
        let rows = range_keys(c, cf, all(), keys(&start, "", page));
        let fresh: Vec<String> = match seen.last() {
            Some(last) => {
                assert_eq!(rows.first(), Some(last), "the start key comes back first");
                rows[1..].to_vec()
            }
            None => rows.clone(),
        };
        seen.extend(fresh);
        if rows.len() < page as usize {
            return seen;
        }
        start = seen.last().cloned().expect("a full page has a last key");
    }
}

#[test]
fn paging_through_the_ring() {
    let written: Vec<String> = (0..25).rev().map(|i| format!("p{i:02}")).collect();
    for p in [Partitioner::Random, Partitioner::OrderPreserving] {
        let mut expected = written.clone();
        let server = Server::start(Options::partitioner(p));
        let mut w = server.client(WireStyle::ALL[0]);
        for key in &written {
            w.insert(
                KS.into(),
                key.clone(),
                cpath("StdAscii", b"c"),
                b"v".to_vec(),
                1,
                ONE,
            )
            .unwrap();
        }
        match p {
            Partitioner::Random => expected.sort_by_key(|k| md5_token(k)),
            _ => expected.sort(),
        }
        for style in WireStyle::ALL {
            let mut c = server.client(style);
            for page in [2, 10, 25, 100] {
                let got = page_through(&mut c, "StdAscii", page);
                assert_eq!(got, expected, "{p:?} [{}], page of {page}", tag(style));
            }
        }
    }
}
