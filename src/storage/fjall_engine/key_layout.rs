//! How engine keys are laid out in fjall: the *compact* layout shortens the 4-byte column
//! family id every key starts with, so that the first bytes of a key tell keys apart.
//!
//! fjall keeps a key's first 4 bytes inline beside its pointer and compares those before it
//! reads the key itself; every comparison of its memtable's skip list that they do not decide
//! is a cache miss. Logical keys start with the CF id, `00 00 00 id` for every CF of a
//! store, so those 4 bytes never decided anything (measured in
//! `docs/storage.md#fjall-key-layout`).
//!
//! ```text
//! logical key k                          stored key
//! k < 00 00 00 01 (meta keys, short keys) 00 | k
//! 00 00 00 id | rest, id in 01..=FE       id | rest
//! k ≥ 00 00 00 FF                         FF | k
//! ```
//!
//! The three classes are consecutive ranges of logical keys and their stored keys start with
//! 00, 01..FE and FF, so the mapping keeps byte order and is one-to-one: scans and bounds
//! map straight through. Stores created before the layout existed keep the plain layout
//! (stored key = logical key); which one a store uses is recorded in [`LAYOUT_FILE`] when
//! the store is created and never changes.

use crate::error::{Error, Result};
use crate::storage::small_file::write_durably;
use std::borrow::Cow;
use std::fs;
use std::ops::Bound;
use std::path::Path;

/// The file recording a fjall store's key layout, beside fjall's own.
pub(crate) const LAYOUT_FILE: &str = "ilion-key-layout";

/// What [`LAYOUT_FILE`] holds for the compact layout.
const COMPACT_NAME: &str = "compact-cf";

/// The first logical key whose CF id takes one byte, and the first after them.
const FIRST_SHORT: [u8; 4] = [0, 0, 0, 1];
const AFTER_SHORT: [u8; 4] = [0, 0, 0, 0xFF];

/// A fjall store's key layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyLayout {
    /// Stored keys are the logical keys (stores created before the compact layout).
    Plain,
    /// The CF id of a logical key takes one stored byte (see the module documentation).
    Compact,
}

impl KeyLayout {
    /// The layout of the store in `dir`: a new store (`existing` false) gets the compact
    /// layout, recorded durably before fjall writes anything; an existing store without the
    /// file is from before it, so plain.
    pub(super) fn open(dir: &Path, existing: bool) -> Result<KeyLayout> {
        let path = dir.join(LAYOUT_FILE);
        match fs::read_to_string(&path) {
            Ok(text) if text.trim() == COMPACT_NAME => Ok(KeyLayout::Compact),
            Ok(text) => Err(Error::Corrupt(format!(
                "{} names an unknown key layout {:?} (this ilion knows {COMPACT_NAME:?})",
                path.display(),
                text.trim()
            ))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if existing {
                    return Ok(KeyLayout::Plain);
                }
                write_durably(&path, COMPACT_NAME.as_bytes())?;
                Ok(KeyLayout::Compact)
            }
            Err(e) => Err(Error::Storage(format!(
                "cannot read {}: {e}",
                path.display()
            ))),
        }
    }

    /// The stored key of logical `key`.
    pub(super) fn encode<'a>(self, key: &'a [u8]) -> Cow<'a, [u8]> {
        match self {
            KeyLayout::Plain => Cow::Borrowed(key),
            KeyLayout::Compact => Cow::Owned(compact(key)),
        }
    }

    /// The stored key of logical `key`, reusing its buffer.
    pub(super) fn encode_owned(self, mut key: Vec<u8>) -> Vec<u8> {
        if self == KeyLayout::Plain {
            return key;
        }
        if has_short_id(&key) {
            key.drain(..3);
        } else {
            key.insert(0, marker(&key));
        }
        key
    }

    /// A bound on logical keys as the same bound on stored keys.
    pub(super) fn encode_bound(self, bound: Bound<Vec<u8>>) -> Bound<Vec<u8>> {
        match bound {
            Bound::Included(k) => Bound::Included(self.encode_owned(k)),
            Bound::Excluded(k) => Bound::Excluded(self.encode_owned(k)),
            Bound::Unbounded => Bound::Unbounded,
        }
    }

    /// The logical key of a stored key read from disk (in place); bytes no logical key is
    /// stored as are an error, not a panic.
    pub(super) fn decode(self, mut stored: Vec<u8>) -> Result<Vec<u8>> {
        if self == KeyLayout::Plain {
            return Ok(stored);
        }
        let canonical = match stored.first() {
            None => false,
            Some(0x00) => stored[1..] < FIRST_SHORT[..],
            Some(0xFF) => stored[1..] >= AFTER_SHORT[..],
            Some(&id) => {
                stored.splice(0..1, [0, 0, 0, id]);
                return Ok(stored);
            }
        };
        if !canonical {
            return Err(Error::Corrupt(format!(
                "fjall holds a key no ilion key is stored as: {}",
                crate::comparator::hex(&stored[..stored.len().min(16)])
            )));
        }
        stored.remove(0);
        Ok(stored)
    }
}

/// True when `key` is `00 00 00 id | rest` with `id` in 01..=FE (so at least 4 bytes long).
fn has_short_id(key: &[u8]) -> bool {
    key >= &FIRST_SHORT[..] && key < &AFTER_SHORT[..]
}

/// The byte put before a key whose CF id is not shortened: 00 below the shortened keys, FF
/// above them.
fn marker(key: &[u8]) -> u8 {
    if key < &FIRST_SHORT[..] {
        0x00
    } else {
        0xFF
    }
}

/// The compact stored form of `key`.
fn compact(key: &[u8]) -> Vec<u8> {
    if has_short_id(key) {
        return key[3..].to_vec();
    }
    let mut stored = Vec::with_capacity(key.len() + 1);
    stored.push(marker(key));
    stored.extend_from_slice(key);
    stored
}

#[cfg(test)]
mod tests;
