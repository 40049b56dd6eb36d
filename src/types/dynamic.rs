//! DynamicCompositeType(aliases): composite names whose components each name their type,
//! by a one-byte alias (header `8000 | alias`) or by a type string (header = its length).
//! Components of different types order by type (simple class name, then ilion's tie-break on
//! the parameters; two ReversedTypes by their base types), equal types by value then EOC. The
//! encoding writes a type key with that order before each value; an alias and the class name
//! of the same type get the same key (`docs/types.md#dynamiccompositetype`).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::composite::{
    check_component, eoc_text, escape, put_eoc, read_component, split, take_eoc, unescape,
};
use super::encoding::{put_escaped, take_byte, take_escaped, EMPTY, PRESENT};
use super::{parser, DataType, MAX_DEPTH};

/// How a component named its type.
enum Header<'a> {
    Alias(u8),
    Name(&'a str),
}

/// Reads a component header and resolves its type, with Cassandra's messages.
fn read_type<'a>(
    aliases: &BTreeMap<u8, DataType>,
    i: usize,
    rest: &mut &'a [u8],
) -> Result<(DataType, Header<'a>), String> {
    let missing = || format!("Cannot find comparator for component {i}");
    if rest.len() < 2 {
        return Err(format!(
            "Not enough bytes to header of the comparator part of component {i}"
        ));
    }
    let header = u16::from_be_bytes([rest[0], rest[1]]);
    *rest = &rest[2..];
    if header & 0x8000 != 0 {
        let alias = header as u8;
        let t = aliases.get(&alias).ok_or_else(missing)?;
        return Ok((t.clone(), Header::Alias(alias)));
    }
    let len = usize::from(header);
    if rest.len() < len {
        return Err(format!(
            "Not enough bytes to read comparator name of component {i}"
        ));
    }
    let (name, after) = rest.split_at(len);
    *rest = after;
    let name = std::str::from_utf8(name).map_err(|_| missing())?;
    let t = parser::parse(name).map_err(|_| missing())?;
    Ok((t, Header::Name(name)))
}

pub(super) fn validate(aliases: &BTreeMap<u8, DataType>, v: &[u8]) -> Result<(), String> {
    let mut rest = v;
    let mut i = 0;
    while !rest.is_empty() {
        let (t, _) = read_type(aliases, i, &mut rest)?;
        check_component(i, &t, &mut rest)?;
        i += 1;
    }
    Ok(())
}

/// A component with its resolved type.
struct Part<'a> {
    t: DataType,
    header: Header<'a>,
    value: &'a [u8],
    eoc: u8,
}

fn parts<'a>(aliases: &BTreeMap<u8, DataType>, v: &'a [u8]) -> Option<Vec<Part<'a>>> {
    let mut rest = v;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (t, header) = read_type(aliases, out.len(), &mut rest).ok()?;
        let c = read_component(&mut rest)?;
        out.push(Part {
            t,
            header,
            value: c.value,
            eoc: c.eoc,
        });
    }
    Some(out)
}

/// The order of component types: two ReversedTypes by their bases, otherwise by simple class
/// name, then (ilion's tie-break where Cassandra compares with the first type) by parameters.
fn type_order(a: &DataType, b: &DataType) -> Ordering {
    match (a, b) {
        (DataType::Reversed(x), DataType::Reversed(y)) => type_order(x, y),
        _ => a
            .short_name()
            .cmp(b.short_name())
            .then_with(|| a.parameters(false).cmp(&b.parameters(false))),
    }
}

pub(super) fn compare(aliases: &BTreeMap<u8, DataType>, a: &[u8], b: &[u8]) -> Ordering {
    let (Some(pa), Some(pb)) = (parts(aliases, a), parts(aliases, b)) else {
        return a.cmp(b);
    };
    for (x, y) in pa.iter().zip(&pb) {
        let by_type = type_order(&x.t, &y.t);
        if by_type != Ordering::Equal {
            return by_type;
        }
        let by_value = x.t.compare(x.value, y.value);
        if by_value != Ordering::Equal {
            return by_value;
        }
        let by_eoc = (x.eoc as i8).cmp(&(y.eoc as i8));
        if by_eoc != Ordering::Equal {
            return by_eoc;
        }
    }
    pa.len().cmp(&pb.len())
}

/// `<alias or type name as written>@<value>` per component, joined by `:`.
pub(super) fn to_text(aliases: &BTreeMap<u8, DataType>, v: &[u8]) -> String {
    let Some(parts) = parts(aliases, v) else {
        return crate::comparator::hex(v);
    };
    let mut s = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            s.push(':');
        }
        match p.header {
            Header::Alias(a) => s.push(char::from(a)),
            Header::Name(n) => s.push_str(n),
        }
        s.push('@');
        s.push_str(&escape(&p.t.get_string(p.value)));
        s.push_str(eoc_text(p.eoc));
    }
    s
}

