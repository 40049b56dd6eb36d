//! The comparators and validators of the later Thrift API (Cassandra 0.7–2.2): parsing of
//! type strings, validation of values with Cassandra's messages, Cassandra's order, the
//! text forms (`getString`/`fromString`) and an order-preserving, prefix-free byte encoding
//! whose unsigned byte order equals the compare order (`docs/types.md`). Pure functions, no
//! I/O. A column family whose comparator is none of the six 0.6 types carries its type as
//! [`crate::comparator::Comparator::Later`], and storage keys its names by `encode`.

mod composite;
mod date;
mod decimal;
mod dynamic;
mod encoding;
mod fixed;
mod float;
mod inet;
mod parser;
mod text;
mod uuids;
mod varint;

#[cfg(test)]
pub(crate) mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod text_tests;

use std::cmp::Ordering;
use std::collections::BTreeMap;

pub use parser::MAX_DEPTH;
pub use uuids::new_time_uuid;

/// Package of Cassandra's built-in type classes.
pub const MARSHAL_PACKAGE: &str = "org.apache.cassandra.db.marshal.";

/// One comparator or validator type of the later API.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataType {
    /// `BytesType`: any bytes, unsigned order.
    Bytes,
    /// `AsciiType`: bytes 0x00–0x7F, unsigned order.
    Ascii,
    /// `UTF8Type`: Cassandra's UTF-8 automaton, unsigned order.
    Utf8,
    /// `LongType`: 0 or 8 bytes, signed 64-bit.
    Long,
    /// `Int32Type`: 0 or 4 bytes, signed 32-bit.
    Int32,
    /// `IntegerType`: a big-endian two's-complement varint of any length, numeric order.
    Integer,
    /// `DecimalType`: i32 scale then a varint unscaled value, numeric order.
    Decimal,
    /// `DoubleType`: 0 or 8 bytes, Java `Double.compareTo` order.
    Double,
    /// `FloatType`: 0 or 4 bytes, Java `Float.compareTo` order.
    Float,
    /// `BooleanType`: 0 or 1 byte; 0x00 is false, anything else true.
    Boolean,
    /// `DateType`: 0 or 8 bytes of milliseconds, ordered as unsigned bytes.
    Date,
    /// `TimestampType`: 0 or 8 bytes of milliseconds, signed order.
    Timestamp,
    /// `UUIDType`: any UUID, version first.
    Uuid,
    /// `LexicalUUIDType`: Java `UUID.compareTo` order.
    LexicalUuid,
    /// `TimeUUIDType`: a version-1 UUID, timestamp order.
    TimeUuid,
    /// `InetAddressType`: 0, 4 or 16 bytes, unsigned order.
    InetAddress,
    /// `CounterColumnType`: 0 or 8 bytes; the validator of counter column families.
    Counter,
    /// `CompositeType(T1,…,Tn)`: components with end-of-component bytes.
    Composite(Vec<DataType>),
    /// `DynamicCompositeType(aliases)`: each component names its own type.
    DynamicComposite(BTreeMap<u8, DataType>),
    /// `ReversedType(T)`: T in the opposite order.
    Reversed(Box<DataType>),
}

impl DataType {
    /// Parses a type string as Cassandra's `TypeParser` does (`docs/types.md#type-strings`);
    /// the error is the InvalidRequestException `why`.
    pub fn parse(s: &str) -> crate::Result<DataType> {
        parser::parse(s).map_err(crate::Error::invalid)
    }

