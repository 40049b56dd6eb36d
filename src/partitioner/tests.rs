//! Reference tokens, orders, string forms and messages of every partitioner.

use super::*;

#[test]
fn random_reference_tokens() {
    let p = Partitioner::Random;
    for (key, token) in [
        ("a", "16955237001963240173058271559858726497"),
        ("b", "144992942750327304334463589818972416113"),
        ("key1", "81509516161424251288255223397843705139"),
        ("key2", "160795813082586690235759048260910463706"),
    ] {
        assert_eq!(p.token(key.as_bytes()).to_string(), token, "key {key}");
        assert_eq!(p.parse_token(token).unwrap(), p.token(key.as_bytes()));
    }
    assert!(p.token("key2".as_bytes()) > p.token("b".as_bytes()));
    assert!(p.token("key1".as_bytes()) < p.token("b".as_bytes()));
    assert_eq!(p.token("".as_bytes()).to_string(), "-1");
    assert!(p.token("".as_bytes()).is_minimum());
}

#[test]
fn opp_orders_by_utf16_units() {
    let p = Partitioner::OrderPreserving;
    // U+FF01 is one unit 0xFF01; U+1F600 is the surrogate pair D83D DE00: it sorts first
    // in Java even though its UTF-8 bytes sort last.
    assert!(p.token("\u{1F600}".as_bytes()) < p.token("\u{FF01}".as_bytes()));
    assert!(p.token("a".as_bytes()) < p.token("b".as_bytes()));
    assert!(p.token("".as_bytes()) < p.token("\u{1}".as_bytes()));
}

#[test]
fn token_strings_and_d4_messages() {
    let copp = Partitioner::CollatingOrderPreserving;
    assert_eq!(
        copp.parse_token("0053ABcd").unwrap(),
        Token::Collated(vec![0, 0x53, 0xAB, 0xCD])
    );
    assert_eq!(
        copp.parse_token("abc").unwrap_err(),
        Error::invalid(
            "Invalid token 'abc': CollatingOrderPreservingPartitioner tokens are hex strings of even length"
        )
    );
    assert!(copp.parse_token("zz").is_err());
    assert_eq!(
        Partitioner::Random.parse_token("12a").unwrap_err(),
        Error::invalid("Invalid token '12a': RandomPartitioner tokens are decimal integers")
    );
    assert_eq!(
        Partitioner::OrderPreserving
            .parse_token("any thing")
            .unwrap()
            .to_string(),
        "any thing"
    );
    assert_eq!(
        copp.token("a".as_bytes()).java_to_string(),
        "Token(bytes[00530000000100000001])"
    );
}

#[test]
fn class_names_resolve() {
    for p in Partitioner::ALL {
        assert_eq!(Partitioner::from_class_name(&p.class_name()), Some(p));
        assert_eq!(Partitioner::from_class_name(p.short_name()), Some(p));
    }
    assert_eq!(Partitioner::from_class_name("org.example.Other"), None);
}

/// A key, its Murmur3 token, and where the table gives them its RP token and BOP string.
type ReferenceRow = (
    Vec<u8>,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
);

/// The §3.2 reference table of the later-API spec, every row, through the partitioner API:
/// Murmur3 tokens, RandomPartitioner tokens of binary keys, BOP strings.
#[test]
fn later_api_reference_table() {
    let rows: [ReferenceRow; 10] = [
        (
            b"123".to_vec(),
            "-7468325962851647638",
            Some("42767516990368493138776584305024125808"),
            Some("313233"),
        ),
        (
            b"a".to_vec(),
            "-8839064797231613815",
            Some("16955237001963240173058271559858726497"),
            Some("61"),
        ),
        (
            b"b".to_vec(),
            "8833996863197925870",
            Some("144992942750327304334463589818972416113"),
            Some("62"),
        ),
        (
            b"key1".to_vec(),
            "1573573083296714675",
            Some("81509516161424251288255223397843705139"),
            Some("6b657931"),
        ),
        (
            b"key2".to_vec(),
            "8482869187405483569",
            Some("160795813082586690235759048260910463706"),
            Some("6b657932"),
        ),
        (
            vec![0xFE; 8],
            "-8927430733708461935",
            None,
            Some("fefefefefefefefe"),
        ),
        (vec![0x10; 8], "1446172840243228796", None, None),
        (
            b"9223372036854775807".to_vec(),
            "7162290910810015547",
            None,
            None,
        ),
        (
            [0x00, 0xFF, 0x10, 0xFA, 0x99].repeat(10),
            "5837342703291459765",
            None,
            None,
        ),
        ((1..=16).collect(), "-5563837382979743776", None, None),
    ];
    for (key, murmur, random, bop) in rows {
        let m = Partitioner::Murmur3.token(&key);
        assert_eq!(m.to_string(), murmur, "Murmur3 of {key:02x?}");
        assert_eq!(Partitioner::Murmur3.parse_token(murmur).unwrap(), m);
        if let Some(random) = random {
            assert_eq!(Partitioner::Random.token(&key).to_string(), random);
        }
        if let Some(bop) = bop {
            let b = Partitioner::ByteOrdered.token(&key);
            assert_eq!(b.to_string(), bop);
            assert_eq!(b, Token::Bytes(key.clone()));
            assert_eq!(Partitioner::ByteOrdered.parse_token(bop).unwrap(), b);
        }
    }
    // The empty key: each partitioner's minimum.
    let empty = |p: Partitioner| p.token(b"");
    assert_eq!(
        empty(Partitioner::Murmur3).to_string(),
        "-9223372036854775808"
    );
    assert_eq!(empty(Partitioner::Random).to_string(), "-1");
    assert_eq!(empty(Partitioner::ByteOrdered).to_string(), "");
    for p in Partitioner::ALL {
        assert!(empty(p).is_minimum(), "{p:?}");
        assert_eq!(empty(p), p.min_token(), "{p:?}");
    }
}

