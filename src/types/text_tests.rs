//! Unit tests of the types' text forms (`getString`/`fromString` against Cassandra's
//! outputs and messages), the canonical forms of values with several byte strings, and the
//! hex examples of `docs/types.md`.

use super::tests::{comp, hex, parse};
use super::DataType::{self, *};

#[test]
fn text_forms() {
    let cases: Vec<(DataType, Vec<u8>, &str)> = vec![
        (Bytes, vec![0xAB, 0x01], "ab01"),
        (Long, (-42i64).to_be_bytes().to_vec(), "-42"),
        (Int32, 7i32.to_be_bytes().to_vec(), "7"),
        (Counter, 3i64.to_be_bytes().to_vec(), "3"),
        (Integer, vec![0xFF, 0x00], "-256"),
        (Integer, vec![], ""),
        (Decimal, vec![0, 0, 0, 2, 0x30, 0x39], "123.45"),
        (Decimal, vec![0, 0, 0, 5, 1], "0.00001"),
        (Decimal, vec![0xFF, 0xFF, 0xFF, 0xFD, 5], "5000"),
        (Decimal, vec![0, 0, 0, 3, 0], "0.000"),
        (Decimal, vec![0x80, 0, 0, 0, 5], "5E+2147483648"),
        (Double, 1.0f64.to_be_bytes().to_vec(), "1.0"),
        (Double, 1e10f64.to_be_bytes().to_vec(), "1.0E10"),
        (Double, 0.001f64.to_be_bytes().to_vec(), "0.001"),
        (Double, 1e-4f64.to_be_bytes().to_vec(), "1.0E-4"),
        (Double, 1234567.5f64.to_be_bytes().to_vec(), "1234567.5"),
        (Double, 1e7f64.to_be_bytes().to_vec(), "1.0E7"),
        (Double, (-0.0f64).to_be_bytes().to_vec(), "-0.0"),
        (Double, f64::NAN.to_be_bytes().to_vec(), "NaN"),
        (
            Double,
            f64::NEG_INFINITY.to_be_bytes().to_vec(),
            "-Infinity",
        ),
        (Float, 1.1f32.to_be_bytes().to_vec(), "1.1"),
        (Float, 3.0e-5f32.to_be_bytes().to_vec(), "3.0E-5"),
        (Boolean, vec![2], "true"),
        (Boolean, vec![0], "false"),
        (Date, 0i64.to_be_bytes().to_vec(), "1970-01-01 00:00Z"),
        (
            Timestamp,
            1_300_192_496_000i64.to_be_bytes().to_vec(),
            "2011-03-15 12:34Z",
        ),
        (
            Timestamp,
            (-1i64).to_be_bytes().to_vec(),
            "1969-12-31 23:59Z",
        ),
        (InetAddress, vec![127, 0, 0, 1], "127.0.0.1"),
        (
            InetAddress,
            [0u8; 15].iter().copied().chain([1]).collect(),
            "0:0:0:0:0:0:0:1",
        ),
        (
            InetAddress,
            [0u8; 10]
                .iter()
                .copied()
                .chain([0xFF, 0xFF, 10, 0, 0, 1])
                .collect(),
            "10.0.0.1",
        ),
        (
            Uuid,
            uuid::Uuid::nil().as_bytes().to_vec(),
            "00000000-0000-0000-0000-000000000000",
        ),
        (Utf8, "héllo".as_bytes().to_vec(), "héllo"),
    ];
    for (t, v, text) in cases {
        assert_eq!(t.get_string(&v), text, "{t:?} {v:02x?}");
    }
    let c = parse("CompositeType(UTF8Type,LongType)");
    assert_eq!(
        c.get_string(&comp(&[(b"a:b", 0), (&5i64.to_be_bytes(), 1)])),
        "a\\:b:5:!"
    );
    assert_eq!(c.get_string(&comp(&[(b"x!", 0xFF)])), "x!!:_");
    let d = parse("DynamicCompositeType(a=>AsciiType)");
    let mut v = vec![0x80, b'a'];
    v.extend_from_slice(&comp(&[(b"hi", 0)]));
    v.extend_from_slice(&[0x00, 0x08]);
    v.extend_from_slice(b"LongType");
    v.extend_from_slice(&comp(&[(&9i64.to_be_bytes(), 0)]));
    assert_eq!(d.get_string(&v), "a@hi:LongType@9");
    assert_eq!(d.from_string("a@hi:LongType@9").unwrap(), v);
}

