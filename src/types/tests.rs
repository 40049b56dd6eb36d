//! Unit tests of the types: type strings and their errors, validation messages, and the
//! orders the Cassandra system tests rely on (text forms are in `text_tests`).

use std::cmp::Ordering;

use super::DataType::{self, *};

pub(super) fn parse(s: &str) -> DataType {
    DataType::parse(s).unwrap()
}

fn parse_err(s: &str) -> String {
    match DataType::parse(s) {
        Err(crate::Error::InvalidRequest(why)) => why,
        other => panic!("{s:?} parsed to {other:?}"),
    }
}

pub(super) fn hex(v: &[u8]) -> String {
    crate::comparator::hex(v)
}

/// A composite name from (value, eoc) pairs.
pub(super) fn comp(parts: &[(&[u8], u8)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (v, eoc) in parts {
        out.extend_from_slice(&(v.len() as u16).to_be_bytes());
        out.extend_from_slice(v);
        out.push(*eoc);
    }
    out
}

#[test]
fn type_strings_short_full_and_nested() {
    assert_eq!(parse("LongType"), Long);
    assert_eq!(parse("org.apache.cassandra.db.marshal.UUIDType"), Uuid);
    assert_eq!(parse(""), Bytes);
    assert_eq!(parse("  \t"), Bytes);
    assert_eq!(parse(" LongType trailing junk"), Long);
    let t = parse("org.apache.cassandra.db.marshal.CompositeType(UTF8Type,ReversedType(LongType))");
    assert_eq!(t, Composite(vec![Utf8, Reversed(Box::new(Long))]));
    assert_eq!(
        parse("CompositeType( UTF8Type ,\n ReversedType(LongType) )"),
        t
    );
    assert_eq!(
        t.class_name(),
        "org.apache.cassandra.db.marshal.CompositeType(org.apache.cassandra.db.marshal.UTF8Type,\
         org.apache.cassandra.db.marshal.ReversedType(org.apache.cassandra.db.marshal.LongType))"
    );
    assert_eq!(
        t.short_string(),
        "CompositeType(UTF8Type,ReversedType(LongType))"
    );
    let d = parse("DynamicCompositeType(b=>ReversedType(LongType), a=>AsciiType)");
    assert_eq!(
        d.class_name(),
        "org.apache.cassandra.db.marshal.DynamicCompositeType(a=>org.apache.cassandra.db.marshal.AsciiType,\
         b=>org.apache.cassandra.db.marshal.ReversedType(org.apache.cassandra.db.marshal.LongType))"
    );
    assert_eq!(
        parse("DynamicCompositeType"),
        DynamicComposite(Default::default())
    );
    assert_eq!(parse("LongType(reversed=true)"), Reversed(Box::new(Long)));
    assert_eq!(parse("LongType(reversed=false)"), Long);
    assert_eq!(parse("Int32Type"), Int32);
    assert_eq!(parse("CounterColumnType").short_name(), "CounterColumnType");
}

#[test]
fn type_string_errors_are_cassandras() {
    assert_eq!(
        parse_err("FooType"),
        "Unable to find abstract-type class 'org.apache.cassandra.db.marshal.FooType'"
    );
    assert_eq!(
        parse_err("com.example.MyType"),
        "Unable to find abstract-type class 'com.example.MyType'"
    );
    assert_eq!(
        parse_err("longtype"),
        "Unable to find abstract-type class 'org.apache.cassandra.db.marshal.longtype'"
    );
    assert_eq!(
        parse_err("ReversedType"),
        "ReversedType takes exactly one argument, 0 given"
    );
    assert_eq!(
        parse_err("ReversedType(LongType,UTF8Type)"),
        "ReversedType takes exactly one argument, 2 given"
    );
    assert_eq!(
        parse_err("CompositeType"),
        "CompositeType requires at least one component type"
    );
    assert_eq!(
        parse_err("CompositeType(LongType"),
        "Syntax error parsing 'CompositeType(LongType' at char 22: unexpected end of string"
    );
    assert_eq!(
        parse_err("DynamicCompositeType(ab=>LongType)"),
        "Syntax error parsing 'DynamicCompositeType(ab=>LongType)' at char 23: An alias should be a single character"
    );
    assert_eq!(
        parse_err("DynamicCompositeType(a=LongType)"),
        "Syntax error parsing 'DynamicCompositeType(a=LongType)' at char 22: expecting '=>' token"
    );
    assert_eq!(
        parse_err("LongType(reversed;)"),
        "Syntax error parsing 'LongType(reversed;)' at char 17: unexpected character ';'"
    );
    // A syntax error inside parameters is re-worded, as Cassandra does.
    assert_eq!(
        parse_err("CompositeType(ReversedType(LongType)"),
        "Syntax error parsing 'CompositeType(ReversedType(LongType)' at char 36: unexpected end of string"
    );
    assert_eq!(
        parse_err("CompositeType(DynamicCompositeType(ab=>LongType))"),
        "Exception while parsing 'CompositeType(DynamicCompositeType(ab=>LongType))' around char 37"
    );
    assert_eq!(
        parse_err("ListType(Int32Type)"),
        "ListType is not supported by ilion"
    );
    let deep = format!("{}LongType{}", "ReversedType(".repeat(40), ")".repeat(40));
    assert!(parse_err(&deep).contains("nests deeper than 16 levels"));
}

#[test]
fn validation_messages() {
    let cases: Vec<(DataType, Vec<u8>, &str)> = vec![
        (Ascii, vec![b'a', 0xC3], "Invalid byte for ascii: -61"),
        (Utf8, vec![0xC3, 0x28], "String didn't validate."),
        (Long, vec![1, 2, 3], "Expected 8 or 0 byte long (3)"),
        (Int32, vec![1], "Expected 4 or 0 byte int (1)"),
        (Decimal, vec![0, 0, 1], "Expected 0 or at least 4 bytes (3)"),
        (
            Double,
            vec![0; 4],
            "Expected 8 or 0 byte value for a double (4)",
        ),
        (
            Float,
            vec![0; 8],
            "Expected 4 or 0 byte value for a float (8)",
        ),
        (Boolean, vec![0, 1], "Expected 1 or 0 byte value (2)"),
        (Date, vec![0; 7], "Expected 8 or 0 byte long for date (7)"),
        (
            Timestamp,
            vec![0; 9],
            "Expected 8 or 0 byte long for date (9)",
        ),
        (Uuid, vec![0; 15], "UUID should be 16 or 0 bytes (15)"),
        (
            LexicalUuid,
            vec![0; 17],
            "UUID should be 16 or 0 bytes (17)",
        ),
        (TimeUuid, vec![0; 16], "Invalid version for TimeUUID type."),
        (
            InetAddress,
            vec![127, 0, 1],
            "Expected 4 or 16 byte inetaddress; got 7f0001",
        ),
        (Counter, vec![0; 4], "Expected 8 or 0 byte long (4)"),
        (
            Reversed(Box::new(Long)),
            vec![0; 2],
            "Expected 8 or 0 byte long (2)",
        ),
    ];
    for (t, v, message) in cases {
        assert_eq!(t.validate(&v), Err(message.to_string()), "{t:?}");
        assert_eq!(t.validate(b""), Ok(()), "{t:?} accepts empty");
    }
    assert_eq!(Decimal.validate(&[0, 0, 0, 2]), Ok(()));
    assert_eq!(Integer.validate(&[0xFF; 20]), Ok(()));
}

#[test]
fn utf8_acceptance_is_the_2_2_automaton() {
    for ok in [
        &b"plain"[..],
        &[0xC0, 0x80],
        &[0xED, 0xA0, 0x80],
        &[0xF4, 0x90, 0x80, 0x80],
        &[0xE0, 0x41, 0x80],
        &[0xF0, 0x90, 0x80, 0x80],
        "é€😀".as_bytes(),
    ] {
        assert_eq!(Utf8.validate(ok), Ok(()), "{ok:02x?}");
    }
    for bad in [
        &[0xC0, 0x81][..],
        &[0xC1, 0x80],
        &[0xE0, 0x80, 0x80],
        &[0xF0, 0x80, 0x80, 0x80],
        &[0xF8, 0x80],
        &[0xE1, 0x80],
        &[0x80],
    ] {
        assert_eq!(
            Utf8.validate(bad),
            Err("String didn't validate.".into()),
            "{bad:02x?}"
        );
    }
}

#[test]
fn composite_validation_messages() {
    let t = parse("CompositeType(LongType,UTF8Type)");
    let eight = 5i64.to_be_bytes();
    let check = |v: Vec<u8>, m: &str| assert_eq!(t.validate(&v), Err(m.to_string()), "{v:02x?}");
    check(
        vec![0],
        "Not enough bytes to read value size of component 0",
    );
    check(
        vec![0, 8, 1],
        "Not enough bytes to read value of component 0",
    );
    check(comp(&[(&[1, 2], 0)]), "Expected 8 or 0 byte long (2)");
    check(
        comp(&[(&eight, 0)])[..10].to_vec(),
        "Not enough bytes to read the end-of-component byte of component0",
    );
    let mut early = comp(&[(&eight, 1)]);
    early.extend_from_slice(&comp(&[(b"x", 0)]));
    check(
        early,
        "Invalid bytes remaining after an end-of-component at component0",
    );
    check(
        comp(&[(&eight, 0), (b"x", 0), (b"y", 0)]),
        "Too many bytes for comparator",
    );
    assert_eq!(t.validate(&comp(&[(&eight, 0), (b"x", 0xFF)])), Ok(()));
    let d = parse("DynamicCompositeType(a=>AsciiType)");
    assert_eq!(
        d.validate(&[0x80]),
        Err("Not enough bytes to header of the comparator part of component 0".into())
    );
    assert_eq!(
        d.validate(&[0x00, 0x09, b'L']),
        Err("Not enough bytes to read comparator name of component 0".into())
    );
    assert_eq!(
        d.validate(&[0x80, b'z', 0, 0, 0]),
        Err("Cannot find comparator for component 0".into())
    );
    let mut named = vec![0x00, 0x08];
    named.extend_from_slice(b"LongType");
    named.extend_from_slice(&comp(&[(&[1], 0)]));
    assert_eq!(
        d.validate(&named),
        Err("Expected 8 or 0 byte long (1)".into())
    );
}

#[test]
fn orders_of_the_numeric_types() {
    let long = |n: i64| n.to_be_bytes().to_vec();
    assert_eq!(Long.compare(&long(-1), &long(1)), Ordering::Less);
    assert_eq!(Timestamp.compare(&long(-1), &long(1)), Ordering::Less);
    // DateType compares unsigned bytes: before 1970 sorts after.
    assert_eq!(Date.compare(&long(-1), &long(1)), Ordering::Greater);
    assert_eq!(Integer.compare(&[0x01], &[0x00, 0x01]), Ordering::Equal);
    assert_eq!(Integer.compare(&[0xFF], &[0x00]), Ordering::Less);
    assert_eq!(Integer.compare(&[0x80, 0x00], &[0xFF]), Ordering::Less);
    assert_eq!(Integer.compare(b"", &[0x80]), Ordering::Less);
    // 1.0 (10, scale 1) = 1.00 (100, scale 2); 4 bytes alone are 0 (spec F8).
    assert_eq!(
        Decimal.compare(&[0, 0, 0, 1, 10], &[0, 0, 0, 2, 100]),
        Ordering::Equal
    );
    assert_eq!(
        Decimal.compare(&[0, 0, 0, 7], &[0, 0, 0, 0, 0]),
        Ordering::Equal
    );
    assert_eq!(
        Decimal.compare(&[0x80, 0, 0, 0, 1], &[0x7F, 0xFF, 0xFF, 0xFF, 1]),
        Ordering::Greater
    );
    let d = |x: f64| x.to_be_bytes().to_vec();
    assert_eq!(Double.compare(&d(-0.0), &d(0.0)), Ordering::Less);
    assert_eq!(
        Double.compare(&d(f64::NAN), &d(f64::INFINITY)),
        Ordering::Greater
    );
    assert_eq!(
        Double.compare(&(0x7FF8_0000_0000_0001u64).to_be_bytes(), &d(f64::NAN)),
        Ordering::Equal
    );
    assert_eq!(Boolean.compare(&[1], &[2]), Ordering::Equal);
    assert_eq!(Boolean.compare(&[0], &[0x80]), Ordering::Less);
    // Reversed: everything reversed, empty last (2.x).
    let r = Reversed(Box::new(Long));
    assert_eq!(r.compare(&long(1), &long(2)), Ordering::Greater);
    assert_eq!(r.compare(b"", &long(2)), Ordering::Greater);
}

#[test]
fn orders_of_the_uuid_types() {
    let u = |s: &str| uuid::Uuid::parse_str(s).unwrap().as_bytes().to_vec();
    // TimeUUIDType: timestamp first, then bytes 8–15 as signed bytes.
    let early = u("00000001-0000-1000-8000-000000000000");
    let later = u("00000000-0001-1000-0000-000000000000");
    assert_eq!(TimeUuid.compare(&early, &later), Ordering::Less);
    let neg = u("00000001-0000-1000-8000-000000000000");
    let pos = u("00000001-0000-1000-7f00-000000000000");
    assert_eq!(TimeUuid.compare(&neg, &pos), Ordering::Less);
    assert!(TimeUuid.encode(&neg).unwrap() < TimeUuid.encode(&pos).unwrap());
    // UUIDType: version first; bytes 8–15 unsigned.
    let v4 = u("00000000-0000-4000-0000-000000000000");
    let v1 = u("ffffffff-ffff-1fff-ffff-ffffffffffff");
    assert_eq!(Uuid.compare(&v1, &v4), Ordering::Less);
    assert_eq!(Uuid.compare(&neg, &pos), Ordering::Greater);
    assert!(Uuid.encode(&neg).unwrap() > Uuid.encode(&pos).unwrap());
    // LexicalUUIDType: two signed halves.
    assert_eq!(
        LexicalUuid.compare(
            &u("80000000-0000-0000-0000-000000000000"),
            &u("00000000-0000-0000-0000-000000000000")
        ),
        Ordering::Less
    );
}

#[test]
fn composite_order_and_eoc_bounds() {
    let t = parse("CompositeType(UTF8Type,UTF8Type)");
    let name = |a: &str, b: &str| comp(&[(a.as_bytes(), 0), (b.as_bytes(), 0)]);
    // dtest test_range_deletion: [("3", EOC -1), ("6", "\x01", EOC 0)] covers (3,3)…(5,5), not (6,6).
    let start = comp(&[(b"3", 0xFF)]);
    let end = comp(&[(b"6", 0), (b"\x01", 0)]);
    for n in ["3", "4", "5"] {
        let x = name(n, n);
        assert_eq!(t.compare(&start, &x), Ordering::Less);
        assert_eq!(t.compare(&x, &end), Ordering::Less);
    }
    assert_eq!(t.compare(&name("6", "6"), &end), Ordering::Greater);
    // test_range_deletion_eoc_0: ("6", EOC 0) equals the one-component name, precedes ("6","6").
    let six = comp(&[(b"6", 0)]);
    assert_eq!(t.compare(&six, &six.clone()), Ordering::Equal);
    assert_eq!(t.compare(&six, &name("6", "6")), Ordering::Less);
    assert_eq!(
        t.compare(&comp(&[(b"6", 1)]), &name("6", "z")),
        Ordering::Greater
    );
    assert_eq!(t.compare(b"", &six), Ordering::Less);
}

#[test]
fn dynamic_composite_orders_by_type_first() {
    let t = parse("DynamicCompositeType(l=>LongType,u=>UTF8Type,r=>ReversedType(LongType))");
    let part = |alias: u8, v: &[u8]| {
        let mut out = (0x8000u16 | u16::from(alias)).to_be_bytes().to_vec();
        out.extend_from_slice(&comp(&[(v, 0)]));
        out
    };
    let big = i64::MAX.to_be_bytes();
    let small = 1i64.to_be_bytes();
    // LongType < ReversedType < UTF8Type by simple class name.
    assert_eq!(
        t.compare(&part(b'l', &big), &part(b'u', b"a")),
        Ordering::Less
    );
    assert_eq!(
        t.compare(&part(b'r', &small), &part(b'l', &big)),
        Ordering::Greater
    );
    assert_eq!(
        t.compare(&part(b'r', &small), &part(b'r', &big)),
        Ordering::Greater
    );
    // An alias and the class name of the same type are the same type.
    let mut named = vec![0x00, 0x08];
    named.extend_from_slice(b"LongType");
    named.extend_from_slice(&comp(&[(&small, 0)]));
    assert_eq!(t.compare(&named, &part(b'l', &small)), Ordering::Equal);
    assert_eq!(
        t.encode(&named).unwrap(),
        t.encode(&part(b'l', &small)).unwrap()
    );
    assert_eq!(
        t.decode(&t.encode(&named).unwrap()).unwrap(),
        part(b'l', &small)
    );
}
