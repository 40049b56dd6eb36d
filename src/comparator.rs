//! Column-name comparators: the order, validation and display of names for each 0.6
//! `CompareWith` type (`docs/api.md#comparators`). Pure functions, no I/O. An empty name sorts
//! before every other name in every comparator; that is how a slice bound says "unbounded".
//!
//! A column family created through the later API may instead name any later type
//! (`crate::types::DataType`); it is carried as [`Comparator::Later`], so that every place
//! that orders or checks names keeps taking one small `Copy` value, and the six 0.6 types
//! keep their own variants (and so their 0.6 messages and stored name encodings) whichever
//! API created the column family.
//!
//! The byte encodings that make sled's order equal these orders live in `storage`, which
//! owns every byte layout; this module is the definition they are tested against.

use crate::types::DataType;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

/// Kept in the stored schema by its short name (`storage::catalog`), a later type by its
/// full type string.
impl serde::Serialize for Comparator {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Comparator::Later(t) => s.serialize_str(&t.class_name()),
            _ => s.serialize_str(self.short_name()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Comparator {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Comparator, D::Error> {
        let name = String::deserialize(d)?;
        Comparator::from_type_string(&name)
            .map_err(|e| serde::de::Error::custom(format!("unknown comparator {name:?}: {e}")))
    }
}

/// Package of the built-in 0.6 comparator classes.
const MARSHAL_PACKAGE: &str = "org.apache.cassandra.db.marshal.";

/// The six built-in 0.6 comparator types, or any other type of the later API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparator {
    /// `BytesType`: unsigned bytes.
    Bytes,
    /// `AsciiType`: as bytes; 0.6 checked nothing.
    Ascii,
    /// `UTF8Type`: strict UTF-8, in byte (code point) order.
    Utf8,
    /// `LongType`: 8 bytes, a signed big-endian i64.
    Long,
    /// `LexicalUUIDType`: 16 bytes, two signed big-endian halves.
    LexicalUuid,
    /// `TimeUUIDType`: a version-1 UUID, in timestamp order.
    TimeUuid,
    /// A later type that is none of the six above (`docs/types.md`): its own validation,
    /// order, text and stored encoding. Built only by [`Comparator::of_type`], which keeps the
    /// six on their own variants; the type is interned, see `intern`.
    Later(&'static DataType),
}

/// One shared, never-freed copy of each distinct later type a comparator has used. Types
/// come only from schema definitions, so the table grows with distinct comparator strings
/// ever defined on this node, not with requests; in exchange `Comparator` stays `Copy`.
fn intern(t: &DataType) -> &'static DataType {
    static TABLE: OnceLock<Mutex<HashSet<&'static DataType>>> = OnceLock::new();
    let mut table = TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(known) = table.get(t) {
        return known;
    }
    let leaked: &'static DataType = Box::leak(Box::new(t.clone()));
    table.insert(leaked);
    leaked
}

impl Comparator {
    /// Every comparator, for tests and tables.
    pub const ALL: [Comparator; 6] = [
        Comparator::Bytes,
        Comparator::Ascii,
        Comparator::Utf8,
        Comparator::Long,
        Comparator::LexicalUuid,
        Comparator::TimeUuid,
    ];

    /// Resolves a `CompareWith` value: a short name (resolved in the 0.6 marshal package) or
    /// a fully-qualified class name (anything containing '.'). `None` for anything else,
    /// including custom classes, which ilion cannot load.
    pub fn from_class_name(name: &str) -> Option<Comparator> {
        let short = if name.contains('.') {
            name.strip_prefix(MARSHAL_PACKAGE)?
        } else {
            name
        };
        Self::ALL.into_iter().find(|c| c.short_name() == short)
    }

    /// The comparator of a later type: one of the six when the type is one of them (the
    /// later UTF8Type's wider set is checked by the later API itself, `service::paths`),
    /// else [`Comparator::Later`].
    pub fn of_type(t: &DataType) -> Comparator {
        match t {
            DataType::Bytes => Comparator::Bytes,
            DataType::Ascii => Comparator::Ascii,
            DataType::Utf8 => Comparator::Utf8,
            DataType::Long => Comparator::Long,
            DataType::LexicalUuid => Comparator::LexicalUuid,
            DataType::TimeUuid => Comparator::TimeUuid,
            _ => Comparator::Later(intern(t)),
        }
    }

