//! Value layouts: what sled stores under each key of `keys`.
//!
//! ```text
//! live column      00 | timestamp:i64 | value bytes
//! column tombstone 01 | timestamp:i64 | local deletion time:u32
//! expiring column  02 | timestamp:i64 | ttl:i32 | expires at:i64 | value bytes
//! row / super-column tombstone  timestamp:i64 | local deletion time:u32
//! ```
//! Integers are big-endian; times are seconds since the epoch. Tag 2 came with expiring
//! columns; the older tags are unchanged, so stores written before open as they were. A
//! value that does not parse (or an expiring column whose TTL is not positive, which no
//! write stores) is reported as corruption.

use crate::error::{Error, Result};
use crate::model::Cell;

const LIVE: u8 = 0;
const TOMBSTONE: u8 = 1;
const EXPIRING: u8 = 2;
/// Tag, timestamp, ttl and expiry of an expiring column, before its value.
const EXPIRING_HEADER: usize = 1 + 8 + 4 + 8;

/// A row or super-column deletion marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marker {
    /// The delete's timestamp; the marker hides versions at or below it.
    pub timestamp: i64,
    /// The server's clock (seconds) at delete time, for the purge.
    pub local_deletion_time: u32,
}

/// Bytes `cell` takes as a stored value: the length of `encode_cell`'s output.
pub fn stored_value_len(cell: &Cell) -> usize {
    match cell {
        Cell::Live { value, .. } => 9 + value.len(),
        Cell::Expiring { value, .. } => EXPIRING_HEADER + value.len(),
        Cell::Tombstone { .. } => 13,
    }
}

/// Encodes a cell.
pub fn encode_cell(cell: &Cell) -> Vec<u8> {
    match cell {
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
        _ => Err(corrupt()),
    }
}

/// Encodes a deletion marker.
pub fn encode_marker(marker: Marker) -> Vec<u8> {
    let mut out = Vec::with_capacity(12);
    out.extend_from_slice(&marker.timestamp.to_be_bytes());
    out.extend_from_slice(&marker.local_deletion_time.to_be_bytes());
    out
}

/// Decodes a deletion marker.
pub fn decode_marker(bytes: &[u8]) -> Result<Marker> {
    let arr: [u8; 12] = bytes.try_into().map_err(|_| {
        Error::Corrupt(format!(
            "malformed tombstone value of {} bytes",
            bytes.len()
        ))
    })?;
    let (ts, ldt) = arr.split_at(8);
    Ok(Marker {
        timestamp: i64::from_be_bytes(ts.try_into().unwrap_or_default()),
        local_deletion_time: u32::from_be_bytes(ldt.try_into().unwrap_or_default()),
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
        let m = Marker {
            timestamp: i64::MIN,
            local_deletion_time: 5,
        };
        assert_eq!(decode_marker(&encode_marker(m)).unwrap(), m);
        assert!(decode_cell(&[]).is_err());
        assert!(decode_cell(&[3, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_cell(&[1, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_marker(&[0; 11]).is_err());
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
}
