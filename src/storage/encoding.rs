//! Order-preserving byte encodings: the pieces `keys` assembles into sled keys. For each
//! encoding, unsigned byte order of the output equals the order it stands for, and it decodes
//! back to the original bytes (`docs/storage.md#names`, `#rows`).
//!
//! | what | encoding | why |
//! |---|---|---|
//! | escaped string | `00` → `00 FF`, then terminator `00 00` (or `00 01`, see `keys`) | prefix-free, keeps bytewise order |
//! | BytesType / AsciiType / UTF8Type name, last component | raw bytes | already bytewise |
//! | same, followed by another component | escaped string | prefix-free |
//! | LongType name | 8 bytes, top bit of byte 0 flipped | signed order |
//! | LexicalUUIDType name | 16 bytes, top bits of bytes 0 and 8 flipped | two signed halves |
//! | TimeUUIDType name | 8 timestamp bytes in comparison order, then the 16 raw bytes | time, then
//! bytes |
//! | any later comparator (`Comparator::Later`) | the type's encoding, `DataType::encode` | its
//! order, prefix-free; names that compare equal share it (see `rows::original`) |
//! | OPP key | CESU-8 (supplementary chars as two 3-byte surrogates), escaped | UTF-16 unit order |

use crate::comparator::{time_uuid_order_key, Comparator};

/// Appends `bytes` escaped and terminated.
pub fn put_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    put_escaped_ending(out, bytes, 0);
}

/// Appends `bytes` escaped, then `00 end`. `end` 00 is the usual terminator; `00 01` cannot
/// occur inside an escaped string either, so it serves as a second, distinguishable
/// terminator that sorts just after the first (OPP keys that are not UTF-8, `keys`).
pub fn put_escaped_ending(out: &mut Vec<u8>, bytes: &[u8], end: u8) {
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, end]);
}

/// Reads one escaped string from the front of `input`: (decoded, rest).
pub fn take_escaped(input: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    match take_escaped_ending(input)? {
        (out, 0, rest) => Some((out, rest)),
        _ => None,
    }
}

/// Reads one escaped string ended by `00 00` or `00 01`: (decoded, the terminator's second
/// byte, rest).
pub fn take_escaped_ending(input: &[u8]) -> Option<(Vec<u8>, u8, &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        match (*input.get(i)?, input.get(i + 1)) {
            (0, Some(&end @ (0 | 1))) => return Some((out, end, &input[i + 2..])),
            (0, Some(0xFF)) => {
                out.push(0);
                i += 2;
            }
            (0, _) => return None,
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
}

/// CESU-8: UTF-8 except that characters above U+FFFF become their two UTF-16 surrogates,
/// each written as a 3-byte sequence. Its byte order is UTF-16 code-unit order, which is
/// Java's `String.compareTo` and therefore OrderPreservingPartitioner's token order.
pub fn cesu8(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for unit in s.encode_utf16() {
        let u = u32::from(unit);
        match u {
            0..=0x7F => out.push(u as u8),
            0x80..=0x7FF => {
                out.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8])
            }
            _ => out.extend_from_slice(&[
                0xE0 | (u >> 12) as u8,
                0x80 | ((u >> 6) & 0x3F) as u8,
                0x80 | (u & 0x3F) as u8,
            ]),
        }
    }
    out
}

/// Inverse of [`cesu8`].
pub fn from_cesu8(bytes: &[u8]) -> Option<String> {
    let mut units = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let cont = |k: usize| {
            bytes
                .get(i + k)
                .filter(|c| *c & 0xC0 == 0x80)
                .map(|c| u16::from(c & 0x3F))
        };
        let (unit, len) = match b {
            0x00..=0x7F => (u16::from(b), 1),
            0xC0..=0xDF => ((u16::from(b & 0x1F) << 6) | cont(1)?, 2),
            0xE0..=0xEF => ((u16::from(b & 0x0F) << 12) | (cont(1)? << 6) | cont(2)?, 3),
            _ => return None,
        };
        units.push(unit);
        i += len;
    }
    String::from_utf16(&units).ok()
}

/// Appends a column or super-column name. `last` is true when nothing follows it in the key,
/// so variable-length names may stay raw.
pub fn put_name(out: &mut Vec<u8>, comparator: Comparator, name: &[u8], last: bool) {
    match comparator {
        Comparator::Bytes | Comparator::Ascii | Comparator::Utf8 => {
            if last {
                out.extend_from_slice(name);
            } else {
                put_escaped(out, name);
            }
        }
        Comparator::Long => put_flipped(out, name, &[0]),
        Comparator::LexicalUuid => put_flipped(out, name, &[0, 8]),
        Comparator::TimeUuid => {
            if let Some(order) = time_uuid_order_key(name) {
                out.extend_from_slice(&order);
            }
            out.extend_from_slice(name);
        }
        // The type's own order-preserving encoding; it is prefix-free, so `last` does not
        // matter. Names and bounds reach storage validated; should an invalid one slip
        // through, it gets its escaped bytes (some place in the order, never a panic).
        Comparator::Later(t) => match t.encode(name) {
            Ok(enc) => out.extend_from_slice(&enc),
            Err(_) => put_escaped(out, name),
        },
    }
}

/// Reads a name written by [`put_name`] from the front of `input`: (name, rest).
pub fn take_name(input: &[u8], comparator: Comparator, last: bool) -> Option<(Vec<u8>, &[u8])> {
    let fixed = |len: usize, flips: &[usize]| {
        let (head, rest) = (input.get(..len)?, &input[len..]);
        let mut name = head.to_vec();
        for &i in flips {
            name[i] ^= 0x80;
        }
        Some((name, rest))
    };
    match comparator {
        Comparator::Bytes | Comparator::Ascii | Comparator::Utf8 if last => {
            Some((input.to_vec(), &input[input.len()..]))
        }
        Comparator::Bytes | Comparator::Ascii | Comparator::Utf8 => take_escaped(input),
        Comparator::Long => fixed(8, &[0]),
        Comparator::LexicalUuid => fixed(16, &[0, 8]),
        Comparator::TimeUuid => {
            let name = input.get(8..24)?;
            Some((name.to_vec(), &input[24..]))
        }
        Comparator::Later(t) => {
            let mut rest = input;
            let name = t.decode_prefix(&mut rest).ok()?;
            Some((name, rest))
        }
    }
}

/// Copies `name`, flipping the sign bit at each index in `at` that exists.
fn put_flipped(out: &mut Vec<u8>, name: &[u8], at: &[usize]) {
    let start = out.len();
    out.extend_from_slice(name);
    for &i in at {
        if let Some(b) = out.get_mut(start + i) {
            *b ^= 0x80;
        }
    }
}

/// The smallest byte string greater than every string that starts with `prefix`, or `None`
/// when no such string exists (all bytes 0xFF).
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xFF {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

#[cfg(test)]
mod tests;