    /// A comparator as the stored schema names it: a 0.6 class name, else a later type
    /// string (§4.5); the error is the parser's.
    pub fn from_type_string(name: &str) -> crate::Result<Comparator> {
        match Comparator::from_class_name(name) {
            Some(c) => Ok(c),
            None => Ok(Comparator::of_type(&DataType::parse(name)?)),
        }
    }

    /// The later type with this comparator's order (for the six, a superset of its names).
    pub fn data_type(self) -> DataType {
        match self {
            Comparator::Bytes => DataType::Bytes,
            Comparator::Ascii => DataType::Ascii,
            Comparator::Utf8 => DataType::Utf8,
            Comparator::Long => DataType::Long,
            Comparator::LexicalUuid => DataType::LexicalUuid,
            Comparator::TimeUuid => DataType::TimeUuid,
            Comparator::Later(t) => t.clone(),
        }
    }

    /// The class name without its package, e.g. `LongType` (`CompositeType` for a
    /// composite, without its parameters).
    pub fn short_name(self) -> &'static str {
        match self {
            Comparator::Bytes => "BytesType",
            Comparator::Ascii => "AsciiType",
            Comparator::Utf8 => "UTF8Type",
            Comparator::Long => "LongType",
            Comparator::LexicalUuid => "LexicalUUIDType",
            Comparator::TimeUuid => "TimeUUIDType",
            Comparator::Later(t) => t.short_name(),
        }
    }

    /// The fully-qualified Java class name, as `describe_keyspace` reports it; for a later
    /// type its full type string (§4.5).
    pub fn class_name(self) -> String {
        match self {
            Comparator::Later(t) => t.class_name(),
            _ => format!("{MARSHAL_PACKAGE}{}", self.short_name()),
        }
    }

    /// The type as ilion's own messages name it: short class names with parameters.
    pub fn short_string(self) -> String {
        match self {
            Comparator::Later(t) => t.short_string(),
            _ => self.short_name().to_string(),
        }
    }

    /// Checks a name or slice bound as 0.6's `AbstractType.validate` does; the error is the
    /// exact 0.6 message. Empty is valid for every type (names are checked for emptiness
    /// separately, by the caller).
    pub fn validate(self, name: &[u8]) -> Result<(), String> {
        match self {
            // AsciiType in 0.6 substitutes rather than fails, so it accepts any bytes.
            Comparator::Bytes | Comparator::Ascii => Ok(()),
            Comparator::Utf8 => match std::str::from_utf8(name) {
                Ok(_) => Ok(()),
                Err(_) => Err(format!("invalid UTF8 bytes {}", java_signed_bytes(name))),
            },
            Comparator::Long => match name.len() {
                0 | 8 => Ok(()),
                _ => Err("A long is exactly 8 bytes".to_string()),
            },
            Comparator::LexicalUuid => match name.len() {
                0 | 16 => Ok(()),
                _ => Err("UUIDs must be exactly 16 bytes".to_string()),
            },
            Comparator::TimeUuid => match name.len() {
                0 => Ok(()),
                16 if name[6] >> 4 == 1 => Ok(()),
                16 => Err("Invalid version for TimeUUID type.".to_string()),
                n => Err(format!("TimeUUID should be 16 or 0 bytes ({n})")),
            },
            Comparator::Later(t) => t.validate(name),
        }
    }

