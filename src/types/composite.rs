//! CompositeType(T1,…,Tn): names made of components, each a u16 length, the value and an
//! end-of-component (EOC) byte; Cassandra's validation messages, its component-wise order
//! (values, then EOC bytes as signed bytes, a name that runs out first being smaller), the
//! `a:b:c` text form with its escapes, and the encoding (each component's own prefix-free
//! encoding, then the EOC mapped so that −1 < 0 < 1; `docs/types.md#compositetype`). The
//! EOC and text helpers are shared with DynamicCompositeType.

use std::cmp::Ordering;

use super::encoding::{take_byte, EMPTY, PRESENT};
use super::DataType;

/// One component of a well-formed composite name.
pub(super) struct Component<'a> {
    pub(super) value: &'a [u8],
    pub(super) eoc: u8,
}

/// Reads a u16 length, that many bytes and an EOC byte; `None` if the bytes run out.
pub(super) fn read_component<'a>(rest: &mut &'a [u8]) -> Option<Component<'a>> {
    let len = usize::from(u16::from_be_bytes([*rest.first()?, *rest.get(1)?]));
    let value = rest.get(2..2 + len)?;
    let eoc = *rest.get(2 + len)?;
    *rest = &rest[3 + len..];
    Some(Component { value, eoc })
}

pub(super) fn validate(types: &[DataType], v: &[u8]) -> Result<(), String> {
    let mut rest = v;
    let mut i = 0;
    while !rest.is_empty() {
        let t = types.get(i).ok_or("Too many bytes for comparator")?;
        check_component(i, t, &mut rest)?;
        i += 1;
    }
    Ok(())
}

/// The checks of one component after its type is known (shared with DynamicCompositeType).
pub(super) fn check_component(i: usize, t: &DataType, rest: &mut &[u8]) -> Result<(), String> {
    if rest.len() < 2 {
        return Err(format!(
            "Not enough bytes to read value size of component {i}"
        ));
    }
    let len = usize::from(u16::from_be_bytes([rest[0], rest[1]]));
    *rest = &rest[2..];
    if rest.len() < len {
        return Err(format!("Not enough bytes to read value of component {i}"));
    }
    let (value, after) = rest.split_at(len);
    t.validate(value)?;
    let Some((&eoc, after)) = after.split_first() else {
        return Err(format!(
            "Not enough bytes to read the end-of-component byte of component{i}"
        ));
    };
    if eoc != 0 && !after.is_empty() {
        return Err(format!(
            "Invalid bytes remaining after an end-of-component at component{i}"
        ));
    }
    *rest = after;
    Ok(())
}

/// Splits a well-formed composite into its components.
fn components(v: &[u8]) -> Option<Vec<Component<'_>>> {
    let mut rest = v;
    let mut out = Vec::new();
    while !rest.is_empty() {
        out.push(read_component(&mut rest)?);
    }
    Some(out)
}

/// Orders two non-empty composites.
pub(super) fn compare(types: &[DataType], a: &[u8], b: &[u8]) -> Ordering {
    let (Some(ca), Some(cb)) = (components(a), components(b)) else {
        return a.cmp(b);
    };
    for (i, (x, y)) in ca.iter().zip(&cb).enumerate() {
        let t = types.get(i).unwrap_or(&DataType::Bytes);
        let by_value = t.compare(x.value, y.value);
        if by_value != Ordering::Equal {
            return by_value;
        }
        let by_eoc = (x.eoc as i8).cmp(&(y.eoc as i8));
        if by_eoc != Ordering::Equal {
            return by_eoc;
        }
    }
    ca.len().cmp(&cb.len())
}

/// Escapes a component's text: `:` as `\:`, and a trailing `\` or `!` protected by a `!`.
pub(super) fn escape(s: &str) -> String {
    let escaped = s.replace(':', "\\:");
    if escaped.ends_with(['\\', '!']) {
        escaped + "!"
    } else {
        escaped
    }
}

/// Inverse of [`escape`].
pub(super) fn unescape(s: &str) -> String {
    let mut unescaped = s.replace("\\:", ":");
    if unescaped.ends_with('!') {
        unescaped.pop();
    }
    unescaped
}

/// Splits text at every `:` not preceded by `\`.
pub(super) fn split(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let mut start = 0;
    let mut previous = None;
    for (i, c) in s.char_indices() {
        if c == ':' && previous != Some('\\') {
            parts.push(&s[start..i]);
            start = i + 1;
        }
        previous = Some(c);
    }
    parts.push(&s[start..]);
    parts
}

