//! The original bytes of a name whose key holds its canonical form (the spec's G21). A later
//! comparator may give one name several byte strings (IntegerType `01` and `0001`, DecimalType
//! 1.0 and 1.00, NaN payloads, BooleanType trues, DynamicCompositeType aliases); the key is
//! the type's one encoding of them all (`docs/types.md#canonical`), so they are one column,
//! and the key decodes to the canonical bytes. When the winning version was written under
//! other bytes, its value carries them in an envelope in front of the cell:
//!
//! ```text
//! E0 | name length:u32 | name | cell (storage::values)
//! ```
//!
//! No cell starts with `E0` (`values` uses small tags), so stores written before, and every
//! column whose name is already canonical (all names of the six 0.6 comparators), are stored
//! exactly as they were. A super column's name is not enveloped: it reads back canonical.

use super::super::values::{decode_cell, encode_cell};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::model::Cell;

/// Tag of an enveloped cell.
const ENVELOPE: u8 = 0xE0;

/// The canonical bytes of a name under `comparator`: the bytes its key decodes to. `None`
/// when they are the name itself (always for the 0.6 comparators) or the name is not valid
/// (the key then holds its escaped bytes, `encoding::put_name`).
pub fn canonical_name(comparator: Comparator, name: &[u8]) -> Option<Vec<u8>> {
    let Comparator::Later(t) = comparator else {
        return None;
    };
    let canonical = t.decode(&t.encode(name).ok()?).ok()?;
    (canonical != name).then_some(canonical)
}

/// The stored value of `cell` named `name` under `comparator`.
pub fn encode_named_cell(comparator: Comparator, name: &[u8], cell: &Cell) -> Vec<u8> {
    let inner = encode_cell(cell);
    if canonical_name(comparator, name).is_none() {
        return inner;
    }
    let mut out = Vec::with_capacity(inner.len() + name.len() + 5);
    out.push(ENVELOPE);
    // Names are at most 64 KiB (`model::check_name_length`), so the length fits.
    out.extend_from_slice(&(name.len() as u32).to_be_bytes());
    out.extend_from_slice(name);
    out.extend_from_slice(&inner);
    out
}

/// A stored cell value: the original name if the value carries one, and the cell.
pub fn decode_named_cell(raw: &[u8]) -> Result<(Option<Vec<u8>>, Cell)> {
    let Some((&ENVELOPE, rest)) = raw.split_first() else {
        return Ok((None, decode_cell(raw)?));
    };
    let corrupt = || Error::Corrupt("truncated original name in a column value".into());
    let len_bytes: [u8; 4] = rest
        .get(..4)
        .ok_or_else(corrupt)?
        .try_into()
        .map_err(|_| corrupt())?;
    let len = u32::from_be_bytes(len_bytes) as usize;
    let name = rest
        .get(4..4usize.saturating_add(len))
        .ok_or_else(corrupt)?;
    let cell = decode_cell(&rest[4 + len..])?;
    Ok((Some(name.to_vec()), cell))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DataType;

    #[test]
    fn canonical_names_are_stored_plain_and_others_enveloped() {
        let integer = Comparator::of_type(&DataType::Integer);
        let cell = Cell::Live {
            value: b"v".to_vec(),
            timestamp: 7,
        };
        let plain = encode_named_cell(integer, &[0x01], &cell);
        assert_eq!(plain, encode_cell(&cell));
        assert_eq!(decode_named_cell(&plain).unwrap(), (None, cell.clone()));
        let wrapped = encode_named_cell(integer, &[0x00, 0x01], &cell);
        assert_eq!(wrapped[0], ENVELOPE);
        assert_eq!(
            decode_named_cell(&wrapped).unwrap(),
            (Some(vec![0x00, 0x01]), cell.clone())
        );
        assert_eq!(canonical_name(integer, &[0x00, 0x01]), Some(vec![0x01]));
        assert_eq!(canonical_name(Comparator::Long, &[0; 8]), None);
    }

    #[test]
    fn damaged_envelopes_are_corruption() {
        for raw in [
            &[ENVELOPE][..],
            &[ENVELOPE, 0, 0, 0, 9, 1],
            &[ENVELOPE, 0, 0, 0, 0],
        ] {
            assert!(
                matches!(decode_named_cell(raw), Err(Error::Corrupt(_))),
                "{raw:?}"
            );
        }
    }
}
