//! DecimalType: an i32 scale then an IntegerType unscaled value, worth unscaled × 10^−scale;
//! numeric order (1.0 = 1.00, as Java's `BigDecimal.compareTo`), Java's `toPlainString` and
//! `new BigDecimal(text)`, and a canonical encoding: sign, decimal exponent, digit pairs
//! (`docs/types.md#decimaltype`).

use std::cmp::Ordering;

use num_bigint::{BigInt, Sign};

use super::encoding::{invert, take, take_byte, EMPTY};
use super::varint::parse_decimal_digits;

const NEGATIVE: u8 = 0x01;
const ZERO: u8 = 0x02;
const POSITIVE: u8 = 0x03;
/// Beyond this many zeros of padding the text form switches to Java's exponent notation
/// (ilion choice: a scale of −2³¹ would otherwise print two billion zeros).
const MAX_PLAIN_ZEROS: u64 = 10_000;
/// The most zeros a decoded canonical value may need to be re-padded with.
const MAX_DECODE_PADDING: u64 = 1 << 20;

pub(super) fn validate(v: &[u8]) -> Result<(), String> {
    match v.len() {
        1..=3 => Err(format!("Expected 0 or at least 4 bytes ({})", v.len())),
        _ => Ok(()),
    }
}

/// Scale and unscaled value of a non-empty value; four bytes mean unscaled 0 (spec F8).
fn read(v: &[u8]) -> Option<(i32, BigInt)> {
    let scale = i32::from_be_bytes(v.get(..4)?.try_into().ok()?);
    Some((scale, BigInt::from_signed_bytes_be(&v[4..])))
}

/// The number of decimal digits of |n| (1 for zero).
fn digit_count(n: &BigInt) -> u64 {
    n.magnitude().to_string().len() as u64
}

/// Numeric order as Java's `BigDecimal.compareTo`: by sign, then by the adjusted exponent,
/// and only then by the values brought to one scale (the scales then differ by at most the
/// number of digits, so no huge power of ten is ever built).
pub(super) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let (Some((sa, ua)), Some((sb, ub))) = (read(a), read(b)) else {
        return a.cmp(b);
    };
    let by_sign = ua.sign().cmp(&ub.sign());
    if by_sign != Ordering::Equal || ua.sign() == Sign::NoSign {
        return by_sign;
    }
    let adjusted = |u: &BigInt, s: i32| digit_count(u) as i64 - i64::from(s);
    let by_exponent = adjusted(&ua, sa).cmp(&adjusted(&ub, sb));
    if by_exponent != Ordering::Equal {
        return if ua.sign() == Sign::Minus {
            by_exponent.reverse()
        } else {
            by_exponent
        };
    }
    let ten = BigInt::from(10u8);
    match sa.cmp(&sb) {
        Ordering::Less => (ua * ten.pow(sb.abs_diff(sa))).cmp(&ub),
        Ordering::Greater => ua.cmp(&(ub * ten.pow(sa.abs_diff(sb)))),
        Ordering::Equal => ua.cmp(&ub),
    }
}

/// Java's `BigDecimal.toPlainString` (empty for empty), falling back to `toString`'s exponent
/// form past [`MAX_PLAIN_ZEROS`] zeros of padding.
pub(super) fn to_text(v: &[u8]) -> String {
    let Some((scale, unscaled)) = read(v) else {
        return String::new();
    };
    let sign = if unscaled.sign() == Sign::Minus {
        "-"
    } else {
        ""
    };
    let digits = unscaled.magnitude().to_string();
    let scale = i64::from(scale);
    let point = digits.len() as i64 - scale; // digits before the decimal point
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    if scale < 0 {
        if unscaled.sign() == Sign::NoSign {
            return "0".into();
        }
        if scale.unsigned_abs() <= MAX_PLAIN_ZEROS {
            return format!(
                "{sign}{digits}{}",
                "0".repeat(scale.unsigned_abs() as usize)
            );
        }
    } else if point > 0 {
        let (int, frac) = digits.split_at(point as usize);
        return format!("{sign}{int}.{frac}");
    } else if point.unsigned_abs() <= MAX_PLAIN_ZEROS {
        return format!(
            "{sign}0.{}{digits}",
            "0".repeat(point.unsigned_abs() as usize)
        );
    }
    // Java's scientific form: d.ddd, then E, the adjusted exponent with its sign.
    let adjusted = point - 1;
    let (first, rest) = digits.split_at(1);
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    let plus = if adjusted > 0 { "+" } else { "" };
    format!("{sign}{first}{rest}E{plus}{adjusted}")
}

