//! The byte-string types' rules: AsciiType's and UTF8Type's validation (UTF8Type with
//! Cassandra 2.2's own acceptance automaton, which is not a strict decoder), their text
//! forms, and the hex text form of BytesType (`docs/types.md#bytes-and-text`).

/// AsciiType: every byte 0x00–0x7F; the message shows the first bad byte as a signed byte.
pub(super) fn validate_ascii(v: &[u8]) -> Result<(), String> {
    match v.iter().find(|&&b| b > 0x7F) {
        Some(&b) => Err(format!("Invalid byte for ascii: {}", b as i8)),
        None => Ok(()),
    }
}

/// States of the UTF-8 automaton: what the next byte must be.
#[derive(Clone, Copy)]
enum Utf8State {
    /// Between characters.
    Start,
    /// The second byte of a two-byte sequence.
    Two,
    /// The second byte of `C0 80`.
    Two80,
    /// The second byte after `E0`: anything but 80–9F.
    ThreeAfterE0,
    /// One continuation byte left.
    Cont1,
    /// Two continuation bytes left.
    Cont2,
    /// The second byte after `F0`: bit 4 or 5 set.
    FourAfterF0,
    /// Three continuation bytes left.
    Cont3,
}

/// UTF8Type: exactly the byte strings Cassandra 2.2's automaton accepts (`C0 80`, encoded
/// surrogates and sequences above U+10FFFF included).
pub(super) fn validate_utf8(v: &[u8]) -> Result<(), String> {
    use Utf8State::*;
    let continuation = |b: u8| b & 0xC0 == 0x80;
    let mut state = Start;
    for &b in v {
        state = match state {
            Start => match b {
                0x00..=0x7F => Start,
                0xC0 => Two80,
                0xC1 => return Err(UTF8_MESSAGE.into()),
                0xC2..=0xDF => Two,
                0xE0 => ThreeAfterE0,
                0xE1..=0xEF => Cont2,
                0xF0 => FourAfterF0,
                0xF1..=0xF7 => Cont3,
                _ => return Err(UTF8_MESSAGE.into()),
            },
            Two | Cont1 if continuation(b) => Start,
            Two80 if b == 0x80 => Start,
            ThreeAfterE0 if b & 0xE0 != 0x80 => Cont1,
            Cont2 if continuation(b) => Cont1,
            FourAfterF0 if b & 0x30 != 0 => Cont2,
            Cont3 if continuation(b) => Cont2,
            _ => return Err(UTF8_MESSAGE.into()),
        };
    }
    match state {
        Start => Ok(()),
        _ => Err(UTF8_MESSAGE.into()),
    }
}

/// UTF8Type's one validation message.
const UTF8_MESSAGE: &str = "String didn't validate.";

/// The characters of an ASCII or UTF-8 value; sequences the automaton accepts but that are
/// not strict UTF-8 (surrogates, `C0 80`) show as U+FFFD, as a Java decoder shows them.
pub(super) fn to_text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

/// BytesType's (and CounterColumnType's) `fromString`: an even number of hex digits.
pub(super) fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("cannot parse '{s}' as hex bytes");
    if s.len() % 2 == 1 {
        return Err(bad());
    }
    let digit = |c: u8| (c as char).to_digit(16).ok_or_else(bad);
    s.as_bytes()
        .chunks(2)
        .map(|p| Ok((digit(p[0])? << 4 | digit(p[1])?) as u8))
        .collect()
}

/// AsciiType's `fromString`: the text must be ASCII.
pub(super) fn ascii_from_text(s: &str) -> Result<Vec<u8>, String> {
    match s.chars().find(|c| !c.is_ascii()) {
        Some(c) => Err(format!(
            "Invalid ASCII character in string literal: \
             java.nio.charset.UnmappableCharacterException: Input length = {}",
            c.len_utf16()
        )),
        None => Ok(s.as_bytes().to_vec()),
    }
}