    /// The class name without its package, e.g. `CompositeType`.
    pub fn short_name(&self) -> &'static str {
        match self {
            DataType::Bytes => "BytesType",
            DataType::Ascii => "AsciiType",
            DataType::Utf8 => "UTF8Type",
            DataType::Long => "LongType",
            DataType::Int32 => "Int32Type",
            DataType::Integer => "IntegerType",
            DataType::Decimal => "DecimalType",
            DataType::Double => "DoubleType",
            DataType::Float => "FloatType",
            DataType::Boolean => "BooleanType",
            DataType::Date => "DateType",
            DataType::Timestamp => "TimestampType",
            DataType::Uuid => "UUIDType",
            DataType::LexicalUuid => "LexicalUUIDType",
            DataType::TimeUuid => "TimeUUIDType",
            DataType::InetAddress => "InetAddressType",
            DataType::Counter => "CounterColumnType",
            DataType::Composite(_) => "CompositeType",
            DataType::DynamicComposite(_) => "DynamicCompositeType",
            DataType::Reversed(_) => "ReversedType",
        }
    }

    /// The reported form: full class names, parameters joined by `,` without blanks,
    /// dynamic-composite aliases in ascending byte order.
    pub fn class_name(&self) -> String {
        self.render(true)
    }

    /// The same with short class names (ilion's messages, `docs/types.md#type-strings`).
    pub fn short_string(&self) -> String {
        self.render(false)
    }

    fn render(&self, full: bool) -> String {
        let mut s = String::new();
        if full {
            s.push_str(MARSHAL_PACKAGE);
        }
        s.push_str(self.short_name());
        s.push_str(&self.parameters(full));
        s
    }

    /// The parenthesised parameters, or nothing for a simple type.
    fn parameters(&self, full: bool) -> String {
        match self {
            DataType::Composite(types) => {
                let parts: Vec<String> = types.iter().map(|t| t.render(full)).collect();
                format!("({})", parts.join(","))
            }
            DataType::DynamicComposite(aliases) => {
                let parts: Vec<String> = aliases
                    .iter()
                    .map(|(a, t)| format!("{}=>{}", char::from(*a), t.render(full)))
                    .collect();
                format!("({})", parts.join(","))
            }
            DataType::Reversed(base) => format!("({})", base.render(full)),
            _ => String::new(),
        }
    }

    /// Checks a value; the error is Cassandra's `MarshalException` text (`docs/types.md`).
    pub fn validate(&self, v: &[u8]) -> Result<(), String> {
        match self {
            DataType::Bytes => Ok(()),
            DataType::Ascii => text::validate_ascii(v),
            DataType::Utf8 => text::validate_utf8(v),
            DataType::InetAddress => inet::validate(v),
            DataType::Integer => Ok(()),
            DataType::Decimal => decimal::validate(v),
            DataType::Double | DataType::Float => float::validate(self, v),
            DataType::Uuid | DataType::LexicalUuid | DataType::TimeUuid => uuids::validate(self, v),
            DataType::Composite(types) => composite::validate(types, v),
            DataType::DynamicComposite(aliases) => dynamic::validate(aliases, v),
            DataType::Reversed(base) => base.validate(v),
            _ => fixed::validate(self, v),
        }
    }

    /// Cassandra's order of two valid values (`docs/types.md`). Invalid input never panics; it
    /// is ordered as unsigned bytes where the type cannot read it.
    pub fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        if let DataType::Reversed(base) = self {
            // 2.x reverses everything, so an empty value sorts last.
            return base.compare(b, a);
        }
        match (a.is_empty(), b.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        match self {
            DataType::Bytes
            | DataType::Ascii
            | DataType::Utf8
            | DataType::InetAddress
            | DataType::Counter
            | DataType::Date => a.cmp(b),
            DataType::Integer => varint::compare(a, b),
            DataType::Decimal => decimal::compare(a, b),
            DataType::Double | DataType::Float => float::compare(self, a, b),
            DataType::Uuid | DataType::LexicalUuid | DataType::TimeUuid => {
                uuids::compare(self, a, b)
            }
            DataType::Composite(types) => composite::compare(types, a, b),
            DataType::DynamicComposite(aliases) => dynamic::compare(aliases, a, b),
            _ => fixed::compare(self, a, b),
        }
    }

    /// The text form Cassandra's `getString` gives a valid value (cli, describe, messages).
    /// A value the type cannot read is shown as lowercase hex.
    pub fn get_string(&self, v: &[u8]) -> String {
        if self.validate(v).is_err() {
            return crate::comparator::hex(v);
        }
        self.text_of_valid(v)
    }

    /// `get_string` for a value already validated.
    fn text_of_valid(&self, v: &[u8]) -> String {
        match self {
            DataType::Bytes => crate::comparator::hex(v),
            DataType::Ascii | DataType::Utf8 => text::to_text(v),
            DataType::InetAddress => inet::to_text(v),
            DataType::Integer => varint::to_text(v),
            DataType::Decimal => decimal::to_text(v),
            DataType::Double | DataType::Float => float::to_text(self, v),
            DataType::Uuid | DataType::LexicalUuid | DataType::TimeUuid => uuids::to_text(v),
            DataType::Date | DataType::Timestamp => date::to_text(v),
            DataType::Composite(types) => composite::to_text(types, v),
            DataType::DynamicComposite(aliases) => dynamic::to_text(aliases, v),
            DataType::Reversed(base) => base.text_of_valid(v),
            _ => fixed::to_text(self, v),
        }
    }

    /// Cassandra's `fromString`: the bytes of a value written as text; the error is
    /// Cassandra's `MarshalException` text.
    pub fn from_string(&self, s: &str) -> Result<Vec<u8>, String> {
        match self {
            DataType::Bytes | DataType::Counter => text::from_hex(s),
            DataType::Ascii => text::ascii_from_text(s),
            DataType::Utf8 => Ok(s.as_bytes().to_vec()),
            DataType::InetAddress => inet::from_text(s),
            DataType::Integer => varint::from_text(s),
            DataType::Decimal => decimal::from_text(s),
            DataType::Double | DataType::Float => float::from_text(self, s),
            DataType::Uuid | DataType::LexicalUuid | DataType::TimeUuid => {
                uuids::from_text(self, s)
            }
            DataType::Date | DataType::Timestamp => date::from_text(s),
            DataType::Composite(types) => composite::from_text(types, s),
            DataType::DynamicComposite(aliases) => dynamic::from_text(aliases, s),
            DataType::Reversed(base) => base.from_string(s),
            _ => fixed::from_text(self, s),
        }
    }

    /// The order-preserving encoding of a value (`docs/types.md#encodings`): for valid `a`
    /// and `b`, `encode(a).cmp(&encode(b)) == compare(a, b)`. Values that compare equal get
    /// the same bytes. Fails with the validation message for an invalid value.
    pub fn encode(&self, v: &[u8]) -> Result<Vec<u8>, String> {
        self.validate(v)?;
        let mut out = Vec::with_capacity(v.len() + 4);
        self.encode_into(v, &mut out);
        Ok(out)
    }

    /// The canonical value an encoding stands for: `decode(encode(v))` compares equal to `v`
    /// and is `v` itself unless the type has several byte strings for one value (varints,
    /// decimals, NaNs, booleans, dynamic-composite type names; `docs/types.md#canonical`).
    /// Bytes that are not an encoding of this type are reported as corruption.
    pub fn decode(&self, enc: &[u8]) -> crate::Result<Vec<u8>> {
        let mut input = enc;
        let v = self.decode_prefix(&mut input)?;
        if !input.is_empty() {
            return Err(crate::Error::Corrupt(format!(
                "{} trailing bytes after a {} name",
                input.len(),
                self.short_name()
            )));
        }
        Ok(v)
    }

    /// [`DataType::decode`] of the encoding at the front of `input`, which is advanced past
    /// it (storage keys continue after a name).
    pub fn decode_prefix(&self, input: &mut &[u8]) -> crate::Result<Vec<u8>> {
        let v = self.decode_from(input).map_err(crate::Error::Corrupt)?;
        if let Err(why) = self.validate(&v) {
            return Err(crate::Error::Corrupt(format!(
                "decoded {} name is invalid: {why}",
                self.short_name()
            )));
        }
        Ok(v)
    }

    /// Appends the prefix-free encoding of a valid value.
    fn encode_into(&self, v: &[u8], out: &mut Vec<u8>) {
        match self {
            DataType::Bytes | DataType::Ascii | DataType::Utf8 | DataType::InetAddress => {
                encoding::put_escaped(v, out)
            }
            DataType::Integer => varint::encode_into(v, out),
            DataType::Decimal => decimal::encode_into(v, out),
            DataType::Double | DataType::Float => float::encode_into(v, out),
            DataType::Uuid | DataType::LexicalUuid | DataType::TimeUuid => {
                uuids::encode_into(self, v, out)
            }
            DataType::Composite(types) => composite::encode_into(types, v, out),
            DataType::DynamicComposite(aliases) => dynamic::encode_into(aliases, v, out),
            DataType::Reversed(base) => {
                let start = out.len();
                base.encode_into(v, out);
                encoding::invert(&mut out[start..]);
            }
            _ => fixed::encode_into(self, v, out),
        }
    }

    /// Reads one prefix-free encoding from the front of `input` and returns its value.
    fn decode_from(&self, input: &mut &[u8]) -> Result<Vec<u8>, String> {
        match self {
            DataType::Bytes | DataType::Ascii | DataType::Utf8 | DataType::InetAddress => {
                encoding::take_escaped(input)
            }
            DataType::Integer => varint::decode_from(input),
            DataType::Decimal => decimal::decode_from(input),
            DataType::Double | DataType::Float => float::decode_from(self, input),
            DataType::Uuid | DataType::LexicalUuid | DataType::TimeUuid => {
                uuids::decode_from(self, input)
            }
            DataType::Composite(types) => composite::decode_from(types, input),
            DataType::DynamicComposite(aliases) => dynamic::decode_from(aliases, input),
            DataType::Reversed(base) => {
                // The base encoding is prefix-free, so it ends where its inverted bytes say.
                let inverted: Vec<u8> = input.iter().map(|b| !b).collect();
                let mut view = &inverted[..];
                let v = base.decode_from(&mut view)?;
                let used = inverted.len() - view.len();
                *input = &input[used..];
                Ok(v)
            }
            _ => fixed::decode_from(self, input),
        }
    }
}
