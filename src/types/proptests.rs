//! Property tests of the types: for random types (nested composites, dynamic composites and
//! reversed types included) and random valid values, the encoding's byte order equals the
//! compare order and decodes back to the value (or, for types with several byte strings per
//! value, to an equal canonical one); and no function panics on arbitrary bytes.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;

use super::DataType;

/// Every simple type.
const SIMPLE: [DataType; 17] = [
    DataType::Bytes,
    DataType::Ascii,
    DataType::Utf8,
    DataType::Long,
    DataType::Int32,
    DataType::Integer,
    DataType::Decimal,
    DataType::Double,
    DataType::Float,
    DataType::Boolean,
    DataType::Date,
    DataType::Timestamp,
    DataType::Uuid,
    DataType::LexicalUuid,
    DataType::TimeUuid,
    DataType::InetAddress,
    DataType::Counter,
];

fn simple_type() -> impl Strategy<Value = DataType> {
    proptest::sample::select(SIMPLE.to_vec())
}

/// Random types up to three levels deep.
pub(crate) fn any_type() -> impl Strategy<Value = DataType> {
    simple_type().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            vec(inner.clone(), 1..4).prop_map(DataType::Composite),
            inner.clone().prop_map(|t| DataType::Reversed(Box::new(t))),
            btree_map(proptest::sample::select(b"abAB0_".to_vec()), inner, 0..3)
                .prop_map(DataType::DynamicComposite),
        ]
    })
}

/// A byte that is often 0x00, 0xFF or 0x80, where encodings have their edge cases.
fn edgy_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(0u8),
        Just(0xFF),
        Just(0x80),
        Just(0x7F),
        Just(1),
        any::<u8>()
    ]
}

fn fixed(n: usize) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        1 => Just(Vec::new()),
        6 => vec(edgy_byte(), n),
    ]
    .boxed()
}

/// Random valid values of `t`, from small domains often enough that equal values occur.
fn value_of(t: &DataType) -> BoxedStrategy<Vec<u8>> {
    match t {
        DataType::Bytes | DataType::Ascii => {
            let top = if t == &DataType::Ascii { 0x7F } else { 0xFF };
            vec(prop_oneof![Just(0u8), Just(top), 0..=top], 0..5).boxed()
        }
        DataType::Utf8 => prop_oneof![
            any::<String>().prop_map(String::into_bytes),
            // Sequences 2.2's automaton accepts that strict UTF-8 does not.
            proptest::sample::select(vec![
                vec![0xC0, 0x80],
                vec![0xED, 0xA0, 0x80],
                vec![0xF4, 0x90, 0x80, 0x80],
                vec![0xE0, 0x41, 0x80],
                b"a".to_vec(),
                Vec::new(),
            ]),
        ]
        .boxed(),
        DataType::Long | DataType::Date | DataType::Timestamp | DataType::Counter => fixed(8),
        DataType::Int32 => fixed(4),
        DataType::Float => fixed(4),
        DataType::Double => prop_oneof![
            fixed(8),
            proptest::sample::select(vec![
                0.0f64,
                -0.0,
                1.0,
                -1.0,
                f64::INFINITY,
                f64::NEG_INFINITY
            ])
            .prop_map(|x| x.to_be_bytes().to_vec()),
            any::<u64>().prop_map(|m| (0x7FF0_0000_0000_0001 | m).to_be_bytes().to_vec()),
        ]
        .boxed(),
        DataType::Boolean => fixed(1),
        DataType::Integer => (vec(edgy_byte(), 0..4), 0..3usize, any::<bool>())
            .prop_map(|(v, pad, neg)| {
                // Sign-extended copies are equal values written longer.
                let fill = if v.first().is_some_and(|b| *b >= 0x80) || (v.is_empty() && neg) {
                    0xFF
                } else {
                    0x00
                };
                let mut out = vec![fill; if v.is_empty() { 0 } else { pad }];
                out.extend(v);
                out
            })
            .boxed(),
        DataType::Decimal => prop_oneof![
            1 => Just(Vec::new()),
            6 => (prop_oneof![-3..4i32, any::<i32>()], vec(edgy_byte(), 0..4)).prop_map(|(s, u)| {
                let mut out = s.to_be_bytes().to_vec();
                out.extend(u);
                out
            }),
        ]
        .boxed(),
        DataType::Uuid | DataType::LexicalUuid => prop_oneof![fixed(16), tie_prone_uuid()].boxed(),
        DataType::TimeUuid => prop_oneof![fixed(16), tie_prone_uuid()]
            .prop_map(|mut v| {
                if let Some(b) = v.get_mut(6) {
                    *b = 0x10 | (*b & 0x0F);
                }
                v
            })
            .boxed(),
        DataType::InetAddress => prop_oneof![fixed(4), fixed(16)].boxed(),
        DataType::Reversed(base) => value_of(base),
        DataType::Composite(types) => {
            composite_of(types.iter().map(|t| (None, t.clone())).collect())
        }
        DataType::DynamicComposite(aliases) => dynamic_of(aliases),
    }
}

