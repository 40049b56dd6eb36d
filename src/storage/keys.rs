//! The sled key layout: one ordered keyspace holding every column family.
//!
//! ```text
//! meta          00000000 | name bytes
//! row tombstone cf_id:u32 | row | 00
//! column        cf_id:u32 | row | 01 | name(last)                       (Standard CF)
//! sc tombstone  cf_id:u32 | row | 01 | sc_name(prefix-free) | 00        (Super CF)
//! subcolumn     cf_id:u32 | row | 01 | sc_name(prefix-free) | 01 | name(last)
//!
//! row (RP)      token:u128 big-endian     | escaped(key)
//! row (OPP)     escaped(CESU-8(key))                 (a UTF-8 key: the token is the key)
//! row (OPP)     escaped'(CESU-8(hex(key))) | escaped(key)   (a key that is not UTF-8;
//!               escaped' ends with 00 01 instead of 00 00)
//! row (COPP)    escaped(collation key)    | escaped(key)
//! row (Murmur3) token:i64 big-endian, sign bit flipped | escaped(key)
//! row (BOP)     escaped(key)                         (the token is the key)
//! ```
//!
//! These are the *logical* keys the typed row API (`rows`) reads and writes. On disk the entries of one row are
//! packed together into chunks keyed by the row prefix (see `packed`); meta keys are stored
//! as they are. Rows sort by (token, key bytes) — under OPP a UTF-8 key before a key that is
//! not UTF-8 with the same token — names by their comparators, and every row's entries are
//! contiguous with its tombstone first. Every row part is prefix-free and ends with the escape
//! terminator `00 00`; the token bounds below rely on how each layout starts with its token
//! (`Floor`). Cell and tombstone values are laid out in `values`.

use super::encoding::{
    cesu8, from_cesu8, prefix_end, put_escaped, put_escaped_ending, put_name, take_escaped,
    take_escaped_ending, take_name,
};
use crate::comparator::{hex, Comparator};
use crate::partitioner::{Partitioner, RingPosition, Token};
use std::ops::Bound;

/// Key prefix of ilion's own metadata (CF ids start at 1).
pub const META_PREFIX: [u8; 4] = [0; 4];

/// A key of ilion's own metadata.
pub fn meta_key(name: &[u8]) -> Vec<u8> {
    let mut key = META_PREFIX.to_vec();
    key.extend_from_slice(name);
    key
}

/// Room reserved after a prefix for the name or name bounds usually appended to it.
const NAME_ROOM: usize = 40;

/// Bytes a name usually takes in a key: an escaped name's terminator, or a TimeUUID's
/// 16-byte order key before it (a name with zero bytes may still grow the key once).
fn name_room(name: &[u8]) -> usize {
    name.len() + 16
}

const SECTION_ROW_TOMBSTONE: u8 = 0x00;
const SECTION_COLUMNS: u8 = 0x01;
const SUPER_TOMBSTONE: u8 = 0x00;
const SUPER_SUBCOLUMN: u8 = 0x01;

/// How one column family's keys are built: its id and orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CfLayout {
    /// The column family's id from the catalog, the first part of each of its keys.
    pub id: u32,
    /// Decides the row part of each key.
    pub partitioner: Partitioner,
    /// Decides the encoding of top-level names.
    pub comparator: Comparator,
    /// `Some` exactly for Super CFs.
    pub subcomparator: Option<Comparator>,
}

/// Second terminator byte of an OPP row part whose key is not UTF-8: its token (the key's
/// hex) ends with `00 01` instead of `00 00`, and the raw key follows, escaped.
const OPP_RAW_KEY: u8 = 0x01;

/// A Murmur3 token as 8 bytes whose unsigned order is the signed order.
fn murmur3_bytes(token: i64) -> [u8; 8] {
    ((token as u64) ^ (1 << 63)).to_be_bytes()
}

