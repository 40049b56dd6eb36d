//! The UUID types: UUIDType (version first), LexicalUUIDType (Java `UUID.compareTo`) and
//! TimeUUIDType (timestamp, then signed bytes) — validation, order, canonical text and their
//! 17- or 18-byte encodings (`docs/types.md#uuids`).

use std::cmp::Ordering;

use super::encoding::{take_array, take_byte, EMPTY, PRESENT};
use super::DataType;

pub(super) fn validate(t: &DataType, v: &[u8]) -> Result<(), String> {
    match v.len() {
        0 => Ok(()),
        16 if t != &DataType::TimeUuid || v[6] >> 4 == 1 => Ok(()),
        16 => Err("Invalid version for TimeUUID type.".into()),
        n => Err(format!("UUID should be 16 or 0 bytes ({n})")),
    }
}

/// The time-ordered layout of the first half: time_hi (with the version), time_mid, time_low.
fn reorder(b: &[u8; 16]) -> [u8; 8] {
    [b[6], b[7], b[4], b[5], b[0], b[1], b[2], b[3]]
}

/// Inverse of [`reorder`].
fn unorder(r: &[u8; 8]) -> [u8; 8] {
    [r[4], r[5], r[6], r[7], r[2], r[3], r[0], r[1]]
}

fn half(b: &[u8], from: usize) -> u64 {
    b[from..from + 8]
        .iter()
        .fold(0u64, |n, &x| (n << 8) | u64::from(x))
}

pub(super) fn compare(t: &DataType, a: &[u8], b: &[u8]) -> Ordering {
    let (Ok(a), Ok(b)) = (<&[u8; 16]>::try_from(a), <&[u8; 16]>::try_from(b)) else {
        return a.cmp(b);
    };
    match t {
        DataType::LexicalUuid => {
            (half(a, 0) as i64, half(a, 8) as i64).cmp(&(half(b, 0) as i64, half(b, 8) as i64))
        }
        DataType::TimeUuid => (half(&reorder(a), 0) as i64)
            .cmp(&(half(&reorder(b), 0) as i64))
            .then_with(|| {
                let signed = |x: &[u8; 16]| x[8..].iter().map(|&c| c as i8).collect::<Vec<_>>();
                signed(a).cmp(&signed(b))
            }),
        _ => {
            let (va, vb) = (a[6] >> 4, b[6] >> 4);
            let first = |x: &[u8; 16]| match va {
                1 => half(&reorder(x), 0),
                _ => half(x, 0),
            };
            va.cmp(&vb)
                .then_with(|| first(a).cmp(&first(b)))
                .then_with(|| half(a, 8).cmp(&half(b, 8)))
        }
    }
}

/// The canonical lowercase text; empty for empty.
pub(super) fn to_text(v: &[u8]) -> String {
    uuid::Uuid::from_slice(v)
        .map(|u| u.to_string())
        .unwrap_or_default()
}

/// Cassandra's UUID pattern: 8-4-4-4-12 hexadecimal digits.
fn parse_canonical(s: &str) -> Option<[u8; 16]> {
    let groups: Vec<&str> = s.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    if lengths != [8, 4, 4, 4, 12]
        || !groups
            .iter()
            .all(|g| g.bytes().all(|c| c.is_ascii_hexdigit()))
    {
        return None;
    }
    uuid::Uuid::parse_str(s).ok().map(|u| *u.as_bytes())
}

pub(super) fn from_text(t: &DataType, s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let parsed = parse_canonical(s);
    match (t, parsed) {
        (DataType::TimeUuid, None) => Err(format!("Unknown timeuuid representation: {s}")),
        (DataType::TimeUuid, Some(u)) if u[6] >> 4 != 1 => {
            Err("TimeUUID supports only version 1 UUIDs".into())
        }
        (DataType::LexicalUuid, None) => Err(format!("unable to make UUID from '{s}'")),
        (_, None) => Err(format!("Unable to make UUID from '{s}'")),
        (_, Some(u)) => Ok(u.to_vec()),
    }
}

/// Empty → `00`. LexicalUUIDType: `01`, the bytes with the top bits of bytes 0 and 8 flipped.
/// TimeUUIDType: `01`, the reordered first half (top bit flipped: Java compares it signed),
/// then bytes 8–15 each XOR 0x80. UUIDType: `01`, the version, the first half (reordered for
/// version 1), then bytes 8–15.
pub(super) fn encode_into(t: &DataType, v: &[u8], out: &mut Vec<u8>) {
    let Ok(b) = <&[u8; 16]>::try_from(v) else {
        out.push(EMPTY);
        return;
    };
    out.push(PRESENT);
    match t {
        DataType::LexicalUuid => {
            let mut x = *b;
            x[0] ^= 0x80;
            x[8] ^= 0x80;
            out.extend_from_slice(&x);
        }
        DataType::TimeUuid => {
            let mut first = reorder(b);
            first[0] ^= 0x80;
            out.extend_from_slice(&first);
            out.extend(b[8..].iter().map(|c| c ^ 0x80));
        }
        _ => {
            let version = b[6] >> 4;
            out.push(version);
            if version == 1 {
                out.extend_from_slice(&reorder(b));
            } else {
                out.extend_from_slice(&b[..8]);
            }
            out.extend_from_slice(&b[8..]);
        }
    }
}

pub(super) fn decode_from(t: &DataType, input: &mut &[u8]) -> Result<Vec<u8>, String> {
    match take_byte(input)? {
        EMPTY => return Ok(Vec::new()),
        PRESENT => {}
        tag => return Err(format!("bad {} tag {tag:02x}", t.short_name())),
    }
    let mut v = Vec::with_capacity(16);
    match t {
        DataType::LexicalUuid => {
            let mut x: [u8; 16] = take_array(input)?;
            x[0] ^= 0x80;
            x[8] ^= 0x80;
            v.extend_from_slice(&x);
        }
        DataType::TimeUuid => {
            let mut first: [u8; 8] = take_array(input)?;
            first[0] ^= 0x80;
            let second: [u8; 8] = take_array(input)?;
            v.extend_from_slice(&unorder(&first));
            v.extend(second.iter().map(|c| c ^ 0x80));
        }
        _ => {
            let version = take_byte(input)?;
            let first: [u8; 8] = take_array(input)?;
            let first = if version == 1 { unorder(&first) } else { first };
            if first[6] >> 4 != version {
                return Err(format!(
                    "UUIDType version {version} does not match its bytes"
                ));
            }
            v.extend_from_slice(&first);
            v.extend_from_slice(&take_array::<8>(input)?);
        }
    }
    Ok(v)
}

/// A version-1 UUID for now (the one function here that reads the clock). The node field and the clock sequence's start are random per
/// process (the node with its multicast bit set, as RFC 4122 asks of a node id that is not a
/// MAC address); the sequence counts up, so two UUIDs of one instant still differ.
pub fn new_time_uuid() -> uuid::Uuid {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::OnceLock;
    use uuid::timestamp::context::ContextV1;
    use uuid::Timestamp;
    static STATE: OnceLock<(ContextV1, [u8; 6])> = OnceLock::new();
    let (context, node) = STATE.get_or_init(|| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        let r = h.finish().to_be_bytes();
        let seq = u16::from_be_bytes([r[6], r[7]]);
        (
            ContextV1::new(seq),
            [r[0] | 0x01, r[1], r[2], r[3], r[4], r[5]],
        )
    });
    uuid::Uuid::new_v1(Timestamp::now(context), node)
}
