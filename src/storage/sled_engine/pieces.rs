//! The *split* value layout of sled stores, which keeps every value sled writes below the
//! size at which sled 0.34 moves it to a blob file. Blob files are where sled loses
//! acknowledged writes after a power cut (it unlinks a superseded blob before the record
//! replacing it is durable; `docs/powercut.md`), and where its flush can stay stuck after a
//! failed write (`docs/faults.md#recovery`). sled moves a page to a blob file when its
//! serialized form passes a quarter of a log segment; a leaf page holds up to 16 entries
//! before it splits, so entries of at most [`Sizes::inline_max`] bytes keep a page below it.
//!
//! ```text
//! value       00 | bytes                                      key + value ≤ inline_max
//!             01 | length:u64 | pieces:u32 | piece size:u32 | crc32:u32   otherwise (a stub)
//! piece i     FFFFFFFF 'p' | key length:u32 | key | i:u32  →  piece size bytes of the value
//! layout      FFFFFFFF "layout"  →  "split-1"                 written when the store is made
//! ```
//!
//! Keys from `FFFFFFFF` on belong to this layout; ilion's own keys never start there (they
//! start with a CF id below `u32::MAX` or the meta prefix `00000000`). A stub and its pieces
//! are written in one atomic sled batch, so a crash keeps both or neither. Readers take no
//! lock: a reader that meets pieces of a newer value than its stub (the checksum or a piece
//! count disagrees) reads the key again. Stores created before this layout carry no marker
//! and keep sled's own handling of their values (the *plain* layout).

use crate::error::{Error, Result};
use std::ops::Bound;

/// Where the layout's own keys begin; nothing of ilion's sorts at or after it.
pub(super) const RESERVED: [u8; 4] = [0xFF; 4];

/// The key that marks a store with the split layout.
pub(super) const LAYOUT_KEY: &[u8] = b"\xFF\xFF\xFF\xFFlayout";

/// The marker's value for this version of the layout.
pub(super) const LAYOUT_SPLIT: &[u8] = b"split-1";

/// The prefix of every piece key.
pub(super) const PIECE_PREFIX: &[u8] = b"\xFF\xFF\xFF\xFFp";

/// The log segment size of new sled stores (sled's default is 512 KiB): a larger segment
/// raises the blob threshold, so cells of tens of kB stay inline, and sled writes its log in
/// larger buffers.
pub(super) const NEW_STORE_SEGMENT: usize = 2 << 20;

/// How large entries may be in a store, from its sled segment size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Sizes {
    /// A key and value together at most this long are stored as one sled entry.
    pub(super) inline_max: usize,
    /// The bytes of a split value each piece carries (the last one the rest).
    pub(super) piece_bytes: usize,
}

impl Sizes {
    /// Sizes for a store with sled segments of `segment_size` bytes: sled's blob threshold is
    /// a quarter segment less a 20-byte header; a leaf may briefly hold a few entries more
    /// than the 16 it splits beyond, so an entry gets a twentieth of that, and a piece leaves
    /// 1 KiB of it for its key.
    pub(super) fn for_segment(segment_size: usize) -> Sizes {
        let threshold = (segment_size / 4).saturating_sub(20);
        let inline_max = (threshold / 20) & !1023;
        Sizes {
            inline_max,
            piece_bytes: inline_max.saturating_sub(1024).max(1024),
        }
    }
}

/// The longest split value a stub may claim: beyond any Thrift frame ilion accepts, so a
/// damaged stub cannot make a reader or writer walk billions of pieces.
const MAX_SPLIT_LEN: u64 = 1 << 31;

/// The largest piece a stub may claim.
const MAX_PIECE: u32 = 16 << 20;

const INLINE: u8 = 0;
const SPLIT: u8 = 1;
const STUB_LEN: usize = 1 + 8 + 4 + 4 + 4;

/// True for a key in the layout's own range.
pub(super) fn is_reserved(key: &[u8]) -> bool {
    key >= &RESERVED[..]
}

/// `upper`, moved below the reserved range when it reaches into it.
pub(super) fn below_reserved(upper: Bound<Vec<u8>>) -> Bound<Vec<u8>> {
    match upper {
        Bound::Included(k) | Bound::Excluded(k) if is_reserved(&k) => {
            Bound::Excluded(RESERVED.to_vec())
        }
        Bound::Unbounded => Bound::Excluded(RESERVED.to_vec()),
        other => other,
    }
}

/// A split value's header, stored under its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stub {
    len: u64,
    pieces: u32,
    piece_bytes: u32,
    crc: u32,
}

/// A stored value, decoded.
pub(super) enum Stored<'a> {
    /// The value itself.
    Inline(&'a [u8]),
    /// The value is in pieces.
    Split(Stub),
}

fn corrupt(key: &[u8], what: &str) -> Error {
    Error::Corrupt(format!(
        "sled value of key {} is damaged: {what}",
        hex::encode(&key[..key.len().min(64)])
    ))
}

