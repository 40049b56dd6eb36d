//! Row packing: the logical entries of one row (its tombstone, columns, super-column markers
//! and subcolumns, each a key of `keys` with a value of `values`) are stored together, a
//! sorted run of them per engine value — a *chunk* — instead of one engine key per entry.
//! sled pays per key (and an atomic multi-key batch takes its global lock), so a row written
//! as one chunk costs one insert, and a slice reads a few chunks instead of many keys.
//!
//! ```text
//! chunk key    row prefix (cf id + row part)            the row's first chunk
//!              row prefix | suffix of its first entry    every later chunk
//! chunk value  kind | (varint suffix length, suffix, varint value length, value)*   sorted
//! kind         01: any chunk; 02: the row's first chunk, and no other chunk exists
//! ```
//!
//! A chunk holds the entries from its key up to the next chunk's key. A chunk that grows
//! past `max_chunk` bytes is split; an emptied chunk is deleted. Most rows are one chunk,
//! marked as such (kind 02), so a lookup in them is one point read of the row prefix; only
//! rows of several chunks need a seek for the chunk that covers a key. Writers to one row must be
//! serialised by the caller (`cf` holds the row's lock). Readers need no lock: each chunk is
//! replaced atomically, and scans never yield an entry twice even if a chunk splits under
//! them. Keys under `META_PREFIX` are not packed.

use super::engine::{in_bounds, range_is_empty, Batch, Engine, KvPair, Scan};
use super::keys::{decode_row, META_PREFIX};
use crate::error::{Error, Result};
use crate::partitioner::Partitioner;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;

/// A chunk that may have neighbours.
const CHUNK: u8 = 1;
/// The first chunk of its row, and the only one.
const SOLE_CHUNK: u8 = 2;

/// Default chunk size above which a chunk is split.
pub const MAX_CHUNK_BYTES: usize = 4096;

/// How rows are packed: the partitioner (to find where a key's row part ends) and the
/// chunk size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packing {
    /// Says where a key's row part ends.
    pub partitioner: Partitioner,
    /// The size above which a chunk is split, in bytes.
    pub max_chunk: usize,
}

type Entries = BTreeMap<Vec<u8>, Vec<u8>>;

/// The packing layer: an engine seen through [`Packing`]. It reads and writes logical
/// entries; the engine below holds chunks.
pub(crate) struct Packed {
    engine: Arc<dyn Engine>,
    packing: Packing,
}

impl Packed {
    /// `engine`, packed by `packing`.
    pub(crate) fn new(engine: Arc<dyn Engine>, packing: Packing) -> Packed {
        Packed { engine, packing }
    }

    /// The value of one logical entry; `seen` caches first chunks within one row mutation.
    pub(crate) fn get(&self, key: &[u8], seen: Option<&FirstChunks>) -> Result<Option<Vec<u8>>> {
        self.packing.get(self.engine.as_ref(), key, seen)
    }

    /// True when the row `prefix` has nothing stored.
    pub(crate) fn row_absent(&self, prefix: &[u8], seen: Option<&FirstChunks>) -> Result<bool> {
        self.packing.row_absent(self.engine.as_ref(), prefix, seen)
    }

    /// Logical entries in `(lower, upper)`, ascending or descending.
    pub(crate) fn scan(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> Scan<'_> {
        self.packing
            .scan(self.engine.as_ref(), lower, upper, reverse)
    }

    /// The length of the row prefix (CF id and row part) of a data key, physical or
    /// logical; `None` for a key that is no row's.
    pub(crate) fn row_prefix_len(&self, key: &[u8]) -> Option<usize> {
        self.packing.row_prefix_of(key)
    }

    /// The physical writes that carry out the logical writes of `batch`.
    pub(crate) fn plan(&self, batch: Batch, seen: Option<&FirstChunks>) -> Result<Batch> {
        self.packing.plan(self.engine.as_ref(), batch, seen)
    }
}

