//! Value layouts: what sled stores under each key of `keys`.
//!
//! ```text
//! live column      00 | timestamp:i64 | value bytes
//! column tombstone 01 | timestamp:i64 | local deletion time:u32
//! expiring column  02 | timestamp:i64 | ttl:i32 | expires at:i64 | value bytes
//! counter          03 | total:i64
//! row / super-column tombstone  timestamp:i64 | local deletion time:u32
//! the same with range tombstones
//!                  timestamp:i64 | local deletion time:u32 | 52 | own:u8 | count:u32 | range*
//! range            start length:u32 | start | finish length:u32 | finish
//!                  | timestamp:i64 | local deletion time:u32
//! ```
//! Integers are big-endian; times are seconds since the epoch. Tag 2 came with expiring
//! columns, tag 3 with counters (a counter has no timestamp: it reconciles as the lowest one,
//! `model::COUNTER_TIMESTAMP`); the older tags are unchanged, so stores written before open
//! as they were. A
//! marker carries the range tombstones of its level (the row's over its columns or super
//! columns, a super column's over its subcolumns) after its own 12 bytes: `own` is 1 when
//! the row or super column itself is deleted at the timestamp, 0 when the marker exists only
//! for its ranges (then the timestamp and time are 0 and mean nothing). A marker without
//! ranges keeps the 12-byte form, so this came without a format change; an older ilion
//! reports the longer form as corruption. Range names are raw bytes, an empty one unbounded.
//! A value that does not parse (or an expiring column whose TTL is not positive, or a
//! marker that deletes nothing, which no write stores) is reported as corruption.

use crate::error::{Error, Result};
use crate::model::{Cell, RangeTombstone};

const LIVE: u8 = 0;
const TOMBSTONE: u8 = 1;
const EXPIRING: u8 = 2;
const COUNTER: u8 = 3;
/// Tag, timestamp, ttl and expiry of an expiring column, before its value.
const EXPIRING_HEADER: usize = 1 + 8 + 4 + 8;

/// A row or super-column deletion marker: the level's own deletion and its range
/// tombstones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Marker {
    /// The delete's timestamp; the marker hides versions at or below it. None when the
    /// marker holds only range tombstones.
    pub timestamp: Option<i64>,
    /// The server's clock (seconds) at delete time, for the purge (0 without a timestamp).
    pub local_deletion_time: u32,
    /// The range tombstones over the level's names (the row's columns or super columns, a
    /// super column's subcolumns), each hiding what it covers at or below its timestamp.
    pub ranges: Vec<RangeTombstone>,
}

impl Marker {
    /// A marker of the level's own deletion at `timestamp`, without ranges.
    pub fn deleted(timestamp: i64, local_deletion_time: u32) -> Marker {
        Marker {
            timestamp: Some(timestamp),
            local_deletion_time,
            ranges: Vec::new(),
        }
    }

    /// True when the marker deletes nothing (no own deletion, no range): not stored.
    pub fn is_empty(&self) -> bool {
        self.timestamp.is_none() && self.ranges.is_empty()
    }
}

/// The tag after a marker's 12 bytes that starts its range tombstones.
const RANGES: u8 = 0x52;
/// A range's fixed part: two lengths, a timestamp and a time.
const RANGE_FIXED: usize = 4 + 4 + 8 + 4;

/// Bytes `cell` takes as a stored value: the length of `encode_cell`'s output.
pub fn stored_value_len(cell: &Cell) -> usize {
    match cell {
        Cell::Live { value, .. } => 9 + value.len(),
        Cell::Expiring { value, .. } => EXPIRING_HEADER + value.len(),
        Cell::Tombstone { .. } => 13,
        Cell::Counter { .. } => 9,
    }
}