#[test]
fn from_string_forms_and_errors() {
    assert_eq!(Bytes.from_string("ab01").unwrap(), vec![0xAB, 0x01]);
    assert_eq!(
        Bytes.from_string("abc").unwrap_err(),
        "cannot parse 'abc' as hex bytes"
    );
    assert_eq!(
        Long.from_string("x").unwrap_err(),
        "Unable to make long from 'x'"
    );
    assert_eq!(
        Int32.from_string("99999999999").unwrap_err(),
        "Unable to make int from '99999999999'"
    );
    assert_eq!(
        Integer.from_string("1.5").unwrap_err(),
        "unable to make int from '1.5'"
    );
    assert_eq!(Integer.from_string("-256").unwrap(), vec![0xFF, 0x00]);
    assert_eq!(
        Decimal.from_string("1.50").unwrap(),
        vec![0, 0, 0, 2, 0, 150]
    );
    assert_eq!(
        Decimal.from_string("1E+3").unwrap(),
        vec![0xFF, 0xFF, 0xFF, 0xFD, 1]
    );
    assert_eq!(
        Decimal.from_string("1.2.3").unwrap_err(),
        "unable to make BigDecimal from '1.2.3'"
    );
    assert_eq!(
        Double.from_string("2.5d").unwrap(),
        2.5f64.to_be_bytes().to_vec()
    );
    assert_eq!(
        Double.from_string("inf").unwrap_err(),
        "Unable to make double from 'inf'"
    );
    assert_eq!(
        Float.from_string("-Infinity").unwrap(),
        f32::NEG_INFINITY.to_be_bytes().to_vec()
    );
    assert_eq!(Boolean.from_string("TRUE").unwrap(), vec![1]);
    assert_eq!(Boolean.from_string("").unwrap(), vec![0]);
    assert_eq!(
        Boolean.from_string("yes").unwrap_err(),
        "Unable to make boolean from 'yes'"
    );
    assert_eq!(
        Uuid.from_string("nope").unwrap_err(),
        "Unable to make UUID from 'nope'"
    );
    assert_eq!(
        TimeUuid.from_string("nope").unwrap_err(),
        "Unknown timeuuid representation: nope"
    );
    assert_eq!(
        TimeUuid
            .from_string("00000000-0000-4000-8000-000000000000")
            .unwrap_err(),
        "TimeUUID supports only version 1 UUIDs"
    );
    assert_eq!(
        InetAddress.from_string("::ffff:10.0.0.1").unwrap(),
        vec![10, 0, 0, 1]
    );
    assert_eq!(
        InetAddress.from_string("example.com").unwrap_err(),
        "Unable to make inet address from 'example.com'"
    );
    let ms = |s: &str| i64::from_be_bytes(Timestamp.from_string(s).unwrap().try_into().unwrap());
    assert_eq!(ms("1300192496000"), 1_300_192_496_000);
    assert_eq!(ms("2011-03-15 12:34Z"), 1_300_192_440_000);
    assert_eq!(ms("2011-03-15T12:34:56.789+0100"), 1_300_188_896_789);
    assert_eq!(ms("2011-03-15"), 1_300_147_200_000);
    assert_eq!(
        Date.from_string("2011-02-30").unwrap_err(),
        "Unable to coerce '2011-02-30' to a formatted date (long)"
    );
    assert_eq!(Ascii.from_string("é").unwrap_err(), "Invalid ASCII character in string literal: java.nio.charset.UnmappableCharacterException: Input length = 1");
    let c = parse("CompositeType(UTF8Type,LongType)");
    assert_eq!(
        c.from_string("a\\:b:5:!").unwrap(),
        comp(&[(b"a:b", 0), (&5i64.to_be_bytes(), 1)])
    );
    assert_eq!(c.from_string("x:_").unwrap(), comp(&[(b"x", 0xFF)]));
}

#[test]
fn canonical_forms_of_equal_values() {
    let round = |t: &DataType, v: &[u8]| t.decode(&t.encode(v).unwrap()).unwrap();
    assert_eq!(round(&Integer, &[0x00, 0x00, 0x01]), vec![0x01]);
    assert_eq!(round(&Integer, &[0xFF, 0xFF, 0x80]), vec![0x80]);
    assert_eq!(round(&Decimal, &[0, 0, 0, 2, 100]), vec![0, 0, 0, 0, 1]);
    assert_eq!(round(&Decimal, &[0, 0, 0, 9]), vec![0, 0, 0, 0, 0]);
    assert_eq!(round(&Boolean, &[7]), vec![1]);
    assert_eq!(
        round(&Double, &0x7FF0_0000_0000_0001u64.to_be_bytes()),
        f64::NAN.to_be_bytes().to_vec()
    );
}

#[test]
fn encoding_examples_of_the_docs() {
    let enc = |t: &str, v: &[u8]| hex(&parse(t).encode(v).unwrap());
    assert_eq!(enc("UTF8Type", b"a\0b"), "6100ff620000");
    assert_eq!(
        enc("LongType", &(-1i64).to_be_bytes()),
        "017fffffffffffffff"
    );
    assert_eq!(enc("LongType", b""), "00");
    assert_eq!(enc("Int32Type", &5i32.to_be_bytes()), "0180000005");
    assert_eq!(enc("BooleanType", &[1]), "02");
    assert_eq!(enc("IntegerType", &[0x00, 0x01]), "02010101");
    assert_eq!(enc("IntegerType", &[0xFF, 0x00]), "01fefdff00");
    assert_eq!(
        enc("DecimalType", &[0, 0, 0, 2, 0x30, 0x39]),
        "0380000000000000030d233300"
    );
    assert_eq!(
        enc("DecimalType", &[0, 0, 0, 0, 0xFF]),
        "017ffffffffffffffef4ff"
    );
    assert_eq!(
        enc("DoubleType", &1.0f64.to_be_bytes()),
        "01bff0000000000000"
    );
    assert_eq!(
        enc("DoubleType", &(-1.0f64).to_be_bytes()),
        "01400fffffffffffff"
    );
    assert_eq!(
        enc(
            "TimeUUIDType",
            uuid::Uuid::parse_str("01234567-89ab-1cde-8000-000000000000")
                .unwrap()
                .as_bytes()
        ),
        "019cde89ab012345670080808080808080"
    );
    assert_eq!(
        enc(
            "UUIDType",
            uuid::Uuid::parse_str("01234567-89ab-4cde-8000-000000000000")
                .unwrap()
                .as_bytes()
        ),
        "01040123456789ab4cde8000000000000000"
    );
    assert_eq!(
        enc(
            "CompositeType(UTF8Type,LongType)",
            &comp(&[(b"a", 0), (&1i64.to_be_bytes(), 0)])
        ),
        "0161000080010180000000000000018000"
    );
    assert_eq!(
        enc("CompositeType(UTF8Type,LongType)", &comp(&[(b"a", 0xFF)])),
        "016100007f"
    );
    assert_eq!(
        enc("ReversedType(LongType)", &1i64.to_be_bytes()),
        "fe7ffffffffffffffe"
    );
}
