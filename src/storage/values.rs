//! Value layouts: what sled stores under each key of `keys`.
//!
//! ```text
//! live column     00 | timestamp:i64 | value bytes
//! column tombstone 01 | timestamp:i64 | local deletion time:u32
//! row / super-column tombstone  timestamp:i64 | local deletion time:u32
//! ```
//! Integers are big-endian. A value that does not parse is reported as corruption.

use crate::error::{Error, Result};
use crate::model::Cell;

const LIVE: u8 = 0;
const TOMBSTONE: u8 = 1;

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
        for cell in [&live, &dead] {
            assert_eq!(stored_value_len(cell), encode_cell(cell).len());
        }
        let m = Marker {
            timestamp: i64::MIN,
            local_deletion_time: 5,
        };
        assert_eq!(decode_marker(&encode_marker(m)).unwrap(), m);
        assert!(decode_cell(&[]).is_err());
        assert!(decode_cell(&[2, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_cell(&[1, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(decode_marker(&[0; 11]).is_err());
    }
}