/// The text after the last component: `:_` for a negative EOC, `:!` for a positive one.
pub(super) fn eoc_text(eoc: u8) -> &'static str {
    match eoc as i8 {
        0 => "",
        e if e < 0 => ":_",
        _ => ":!",
    }
}

/// `a:b:c`, each component's text escaped; a non-zero EOC ends the text with `:!` or `:_`.
pub(super) fn to_text(types: &[DataType], v: &[u8]) -> String {
    let Some(parts) = components(v) else {
        return crate::comparator::hex(v);
    };
    let mut s = String::new();
    for (i, c) in parts.iter().enumerate() {
        if i > 0 {
            s.push(':');
        }
        let t = types.get(i).unwrap_or(&DataType::Bytes);
        s.push_str(&escape(&t.get_string(c.value)));
        s.push_str(eoc_text(c.eoc));
    }
    s
}

/// Appends one component (u16 length, value, EOC 0), refusing values over 65535 bytes.
pub(super) fn put_component(value: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let len = u16::try_from(value.len())
        .map_err(|_| format!("Component value of {} bytes is too long", value.len()))?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(value);
    out.push(0);
    Ok(())
}

/// Reads a final `!` (EOC 1) or `_` (EOC −1) part; sets it on the last component written.
pub(super) fn end_marker(part: &str, out: &mut [u8]) -> Result<bool, String> {
    let eoc = match part {
        "!" => 1u8,
        "_" => 0xFF,
        _ => return Ok(false),
    };
    let last = out
        .last_mut()
        .ok_or_else(|| format!("'{part}' must follow a component"))?;
    *last = eoc;
    Ok(true)
}

pub(super) fn from_text(types: &[DataType], s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for (i, part) in split(s).into_iter().enumerate() {
        if end_marker(part, &mut out)? {
            break;
        }
        let t = types
            .get(i)
            .ok_or_else(|| format!("Too many components in '{s}' for {} types", types.len()))?;
        put_component(&t.from_string(&unescape(part))?, &mut out)?;
    }
    Ok(out)
}

/// Writes an EOC so that −1 < 0 < 1 in byte order: a non-zero EOC (always the last) as
/// `eoc ^ 0x80`; EOC 0 as `80` followed by `00` at the end of the name or `01` before the next
/// component, since a name that ends sorts before its extensions.
pub(super) fn put_eoc(eoc: u8, last: bool, out: &mut Vec<u8>) {
    out.push(eoc ^ 0x80);
    if eoc == 0 {
        out.push(u8::from(!last));
    }
}

/// Reads an EOC written by [`put_eoc`]: the EOC and whether another component follows.
pub(super) fn take_eoc(input: &mut &[u8]) -> Result<(u8, bool), String> {
    let eoc = take_byte(input)? ^ 0x80;
    if eoc != 0 {
        return Ok((eoc, false));
    }
    match take_byte(input)? {
        0 => Ok((0, false)),
        1 => Ok((0, true)),
        b => Err(format!("bad end-of-component continuation {b:02x}")),
    }
}

/// Empty → `00`; otherwise `01`, then per component its type's encoding and its EOC.
pub(super) fn encode_into(types: &[DataType], v: &[u8], out: &mut Vec<u8>) {
    let parts = components(v).unwrap_or_default();
    if parts.is_empty() {
        out.push(EMPTY);
        return;
    }
    out.push(PRESENT);
    for (i, c) in parts.iter().enumerate() {
        types
            .get(i)
            .unwrap_or(&DataType::Bytes)
            .encode_into(c.value, out);
        put_eoc(c.eoc, i + 1 == parts.len(), out);
    }
}

pub(super) fn decode_from(types: &[DataType], input: &mut &[u8]) -> Result<Vec<u8>, String> {
    match take_byte(input)? {
        EMPTY => return Ok(Vec::new()),
        PRESENT => {}
        tag => return Err(format!("bad CompositeType tag {tag:02x}")),
    }
    let mut out = Vec::new();
    for t in types {
        let value = t.decode_from(input)?;
        put_component(&value, &mut out)?;
        let (eoc, more) = take_eoc(input)?;
        if let Some(last) = out.last_mut() {
            *last = eoc;
        }
        if !more {
            return Ok(out);
        }
    }
    Err("more components than the CompositeType has".into())
}