    /// The total order of names under this comparator (`docs/api.md#comparators`).
    pub fn compare(self, a: &[u8], b: &[u8]) -> Ordering {
        if let Comparator::Later(t) = self {
            // ReversedType puts the empty name last; the type knows.
            return t.compare(a, b);
        }
        match (a.is_empty(), b.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        match self {
            Comparator::Bytes | Comparator::Ascii | Comparator::Utf8 => a.cmp(b),
            // First byte signed, the rest unsigned: signed big-endian order for 8 bytes.
            Comparator::Long => (a[0] as i8)
                .cmp(&(b[0] as i8))
                .then_with(|| a[1..].cmp(&b[1..])),
            Comparator::LexicalUuid => match (uuid_halves(a), uuid_halves(b)) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => a.cmp(b),
            },
            Comparator::TimeUuid => match (time_uuid_order_key(a), time_uuid_order_key(b)) {
                (Some(x), Some(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
                _ => a.cmp(b),
            },
            // Reached only through the early return above; stated for completeness.
            Comparator::Later(t) => t.compare(a, b),
        }
    }

    /// A human-readable form for logs and tools: hex for bytes, text for ASCII/UTF-8,
    /// decimal for longs, canonical text for UUIDs. Invalid names fall back to hex.
    pub fn display(self, name: &[u8]) -> String {
        match self {
            Comparator::Bytes => hex(name),
            Comparator::Ascii => String::from_utf8_lossy(name).into_owned(),
            Comparator::Utf8 => match std::str::from_utf8(name) {
                Ok(s) => s.to_string(),
                Err(_) => hex(name),
            },
            Comparator::Long => match <[u8; 8]>::try_from(name) {
                Ok(b) => i64::from_be_bytes(b).to_string(),
                Err(_) => hex(name),
            },
            Comparator::LexicalUuid | Comparator::TimeUuid => match uuid::Uuid::from_slice(name) {
                Ok(u) => u.to_string(),
                Err(_) => hex(name),
            },
            Comparator::Later(t) => t.get_string(name),
        }
    }
}

/// Java `UUID.compareTo` key: both 8-byte halves as signed integers.
fn uuid_halves(b: &[u8]) -> Option<(i64, i64)> {
    let b: &[u8; 16] = b.try_into().ok()?;
    let msb = i64::from_be_bytes(b[0..8].try_into().ok()?);
    let lsb = i64::from_be_bytes(b[8..16].try_into().ok()?);
    Some((msb, lsb))
}

/// The 60-bit TimeUUID timestamp laid out in comparison order (time_hi, time_mid, time_low).
pub fn time_uuid_order_key(b: &[u8]) -> Option<[u8; 8]> {
    let b: &[u8; 16] = b.try_into().ok()?;
    Some([b[6] & 0x0F, b[7], b[4], b[5], b[0], b[1], b[2], b[3]])
}

/// Java's `Arrays.toString(byte[])`: signed decimal bytes, e.g. `[-61, 40]`.
fn java_signed_bytes(bytes: &[u8]) -> String {
    let parts: Vec<String> = bytes.iter().map(|&b| (b as i8).to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// Lowercase hex of a byte string.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long(v: i64) -> Vec<u8> {
        v.to_be_bytes().to_vec()
    }

    #[test]
    fn resolves_short_and_qualified_names() {
        assert_eq!(
            Comparator::from_class_name("LongType"),
            Some(Comparator::Long)
        );
        assert_eq!(
            Comparator::from_class_name("org.apache.cassandra.db.marshal.TimeUUIDType"),
            Some(Comparator::TimeUuid)
        );
        assert_eq!(Comparator::from_class_name("com.example.MyType"), None);
        assert_eq!(Comparator::from_class_name("UTF8"), None);
        assert_eq!(
            Comparator::Utf8.class_name(),
            "org.apache.cassandra.db.marshal.UTF8Type"
        );
    }

    #[test]
    fn validation_messages_are_0_6_texts() {
        assert_eq!(
            Comparator::Utf8.validate(&[0xC3, 0x28]),
            Err("invalid UTF8 bytes [-61, 40]".to_string())
        );
        assert_eq!(
            Comparator::Long.validate(&[1, 2, 3]),
            Err("A long is exactly 8 bytes".into())
        );
        assert_eq!(
            Comparator::LexicalUuid.validate(&[0; 15]),
            Err("UUIDs must be exactly 16 bytes".into())
        );
        assert_eq!(
            Comparator::TimeUuid.validate(&[0; 5]),
            Err("TimeUUID should be 16 or 0 bytes (5)".into())
        );
        let mut v4 = [0u8; 16];
        v4[6] = 0x40;
        assert_eq!(
            Comparator::TimeUuid.validate(&v4),
            Err("Invalid version for TimeUUID type.".into())
        );
        v4[6] = 0x1F;
        assert_eq!(Comparator::TimeUuid.validate(&v4), Ok(()));
        for c in Comparator::ALL {
            assert_eq!(c.validate(b""), Ok(()), "{c:?} accepts empty");
        }
        assert_eq!(Comparator::Ascii.validate(&[0xFF, 0x80]), Ok(()));
    }

    #[test]
    fn long_order_is_signed() {
        let c = Comparator::Long;
        assert_eq!(c.compare(&long(-1), &long(0)), Ordering::Less);
        assert_eq!(c.compare(&long(i64::MIN), &long(i64::MAX)), Ordering::Less);
        assert_eq!(c.compare(&long(256), &long(255)), Ordering::Greater);
        assert_eq!(c.compare(b"", &long(i64::MIN)), Ordering::Less);
    }

    #[test]
    fn lexical_uuid_halves_are_signed() {
        let mut hi = [0u8; 16];
        hi[0] = 0x80; // negative most-significant half
        let lo = [0u8; 16];
        assert_eq!(Comparator::LexicalUuid.compare(&hi, &lo), Ordering::Less);
        let mut a = [0u8; 16];
        a[8] = 0x80; // negative least-significant half
        assert_eq!(Comparator::LexicalUuid.compare(&a, &lo), Ordering::Less);
    }

    #[test]
    fn time_uuid_orders_by_timestamp_then_bytes() {
        let early = uuid::Uuid::parse_str("00000001-0000-1000-8000-000000000000").unwrap();
        let later = uuid::Uuid::parse_str("00000000-0001-1000-0000-000000000000").unwrap();
        let c = Comparator::TimeUuid;
        assert_eq!(
            c.compare(early.as_bytes(), later.as_bytes()),
            Ordering::Less
        );
        let tie_a = uuid::Uuid::parse_str("00000001-0000-1000-8000-000000000000").unwrap();
        let tie_b = uuid::Uuid::parse_str("00000001-0000-1000-8000-000000000001").unwrap();
        assert_eq!(
            c.compare(tie_a.as_bytes(), tie_b.as_bytes()),
            Ordering::Less
        );
    }

    #[test]
    fn later_types_keep_their_variants_and_type_strings() {
        let of = |s: &str| Comparator::of_type(&DataType::parse(s).unwrap());
        // The six stay 0.6 comparators whichever way they are written.
        assert_eq!(
            of("org.apache.cassandra.db.marshal.LongType"),
            Comparator::Long
        );
        assert_eq!(of("UTF8Type"), Comparator::Utf8);
        let t = "CompositeType(IntegerType,DynamicCompositeType(z=>UUIDType,a=>AsciiType))";
        let c = of(t);
        assert!(matches!(c, Comparator::Later(_)));
        assert_eq!(c, of(t), "interned types compare by value");
        assert_eq!(c.short_name(), "CompositeType");
        assert_eq!(
            c.short_string(),
            "CompositeType(IntegerType,DynamicCompositeType(a=>AsciiType,z=>UUIDType))"
        );
        for s in [
            t,
            "ReversedType(LongType)",
            "LongType",
            "DecimalType",
            "BooleanType",
        ] {
            let json = serde_json::to_string(&of(s)).unwrap();
            let back: Comparator = serde_json::from_str(&json).unwrap();
            assert_eq!(back, of(s), "{json}");
        }
        assert!(serde_json::from_str::<Comparator>("\"Nope(\"").is_err());
        // Order, validation and text are the type's, the empty name last when reversed.
        let r = of("ReversedType(Int32Type)");
        assert_eq!(r.compare(b"", &[0, 0, 0, 1]), Ordering::Greater);
        assert_eq!(r.validate(&[1]), Err("Expected 4 or 0 byte int (1)".into()));
        assert_eq!(of("IntegerType").display(&[0xFF, 0x00]), "-256");
    }

    #[test]
    fn display_forms() {
        assert_eq!(Comparator::Long.display(&long(-42)), "-42");
        assert_eq!(Comparator::Bytes.display(&[0xAB, 0x01]), "ab01");
        assert_eq!(Comparator::Utf8.display("héllo".as_bytes()), "héllo");
        let u = uuid::Uuid::parse_str("6ba7b810-9dad-11d1-80b4-00c04fd430c8").unwrap();
        assert_eq!(Comparator::TimeUuid.display(u.as_bytes()), u.to_string());
    }
}