/// Java's `new BigDecimal(text)`: `[sign] digits [. digits] [e [sign] digits]`.
pub(super) fn from_text(s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let bad = || format!("unable to make BigDecimal from '{s}'");
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let exponent: i64 = match exponent {
        Some(e) => parse_decimal_digits(e)
            .and_then(|n| i64::try_from(n).ok())
            .ok_or_else(bad)?,
        None => 0,
    };
    let (sign, body) = match mantissa.strip_prefix(['+', '-']) {
        Some(rest) => (&mantissa[..1], rest),
        None => ("", mantissa),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let all_digits = |x: &str| x.bytes().all(|c| c.is_ascii_digit());
    if int.len() + frac.len() == 0 || !all_digits(int) || !all_digits(frac) {
        return Err(bad());
    }
    let scale = i32::try_from(frac.len() as i64 - exponent).map_err(|_| bad())?;
    let unscaled: BigInt = format!("{sign}{int}{frac}").parse().map_err(|_| bad())?;
    let mut out = scale.to_be_bytes().to_vec();
    out.extend_from_slice(&unscaled.to_signed_bytes_be());
    Ok(out)
}

/// Empty → `00`; zero → `02`; positive → `03`, the decimal exponent E (value = 0.d₁d₂… ×
/// 10^E) as a sign-flipped i64, the significant digits in pairs (each byte 1 + 10·d₁ + d₂, a
/// lone last digit padded with 0), then `00`; negative → `01` and the positive form of the
/// magnitude inverted.
pub(super) fn encode_into(v: &[u8], out: &mut Vec<u8>) {
    let Some((scale, unscaled)) = read(v) else {
        out.push(EMPTY);
        return;
    };
    let tag = match unscaled.sign() {
        Sign::NoSign => {
            out.push(ZERO);
            return;
        }
        Sign::Minus => NEGATIVE,
        Sign::Plus => POSITIVE,
    };
    out.push(tag);
    let start = out.len();
    let all = unscaled.magnitude().to_string();
    let exponent = all.len() as i64 - i64::from(scale);
    out.extend_from_slice(&((exponent as u64) ^ (1 << 63)).to_be_bytes());
    let digits = all.trim_end_matches('0').as_bytes();
    for pair in digits.chunks(2) {
        let hi = pair[0] - b'0';
        let lo = pair.get(1).map_or(0, |d| d - b'0');
        out.push(1 + 10 * hi + lo);
    }
    out.push(0);
    if tag == NEGATIVE {
        invert(&mut out[start..]);
    }
}

pub(super) fn decode_from(input: &mut &[u8]) -> Result<Vec<u8>, String> {
    let negative = match take_byte(input)? {
        EMPTY => return Ok(Vec::new()),
        ZERO => return Ok(vec![0, 0, 0, 0, 0]),
        NEGATIVE => true,
        POSITIVE => false,
        tag => return Err(format!("bad DecimalType tag {tag:02x}")),
    };
    let flip = |b: u8| if negative { !b } else { b };
    let mut e = [0u8; 8];
    for (slot, &b) in e.iter_mut().zip(take(input, 8)?) {
        *slot = flip(b);
    }
    let exponent = (u64::from_be_bytes(e) ^ (1 << 63)) as i64;
    let mut digits = String::new();
    loop {
        match flip(take_byte(input)?) {
            0 => break,
            pair @ 1..=100 => {
                let pair = pair - 1;
                digits.push(char::from(b'0' + pair / 10));
                digits.push(char::from(b'0' + pair % 10));
            }
            b => return Err(format!("bad DecimalType digit pair {b:02x}")),
        }
    }
    if digits.ends_with('0') {
        digits.pop();
    }
    if digits.is_empty() || digits.starts_with('0') || digits.ends_with('0') {
        return Err("DecimalType digits are not in canonical form".into());
    }
    let mut scale = digits.len() as i64 - exponent;
    if scale > i64::from(i32::MAX) {
        return Err("DecimalType scale out of range".into());
    }
    if scale < i64::from(i32::MIN) {
        let padding = (i64::from(i32::MIN) - scale) as u64;
        if padding > MAX_DECODE_PADDING {
            return Err("DecimalType exponent out of range".into());
        }
        digits.push_str(&"0".repeat(padding as usize));
        scale = i64::from(i32::MIN);
    }
    let sign = if negative { "-" } else { "" };
    let unscaled: BigInt = format!("{sign}{digits}")
        .parse()
        .map_err(|_| "DecimalType digits unreadable".to_string())?;
    let mut out = (scale as i32).to_be_bytes().to_vec();
    out.extend_from_slice(&unscaled.to_signed_bytes_be());
    Ok(out)
}