#[test]
fn murmur3_orders_signed_and_parses_like_parse_long() {
    let p = Partitioner::Murmur3;
    // key1 (1573…) < b (8833…); a (-8839…) first.
    assert!(p.token(b"a") < p.token(b"key1"));
    assert!(p.token(b"key1") < p.token(b"b"));
    assert!(p.min_token() < p.token(b"a"));
    assert_eq!(p.parse_token("+42").unwrap(), Token::Murmur3(42));
    assert_eq!(p.parse_token("-0007").unwrap(), Token::Murmur3(-7));
    assert!(p.parse_token("-9223372036854775808").unwrap().is_minimum());
    for bad in ["", "12a", "9223372036854775808", "1.5", " 1"] {
        assert_eq!(
            p.parse_token(bad).unwrap_err(),
            Error::invalid(format!(
                "Invalid token for Murmur3Partitioner. Got {bad} but expected a long value (unsigned 8 bytes integer)."
            ))
        );
    }
    assert_eq!(p.token(b"a").java_to_string(), "-8839064797231613815");
    assert!(!p.random_token(1u128 << 63).is_minimum());
}

#[test]
fn byte_ordered_tokens_are_the_key_bytes() {
    let p = Partitioner::ByteOrdered;
    assert!(p.token(b"a") < p.token(b"ab"));
    assert!(p.token(b"ab") < p.token(&[0x80]));
    assert_eq!(
        p.parse_token("AbC").unwrap(),
        Token::Bytes(vec![0x0A, 0xBC])
    );
    assert_eq!(p.parse_token("").unwrap(), p.min_token());
    for bad in ["0g", "xyz", "\u{e9}0"] {
        assert_eq!(
            p.parse_token(bad).unwrap_err(),
            Error::invalid(format!("Token {bad} contains non-hex digits"))
        );
    }
    assert_eq!(
        p.token(&[0xFE, 0x01]).java_to_string(),
        "Token(bytes[fe01])"
    );
}

#[test]
fn opp_token_of_a_non_utf8_key_is_its_hex() {
    let p = Partitioner::OrderPreserving;
    assert_eq!(p.token(&[0xFF, 0x00]), Token::Ordered("ff00".into()));
    // The same token as the UTF-8 key spelling that hex; surrogates are not UTF-8.
    assert_eq!(p.token(&[0xFF, 0x00]), p.token(b"ff00"));
    assert_eq!(
        p.token(&[0xED, 0xA0, 0x80]),
        Token::Ordered("eda080".into())
    );
    assert_eq!(p.token("é".as_bytes()), Token::Ordered("é".into()));
}

#[test]
fn copp_refuses_keys_that_are_not_utf8() {
    let copp = Partitioner::CollatingOrderPreserving;
    assert_eq!(
        copp.check_key(&[0x61, 0xFF]).unwrap_err(),
        Error::invalid("The provided key was not UTF8 encoded.")
    );
    assert!(copp.check_key("é".as_bytes()).is_ok());
    for p in [
        Partitioner::Random,
        Partitioner::OrderPreserving,
        Partitioner::Murmur3,
        Partitioner::ByteOrdered,
    ] {
        assert!(p.check_key(&[0xFF]).is_ok(), "{p:?}");
    }
    // Still a token (for scan bounds): the invalid byte reads as U+FFFD.
    assert_eq!(copp.token(&[0xFF]), copp.token("\u{FFFD}".as_bytes()));
}
