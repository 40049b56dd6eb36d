//! The compact key layout keeps byte order and is one-to-one; the layout file decides.

use super::*;
use proptest::prelude::*;

/// Keys around the class boundaries (prefixes of `00 00 00`, ids 00, 01, FE, FF) as well
/// as anywhere.
fn keys() -> impl Strategy<Value = Vec<u8>> {
    let starts: Vec<Vec<u8>> = vec![
        vec![],
        vec![0],
        vec![0, 0],
        vec![0, 0, 0],
        vec![0, 0, 0, 0],
        vec![0, 0, 0, 1],
        vec![0, 0, 0, 0xFE],
        vec![0, 0, 0, 0xFF],
        vec![0, 0, 1],
        vec![1],
        vec![0xFF],
    ];
    (
        proptest::sample::select(starts),
        proptest::collection::vec(proptest::num::u8::ANY, 0..6),
    )
        .prop_map(|(mut start, rest)| {
            start.extend(rest);
            start
        })
}

proptest! {
    #[test]
    fn the_compact_layout_keeps_order_and_round_trips(a in keys(), b in keys()) {
        let layout = KeyLayout::Compact;
        let (sa, sb) = (layout.encode(&a).into_owned(), layout.encode(&b).into_owned());
        prop_assert_eq!(a.cmp(&b), sa.cmp(&sb), "{:?} {:?} stored {:?} {:?}", a, b, sa, sb);
        prop_assert_eq!(layout.decode(sa.clone()).unwrap(), a.clone());
        prop_assert_eq!(layout.encode_owned(a.clone()), sa);
    }

    #[test]
    fn any_stored_bytes_decode_to_their_own_key_or_an_error(
        stored in proptest::collection::vec(proptest::num::u8::ANY, 0..8),
    ) {
        // Every stored form has one logical key at most: whatever decodes encodes back.
        if let Ok(key) = KeyLayout::Compact.decode(stored.clone()) {
            prop_assert_eq!(KeyLayout::Compact.encode(&key).into_owned(), stored);
        }
    }
}

#[test]
fn a_cf_id_takes_one_byte_and_meta_keys_stay_apart() {
    let layout = KeyLayout::Compact;
    assert_eq!(layout.encode(&[0, 0, 0, 7, 9, 9]).as_ref(), &[7, 9, 9]);
    assert_eq!(
        layout.encode(&[0, 0, 0, 0, b'g']).as_ref(),
        &[0, 0, 0, 0, 0, b'g']
    );
    assert_eq!(
        layout.encode(&[0, 0, 0, 0xFF, 1]).as_ref(),
        &[0xFF, 0, 0, 0, 0xFF, 1]
    );
    assert_eq!(layout.encode(&[]).as_ref(), &[0]);
    assert!(layout.decode(Vec::new()).is_err());
    // 00 followed by a key the compact form covers is no stored key.
    assert!(layout.decode(vec![0, 0, 0, 0, 5]).is_err());
    assert!(layout.decode(vec![0xFF, 0, 0, 0, 5]).is_err());
    assert_eq!(
        KeyLayout::Plain.encode(&[0, 0, 0, 7]).as_ref(),
        &[0, 0, 0, 7]
    );
}

#[test]
fn a_new_store_records_the_compact_layout_and_an_old_one_stays_plain() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        KeyLayout::open(dir.path(), false).unwrap(),
        KeyLayout::Compact
    );
    assert!(dir.path().join(LAYOUT_FILE).is_file());
    // Recorded, it holds whether or not the store now exists.
    assert_eq!(
        KeyLayout::open(dir.path(), true).unwrap(),
        KeyLayout::Compact
    );

    let old = tempfile::tempdir().unwrap();
    assert_eq!(KeyLayout::open(old.path(), true).unwrap(), KeyLayout::Plain);
    assert!(!old.path().join(LAYOUT_FILE).exists());

    fs::write(dir.path().join(LAYOUT_FILE), "sideways").unwrap();
    let err = KeyLayout::open(dir.path(), true).unwrap_err().to_string();
    assert!(err.contains("unknown key layout"), "{err}");
}
