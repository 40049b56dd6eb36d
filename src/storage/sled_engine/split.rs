//! Reads and writes of a sled store in the split layout (`pieces`): a value is unwrapped
//! from its tag or put together from its pieces on the way out, and on the way in each write
//! becomes its stored value, its pieces, and the removal of pieces its key's previous value
//! had beyond the new one's — all in one atomic sled batch.

use super::pieces::{self, Sizes, Stored};
use super::{SledEngine, SPLIT_READ_ATTEMPTS};
use crate::error::{Error, Result};
use crate::storage::engine::{Batch, KvPair, Scan};
use std::collections::HashMap;
use std::ops::Bound;
use std::sync::atomic::Ordering;

impl SledEngine {
    /// The value under `key`.
    pub(super) fn get_split(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        if pieces::is_reserved(key) {
            return Ok(None);
        }
        for _ in 0..SPLIT_READ_ATTEMPTS {
            let Some(stored) = self.db.get(key).map_err(|e| self.note(e))? else {
                return Ok(None);
            };
            if let Some(value) = self.unwrap_stored(key, &stored)? {
                return Ok(Some(value));
            }
        }
        Err(unassemblable(key))
    }

    /// The value `stored` under `key` holds, or `None` when its pieces were replaced
    /// after it was read.
    fn unwrap_stored(&self, key: &[u8], stored: &[u8]) -> Result<Option<Vec<u8>>> {
        match pieces::decode(key, stored)? {
            Stored::Inline(value) => Ok(Some(value.to_vec())),
            Stored::Split(stub) => {
                let (lower, upper) = pieces::stub_range(key, stub)?;
                let found = self.db.range(lower..upper).map(|r| {
                    r.map(|(k, v)| (k.to_vec(), v.to_vec()))
                        .map_err(|e| self.note(e))
                });
                pieces::assemble(key, stub, found)
            }
        }
    }

    /// One entry of a scan: its value unwrapped, read again when its pieces were replaced
    /// under the scan, or `None` when the key has gone meanwhile.
    fn scanned(&self, key: sled::IVec, stored: sled::IVec) -> Result<Option<KvPair>> {
        let value = match self.unwrap_stored(&key, &stored)? {
            Some(value) => Some(value),
            None => self.get_split(&key)?,
        };
        Ok(value.map(|v| (key.to_vec(), v)))
    }

    /// Entries in `(lower, upper)`, never the layout's own.
    pub(super) fn scan_split(
        &self,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> Scan<'_> {
        let upper = pieces::below_reserved(upper);
        if crate::storage::engine::range_is_empty(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        let iter = self
            .db
            .range::<sled::IVec, _>((super::to_ivec_bound(lower), super::to_ivec_bound(upper)));
        let unwrap = move |r: sled::Result<(sled::IVec, sled::IVec)>| match r {
            Ok((k, v)) => self.scanned(k, v).transpose(),
            Err(e) => Some(Err(self.note(e))),
        };
        if reverse {
            Box::new(iter.rev().filter_map(unwrap))
        } else {
            Box::new(iter.filter_map(unwrap))
        }
    }

    /// Applies `batch` atomically. Writers of one key are serialised by the caller (a row's
    /// lock), so the previous value read here is the one the batch replaces.
    pub(super) fn apply_split(&self, sizes: Sizes, batch: Batch) -> Result<()> {
        self.check_not_failed()?;
        let mut last: HashMap<Vec<u8>, Option<Vec<u8>>> = HashMap::new();
        for (key, value) in batch.into_ops() {
            if pieces::is_reserved(&key) {
                return Err(Error::Storage(
                    "keys from FFFFFFFF on are reserved by the sled value layout".into(),
                ));
            }
            last.insert(key, value);
        }
        let mut writes: Vec<(Vec<u8>, Option<Vec<u8>>)> = Vec::with_capacity(last.len());
        let may_hold_pieces = self.may_hold_pieces.load(Ordering::Acquire);
        for (key, value) in last {
            let had_pieces = may_hold_pieces
                && match self.db.get(&key).map_err(|e| self.note(e))? {
                    Some(old) => pieces::piece_count(&key, &old) > 0,
                    None => false,
                };
            let (stored, parts) = match value {
                None => (None, Vec::new()),
                Some(v) if !pieces::needs_split(sizes, &key, &v) => {
                    (Some(pieces::inline(&v)), Vec::new())
                }
                Some(v) => {
                    let (stub, parts) = pieces::split(sizes, &key, &v)?;
                    self.may_hold_pieces.store(true, Ordering::Release);
                    (Some(stub), parts)
                }
            };
            if had_pieces {
                // Whatever pieces exist beyond the new value's go, however many the old
                // stub claimed.
                let (lower, upper) = pieces::pieces_from(&key, parts.len() as u32)?;
                for old in self.db.range(lower..upper).keys() {
                    writes.push((old.map_err(|e| self.note(e))?.to_vec(), None));
                }
            }
            writes.push((key, stored));
            writes.extend(parts.into_iter().map(|(k, b)| (k, Some(b))));
        }
        self.write_out(writes)
    }
}

fn unassemblable(key: &[u8]) -> Error {
    // Writers of one key are serialised, so a value replaced under every attempt is not a
    // race that lasts: pieces that never match their stub are damage.
    Error::Corrupt(format!(
        "sled value of key {} is damaged: its pieces do not match its header",
        hex::encode(&key[..key.len().min(64)])
    ))
}
