//! Names and values between their bytes and the text the cli reads and prints, through the
//! comparator `describe_keyspace` names for each column family: LongType names are 64-bit
//! integers, LexicalUUIDType and TimeUUIDType names canonical UUID text, UTF8Type and
//! AsciiType names text, BytesType names hex (as 0.6 printed them). Values print as text when
//! they are UTF-8 without control characters, otherwise as `0x` hex.
//!
//! This is the client's own view of the six 0.6 types, taken from class names alone, so the
//! cli needs nothing of the server's and works against real Cassandra 0.6 too.

use super::parser::Literal;
use crate::comparator::hex;
use uuid::Uuid;

/// How a column family's names are written, from its `CompareWith` class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameType {
    Bytes,
    Ascii,
    Utf8,
    Long,
    LexicalUuid,
    TimeUuid,
}

impl NameType {
    /// The type of a class name, with or without its package. Classes the cli does not know
    /// (custom comparators) show names as bytes, as 0.6's cli did.
    pub fn from_class(class: &str) -> NameType {
        match class.rsplit('.').next().unwrap_or(class) {
            "AsciiType" => NameType::Ascii,
            "UTF8Type" => NameType::Utf8,
            "LongType" => NameType::Long,
            "LexicalUUIDType" => NameType::LexicalUuid,
            "TimeUUIDType" => NameType::TimeUuid,
            _ => NameType::Bytes,
        }
    }

    /// The bytes of a name written as `lit`. `0x…` is taken as the bytes themselves under
    /// every type; the server checks them against the comparator.
    pub fn encode(self, lit: &Literal) -> Result<Vec<u8>, String> {
        match lit {
            Literal::Hex(bytes) => Ok(bytes.clone()),
            Literal::Long(n) => Ok(n.to_be_bytes().to_vec()),
            Literal::TimeUuid => Ok(crate::types::new_time_uuid().as_bytes().to_vec()),
            Literal::Text(s) => match self {
                NameType::Long => s
                    .trim()
                    .parse::<i64>()
                    .map(|n| n.to_be_bytes().to_vec())
                    .map_err(|_| {
                        format!("'{s}' is not a LongType name: write a 64-bit integer such as 42")
                    }),
                NameType::LexicalUuid | NameType::TimeUuid => Uuid::parse_str(s.trim())
                    .map(|u| u.as_bytes().to_vec())
                    .map_err(|_| {
                        format!(
                            "'{s}' is not a UUID: write one such as \
                             1b4e28ba-2fa1-11d2-883f-0016d3cca427, or timeuuid()"
                        )
                    }),
                NameType::Bytes | NameType::Ascii | NameType::Utf8 => Ok(s.as_bytes().to_vec()),
            },
        }
    }

    /// A name as the cli prints it. Bytes that do not fit the type (which a correct server
    /// never returns) print as `0x` hex rather than failing.
    pub fn display(self, name: &[u8]) -> String {
        match self {
            NameType::Bytes => hex(name),
            NameType::Ascii | NameType::Utf8 => match std::str::from_utf8(name) {
                Ok(s) => s.to_string(),
                Err(_) => format!("0x{}", hex(name)),
            },
            NameType::Long => match <[u8; 8]>::try_from(name) {
                Ok(b) => i64::from_be_bytes(b).to_string(),
                Err(_) if name.is_empty() => String::new(),
                Err(_) => format!("0x{}", hex(name)),
            },
            NameType::LexicalUuid | NameType::TimeUuid => match Uuid::from_slice(name) {
                Ok(u) => u.hyphenated().to_string(),
                Err(_) if name.is_empty() => String::new(),
                Err(_) => format!("0x{}", hex(name)),
            },
        }
    }
}

/// The bytes of a value written as `lit`: text as UTF-8, `0x…` as bytes, `long(N)` as 8
/// big-endian bytes, `timeuuid()` as the 16 bytes of a new TimeUUID.
pub fn encode_value(lit: &Literal) -> Vec<u8> {
    match lit {
        Literal::Text(s) => s.as_bytes().to_vec(),
        Literal::Hex(bytes) => bytes.clone(),
        Literal::Long(n) => n.to_be_bytes().to_vec(),
        Literal::TimeUuid => crate::types::new_time_uuid().as_bytes().to_vec(),
    }
}