/// A row key encoded for one partitioner: the part after the CF id
/// (`docs/storage.md#rows`).
pub fn encode_row(partitioner: Partitioner, key: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(key.len() + 24);
    match partitioner.token(key) {
        Token::Random(t) => {
            // A key's token is always in 0..=2^127.
            let value = match t.position() {
                RingPosition::At(v) => v,
                RingPosition::BeforeAll | RingPosition::AfterAll => 0,
            };
            out.extend_from_slice(&value.to_be_bytes());
            put_escaped(&mut out, key);
        }
        Token::Ordered(token) => match std::str::from_utf8(key) {
            Ok(_) => put_escaped(&mut out, &cesu8(&token)),
            Err(_) => {
                put_escaped_ending(&mut out, &cesu8(&token), OPP_RAW_KEY);
                put_escaped(&mut out, key);
            }
        },
        Token::Collated(bytes) => {
            put_escaped(&mut out, &bytes);
            put_escaped(&mut out, key);
        }
        Token::Murmur3(t) => {
            out.extend_from_slice(&murmur3_bytes(t));
            put_escaped(&mut out, key);
        }
        Token::Bytes(_) => put_escaped(&mut out, key),
    }
    out
}

/// Reads an encoded row from the front of `input`: (row key, encoded row length). `None` for
/// bytes no row of `partitioner` encodes to.
pub fn decode_row(partitioner: Partitioner, input: &[u8]) -> Option<(Vec<u8>, usize)> {
    let (key, rest) = match partitioner {
        Partitioner::Random => take_escaped(input.get(16..)?)?,
        Partitioner::Murmur3 => take_escaped(input.get(8..)?)?,
        Partitioner::ByteOrdered => take_escaped(input)?,
        Partitioner::OrderPreserving => match take_escaped_ending(input)? {
            (units, 0, rest) => (from_cesu8(&units)?.into_bytes(), rest),
            (units, _, rest) => {
                // Only the one canonical form of a non-UTF-8 key decodes.
                let (key, rest) = take_escaped(rest)?;
                let token = from_cesu8(&units)?;
                if std::str::from_utf8(&key).is_ok() || token != hex(&key) {
                    return None;
                }
                (key, rest)
            }
        },
        Partitioner::CollatingOrderPreserving => {
            let (_, rest) = take_escaped(input)?;
            take_escaped(rest)?
        }
    };
    Some((key, input.len() - rest.len()))
}

/// Where a token falls among the stored rows of a CF.
enum Floor {
    /// Before every row (RP's negative tokens).
    BeforeAll,
    /// Bytes that the rows with the token, and no others, start with (RP and Murmur3: the
    /// fixed-width token; COPP and BOP: the terminated escaped token). Rows with smaller
    /// tokens sort before them, greater ones after every extension of them. A key that
    /// follows may start with `FF`, so `FF` cannot mark where the rows end.
    Prefix(Vec<u8>),
    /// OPP: the escaped token without its terminator's second byte. Rows with the token
    /// continue with `00` or `01`; rows with greater tokens that start with these bytes
    /// continue with `FF` (an escaped zero), so the bytes plus `FF` mark where the rows end.
    Unterminated(Vec<u8>),
    /// After every row (RP tokens beyond `u128`).
    AfterAll,
}

fn token_floor(partitioner: Partitioner, token: &Token) -> Floor {
    let mut out = Vec::new();
    match (partitioner, token) {
        (Partitioner::Random, Token::Random(t)) => {
            return match t.position() {
                RingPosition::BeforeAll => Floor::BeforeAll,
                RingPosition::AfterAll => Floor::AfterAll,
                RingPosition::At(v) => Floor::Prefix(v.to_be_bytes().to_vec()),
            }
        }
        (Partitioner::Murmur3, Token::Murmur3(t)) => {
            return Floor::Prefix(murmur3_bytes(*t).to_vec())
        }
        (Partitioner::OrderPreserving, Token::Ordered(s)) => {
            // Without the terminator's second byte: rows with this token go on with `00`
            // (a UTF-8 key) or `01` (a key that is not UTF-8), greater tokens with `FF`.
            put_escaped(&mut out, &cesu8(s));
            out.pop();
            return Floor::Unterminated(out);
        }
        (Partitioner::CollatingOrderPreserving, Token::Collated(b))
        | (Partitioner::ByteOrdered, Token::Bytes(b)) => put_escaped(&mut out, b),
        // A token of another partitioner cannot reach here (the service parses tokens with
        // the configured one); treat it as the start of the ring.
        _ => return Floor::BeforeAll,
    }
    Floor::Prefix(out)
}