pub(super) fn from_text(aliases: &BTreeMap<u8, DataType>, s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for part in split(s) {
        if super::composite::end_marker(part, &mut out)? {
            break;
        }
        // Java's split drops trailing empty pieces, so `a@` is malformed too.
        let pieces: Vec<&str> = part.split('@').collect();
        let pieces = match pieces.iter().rposition(|p| !p.is_empty()) {
            Some(last) => &pieces[..=last],
            None => &pieces[..0],
        };
        let [name, value] = pieces else {
            return Err(format!("Invalid component representation: {part}"));
        };
        let alias = match name.as_bytes() {
            [a] => aliases.get(a).map(|t| (*a, t.clone())),
            _ => None,
        };
        let t = match &alias {
            Some((a, t)) => {
                out.extend_from_slice(&(0x8000u16 | u16::from(*a)).to_be_bytes());
                t.clone()
            }
            None => {
                let t = parser::parse(name)?;
                let len = u16::try_from(name.len())
                    .ok()
                    .filter(|l| l & 0x8000 == 0)
                    .ok_or_else(|| format!("Type name too long: {name}"))?;
                out.extend_from_slice(&len.to_be_bytes());
                out.extend_from_slice(name.as_bytes());
                t
            }
        };
        super::composite::put_component(&t.from_string(&unescape(value))?, &mut out)?;
    }
    Ok(out)
}

/// The type key: escaped simple name and escaped parameters, or for ReversedType its name
/// then the key of its base; byte order equals [`type_order`].
fn put_type_key(t: &DataType, out: &mut Vec<u8>) {
    put_escaped(t.short_name().as_bytes(), out);
    match t {
        DataType::Reversed(base) => put_type_key(base, out),
        _ => put_escaped(t.parameters(false).as_bytes(), out),
    }
}

fn take_type_key(input: &mut &[u8], depth: usize) -> Result<DataType, String> {
    if depth > MAX_DEPTH {
        return Err("DynamicCompositeType type key nests too deeply".into());
    }
    let name = String::from_utf8(take_escaped(input)?).map_err(|_| "bad type key")?;
    if name == "ReversedType" {
        return Ok(DataType::Reversed(Box::new(take_type_key(
            input,
            depth + 1,
        )?)));
    }
    let params = String::from_utf8(take_escaped(input)?).map_err(|_| "bad type key")?;
    parser::parse(&format!("{name}{params}"))
}

/// Empty → `00`; otherwise `01`, then per component the type key, the value's encoding
/// under that type and the EOC.
pub(super) fn encode_into(aliases: &BTreeMap<u8, DataType>, v: &[u8], out: &mut Vec<u8>) {
    let parts = parts(aliases, v).unwrap_or_default();
    if parts.is_empty() {
        out.push(EMPTY);
        return;
    }
    out.push(PRESENT);
    for (i, p) in parts.iter().enumerate() {
        put_type_key(&p.t, out);
        p.t.encode_into(p.value, out);
        put_eoc(p.eoc, i + 1 == parts.len(), out);
    }
}

/// Decodes to the canonical name: the smallest alias of the type if it has one, else its
/// full class name.
pub(super) fn decode_from(
    aliases: &BTreeMap<u8, DataType>,
    input: &mut &[u8],
) -> Result<Vec<u8>, String> {
    match take_byte(input)? {
        EMPTY => return Ok(Vec::new()),
        PRESENT => {}
        tag => return Err(format!("bad DynamicCompositeType tag {tag:02x}")),
    }
    let mut out = Vec::new();
    loop {
        let t = take_type_key(input, 0)?;
        match aliases.iter().find(|(_, at)| **at == t) {
            Some((a, _)) => out.extend_from_slice(&(0x8000u16 | u16::from(*a)).to_be_bytes()),
            None => {
                let name = t.class_name();
                let len = u16::try_from(name.len())
                    .ok()
                    .filter(|l| l & 0x8000 == 0)
                    .ok_or("type name too long")?;
                out.extend_from_slice(&len.to_be_bytes());
                out.extend_from_slice(name.as_bytes());
            }
        }
        let value = t.decode_from(input)?;
        super::composite::put_component(&value, &mut out)?;
        let (eoc, more) = take_eoc(input)?;
        if let Some(last) = out.last_mut() {
            *last = eoc;
        }
        if !more {
            return Ok(out);
        }
    }
}
