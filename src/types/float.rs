//! DoubleType and FloatType: IEEE-754 big-endian values in Java's `compareTo` order
//! (−0.0 < +0.0, every NaN equal and above +∞), Java's `toString`/`valueOf` text forms, and
//! the total-order encoding with one canonical NaN (`docs/types.md#floating-point`).

use std::cmp::Ordering;

use super::encoding::{take, take_byte, EMPTY, PRESENT};
use super::DataType;

/// A value widened to f64 (exact for f32).
fn read(t: &DataType, v: &[u8]) -> Option<f64> {
    match t {
        DataType::Float => Some(f64::from(f32::from_be_bytes(v.try_into().ok()?))),
        _ => Some(f64::from_be_bytes(v.try_into().ok()?)),
    }
}

pub(super) fn validate(t: &DataType, v: &[u8]) -> Result<(), String> {
    match (t, v.len()) {
        (_, 0) | (DataType::Float, 4) | (DataType::Double, 8) => Ok(()),
        (DataType::Float, n) => Err(format!("Expected 4 or 0 byte value for a float ({n})")),
        (_, n) => Err(format!("Expected 8 or 0 byte value for a double ({n})")),
    }
}

/// Java `Double.compare`: numeric, then −0.0 below +0.0; NaN above everything, NaNs equal.
fn java_compare(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a
            .partial_cmp(&b)
            .unwrap_or(Ordering::Equal)
            .then_with(|| b.is_sign_negative().cmp(&a.is_sign_negative())),
    }
}

pub(super) fn compare(t: &DataType, a: &[u8], b: &[u8]) -> Ordering {
    match (read(t, a), read(t, b)) {
        (Some(x), Some(y)) => java_compare(x, y),
        _ => a.cmp(b),
    }
}

/// Java's `Double.toString` (or `Float.toString`): the shortest digits that read back, as
/// `123.45` for 10⁻³ ≤ |x| < 10⁷ and as `1.2345E-5` otherwise.
pub(super) fn to_text(t: &DataType, v: &[u8]) -> String {
    let Some(x) = read(t, v) else {
        return String::new();
    };
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    // Rust's `{:e}` prints the shortest round-trip digits of the value's own precision.
    let sci = match t {
        DataType::Float => format!("{:e}", x as f32),
        _ => format!("{x:e}"),
    };
    java_layout(&sci)
}

/// Rearranges Rust's `d.ddde<exp>` into Java's layout.
fn java_layout(sci: &str) -> String {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    if digits.bytes().all(|d| d == b'0') {
        return format!("{sign}0.0");
    }
    if (-3..7).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let text = if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else {
            let point = point as usize;
            let padded = format!("{digits:0<point$}");
            let (int, frac) = padded.split_at(point);
            let frac = if frac.is_empty() { "0" } else { frac };
            format!("{int}.{frac}")
        };
        return format!("{sign}{text}");
    }
    let (first, rest) = digits.split_at(1);
    let rest = if rest.is_empty() { "0" } else { rest };
    format!("{sign}{first}.{rest}E{exp}")
}

/// Java's `Double.valueOf`/`Float.parseFloat` for decimal text: surrounding blanks,
/// `NaN`, `Infinity`, an optional `d`/`f` suffix. Hexadecimal floats are not accepted.
pub(super) fn from_text(t: &DataType, s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let is_float = t == &DataType::Float;
    let bad = || {
        let what = if is_float { "float" } else { "double" };
        format!("Unable to make {what} from '{s}'")
    };
    let trimmed = s.trim_matches(|c: char| c <= ' ');
    let body = match trimmed.strip_prefix(['+', '-']) {
        Some(b) => b,
        None => trimmed,
    };
    let x: f64 = if body == "NaN" {
        f64::NAN
    } else if body == "Infinity" {
        if trimmed.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    } else {
        let number = trimmed
            .strip_suffix(['d', 'D', 'f', 'F'])
            .unwrap_or(trimmed);
        // Only digits, signs, a point and an exponent: Rust's own words (inf, nan) are not Java's.
        if number.is_empty() || !number.bytes().all(|c| b"0123456789+-.eE".contains(&c)) {
            return Err(bad());
        }
        if is_float {
            f64::from(number.parse::<f32>().map_err(|_| bad())?)
        } else {
            number.parse::<f64>().map_err(|_| bad())?
        }
    };
    Ok(if is_float {
        (x as f32).to_be_bytes().to_vec()
    } else {
        x.to_be_bytes().to_vec()
    })
}

/// The total-order key of IEEE bits of `width` bytes: NaN made canonical, then negative values
/// inverted and non-negative ones with the sign bit set.
fn order_bits(bits: u64, width: usize) -> u64 {
    let sign = 1u64 << (width * 8 - 1);
    let (exp_mask, mantissa_mask, canonical_nan) = if width == 4 {
        (0x7F80_0000u64, 0x007F_FFFFu64, 0x7FC0_0000u64)
    } else {
        (
            0x7FF0_0000_0000_0000,
            0x000F_FFFF_FFFF_FFFF,
            0x7FF8_0000_0000_0000,
        )
    };
    let is_nan = bits & exp_mask == exp_mask && bits & mantissa_mask != 0;
    let bits = if is_nan { canonical_nan } else { bits };
    let all = if width == 4 { 0xFFFF_FFFF } else { u64::MAX };
    if bits & sign != 0 {
        !bits & all
    } else {
        bits | sign
    }
}

/// Inverse of [`order_bits`].
fn value_bits(key: u64, width: usize) -> u64 {
    let sign = 1u64 << (width * 8 - 1);
    let all = if width == 4 { 0xFFFF_FFFF } else { u64::MAX };
    if key & sign != 0 {
        key & !sign
    } else {
        !key & all
    }
}

/// Empty → `00`; otherwise `01` and the total-order key, big-endian.
pub(super) fn encode_into(v: &[u8], out: &mut Vec<u8>) {
    if v.is_empty() {
        out.push(EMPTY);
        return;
    }
    out.push(PRESENT);
    let width = v.len();
    let bits = v.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b));
    let key = order_bits(bits, width);
    out.extend_from_slice(&key.to_be_bytes()[8 - width..]);
}

pub(super) fn decode_from(t: &DataType, input: &mut &[u8]) -> Result<Vec<u8>, String> {
    match take_byte(input)? {
        EMPTY => Ok(Vec::new()),
        PRESENT => {
            let width = if t == &DataType::Float { 4 } else { 8 };
            let key = take(input, width)?
                .iter()
                .fold(0u64, |n, &b| (n << 8) | u64::from(b));
            Ok(value_bits(key, width).to_be_bytes()[8 - width..].to_vec())
        }
        tag => Err(format!("bad {} tag {tag:02x}", t.short_name())),
    }
}