/// First chunks already read during one row mutation (the caller holds the row's lock, so
/// they cannot change underneath): each row's first chunk is read from the engine once.
#[derive(Default)]
pub struct FirstChunks(RefCell<HashMap<Vec<u8>, First, foldhash::fast::RandomState>>);

/// A chunk value shared between the per-mutation cache and its readers: a lookup served
/// from [`FirstChunks`] copies no bytes.
type Shared = Arc<[u8]>;

/// A row's first chunk as found on disk.
#[derive(Clone)]
enum First {
    /// No chunk: the row is empty.
    Absent,
    /// The only chunk of the row (its value).
    Sole(Shared),
    /// The first of several chunks, or possibly several (its value).
    Multi(Shared),
}

fn corrupt(what: &str) -> Error {
    Error::Corrupt(format!("malformed row chunk: {what}"))
}

fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn take_varint(input: &[u8]) -> Result<(usize, &[u8])> {
    let mut n: usize = 0;
    for (i, &b) in input.iter().enumerate().take(10) {
        n |= usize::from(b & 0x7F)
            .checked_shl(7 * i as u32)
            .ok_or_else(|| corrupt("length"))?;
        if b < 0x80 {
            return Ok((n, &input[i + 1..]));
        }
    }
    Err(corrupt("length"))
}

fn take_bytes(input: &[u8]) -> Result<(&[u8], &[u8])> {
    let (len, rest) = take_varint(input)?;
    if len > rest.len() {
        return Err(corrupt("truncated entry"));
    }
    Ok(rest.split_at(len))
}

/// The entries of a chunk value, as (suffix, value) in order.
fn decode_chunk(value: &[u8]) -> Result<Vec<(&[u8], &[u8])>> {
    let (&kind, mut rest) = value.split_first().ok_or_else(|| corrupt("empty"))?;
    if kind != CHUNK && kind != SOLE_CHUNK {
        return Err(corrupt("unknown kind"));
    }
    let mut entries = Vec::new();
    while !rest.is_empty() {
        let (suffix, after) = take_bytes(rest)?;
        let (value, after) = take_bytes(after)?;
        entries.push((suffix, value));
        rest = after;
    }
    Ok(entries)
}

/// The value stored under `suffix` in a chunk, reading entries only up to where it would be
/// (they are sorted).
fn find_entry(value: &[u8], suffix: &[u8]) -> Result<Option<Vec<u8>>> {
    let (&kind, mut rest) = value.split_first().ok_or_else(|| corrupt("empty"))?;
    if kind != CHUNK && kind != SOLE_CHUNK {
        return Err(corrupt("unknown kind"));
    }
    while !rest.is_empty() {
        let (s, after) = take_bytes(rest)?;
        let (v, after) = take_bytes(after)?;
        match s.cmp(suffix) {
            std::cmp::Ordering::Less => rest = after,
            std::cmp::Ordering::Equal => return Ok(Some(v.to_vec())),
            std::cmp::Ordering::Greater => return Ok(None),
        }
    }
    Ok(None)
}

fn encoded_len(suffix: &[u8], value: &[u8]) -> usize {
    suffix.len() + value.len() + 4
}

/// Splits sorted entries into chunk values of about half `max` bytes (at least one entry
/// each), returned with each piece's first suffix.
fn encode_pieces(entries: &Entries, max: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    let total: usize = entries.iter().map(|(s, v)| encoded_len(s, v)).sum();
    let target = if total > max { max / 2 } else { usize::MAX };
    let mut pieces: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for (suffix, value) in entries {
        let start_new = match pieces.last() {
            None => true,
            Some((_, chunk)) => {
                chunk.len() + encoded_len(suffix, value) > target && chunk.len() > 1
            }
        };
        if start_new {
            pieces.push((suffix.clone(), vec![CHUNK]));
        }
        if let Some((_, chunk)) = pieces.last_mut() {
            put_varint(chunk, suffix.len());
            chunk.extend_from_slice(suffix);
            put_varint(chunk, value.len());
            chunk.extend_from_slice(value);
        }
    }
    pieces
}