/// A value as the cli prints it: its text when it is UTF-8 without control characters, else
/// `0x` and its hex.
pub fn display_value(value: &[u8]) -> String {
    match std::str::from_utf8(value) {
        Ok(s) if !s.chars().any(char::is_control) => s.to_string(),
        _ => format!("0x{}", hex(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Literal {
        Literal::Text(s.to_string())
    }

    const UUID: &str = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";

    #[test]
    fn class_names_with_and_without_package() {
        let table = [
            ("org.apache.cassandra.db.marshal.BytesType", NameType::Bytes),
            ("AsciiType", NameType::Ascii),
            ("org.apache.cassandra.db.marshal.UTF8Type", NameType::Utf8),
            ("LongType", NameType::Long),
            (
                "org.apache.cassandra.db.marshal.LexicalUUIDType",
                NameType::LexicalUuid,
            ),
            ("TimeUUIDType", NameType::TimeUuid),
            ("com.example.MyType", NameType::Bytes),
        ];
        for (class, want) in table {
            assert_eq!(NameType::from_class(class), want, "{class}");
        }
    }

    #[test]
    fn names_encode_through_their_type() {
        let uuid_bytes = Uuid::parse_str(UUID).unwrap().as_bytes().to_vec();
        let table: Vec<(NameType, Literal, Vec<u8>)> = vec![
            (NameType::Bytes, text("ab"), b"ab".to_vec()),
            (NameType::Bytes, Literal::Hex(vec![0, 1]), vec![0, 1]),
            (NameType::Utf8, text("é"), "é".as_bytes().to_vec()),
            (NameType::Ascii, text("42"), b"42".to_vec()),
            (NameType::Long, text("42"), 42i64.to_be_bytes().to_vec()),
            (NameType::Long, text("-1"), vec![0xff; 8]),
            (
                NameType::Long,
                Literal::Long(7),
                7i64.to_be_bytes().to_vec(),
            ),
            (NameType::LexicalUuid, text(UUID), uuid_bytes.clone()),
            (NameType::TimeUuid, text(&UUID.to_uppercase()), uuid_bytes),
            (NameType::Utf8, Literal::Hex(vec![0xff]), vec![0xff]),
        ];
        for (ty, lit, want) in table {
            assert_eq!(ty.encode(&lit).unwrap(), want, "{ty:?} {lit:?}");
        }
    }

    #[test]
    fn names_that_do_not_fit_their_type_are_refused() {
        let e = NameType::Long.encode(&text("abc")).unwrap_err();
        assert_eq!(
            e,
            "'abc' is not a LongType name: write a 64-bit integer such as 42"
        );
        let e = NameType::TimeUuid.encode(&text("nope")).unwrap_err();
        assert!(e.starts_with("'nope' is not a UUID"), "{e}");
    }

    #[test]
    fn timeuuid_is_a_fresh_version_1_uuid() {
        let a = NameType::TimeUuid.encode(&Literal::TimeUuid).unwrap();
        let b = NameType::TimeUuid.encode(&Literal::TimeUuid).unwrap();
        assert_ne!(a, b);
        let u = Uuid::from_slice(&a).unwrap();
        assert_eq!(u.get_version_num(), 1);
        assert_eq!(encode_value(&Literal::TimeUuid).len(), 16);
    }

    #[test]
    fn names_display_through_their_type() {
        let uuid_bytes = Uuid::parse_str(UUID).unwrap().as_bytes().to_vec();
        let table: Vec<(NameType, Vec<u8>, &str)> = vec![
            (NameType::Bytes, b"ab".to_vec(), "6162"),
            (NameType::Bytes, vec![], ""),
            (NameType::Ascii, b"name".to_vec(), "name"),
            (NameType::Utf8, "é".as_bytes().to_vec(), "é"),
            (NameType::Utf8, vec![0xff], "0xff"),
            (NameType::Long, 42i64.to_be_bytes().to_vec(), "42"),
            (
                NameType::Long,
                i64::MIN.to_be_bytes().to_vec(),
                "-9223372036854775808",
            ),
            (NameType::Long, vec![1, 2], "0x0102"),
            (NameType::LexicalUuid, uuid_bytes.clone(), UUID),
            (NameType::TimeUuid, uuid_bytes, UUID),
            (NameType::TimeUuid, vec![1], "0x01"),
        ];
        for (ty, bytes, want) in table {
            assert_eq!(ty.display(&bytes), want, "{ty:?} {bytes:?}");
        }
    }

    #[test]
    fn values_are_text_when_they_can_be() {
        assert_eq!(display_value(b"John"), "John");
        assert_eq!(display_value("Größe".as_bytes()), "Größe");
        assert_eq!(display_value(b""), "");
        assert_eq!(display_value(&[0xff, 0x00]), "0xff00");
        assert_eq!(display_value(b"a\nb"), "0x610a62");
        assert_eq!(display_value(&7i64.to_be_bytes()), "0x0000000000000007");
        assert_eq!(encode_value(&text("v")), b"v");
        assert_eq!(encode_value(&Literal::Hex(vec![9])), vec![9]);
        assert_eq!(encode_value(&Literal::Long(1)), 1i64.to_be_bytes());
    }
}
