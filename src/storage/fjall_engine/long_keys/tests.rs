//! Long-key buckets: their encoding round-trips and damaged ones are reported.

use super::*;

fn long(tail: &[u8]) -> Vec<u8> {
    let mut key = vec![9; DIRECT];
    key.extend_from_slice(tail);
    key
}

#[test]
fn buckets_round_trip_and_sort_where_their_keys_belong() {
    let entries: BTreeMap<Vec<u8>, Vec<u8>> = [
        (long(b"a"), b"1".to_vec()),
        (long(b"\0"), Vec::new()),
        (long(&[7; 70_000]), vec![3; 10]),
    ]
    .into_iter()
    .collect();
    let bucket = bucket_of(&long(b"a")).unwrap();
    assert!(is_bucket(&bucket));
    assert_eq!(bucket_of(&long(b"zz")), Some(bucket.clone()));
    assert_eq!(bucket_of(&[9; DIRECT]), None);
    assert_eq!(decode(&bucket, &encode(&entries)).unwrap(), entries);
    // After the prefix, at or before every longer key that starts with it.
    assert!(bucket.as_slice() > &[9u8; DIRECT][..] && bucket <= long(b"\0"));
}

#[test]
fn damaged_buckets_are_reported() {
    let bucket = bucket_of(&long(b"a")).unwrap();
    let good = encode(&[(long(b"a"), b"value".to_vec())].into_iter().collect());
    for bad in [
        &good[..2],
        &good[..good.len() - 1],
        &[0, 0, 0, 9, 1][..],
        &[0xff, 0xff, 0xff, 0xff][..],
    ] {
        let err = decode(&bucket, bad).err().unwrap();
        assert!(
            matches!(&err, Error::Corrupt(m) if m.contains("malformed long-key bucket")),
            "{err}"
        );
    }
}
