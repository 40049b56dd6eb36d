//! Planning writes of packed rows: logical puts and deletes of entries become writes of the
//! chunks that hold them. Per row, the first chunk is read once to learn the row's shape;
//! each entry goes to the chunk covering it (the first chunk, or for rows of several chunks
//! the one found by a seek); touched chunks are re-encoded, split when too large, deleted
//! when empty. Two rules keep lookups cheap and correct:
//! * the first chunk (keyed by the bare row prefix) exists whenever the row has any chunk —
//!   emptied, it stays as an empty chunk while later chunks remain;
//! * it is marked "sole" exactly when no other chunk exists.

use super::{decode_chunk, encode_pieces, Entries, First, FirstChunks, Packing, CHUNK, SOLE_CHUNK};
use crate::error::Result;
use crate::storage::encoding::prefix_end;
use crate::storage::engine::{Batch, Engine};
use std::collections::BTreeMap;
use std::ops::Bound;

/// One touched chunk.
struct Chunk {
    existed: bool,
    modified: bool,
    entries: Entries,
}

/// What a write does to one row.
struct Row {
    /// Whether the row had chunks beyond its first before this write.
    had_others: bool,
    chunks: BTreeMap<Vec<u8>, Chunk>,
}

fn decoded(value: &[u8]) -> Result<Entries> {
    Ok(decode_chunk(value)?
        .into_iter()
        .map(|(s, v)| (s.to_vec(), v.to_vec()))
        .collect())
}

impl Packing {
    /// Turns logical writes into chunk writes. The caller serialises writers per row;
    /// `seen` holds first chunks already read in this row mutation.
    pub fn plan(
        &self,
        engine: &dyn Engine,
        batch: Batch,
        seen: Option<&FirstChunks>,
    ) -> Result<Batch> {
        let mut out = Batch::default();
        let mut rows: BTreeMap<Vec<u8>, Row> = BTreeMap::new();
        // The row part is prefix-free, so a key that starts with the previous key's row
        // prefix has that same row prefix: a row's entries need decoding once, not each.
        let mut last_prefix: Option<Vec<u8>> = None;
        for (key, value) in batch.into_ops() {
            let plen = match &last_prefix {
                Some(p) if key.starts_with(p) => Some(p.len()),
                _ => self.row_prefix_len(&key)?,
            };
            let Some(plen) = plen else {
                match value {
                    Some(v) => out.put(key, v),
                    None => out.delete(key),
                }
                continue;
            };
            let prefix = &key[..plen];
            if last_prefix.as_deref() != Some(prefix) {
                last_prefix = Some(prefix.to_vec());
            }
            if !rows.contains_key(prefix) {
                rows.insert(prefix.to_vec(), self.load_row(engine, prefix, seen)?);
            }
            let Some(row) = rows.get_mut(prefix) else {
                continue;
            };
            // The key of the chunk covering the entry, found by a seek in rows of several
            // chunks; None for the first chunk, keyed by the prefix already in hand (every
            // row of one chunk, which is most).
            let covering = if row.had_others {
                let found = engine
                    .scan(
                        Bound::Included(prefix.to_vec()),
                        Bound::Included(key.clone()),
                        true,
                    )
                    .next();
                match found.transpose()? {
                    Some((k, v)) => {
                        if !row.chunks.contains_key(&k) {
                            let chunk = Chunk {
                                existed: true,
                                modified: false,
                                entries: decoded(&v)?,
                            };
                            row.chunks.insert(k.clone(), chunk);
                        }
                        Some(k)
                    }
                    None => None,
                }
            } else {
                None
            };
            let chunk_key = covering.as_deref().unwrap_or(prefix);
            let Some(chunk) = row.chunks.get_mut(chunk_key) else {
                continue;
            };
            // The key's own buffer becomes the suffix: no copy per entry.
            let mut suffix = key;
            suffix.drain(..plen);
            chunk.modified = true;
            match value {
                Some(v) => chunk.entries.insert(suffix, v),
                None => chunk.entries.remove(&suffix),
            };
        }
        for (prefix, row) in rows {
            self.finish_row(engine, &prefix, row, &mut out)?;
        }
        Ok(out)
    }

    /// Reads a row's first chunk: it is always among the touched chunks, since its marking
    /// may change.
    fn load_row(
        &self,
        engine: &dyn Engine,
        prefix: &[u8],
        seen: Option<&FirstChunks>,
    ) -> Result<Row> {
        let (existed, had_others, entries) = match self.first_chunk(engine, prefix, seen)? {
            First::Absent => (false, false, Entries::new()),
            First::Sole(value) => (true, false, decoded(&value)?),
            First::Multi(value) => (true, true, decoded(&value)?),
        };
        let mut chunks = BTreeMap::new();
        chunks.insert(
            prefix.to_vec(),
            Chunk {
                existed,
                modified: false,
                entries,
            },
        );
        Ok(Row { had_others, chunks })
    }

    /// Writes a row's touched chunks: splits, deletions, and the first chunk's marking.
    fn finish_row(
        &self,
        engine: &dyn Engine,
        prefix: &[u8],
        mut row: Row,
        out: &mut Batch,
    ) -> Result<()> {
        let Some(first) = row.chunks.remove(prefix) else {
            return Ok(());
        };
        let mut others_remain = false;
        for (key, chunk) in &row.chunks {
            if chunk.entries.is_empty() {
                out.delete(key.clone());
                continue;
            }
            others_remain = true;
            if chunk.modified {
                for (i, (first_suffix, value)) in encode_pieces(&chunk.entries, self.max_chunk)
                    .into_iter()
                    .enumerate()
                {
                    let key = if i == 0 {
                        key.clone()
                    } else {
                        [prefix, first_suffix.as_slice()].concat()
                    };
                    out.put(key, value);
                }
            }
        }
        if row.had_others && !others_remain {
            others_remain = self.untouched_chunks_remain(engine, prefix, &row.chunks)?;
        }
        let pieces = encode_pieces(&first.entries, self.max_chunk);
        others_remain |= pieces.len() > 1;
        let was_sole = first.existed && !row.had_others;
        match pieces.len() {
            0 if others_remain => out.put(prefix.to_vec(), vec![CHUNK]),
            0 if first.existed => out.delete(prefix.to_vec()),
            0 => {}
            // Unchanged, and still marked right.
            _ if !first.modified && was_sole != others_remain => {}
            _ => {
                for (i, (first_suffix, mut value)) in pieces.into_iter().enumerate() {
                    if i == 0 {
                        value[0] = if others_remain { CHUNK } else { SOLE_CHUNK };
                        out.put(prefix.to_vec(), value);
                    } else {
                        out.put([prefix, first_suffix.as_slice()].concat(), value);
                    }
                }
            }
        }
        Ok(())
    }

    /// True when the row has a chunk besides its first that this write leaves alone.
    fn untouched_chunks_remain(
        &self,
        engine: &dyn Engine,
        prefix: &[u8],
        touched: &BTreeMap<Vec<u8>, Chunk>,
    ) -> Result<bool> {
        let end = prefix_end(prefix).map_or(Bound::Unbounded, Bound::Excluded);
        for item in engine.scan(Bound::Excluded(prefix.to_vec()), end, false) {
            let (key, _) = item?;
            if !touched.contains_key(&key) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