/// UUIDs whose first halves come from two choices, so that timestamps tie and the second
/// halves (signed for TimeUUIDType, unsigned for UUIDType) decide.
fn tie_prone_uuid() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::sample::select(vec![[0x00u8; 8], [0x11; 8]]),
        vec(edgy_byte(), 8),
    )
        .prop_map(|(first, second)| first.iter().copied().chain(second).collect())
}

/// A composite value: a prefix of the components, the last EOC anything.
fn composite_of(slots: Vec<(Option<Vec<u8>>, DataType)>) -> BoxedStrategy<Vec<u8>> {
    let n = slots.len();
    let values: Vec<BoxedStrategy<Vec<u8>>> = slots.iter().map(|(_, t)| value_of(t)).collect();
    (
        values,
        0..=n,
        prop_oneof![Just(0u8), Just(1), Just(0xFF), any::<u8>()],
    )
        .prop_map(move |(values, k, eoc)| {
            let mut out = Vec::new();
            for (i, v) in values.iter().take(k).enumerate() {
                if let Some(header) = &slots[i].0 {
                    out.extend_from_slice(header);
                }
                out.extend_from_slice(&(v.len() as u16).to_be_bytes());
                out.extend_from_slice(v);
                out.push(if i + 1 == k { eoc } else { 0 });
            }
            out
        })
        .boxed()
}

/// A dynamic composite value: up to three components, each naming its type by an alias, a
/// short name or a full class name.
fn dynamic_of(aliases: &BTreeMap<u8, DataType>) -> BoxedStrategy<Vec<u8>> {
    let named = simple_type().prop_flat_map(|t| {
        proptest::sample::select(vec![t.short_string(), t.class_name()]).prop_map(move |name| {
            let mut h = (name.len() as u16).to_be_bytes().to_vec();
            h.extend_from_slice(name.as_bytes());
            (h, t.clone())
        })
    });
    let header = if aliases.is_empty() {
        named.boxed()
    } else {
        let aliased = proptest::sample::select(aliases.clone().into_iter().collect::<Vec<_>>())
            .prop_map(|(a, t)| ((0x8000u16 | u16::from(a)).to_be_bytes().to_vec(), t));
        prop_oneof![named, aliased].boxed()
    };
    vec(header, 0..4)
        .prop_flat_map(|slots| composite_of(slots.into_iter().map(|(h, t)| (Some(h), t)).collect()))
        .boxed()
}

/// A type with two of its values.
pub(crate) fn type_and_values() -> impl Strategy<Value = (DataType, Vec<u8>, Vec<u8>)> {
    any_type().prop_flat_map(|t| {
        let v = value_of(&t);
        (Just(t), v.clone(), v)
    })
}