/// Encodes a cell.
pub fn encode_cell(cell: &Cell) -> Vec<u8> {
    match cell {
        Cell::Counter { total } => {
            let mut out = Vec::with_capacity(9);
            out.push(COUNTER);
            out.extend_from_slice(&total.to_be_bytes());
            out
        }
        Cell::Live { value, timestamp } => {
            let mut out = Vec::with_capacity(9 + value.len());
            out.push(LIVE);
            out.extend_from_slice(&timestamp.to_be_bytes());
            out.extend_from_slice(value);
            out
        }
        Cell::Expiring {
            value,
            timestamp,
            ttl,
            expires_at,
        } => {
            let mut out = Vec::with_capacity(EXPIRING_HEADER + value.len());
            out.push(EXPIRING);
            out.extend_from_slice(&timestamp.to_be_bytes());
            out.extend_from_slice(&ttl.to_be_bytes());
            out.extend_from_slice(&expires_at.to_be_bytes());
            out.extend_from_slice(value);
            out
        }
        Cell::Tombstone {
            timestamp,
            local_deletion_time,
        } => {
            let mut out = Vec::with_capacity(13);
            out.push(TOMBSTONE);
            out.extend_from_slice(&timestamp.to_be_bytes());
            out.extend_from_slice(&local_deletion_time.to_be_bytes());
            out
        }
    }
}

/// Decodes a cell.
pub fn decode_cell(bytes: &[u8]) -> Result<Cell> {
    let corrupt = || Error::Corrupt(format!("malformed cell value of {} bytes", bytes.len()));
    let (&tag, rest) = bytes.split_first().ok_or_else(corrupt)?;
    // The first 8 bytes after the tag are the timestamp, or a counter's total.
    let timestamp = i64::from_be_bytes(
        rest.get(..8)
            .ok_or_else(corrupt)?
            .try_into()
            .map_err(|_| corrupt())?,
    );
    match tag {
        LIVE => Ok(Cell::Live {
            value: rest[8..].to_vec(),
            timestamp,
        }),
        TOMBSTONE => {
            let ldt = rest
                .get(8..12)
                .filter(|_| rest.len() == 12)
                .ok_or_else(corrupt)?;
            Ok(Cell::Tombstone {
                timestamp,
                local_deletion_time: u32::from_be_bytes(ldt.try_into().map_err(|_| corrupt())?),
            })
        }
        EXPIRING => {
            let ttl = rest.get(8..12).ok_or_else(corrupt)?;
            let ttl = i32::from_be_bytes(ttl.try_into().map_err(|_| corrupt())?);
            let expires_at = rest.get(12..20).ok_or_else(corrupt)?;
            let expires_at = i64::from_be_bytes(expires_at.try_into().map_err(|_| corrupt())?);
            if ttl <= 0 {
                return Err(corrupt());
            }
            Ok(Cell::Expiring {
                value: rest[20..].to_vec(),
                timestamp,
                ttl,
                expires_at,
            })
        }
        COUNTER if rest.len() == 8 => Ok(Cell::Counter { total: timestamp }),
        _ => Err(corrupt()),
    }
}

/// Encodes a deletion marker.
pub fn encode_marker(marker: &Marker) -> Vec<u8> {
    let mut out = Vec::with_capacity(12);
    out.extend_from_slice(&marker.timestamp.unwrap_or(0).to_be_bytes());
    let ldt = marker.timestamp.map_or(0, |_| marker.local_deletion_time);
    out.extend_from_slice(&ldt.to_be_bytes());
    if marker.ranges.is_empty() {
        return out;
    }
    out.push(RANGES);
    out.push(u8::from(marker.timestamp.is_some()));
    // Names are at most 64 KiB and a row holds far fewer than 2^32 ranges.
    out.extend_from_slice(&(marker.ranges.len() as u32).to_be_bytes());
    for range in &marker.ranges {
        for name in [&range.start, &range.finish] {
            out.extend_from_slice(&(name.len() as u32).to_be_bytes());
            out.extend_from_slice(name);
        }
        out.extend_from_slice(&range.timestamp.to_be_bytes());
        out.extend_from_slice(&range.local_deletion_time.to_be_bytes());
    }
    out
}

/// Reads `N` bytes at the front of `input`, advancing it.
fn take<const N: usize>(input: &mut &[u8]) -> Option<[u8; N]> {
    let (head, rest) = input.split_first_chunk::<N>()?;
    *input = rest;
    Some(*head)
}