impl Packing {
    /// Length of the row prefix of a data key, or `None` for a meta key (not packed).
    fn row_prefix_len(&self, key: &[u8]) -> Result<Option<usize>> {
        if key.len() < 4 || key[..4] == META_PREFIX {
            return Ok(None);
        }
        self.row_prefix_of(key)
            .map(Some)
            .ok_or_else(|| corrupt("undecodable row key"))
    }

    /// What the row `prefix` looks like on disk, from its first chunk (which exists
    /// whenever the row has any chunk).
    fn first_chunk(
        &self,
        engine: &dyn Engine,
        prefix: &[u8],
        seen: Option<&FirstChunks>,
    ) -> Result<First> {
        if let Some(first) = seen.and_then(|s| s.0.borrow().get(prefix).cloned()) {
            return Ok(first);
        }
        let first = match engine.get(prefix)? {
            None => First::Absent,
            Some(value) if value.first() == Some(&SOLE_CHUNK) => First::Sole(value.into()),
            Some(value) => First::Multi(value.into()),
        };
        if let Some(seen) = seen {
            seen.0.borrow_mut().insert(prefix.to_vec(), first.clone());
        }
        Ok(first)
    }

    /// The value of one logical entry; `seen` caches first chunks within one row mutation.
    pub fn get(
        &self,
        engine: &dyn Engine,
        key: &[u8],
        seen: Option<&FirstChunks>,
    ) -> Result<Option<Vec<u8>>> {
        let Some(plen) = self.row_prefix_len(key)? else {
            return engine.get(key);
        };
        let (prefix, suffix) = key.split_at(plen);
        match self.first_chunk(engine, prefix, seen)? {
            First::Absent => Ok(None),
            First::Sole(value) => find_entry(&value, suffix),
            First::Multi(_) => {
                let (lower, upper) = (
                    Bound::Included(prefix.to_vec()),
                    Bound::Included(key.to_vec()),
                );
                match engine.scan(lower, upper, true).next().transpose()? {
                    Some((_, value)) => find_entry(&value, suffix),
                    None => Ok(None),
                }
            }
        }
    }

    /// True when the row `prefix` has no chunk at all (nothing stored, not even a
    /// tombstone); `seen` caches the answer within one row mutation.
    pub fn row_absent(
        &self,
        engine: &dyn Engine,
        prefix: &[u8],
        seen: Option<&FirstChunks>,
    ) -> Result<bool> {
        Ok(matches!(
            self.first_chunk(engine, prefix, seen)?,
            First::Absent
        ))
    }

    /// The row prefix length of a data key, without failing on keys that are no row's
    /// (scan bounds such as a CF's end).
    fn row_prefix_of(&self, key: &[u8]) -> Option<usize> {
        if key.len() < 4 || key[..4] == META_PREFIX {
            return None;
        }
        decode_row(self.partitioner, &key[4..]).map(|(_, len)| 4 + len)
    }

