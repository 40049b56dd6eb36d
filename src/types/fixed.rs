//! The fixed-width numeric types: LongType, Int32Type, TimestampType and DateType (8 or 4
//! bytes, signed or unsigned), CounterColumnType and BooleanType — their validation, order,
//! decimal text and encoding (a tag byte, then the bytes with the sign bit flipped where the
//! order is signed; `docs/types.md#fixed-width`).

use std::cmp::Ordering;

use super::encoding::{take, take_byte, EMPTY, PRESENT};
use super::DataType;

/// The one non-empty width of a fixed-width type, and whether its order is signed.
fn shape(t: &DataType) -> (usize, bool) {
    match t {
        DataType::Int32 => (4, true),
        DataType::Long | DataType::Timestamp => (8, true),
        DataType::Date | DataType::Counter => (8, false),
        _ => (1, false), // BooleanType
    }
}

pub(super) fn validate(t: &DataType, v: &[u8]) -> Result<(), String> {
    let (width, _) = shape(t);
    if v.is_empty() || v.len() == width {
        return Ok(());
    }
    let n = v.len();
    Err(match t {
        DataType::Int32 => format!("Expected 4 or 0 byte int ({n})"),
        DataType::Date | DataType::Timestamp => format!("Expected 8 or 0 byte long for date ({n})"),
        DataType::Boolean => format!("Expected 1 or 0 byte value ({n})"),
        _ => format!("Expected 8 or 0 byte long ({n})"),
    })
}

/// Orders two non-empty values.
pub(super) fn compare(t: &DataType, a: &[u8], b: &[u8]) -> Ordering {
    match t {
        // False is 0x00; every other byte is true and all trues are equal.
        DataType::Boolean => (a[0] != 0).cmp(&(b[0] != 0)),
        // First byte signed, the rest unsigned: signed order for the valid widths.
        _ if shape(t).1 => (a[0] as i8).cmp(&(b[0] as i8)).then_with(|| a.cmp(b)),
        _ => a.cmp(b),
    }
}

/// The decimal text of a long, int or counter, `true`/`false` for a boolean; empty for empty.
pub(super) fn to_text(t: &DataType, v: &[u8]) -> String {
    if let (DataType::Boolean, Some(&b)) = (t, v.first()) {
        return (b != 0).to_string();
    }
    if let Ok(b) = <[u8; 8]>::try_from(v) {
        return i64::from_be_bytes(b).to_string();
    }
    if let Ok(b) = <[u8; 4]>::try_from(v) {
        return i32::from_be_bytes(b).to_string();
    }
    String::new()
}

/// `fromString` of LongType, Int32Type and BooleanType (the others have their own).
pub(super) fn from_text(t: &DataType, s: &str) -> Result<Vec<u8>, String> {
    if t == &DataType::Boolean {
        return if s.is_empty() || s.eq_ignore_ascii_case("false") {
            Ok(vec![0])
        } else if s.eq_ignore_ascii_case("true") {
            Ok(vec![1])
        } else {
            Err(format!("Unable to make boolean from '{s}'"))
        };
    }
    if s.is_empty() {
        return Ok(Vec::new());
    }
    if t == &DataType::Int32 {
        return s
            .parse::<i32>()
            .map(|n| n.to_be_bytes().to_vec())
            .map_err(|_| format!("Unable to make int from '{s}'"));
    }
    s.parse::<i64>()
        .map(|n| n.to_be_bytes().to_vec())
        .map_err(|_| format!("Unable to make long from '{s}'"))
}

/// Empty → `00`; otherwise `01` and the bytes, the top bit of the first flipped when the
/// order is signed. BooleanType: `00` empty, `01` false, `02` true.
pub(super) fn encode_into(t: &DataType, v: &[u8], out: &mut Vec<u8>) {
    let Some(&first) = v.first() else {
        out.push(EMPTY);
        return;
    };
    if t == &DataType::Boolean {
        out.push(if first == 0 { 0x01 } else { 0x02 });
        return;
    }
    out.push(PRESENT);
    let start = out.len();
    out.extend_from_slice(v);
    if shape(t).1 {
        out[start] ^= 0x80;
    }
}

pub(super) fn decode_from(t: &DataType, input: &mut &[u8]) -> Result<Vec<u8>, String> {
    let tag = take_byte(input)?;
    if t == &DataType::Boolean {
        return match tag {
            EMPTY => Ok(Vec::new()),
            0x01 => Ok(vec![0]),
            0x02 => Ok(vec![1]),
            _ => Err(format!("bad BooleanType tag {tag:02x}")),
        };
    }
    match tag {
        EMPTY => Ok(Vec::new()),
        PRESENT => {
            let (width, signed) = shape(t);
            let mut v = take(input, width)?.to_vec();
            if signed {
                v[0] ^= 0x80;
            }
            Ok(v)
        }
        _ => Err(format!("bad {} tag {tag:02x}", t.short_name())),
    }
}