/// Reads a length-prefixed name at the front of `input`, advancing it.
fn take_name(input: &mut &[u8]) -> Option<Vec<u8>> {
    let len = u32::from_be_bytes(take::<4>(input)?) as usize;
    let name = input.get(..len)?.to_vec();
    *input = &input[len..];
    Some(name)
}

/// Decodes a deletion marker.
pub fn decode_marker(bytes: &[u8]) -> Result<Marker> {
    let corrupt = || {
        Error::Corrupt(format!(
            "malformed tombstone value of {} bytes",
            bytes.len()
        ))
    };
    let mut input = bytes;
    let timestamp = i64::from_be_bytes(take::<8>(&mut input).ok_or_else(corrupt)?);
    let local_deletion_time = u32::from_be_bytes(take::<4>(&mut input).ok_or_else(corrupt)?);
    if input.is_empty() {
        return Ok(Marker::deleted(timestamp, local_deletion_time));
    }
    let [tag, own] = take::<2>(&mut input).ok_or_else(corrupt)?;
    let count = u32::from_be_bytes(take::<4>(&mut input).ok_or_else(corrupt)?) as usize;
    // Each range takes at least its fixed part: a damaged count cannot size an allocation.
    if tag != RANGES || own > 1 || count == 0 || count > input.len() / RANGE_FIXED {
        return Err(corrupt());
    }
    let mut ranges = Vec::with_capacity(count);
    for _ in 0..count {
        let start = take_name(&mut input).ok_or_else(corrupt)?;
        let finish = take_name(&mut input).ok_or_else(corrupt)?;
        let timestamp = i64::from_be_bytes(take::<8>(&mut input).ok_or_else(corrupt)?);
        let local_deletion_time = u32::from_be_bytes(take::<4>(&mut input).ok_or_else(corrupt)?);
        ranges.push(RangeTombstone {
            start,
            finish,
            timestamp,
            local_deletion_time,
        });
    }
    if !input.is_empty() {
        return Err(corrupt());
    }
    Ok(Marker {
        timestamp: (own == 1).then_some(timestamp),
        local_deletion_time: if own == 1 { local_deletion_time } else { 0 },
        ranges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_garbage() {
        let live = Cell::Live {
            value: b"v".to_vec(),
            timestamp: -3,
        };
        assert_eq!(decode_cell(&encode_cell(&live)).unwrap(), live);
        let dead = Cell::Tombstone {
            timestamp: 9,
            local_deletion_time: 77,
        };
        assert_eq!(decode_cell(&encode_cell(&dead)).unwrap(), dead);
        let expiring = Cell::Expiring {
            value: b"xy".to_vec(),
            timestamp: 7,
            ttl: 630_720_000,
            expires_at: 2_330_720_000,
        };
        assert_eq!(decode_cell(&encode_cell(&expiring)).unwrap(), expiring);
        let empty = Cell::Expiring {
            value: Vec::new(),
            timestamp: i64::MIN,
            ttl: 1,
            expires_at: i64::MAX,
        };
        assert_eq!(decode_cell(&encode_cell(&empty)).unwrap(), empty);
        for cell in [&live, &dead, &expiring, &empty] {
            assert_eq!(stored_value_len(cell), encode_cell(cell).len());
        }
        let m = Marker::deleted(i64::MIN, 5);
        assert_eq!(decode_marker(&encode_marker(&m)).unwrap(), m);
        assert!(decode_cell(&[]).is_err());
        // Tag 3 is a counter now (see below); 4 and above are unknown.
        assert!(decode_cell(&[4, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_cell(&[0xff, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_cell(&[1, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_marker(&[0; 11]).is_err());
    }

    #[test]
    fn counter_layout_is_fixed_and_damage_is_corruption() {
        let cell = Cell::Counter { total: -9 };
        let bytes = encode_cell(&cell);
        assert_eq!(hex::encode(&bytes), "03fffffffffffffff7");
        assert_eq!(stored_value_len(&cell), bytes.len());
        assert_eq!(decode_cell(&bytes).unwrap(), cell);
        for total in [i64::MIN, 0, i64::MAX] {
            let c = Cell::Counter { total };
            assert_eq!(decode_cell(&encode_cell(&c)).unwrap(), c);
        }
        for len in 0..bytes.len() {
            assert!(decode_cell(&bytes[..len]).is_err(), "{len} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(
            decode_cell(&longer).is_err(),
            "a counter is exactly 9 bytes"
        );
    }

    #[test]
    fn expiring_layout_is_fixed_and_damage_is_corruption() {
        let cell = Cell::Expiring {
            value: b"v".to_vec(),
            timestamp: 1,
            ttl: 60,
            expires_at: 1_700_000_060,
        };
        let bytes = encode_cell(&cell);
        assert_eq!(
            hex::encode(&bytes),
            "02 0000000000000001 0000003c 000000006553f13c 76".replace(' ', "")
        );
        // Every truncation short of the header is refused, never a panic.
        for len in 0..EXPIRING_HEADER {
            assert!(decode_cell(&bytes[..len]).is_err(), "{len} bytes");
        }
        let with_ttl = |ttl: i32| {
            let mut b = bytes.clone();
            b[9..13].copy_from_slice(&ttl.to_be_bytes());
            decode_cell(&b)
        };
        assert!(with_ttl(0).is_err());
        assert!(with_ttl(-5).is_err());
        assert!(with_ttl(1).is_ok());
        // The older tags keep their meaning.
        assert_eq!(
            decode_cell(&hex::decode("00000000000000000176").unwrap()).unwrap(),
            Cell::Live {
                value: b"v".to_vec(),
                timestamp: 1
            }
        );
    }

    #[test]
    fn markers_with_ranges_round_trip_and_damage_is_corruption() {
        let range = |start: &[u8], finish: &[u8], timestamp| RangeTombstone {
            start: start.to_vec(),
            finish: finish.to_vec(),
            timestamp,
            local_deletion_time: 9,
        };
        let plain = Marker::deleted(7, 3);
        assert_eq!(
            hex::encode(encode_marker(&plain)),
            "0000000000000007 00000003".replace(' ', ""),
            "a marker without ranges keeps the 12-byte form"
        );
        let only_ranges = Marker {
            timestamp: None,
            local_deletion_time: 0,
            ranges: vec![range(b"c", b"f", 5), range(b"", b"", i64::MIN)],
        };
        let both = Marker {
            ranges: vec![range(b"a", b"", -1)],
            ..plain.clone()
        };
        let bytes = encode_marker(&only_ranges);
        assert_eq!(
            hex::encode(&bytes[..28]),
            "0000000000000000 00000000 52 00 00000002 00000001 63 00000001 66".replace(' ', "")
        );
        // The example of docs/storage.md#range-tombstones.
        let example = Marker {
            timestamp: None,
            local_deletion_time: 0,
            ranges: vec![RangeTombstone {
                local_deletion_time: 1_700_000_000,
                ..range(b"c", b"f", 5)
            }],
        };
        assert_eq!(
            hex::encode(encode_marker(&example)),
            "0000000000000000 00000000 52 00 00000001 00000001 63 00000001 66 \
             0000000000000005 6553f100"
                .replace(' ', "")
        );
        for m in [&plain, &only_ranges, &both] {
            assert_eq!(&decode_marker(&encode_marker(m)).unwrap(), m);
        }
        // Every truncation and every extension is refused, never a panic.
        for len in 13..bytes.len() {
            assert!(decode_marker(&bytes[..len]).is_err(), "{len} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_marker(&longer).is_err());
        let bad = |at: usize, byte: u8| {
            let mut b = bytes.clone();
            b[at] = byte;
            decode_marker(&b).is_err()
        };
        assert!(bad(12, 0x53), "an unknown tag");
        assert!(bad(13, 2), "an own flag other than 0 or 1");
        assert!(bad(14, 0xff), "a count beyond the bytes");
        assert!(bad(18, 0xff), "a name length beyond the bytes");
        let mut none = encode_marker(&Marker::deleted(0, 0));
        none.extend_from_slice(&[RANGES, 0, 0, 0, 0, 0]);
        assert!(decode_marker(&none).is_err(), "a marker deleting nothing");
    }
}