impl CfLayout {
    fn with_cf(&self, capacity: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + capacity);
        out.extend_from_slice(&self.id.to_be_bytes());
        out
    }

    /// Every key of this column family starts with this.
    pub fn cf_prefix(&self) -> Vec<u8> {
        self.with_cf(0)
    }

    /// Every entry of one row starts with this.
    pub fn row_prefix(&self, row: &[u8]) -> Vec<u8> {
        self.row_with(row, 0)
    }

    /// The row prefix, with room for `extra` more bytes: each key is built in one
    /// allocation instead of growing as its parts are appended.
    fn row_with(&self, row: &[u8], extra: usize) -> Vec<u8> {
        let mut out = self.with_cf(row.len() + extra);
        out.extend_from_slice(row);
        out
    }

    /// The row's tombstone.
    pub fn row_tombstone_key(&self, row: &[u8]) -> Vec<u8> {
        let mut out = self.row_with(row, 1);
        out.push(SECTION_ROW_TOMBSTONE);
        out
    }

    /// Prefix of every column (Standard) or super-column entry (Super) of a row, with room
    /// for the name bounds a scan appends to it.
    pub fn columns_prefix(&self, row: &[u8]) -> Vec<u8> {
        self.columns_with(row, NAME_ROOM)
    }

    fn columns_with(&self, row: &[u8], extra: usize) -> Vec<u8> {
        let mut out = self.row_with(row, 1 + extra);
        out.push(SECTION_COLUMNS);
        out
    }

    /// A top-level column of a Standard CF; with `last` false, the start of a super column.
    pub fn column_key(&self, row: &[u8], name: &[u8]) -> Vec<u8> {
        let mut out = self.columns_with(row, name_room(name));
        put_name(
            &mut out,
            self.comparator,
            name,
            self.subcomparator.is_none(),
        );
        out
    }

    /// Prefix of one super column's tombstone and subcolumns.
    pub fn super_prefix(&self, row: &[u8], super_name: &[u8]) -> Vec<u8> {
        self.super_with(row, super_name, NAME_ROOM)
    }

    fn super_with(&self, row: &[u8], super_name: &[u8], extra: usize) -> Vec<u8> {
        let mut out = self.columns_with(row, name_room(super_name) + extra);
        put_name(&mut out, self.comparator, super_name, false);
        out
    }

    /// A super column's tombstone.
    pub fn super_tombstone_key(&self, row: &[u8], super_name: &[u8]) -> Vec<u8> {
        let mut out = self.super_with(row, super_name, 1);
        out.push(SUPER_TOMBSTONE);
        out
    }

    /// Prefix of one super column's subcolumns.
    pub fn subcolumns_prefix(&self, row: &[u8], super_name: &[u8]) -> Vec<u8> {
        let mut out = self.super_with(row, super_name, 1 + NAME_ROOM);
        out.push(SUPER_SUBCOLUMN);
        out
    }

    /// A subcolumn.
    pub fn subcolumn_key(&self, row: &[u8], super_name: &[u8], name: &[u8]) -> Vec<u8> {
        let mut out = self.super_with(row, super_name, 1 + name_room(name));
        out.push(SUPER_SUBCOLUMN);
        put_name(
            &mut out,
            self.subcomparator.unwrap_or(self.comparator),
            name,
            true,
        );
        out
    }

    /// Decodes a full key of this CF.
    pub fn decode(&self, key: &[u8]) -> Option<DecodedKey> {
        let rest = key.strip_prefix(&self.id.to_be_bytes()[..])?;
        let (row_key, row_len) = decode_row(self.partitioner, rest)?;
        let (section, rest) = rest[row_len..].split_first()?;
        let entry = match (*section, self.subcomparator) {
            (SECTION_ROW_TOMBSTONE, _) if rest.is_empty() => Entry::RowTombstone,
            (SECTION_COLUMNS, None) => Entry::Column(take_name(rest, self.comparator, true)?.0),
            (SECTION_COLUMNS, Some(sub)) => {
                let (super_name, rest) = take_name(rest, self.comparator, false)?;
                match rest.split_first()? {
                    (&SUPER_TOMBSTONE, []) => Entry::SuperTombstone(super_name),
                    (&SUPER_SUBCOLUMN, name) => {
                        Entry::SubColumn(super_name, take_name(name, sub, true)?.0)
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(DecodedKey {
            row_key,
            row_len,
            entry,
        })
    }

    /// The name of a column or subcolumn `key` that lies under a prefix of `prefix_len`
    /// bytes (a columns or subcolumns prefix), named under `comparator`.
    pub fn name_after(
        &self,
        key: &[u8],
        prefix_len: usize,
        comparator: Comparator,
    ) -> Option<Vec<u8>> {
        Some(take_name(key.get(prefix_len..)?, comparator, true)?.0)
    }

    /// The parts of a Super CF entry `key` under a row's columns prefix of `prefix_len`
    /// bytes: the super column's name and, for a subcolumn, its name (`None` for the super
    /// column's own marker).
    pub fn super_entry_after(
        &self,
        key: &[u8],
        prefix_len: usize,
    ) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let (super_name, rest) = take_name(key.get(prefix_len..)?, self.comparator, false)?;
        match rest.split_first() {
            Some((&SUPER_SUBCOLUMN, sub)) => {
                let sub_comparator = self.subcomparator.unwrap_or(self.comparator);
                Some((super_name, Some(take_name(sub, sub_comparator, true)?.0)))
            }
            _ => Some((super_name, None)),
        }
    }

    /// Start bound of the rows whose token is ≥ `token`.
    pub fn rows_from(&self, token: &Token) -> Bound<Vec<u8>> {
        match token_floor(self.partitioner, token) {
            Floor::BeforeAll => Bound::Included(self.cf_prefix()),
            Floor::Prefix(floor) | Floor::Unterminated(floor) => {
                Bound::Included(self.row_prefix(&floor))
            }
            Floor::AfterAll => self.cf_end_as_start(),
        }
    }

    /// End bound (exclusive) just past every row whose token is ≤ `token`.
    pub fn rows_through(&self, token: &Token) -> Bound<Vec<u8>> {
        match token_floor(self.partitioner, token) {
            Floor::BeforeAll => Bound::Excluded(self.cf_prefix()),
            Floor::Prefix(floor) => prefix_upper(&self.row_prefix(&floor)),
            Floor::Unterminated(floor) => {
                let mut end = self.row_prefix(&floor);
                end.push(0xFF);
                Bound::Excluded(end)
            }
            Floor::AfterAll => self.cf_end(),
        }
    }

    /// A start bound past every row of the CF.
    fn cf_end_as_start(&self) -> Bound<Vec<u8>> {
        Bound::Included(self.id.saturating_add(1).to_be_bytes().to_vec())
    }

    /// End bound (exclusive) of the whole CF.
    pub fn cf_end(&self) -> Bound<Vec<u8>> {
        Bound::Excluded(self.id.saturating_add(1).to_be_bytes().to_vec())
    }
}

/// Scan bounds under `prefix` for the names from `low` to `high` (both inclusive, empty for
/// unbounded), in key order. `last` says whether names end the key (columns, subcolumns)
/// or are followed by more (super-column names, whose entries all lie under the name).
pub fn name_bounds(
    prefix: &[u8],
    comparator: Comparator,
    (low, high): (&[u8], &[u8]),
    last: bool,
) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
    let with_name = |name: &[u8]| {
        let mut key = prefix.to_vec();
        put_name(&mut key, comparator, name, last);
        key
    };
    let end_of = |key: &[u8]| prefix_end(key).map_or(Bound::Unbounded, Bound::Excluded);
    let lower = if low.is_empty() {
        Bound::Included(prefix.to_vec())
    } else {
        Bound::Included(with_name(low))
    };
    let upper = match (high.is_empty(), last) {
        (true, _) => end_of(prefix),
        (false, true) => Bound::Included(with_name(high)),
        (false, false) => end_of(&with_name(high)),
    };
    (lower, upper)
}

/// Where the entries of one row under `prefix` end.
pub fn prefix_upper(prefix: &[u8]) -> Bound<Vec<u8>> {
    prefix_end(prefix).map_or(Bound::Unbounded, Bound::Excluded)
}

/// What a decoded key addresses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Entry {
    /// The row's deletion marker.
    RowTombstone,
    /// A column of a Standard CF, by name.
    Column(Vec<u8>),
    /// A super column's deletion marker, by super column name.
    SuperTombstone(Vec<u8>),
    /// A subcolumn: (super column name, subcolumn name).
    SubColumn(Vec<u8>, Vec<u8>),
}

/// A key split into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedKey {
    pub row_key: Vec<u8>,
    /// Length of the encoded row part (after the 4-byte CF id).
    pub row_len: usize,
    pub entry: Entry,
}

#[cfg(test)]
mod tests;