    /// Logical entries in `(lower, upper)`, ascending or descending.
    pub fn scan<'a>(
        &self,
        engine: &'a dyn Engine,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> Scan<'a> {
        if range_is_empty(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        match self.physical_start(engine, &lower, &upper) {
            Ok(Start::Chunk(value, prefix)) => {
                let entries = decode_chunk(&value).map(|entries| {
                    let mut within: Vec<KvPair> = entries
                        .into_iter()
                        .map(|(suffix, v)| ([prefix.as_slice(), suffix].concat(), v.to_vec()))
                        .filter(|(k, _)| in_bounds(k, &lower, &upper))
                        .collect();
                    if reverse {
                        within.reverse();
                    }
                    within
                });
                match entries {
                    Ok(entries) => Box::new(entries.into_iter().map(Ok)),
                    Err(e) => Box::new(std::iter::once(Err(e))),
                }
            }
            Ok(Start::Nothing) => Box::new(std::iter::empty()),
            Ok(Start::From(physical_lower)) => Box::new(PackedScan {
                packing: *self,
                chunks: engine.scan(physical_lower, upper.clone(), reverse),
                lower,
                upper,
                reverse,
                pending: VecDeque::new(),
                last: None,
            }),
            Err(e) => Box::new(std::iter::once(Err(e))),
        }
    }

    /// Where a scan must start on disk. A scan inside one row of a single chunk reads just
    /// that chunk; otherwise the chunk covering `lower` may begin before it.
    fn physical_start(
        &self,
        engine: &dyn Engine,
        lower: &Bound<Vec<u8>>,
        upper: &Bound<Vec<u8>>,
    ) -> Result<Start> {
        let lower_key = match lower {
            Bound::Included(l) | Bound::Excluded(l) => l,
            Bound::Unbounded => return Ok(Start::From(Bound::Unbounded)),
        };
        let Some(plen) = self.row_prefix_of(lower_key) else {
            return Ok(Start::From(Bound::Included(lower_key.clone())));
        };
        let prefix = &lower_key[..plen];
        let inside_row = match upper {
            Bound::Included(u) | Bound::Excluded(u) => u.starts_with(prefix),
            Bound::Unbounded => false,
        };
        if inside_row {
            match self.first_chunk(engine, prefix, None)? {
                First::Absent => return Ok(Start::Nothing),
                First::Sole(value) => return Ok(Start::Chunk(value, prefix.to_vec())),
                First::Multi(_) => {}
            }
        }
        if lower_key.len() == plen {
            return Ok(Start::From(Bound::Included(lower_key.clone())));
        }
        let floor = engine
            .scan(
                Bound::Included(prefix.to_vec()),
                Bound::Included(lower_key.clone()),
                true,
            )
            .next();
        Ok(Start::From(Bound::Included(match floor.transpose()? {
            Some((key, _)) => key,
            None => lower_key.clone(),
        })))
    }
}

/// Where a packed scan begins.
enum Start {
    /// The whole scan lies in this one chunk (its value and row prefix).
    Chunk(Shared, Vec<u8>),
    /// The scan lies in a row that has nothing.
    Nothing,
    /// Walk the chunks from this physical bound.
    From(Bound<Vec<u8>>),
}

/// Unpacks chunks from an engine scan into logical entries within the bounds.
struct PackedScan<'a> {
    packing: Packing,
    chunks: Scan<'a>,
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
    reverse: bool,
    pending: VecDeque<KvPair>,
    /// The last key yielded: later ones must be beyond it (a chunk may split mid-scan).
    last: Option<Vec<u8>>,
}

impl PackedScan<'_> {
    fn within(&self, key: &[u8]) -> bool {
        let fresh = match &self.last {
            None => true,
            Some(last) if self.reverse => key < last.as_slice(),
            Some(last) => key > last.as_slice(),
        };
        fresh && in_bounds(key, &self.lower, &self.upper)
    }

    /// Queues the in-bounds entries of one physical key/value.
    fn unpack(&mut self, key: Vec<u8>, value: Vec<u8>) -> Result<()> {
        let Some(plen) = self.packing.row_prefix_len(&key)? else {
            if self.within(&key) {
                self.pending.push_back((key, value));
            }
            return Ok(());
        };
        let mut entries: Vec<KvPair> = Vec::new();
        for (suffix, v) in decode_chunk(&value)? {
            let mut full = key[..plen].to_vec();
            full.extend_from_slice(suffix);
            if self.within(&full) {
                entries.push((full, v.to_vec()));
            }
        }
        if self.reverse {
            entries.reverse();
        }
        self.pending.extend(entries);
        Ok(())
    }
}

impl Iterator for PackedScan<'_> {
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((key, value)) = self.pending.pop_front() {
                self.last = Some(key.clone());
                return Some(Ok((key, value)));
            }
            match self.chunks.next()? {
                Ok((key, value)) => {
                    if let Err(e) = self.unpack(key, value) {
                        return Some(Err(e));
                    }
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

mod plan;
#[cfg(test)]
mod tests;
