//! Fixed hex vectors and property tests: encoded order is comparator order, decode inverts.

use super::*;
use crate::comparator::{hex, Comparator};
use proptest::prelude::*;

fn enc(c: Comparator, name: &[u8], last: bool) -> Vec<u8> {
    let mut out = Vec::new();
    put_name(&mut out, c, name, last);
    out
}

#[test]
fn hex_vectors() {
    assert_eq!(
        hex(&enc(Comparator::Long, &(-1i64).to_be_bytes(), true)),
        "7fffffffffffffff"
    );
    assert_eq!(
        hex(&enc(Comparator::Long, &1i64.to_be_bytes(), true)),
        "8000000000000001"
    );
    let uuid = uuid::Uuid::parse_str("80000000-0000-0000-8000-000000000001").unwrap();
    assert_eq!(
        hex(&enc(Comparator::LexicalUuid, uuid.as_bytes(), true)),
        "00000000000000000000000000000001"
    );
    let t = uuid::Uuid::parse_str("01234567-89ab-1cde-8000-000000000000").unwrap();
    assert_eq!(
        hex(&enc(Comparator::TimeUuid, t.as_bytes(), true)),
        "0cde89ab01234567".to_string() + "0123456789ab1cde8000000000000000"
    );
    assert_eq!(hex(&enc(Comparator::Bytes, b"a\0b", false)), "6100ff620000");
    assert_eq!(hex(&enc(Comparator::Utf8, b"a\0b", true)), "610062");
    assert_eq!(hex(&cesu8("\u{1F600}")), "eda0bdedb880");
    assert_eq!(prefix_end(&[1, 0xFF, 0xFF]), Some(vec![2]));
    assert_eq!(prefix_end(&[0xFF]), None);
}

fn valid_name(c: Comparator) -> BoxedStrategy<Vec<u8>> {
    match c {
        Comparator::Bytes | Comparator::Ascii => {
            prop::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 1..8).boxed()
        }
        Comparator::Utf8 => "[a\u{0}\u{e9}\u{1F600}z]{1,6}"
            .prop_map(|s| s.into_bytes())
            .boxed(),
        Comparator::Long => any::<i64>().prop_map(|v| v.to_be_bytes().to_vec()).boxed(),
        Comparator::LexicalUuid => any::<[u8; 16]>().prop_map(|b| b.to_vec()).boxed(),
        Comparator::TimeUuid => any::<[u8; 16]>()
            .prop_map(|mut b| {
                b[6] = 0x10 | (b[6] & 0x0F);
                b.to_vec()
            })
            .boxed(),
        // The later types draw their own values (`later_names_keep_the_type_order`).
        Comparator::Later(_) => unreachable!("only the six 0.6 comparators are drawn here"),
    }
}

fn comparator() -> impl Strategy<Value = Comparator> {
    prop::sample::select(Comparator::ALL.to_vec())
}

proptest! {
    #[test]
    fn name_order_and_round_trip(
        (c, a, b) in comparator().prop_flat_map(|c| (Just(c), valid_name(c), valid_name(c))),
        suffix_a in prop::collection::vec(any::<u8>(), 0..4),
        suffix_b in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        prop_assert_eq!(enc(c, &a, true).cmp(&enc(c, &b, true)), c.compare(&a, &b));
        // Prefix-free form: order holds whatever follows each name.
        let mut ka = enc(c, &a, false);
        ka.extend_from_slice(&suffix_a);
        let mut kb = enc(c, &b, false);
        kb.extend_from_slice(&suffix_b);
        if a != b {
            prop_assert_eq!(ka.cmp(&kb), c.compare(&a, &b));
        }
        let (name, rest) = take_name(&ka, c, false).unwrap();
        prop_assert_eq!(name, a.clone());
        prop_assert_eq!(rest, &suffix_a[..]);
        let last = enc(c, &a, true);
        let (name, rest) = take_name(&last, c, true).unwrap();
        prop_assert_eq!(name, a);
        prop_assert!(rest.is_empty());
    }

    #[test]
    fn escaped_order_and_round_trip(a in prop::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 0..8),
                                    b in prop::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 0..8)) {
        let (mut ea, mut eb) = (Vec::new(), Vec::new());
        put_escaped(&mut ea, &a);
        put_escaped(&mut eb, &b);
        prop_assert_eq!(ea.cmp(&eb), a.cmp(&b));
        let (back, rest) = take_escaped(&ea).unwrap();
        prop_assert_eq!(back, a);
        prop_assert!(rest.is_empty());
    }

    #[test]
    fn cesu8_is_utf16_order(a in "[a\u{0}\u{7ff}\u{ffff}\u{e000}\u{1F600}\u{10FFFF}]{0,5}",
                            b in "[a\u{0}\u{7ff}\u{ffff}\u{e000}\u{1F600}\u{10FFFF}]{0,5}") {
        prop_assert_eq!(cesu8(&a).cmp(&cesu8(&b)), a.encode_utf16().cmp(b.encode_utf16()));
        prop_assert_eq!(from_cesu8(&cesu8(&a)), Some(a));
    }
}

proptest! {
    /// For random later types (composites, dynamic composites and reversed types nested
    /// included) and valid names, the stored name encoding orders as the comparator, at the
    /// end of a key and followed by more; a name reads back as the canonical bytes, which
    /// compare equal to it (and are what `rows` keeps the original beside when they differ).
    #[test]
    fn later_names_keep_the_type_order(
        (t, a, b) in crate::types::proptests::type_and_values(),
        suffix_a in prop::collection::vec(any::<u8>(), 0..4),
        suffix_b in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        let c = Comparator::of_type(&t);
        // The six keep their 0.6 encodings, tested above.
        prop_assume!(matches!(c, Comparator::Later(_)));
        prop_assert_eq!(enc(c, &a, true).cmp(&enc(c, &b, true)), c.compare(&a, &b));
        let mut ka = enc(c, &a, false);
        ka.extend_from_slice(&suffix_a);
        let mut kb = enc(c, &b, false);
        kb.extend_from_slice(&suffix_b);
        if !c.compare(&a, &b).is_eq() {
            prop_assert_eq!(ka.cmp(&kb), c.compare(&a, &b));
        }
        let (name, rest) = take_name(&ka, c, false).unwrap();
        prop_assert!(c.compare(&name, &a).is_eq());
        prop_assert_eq!(rest, &suffix_a[..]);
        prop_assert_eq!(enc(c, &name, true), enc(c, &a, true));
    }
}
