//! Keys that are not UTF-8 (written below the 0.6 API, as the later API will) seen through the
//! 0.6 API, and the later API's partitioners (Murmur3, ByteOrdered) served by it
//! (`docs/compatibility.md#binary-keys`).

use super::*;
use crate::model::{Change, Column, RowMutation};
use crate::partitioner::Partitioner;
use crate::protocol::TokenRange;

/// Writes column `c` = `v` into Standard1 of `key` below the service, as any key.
fn write_raw(f: &Fixture, key: &[u8]) {
    let mut m = RowMutation::new(KS, key);
    m.push(
        "Standard1",
        Change::Insert {
            super_column: None,
            column: Column {
                name: b"c".to_vec(),
                value: b"v".to_vec(),
                timestamp: 1,
                ttl: None,
            },
        },
    );
    f.service.db.apply(m).unwrap().wait().unwrap();
}

fn write(s: &Session, key: &str) {
    assert_eq!(
        insert(s, KS, key, path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );
}

#[test]
fn range_reads_skip_keys_that_are_not_utf8_without_counting_them() {
    for partitioner in [
        Partitioner::OrderPreserving,
        Partitioner::Random,
        Partitioner::Murmur3,
        Partitioner::ByteOrdered,
    ] {
        let f = Fixture::with(Options {
            partitioner,
            ..Options::default()
        });
        let s = f.session();
        for key in ["a", "b", "ff00", "z"] {
            write(&s, key);
        }
        // Under OPP, 0xFF 0x00 has the token "ff00", the same as the UTF-8 key "ff00".
        for key in [&[0xFF, 0x00][..], &[0x61, 0xFF], &[0x80], &[0x7A, 0xC0]] {
            write_raw(&f, key);
        }
        let visible = range_keys(&s, "Standard1", all(), keys("", "", 100));
        let mut sorted = visible.clone();
        sorted.sort();
        assert_eq!(sorted, ["a", "b", "ff00", "z"], "{partitioner:?}");
        // Every page of two holds two visible rows: the hidden ones do not use up the count.
        let first_two = range_keys(&s, "Standard1", all(), keys("", "", 2));
        assert_eq!(first_two, visible[..2], "{partitioner:?}");
        let whole_ring = range_keys(&s, "Standard1", all(), {
            let min = partitioner.min_token().to_string();
            tokens(&min, &min, 3)
        });
        assert_eq!(whole_ring, visible[..3], "{partitioner:?}");
        // The hidden rows are there for callers that see bytes.
        let every = f
            .service
            .db
            .get_range_slices(
                KS,
                &crate::model::ColumnParent {
                    column_family: "Standard1".into(),
                    super_column: None,
                },
                &crate::model::Predicate::Range(crate::model::SliceRange::all()),
                &crate::model::KeyRange {
                    bounds: crate::model::RowBounds::Keys {
                        start: Vec::new(),
                        end: Vec::new(),
                    },
                    count: 100,
                    keys: crate::model::KeyFilter::Any,
                },
            )
            .unwrap();
        assert_eq!(every.len(), 8, "{partitioner:?}");
        // A UTF-8 key reads as before.
        assert_eq!(
            get_value(&s, "ff00", path("Standard1", None, Some(b"c"))),
            Some(b"v".to_vec())
        );
    }
}

#[test]
fn opp_key_ranges_take_both_rows_of_a_shared_token_but_show_one() {
    let f = Fixture::with(Options {
        partitioner: Partitioner::OrderPreserving,
        ..Options::default()
    });
    let s = f.session();
    write(&s, "ff00");
    write(&s, "ff01");
    write_raw(&f, &[0xFF, 0x00]);
    assert_eq!(
        range_keys(&s, "Standard1", all(), keys("ff00", "ff00", 10)),
        ["ff00"]
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), keys("ff00", "", 1)),
        ["ff00"]
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), tokens("ff00", "", 10)),
        ["ff01"]
    );
}