/// Decodes the value stored under `key`.
pub(super) fn decode<'a>(key: &[u8], stored: &'a [u8]) -> Result<Stored<'a>> {
    match stored.split_first() {
        Some((&INLINE, value)) => Ok(Stored::Inline(value)),
        Some((&SPLIT, rest)) if rest.len() == STUB_LEN - 1 => {
            let len = u64::from_be_bytes(rest[..8].try_into().unwrap_or_default());
            let pieces = u32::from_be_bytes(rest[8..12].try_into().unwrap_or_default());
            let piece_bytes = u32::from_be_bytes(rest[12..16].try_into().unwrap_or_default());
            let crc = u32::from_be_bytes(rest[16..20].try_into().unwrap_or_default());
            if len == 0
                || len > MAX_SPLIT_LEN
                || piece_bytes == 0
                || piece_bytes > MAX_PIECE
                || u64::from(pieces) != len.div_ceil(u64::from(piece_bytes))
            {
                return Err(corrupt(key, "a split value's header is inconsistent"));
            }
            Ok(Stored::Split(Stub {
                len,
                pieces,
                piece_bytes,
                crc,
            }))
        }
        Some((&SPLIT, _)) => Err(corrupt(key, "a split value's header has the wrong length")),
        Some((tag, _)) => Err(corrupt(key, &format!("unknown value tag {tag}"))),
        None => Err(corrupt(key, "empty value")),
    }
}

/// The pieces a stub stored under `key` says it has (0 for anything else).
pub(super) fn piece_count(key: &[u8], stored: &[u8]) -> u32 {
    match decode(key, stored) {
        Ok(Stored::Split(stub)) => stub.pieces,
        _ => 0,
    }
}

/// True when `value` under `key` is stored in pieces.
pub(super) fn needs_split(sizes: Sizes, key: &[u8], value: &[u8]) -> bool {
    key.len() + value.len() > sizes.inline_max
}

/// `value` as stored inline.
pub(super) fn inline(value: &[u8]) -> Vec<u8> {
    let mut stored = Vec::with_capacity(1 + value.len());
    stored.push(INLINE);
    stored.extend_from_slice(value);
    stored
}

/// The key of piece `index` of the value under `key`. Keys are length-prefixed, so the
/// pieces of one key form a contiguous range that no other key's pieces enter.
pub(super) fn piece_key(key: &[u8], index: u32) -> Result<Vec<u8>> {
    let key_len =
        u32::try_from(key.len()).map_err(|_| Error::Storage("key too long to store".into()))?;
    let mut out = Vec::with_capacity(PIECE_PREFIX.len() + 8 + key.len());
    out.extend_from_slice(PIECE_PREFIX);
    out.extend_from_slice(&key_len.to_be_bytes());
    out.extend_from_slice(key);
    out.extend_from_slice(&index.to_be_bytes());
    Ok(out)
}

/// The range holding pieces `from..` of the value under `key`.
pub(super) fn pieces_from(key: &[u8], from: u32) -> Result<(Vec<u8>, Vec<u8>)> {
    let lower = piece_key(key, from)?;
    let mut upper = piece_key(key, u32::MAX)?;
    // One past the last possible piece key of `key`.
    upper.push(0);
    Ok((lower, upper))
}

/// Piece keys and their bytes.
pub(super) type Pieces = Vec<(Vec<u8>, Vec<u8>)>;

/// The stub and the pieces that store `value` under `key`.
pub(super) fn split(sizes: Sizes, key: &[u8], value: &[u8]) -> Result<(Vec<u8>, Pieces)> {
    let len = value.len() as u64;
    if len > MAX_SPLIT_LEN {
        return Err(Error::Storage(format!(
            "a value of {len} bytes is larger than a store value may be ({MAX_SPLIT_LEN})"
        )));
    }
    let piece_bytes = u32::try_from(sizes.piece_bytes.clamp(1, MAX_PIECE as usize))
        .map_err(|_| Error::Storage("piece size out of range".into()))?;
    let mut pieces = Vec::with_capacity(value.len().div_ceil(piece_bytes as usize));
    for (index, bytes) in value.chunks(piece_bytes as usize).enumerate() {
        let index = u32::try_from(index).map_err(|_| Error::Storage("value too large".into()))?;
        pieces.push((piece_key(key, index)?, bytes.to_vec()));
    }
    let count =
        u32::try_from(pieces.len()).map_err(|_| Error::Storage("value too large".into()))?;
    let mut stub = Vec::with_capacity(STUB_LEN);
    stub.push(SPLIT);
    stub.extend_from_slice(&len.to_be_bytes());
    stub.extend_from_slice(&count.to_be_bytes());
    stub.extend_from_slice(&piece_bytes.to_be_bytes());
    stub.extend_from_slice(&crc32fast::hash(value).to_be_bytes());
    Ok((stub, pieces))
}

/// The value `stub` describes, from the pieces found in its range in order, or `None` when
/// they do not make that value (a writer replaced them after the stub was read).
pub(super) fn assemble<I>(key: &[u8], stub: Stub, found: I) -> Result<Option<Vec<u8>>>
where
    I: Iterator<Item = Result<(Vec<u8>, Vec<u8>)>>,
{
    let mut value = Vec::new();
    let mut expected = 0u32;
    for piece in found {
        let (piece_key_found, bytes) = piece?;
        if expected == stub.pieces || piece_key_found != piece_key(key, expected)? {
            return Ok(None);
        }
        value.extend_from_slice(&bytes);
        if value.len() as u64 > stub.len {
            return Ok(None);
        }
        expected += 1;
    }
    let whole = expected == stub.pieces && value.len() as u64 == stub.len;
    Ok((whole && crc32fast::hash(&value) == stub.crc).then_some(value))
}

/// The range of the pieces of `stub` under `key`, for [`assemble`].
pub(super) fn stub_range(key: &[u8], stub: Stub) -> Result<(Vec<u8>, Vec<u8>)> {
    Ok((piece_key(key, 0)?, piece_key(key, stub.pieces)?))
}
