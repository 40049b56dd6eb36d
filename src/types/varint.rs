//! IntegerType: big-endian two's-complement integers of any length, ordered by value so that
//! `01` and `0001` are equal; decimal text; and a length-independent encoding (sign, ordered
//! length, the minimal bytes; `docs/types.md#integertype`).

use std::cmp::Ordering;

use num_bigint::BigInt;

use super::encoding::{invert, put_len, take, take_byte, take_len, EMPTY};

/// Tag of a negative varint.
const NEGATIVE: u8 = 0x01;
/// Tag of zero or a positive varint.
const NON_NEGATIVE: u8 = 0x02;

/// The shortest two's-complement form of the same number (`[0]` for zero).
pub(super) fn minimal(v: &[u8]) -> &[u8] {
    let mut v = v;
    while v.len() > 1 {
        let redundant = (v[0] == 0x00 && v[1] < 0x80) || (v[0] == 0xFF && v[1] >= 0x80);
        if !redundant {
            break;
        }
        v = &v[1..];
    }
    if v.is_empty() {
        &[0]
    } else {
        v
    }
}

/// Numeric order of two non-empty varints.
pub(super) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    BigInt::from_signed_bytes_be(a).cmp(&BigInt::from_signed_bytes_be(b))
}

/// The decimal text; empty for empty.
pub(super) fn to_text(v: &[u8]) -> String {
    if v.is_empty() {
        return String::new();
    }
    BigInt::from_signed_bytes_be(v).to_string()
}

/// Java's `new BigInteger(text)`: an optional sign and decimal digits.
pub(super) fn parse_decimal_digits(s: &str) -> Option<BigInt> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.strip_prefix('+').unwrap_or(s).parse().ok()
}

pub(super) fn from_text(s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    parse_decimal_digits(s)
        .map(|n| n.to_signed_bytes_be())
        .ok_or_else(|| format!("unable to make int from '{s}'"))
}

/// Empty → `00`; negative → `01`, the inverted ordered length, the minimal bytes; zero or
/// positive → `02`, the ordered length, the minimal bytes.
pub(super) fn encode_into(v: &[u8], out: &mut Vec<u8>) {
    if v.is_empty() {
        out.push(EMPTY);
        return;
    }
    let m = minimal(v);
    if m[0] >= 0x80 {
        out.push(NEGATIVE);
        let start = out.len();
        put_len(m.len() as u64, out);
        invert(&mut out[start..]);
    } else {
        out.push(NON_NEGATIVE);
        put_len(m.len() as u64, out);
    }
    out.extend_from_slice(m);
}

pub(super) fn decode_from(input: &mut &[u8]) -> Result<Vec<u8>, String> {
    let negative = match take_byte(input)? {
        EMPTY => return Ok(Vec::new()),
        NEGATIVE => true,
        NON_NEGATIVE => false,
        tag => return Err(format!("bad IntegerType tag {tag:02x}")),
    };
    let n = take_len(input, negative)?;
    let n = usize::try_from(n).map_err(|_| "IntegerType length too large".to_string())?;
    let m = take(input, n)?;
    if n == 0 || (m[0] >= 0x80) != negative || minimal(m).len() != n {
        return Err("IntegerType bytes are not in canonical form".into());
    }
    Ok(m.to_vec())
}