#[test]
fn murmur3_through_the_0_6_api() {
    let f = Fixture::with(Options {
        partitioner: Partitioner::Murmur3,
        initial_token: Some("-42".into()),
        ..Options::default()
    });
    let s = f.session();
    assert_eq!(
        s.handle_describe_partitioner().unwrap(),
        "org.apache.cassandra.dht.Murmur3Partitioner"
    );
    assert_eq!(
        s.handle_describe_ring(KS.into()).unwrap(),
        vec![TokenRange::new(
            "-42".into(),
            "-42".into(),
            vec!["127.0.0.1".into()]
        )]
    );
    assert_eq!(
        s.handle_get_string_property("token map".into()).unwrap(),
        r#"{"-42":"127.0.0.1"}"#
    );
    for key in ["a", "b", "key1", "key2"] {
        write(&s, key);
    }
    // Tokens: a -8839…, key1 1573…, key2 8482…, b 8833….
    let min = "-9223372036854775808";
    assert_eq!(
        range_keys(&s, "Standard1", all(), tokens(min, min, 10)),
        ["a", "key1", "key2", "b"]
    );
    assert_eq!(
        range_keys(
            &s,
            "Standard1",
            all(),
            tokens("1573573083296714675", min, 10)
        ),
        ["key2", "b"]
    );
    // Wrapping: after key2 to the end, then from the start through a.
    assert_eq!(
        range_keys(
            &s,
            "Standard1",
            all(),
            tokens("8482869187405483569", "-8839064797231613815", 10)
        ),
        ["b", "a"]
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), keys("key1", "b", 10)),
        ["key1", "key2", "b"]
    );
    assert_eq!(
        range_slices(
            &s,
            KS,
            parent("Standard1", None),
            all(),
            tokens("12a", min, 10),
            ONE
        ),
        ire("Invalid token for Murmur3Partitioner. Got 12a but expected a long value (unsigned 8 bytes integer).")
    );
    assert_eq!(
        range_slices(
            &s,
            KS,
            parent("Standard1", None),
            all(),
            keys("b", "a", 10),
            ONE
        ),
        ire("start key's token sorts after end key's token.  this is not allowed; you probably should not specify end key at all except with an ordered partitioner")
    );
}

#[test]
fn byte_ordered_through_the_0_6_api() {
    let f = Fixture::with(Options {
        partitioner: Partitioner::ByteOrdered,
        initial_token: Some("6B".into()),
        ..Options::default()
    });
    let s = f.session();
    assert_eq!(
        s.handle_describe_partitioner().unwrap(),
        "org.apache.cassandra.dht.ByteOrderedPartitioner"
    );
    assert_eq!(
        s.handle_describe_ring(KS.into()).unwrap(),
        vec![TokenRange::new(
            "6b".into(),
            "6b".into(),
            vec!["127.0.0.1".into()]
        )]
    );
    assert_eq!(
        s.handle_get_string_property("token map".into()).unwrap(),
        r#"{"Token(bytes[6b])":"127.0.0.1"}"#
    );
    for key in ["b", "a", "key2", "key1", "\u{e9}"] {
        write(&s, key);
    }
    assert_eq!(
        range_keys(&s, "Standard1", all(), keys("", "", 10)),
        ["a", "b", "key1", "key2", "\u{e9}"]
    );
    // (6b657931, ""]: after key1.
    assert_eq!(
        range_keys(&s, "Standard1", all(), tokens("6b657931", "", 10)),
        ["key2", "\u{e9}"]
    );
    assert_eq!(
        range_keys(&s, "Standard1", all(), tokens("", "62", 10)),
        ["a", "b"]
    );
    // "062" is 0x00 0x62, below every key here.
    assert_eq!(
        range_keys(&s, "Standard1", all(), tokens("062", "", 10)),
        ["a", "b", "key1", "key2", "\u{e9}"]
    );
    assert_eq!(
        range_slices(
            &s,
            KS,
            parent("Standard1", None),
            all(),
            tokens("6g", "", 10),
            ONE
        ),
        ire("Token 6g contains non-hex digits")
    );
    assert_eq!(
        range_slices(
            &s,
            KS,
            parent("Standard1", None),
            all(),
            keys("b", "a", 10),
            ONE
        ),
        ire("start key must sort before (or equal to) finish key in your partitioner!")
    );
}