/// Whether every value of `t` has exactly one byte string.
fn exact(t: &DataType) -> bool {
    match t {
        DataType::Integer
        | DataType::Decimal
        | DataType::Double
        | DataType::Float
        | DataType::Boolean
        | DataType::DynamicComposite(_) => false,
        DataType::Composite(types) => types.iter().all(exact),
        DataType::Reversed(base) => exact(base),
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn encoding_order_is_compare_order((t, a, b) in type_and_values()) {
        prop_assert_eq!(t.validate(&a), Ok(()), "generator made an invalid value");
        let (ea, eb) = (t.encode(&a).unwrap(), t.encode(&b).unwrap());
        prop_assert_eq!(ea.cmp(&eb), t.compare(&a, &b), "{} {:02x?} {:02x?}", t.short_string(), a, b);
        prop_assert_eq!(t.compare(&b, &a), t.compare(&a, &b).reverse());
    }

    #[test]
    fn encoding_decodes_to_an_equal_value((t, a, _b) in type_and_values()) {
        let e = t.encode(&a).unwrap();
        let back = t.decode(&e).unwrap();
        prop_assert_eq!(t.compare(&back, &a), Ordering::Equal);
        prop_assert_eq!(t.encode(&back).unwrap(), e);
        if exact(&t) {
            prop_assert_eq!(back, a);
        }
    }

    #[test]
    fn encodings_are_prefix_free((t, a, b) in type_and_values()) {
        let (ea, eb) = (t.encode(&a).unwrap(), t.encode(&b).unwrap());
        if ea != eb {
            prop_assert!(!eb.starts_with(&ea) && !ea.starts_with(&eb));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(t in any_type(), junk in vec(edgy_byte(), 0..40)) {
        let valid = t.validate(&junk).is_ok();
        let _ = t.get_string(&junk);
        let _ = t.compare(&junk, &junk);
        prop_assert_eq!(t.encode(&junk).is_ok(), valid);
        if let Ok(v) = t.decode(&junk) {
            prop_assert_eq!(t.validate(&v), Ok(()));
        }
    }
}

/// Types whose text form reads back to an equal value: the simple types but dates (their
/// text drops seconds), addresses (IPv4-mapped ones come back as 4 bytes), counters (hex in,
/// decimal out) and booleans (no text for empty); composites of them; reversed ones.
fn text_type() -> impl Strategy<Value = DataType> {
    let simple = proptest::sample::select(vec![
        DataType::Bytes,
        DataType::Ascii,
        DataType::Utf8,
        DataType::Long,
        DataType::Int32,
        DataType::Integer,
        DataType::Decimal,
        DataType::Double,
        DataType::Float,
        DataType::Uuid,
        DataType::LexicalUuid,
        DataType::TimeUuid,
    ]);
    let composite = vec(simple.clone(), 1..4).prop_map(DataType::Composite);
    let base = prop_oneof![simple, composite];
    prop_oneof![
        base.clone(),
        base.prop_map(|t| DataType::Reversed(Box::new(t)))
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn text_form_reads_back((t, a) in text_type().prop_flat_map(|t| (Just(t.clone()), value_of(&t)))) {
        // Only strict UTF-8 survives a trip through text (the rest shows as U+FFFD).
        prop_assume!(!t.get_string(&a).contains('\u{FFFD}'));
        prop_assume!(composite_text_is_plain(&t, &a));
        let text = t.get_string(&a);
        let back = t.from_string(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(t.compare(&back, &a), Ordering::Equal, "{:?}", text);
    }
}

/// Whether each component of a composite value has a text that reads back: not empty (an
/// empty text is no component), not `_` (an EOC marker) and strict UTF-8, with an EOC of
/// −1, 0 or 1.
fn composite_text_is_plain(t: &DataType, v: &[u8]) -> bool {
    let t = match t {
        DataType::Reversed(base) => base,
        _ => t,
    };
    let DataType::Composite(types) = t else {
        return true;
    };
    let mut rest = v;
    let mut i = 0;
    while let Some(c) = super::composite::read_component(&mut rest) {
        let text = types[i].get_string(c.value);
        // The text keeps only the sign of an end-of-component byte.
        let eoc_kept = matches!(c.eoc, 0 | 1 | 0xFF);
        if !eoc_kept || text.is_empty() || text == "_" || text.contains('\u{FFFD}') {
            return false;
        }
        i += 1;
    }
    true
}
