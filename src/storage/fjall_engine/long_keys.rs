//! Keys longer than fjall allows. fjall's keys are at most 65,535 bytes, ilion's engine keys
//! are not (a row key may be 64 KiB before escaping, a column name as much again). A key of
//! up to [`DIRECT`] bytes is stored as it is; a longer key lives in the *bucket* of its first
//! `DIRECT` bytes `P`: one fjall entry keyed `P 00` (exactly `DIRECT + 1` bytes, so never a
//! direct key) whose value lists every long key starting with `P`, by the rest of the key,
//! sorted. No direct key lies between `P` and its extensions except `P` itself, so `P 00`
//! sorts exactly where those long keys belong and scans stay in byte order.
//!
//! Bucket value: `(u32 length, rest of key, u32 length, value)*`, sorted by rest of key,
//! lengths big-endian.

use crate::error::{Error, Result};
use crate::storage::engine::KvPair;
use std::collections::BTreeMap;
use std::ops::Bound;

/// The longest key stored directly; a bucket key is one byte longer, fjall's limit.
pub(super) const DIRECT: usize = u16::MAX as usize - 1;

/// The bucket holding `key`, or None when `key` is stored directly.
pub(super) fn bucket_of(key: &[u8]) -> Option<Vec<u8>> {
    (key.len() > DIRECT).then(|| {
        let mut bucket = key[..DIRECT].to_vec();
        bucket.push(0);
        bucket
    })
}

/// True when a stored key is a bucket.
pub(super) fn is_bucket(stored: &[u8]) -> bool {
    stored.len() == DIRECT + 1
}

/// The stored-key bound covering every key within `bound`: a long key's bucket, included.
pub(super) fn stored_bound(bound: &Bound<Vec<u8>>) -> Bound<Vec<u8>> {
    match bound {
        Bound::Included(k) | Bound::Excluded(k) if k.len() > DIRECT => {
            Bound::Included(bucket_of(k).unwrap_or_default())
        }
        other => other.clone(),
    }
}

/// The entries of a bucket stored under `bucket`, keyed by full key.
pub(super) fn decode(bucket: &[u8], value: &[u8]) -> Result<BTreeMap<Vec<u8>, Vec<u8>>> {
    let prefix = &bucket[..bucket.len().saturating_sub(1)];
    let mut entries = BTreeMap::new();
    let mut rest = value;
    while !rest.is_empty() {
        let (suffix, after) = take(rest)?;
        let (value, after) = take(after)?;
        let mut key = prefix.to_vec();
        key.extend_from_slice(suffix);
        entries.insert(key, value.to_vec());
        rest = after;
    }
    Ok(entries)
}

/// One length-prefixed field and what follows it.
fn take(bytes: &[u8]) -> Result<(&[u8], &[u8])> {
    let malformed = || {
        Error::Corrupt(format!(
            "malformed long-key bucket of {} bytes",
            bytes.len()
        ))
    };
    let (len, rest) = bytes.split_first_chunk::<4>().ok_or_else(malformed)?;
    let len = u32::from_be_bytes(*len) as usize;
    if len > rest.len() {
        return Err(malformed());
    }
    Ok(rest.split_at(len))
}

/// The value of a bucket holding `entries` (all longer than [`DIRECT`], sharing its prefix).
pub(super) fn encode(entries: &BTreeMap<Vec<u8>, Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::new();
    for (key, value) in entries {
        for field in [&key[DIRECT..], value.as_slice()] {
            out.extend_from_slice(&(field.len() as u32).to_be_bytes());
            out.extend_from_slice(field);
        }
    }
    out
}

/// Stored entries turned back into engine entries: buckets opened, everything outside
/// `(lower, upper)` dropped, in the scan's direction.
pub(super) struct Expand<I> {
    pub(super) stored: I,
    pub(super) lower: Bound<Vec<u8>>,
    pub(super) upper: Bound<Vec<u8>>,
    pub(super) reverse: bool,
    /// What is left of the bucket being read, next entry last.
    pub(super) pending: Vec<KvPair>,
}

impl<I: Iterator<Item = Result<KvPair>>> Iterator for Expand<I> {
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        use crate::storage::engine::in_bounds;
        loop {
            if let Some(entry) = self.pending.pop() {
                return Some(Ok(entry));
            }
            let (key, value) = match self.stored.next()? {
                Ok(kv) => kv,
                Err(e) => return Some(Err(e)),
            };
            if !is_bucket(&key) {
                if in_bounds(&key, &self.lower, &self.upper) {
                    return Some(Ok((key, value)));
                }
                continue;
            }
            let entries = match decode(&key, &value) {
                Ok(entries) => entries,
                Err(e) => return Some(Err(e)),
            };
            let inside = entries
                .into_iter()
                .filter(|(k, _)| in_bounds(k, &self.lower, &self.upper));
            // `pending` pops from the back.
            self.pending = if self.reverse {
                inside.collect()
            } else {
                inside.rev().collect()
            };
        }
    }
}

#[cfg(test)]
mod tests;
