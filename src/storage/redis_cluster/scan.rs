//! Ordered scans over the cluster. A scan inside one row reads that row's sorted set
//! (`ZRANGEBYLEX` with its hash's values, one script call per page). A scan across rows
//! walks the index: the bucket directory gives the buckets in key order, each bucket's
//! sorted set gives its row prefixes in order, and each row is read as above; the flat place
//! (meta keys) is merged in by key. Everything is fetched page by page as the caller
//! iterates, so a `get_range_slices` with a small count reads little.

use super::layout::Place;
use super::{bytes, lex_lower, lex_upper, scripts, storage_error, RedisEngine};
use crate::error::Result;
use crate::storage::engine::{range_is_empty, KvPair, Scan};
use crate::storage::keys::prefix_upper;
use std::collections::VecDeque;
use std::iter::Peekable;
use std::ops::Bound;

/// Entries fetched per script call.
const PAGE: usize = 256;

/// Row prefixes fetched per bucket read.
const ROWS_PAGE: usize = 128;

pub(super) fn scan(
    engine: &RedisEngine,
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
    reverse: bool,
) -> Scan<'_> {
    if range_is_empty(&lower, &upper) {
        return Box::new(std::iter::empty());
    }
    if let Some(prefix) = single_row(engine, &lower, &upper) {
        let place = engine.layout.place(&prefix);
        return Box::new(PlaceScan::new(engine, place, lower, upper, reverse));
    }
    let flat = PlaceScan::new(engine, Place::Flat, lower.clone(), upper.clone(), reverse);
    let rows = RowsScan {
        engine,
        lower,
        upper,
        reverse,
        buckets: None,
        bucket: None,
        rows: VecDeque::new(),
        current: None,
        failed: false,
    };
    Box::new(Merge {
        a: flat.peekable(),
        b: rows.peekable(),
        reverse,
    })
}

/// The row prefix when every key between the bounds belongs to one row.
fn single_row(
    engine: &RedisEngine,
    lower: &Bound<Vec<u8>>,
    upper: &Bound<Vec<u8>>,
) -> Option<Vec<u8>> {
    let (Bound::Included(l) | Bound::Excluded(l)) = lower else {
        return None;
    };
    let (Bound::Included(u) | Bound::Excluded(u)) = upper else {
        return None;
    };
    let prefix = &l[..engine.layout.row_prefix_len(l)?];
    let inside = match prefix_upper(prefix) {
        Bound::Excluded(end) => u.as_slice() < end.as_slice(),
        _ => false,
    };
    inside.then(|| prefix.to_vec())
}

/// The tighter of two lower bounds.
fn max_lower(a: Bound<Vec<u8>>, b: Bound<Vec<u8>>) -> Bound<Vec<u8>> {
    let key = |bound: &Bound<Vec<u8>>| match bound {
        Bound::Included(k) | Bound::Excluded(k) => Some(k.clone()),
        Bound::Unbounded => None,
    };
    match (key(&a), key(&b)) {
        (None, _) => b,
        (_, None) => a,
        (Some(x), Some(y)) if x > y => a,
        (Some(x), Some(y)) if y > x => b,
        _ => match a {
            Bound::Excluded(_) => a,
            _ => b,
        },
    }
}

/// The tighter of two upper bounds.
fn min_upper(a: Bound<Vec<u8>>, b: Bound<Vec<u8>>) -> Bound<Vec<u8>> {
    let key = |bound: &Bound<Vec<u8>>| match bound {
        Bound::Included(k) | Bound::Excluded(k) => Some(k.clone()),
        Bound::Unbounded => None,
    };
    match (key(&a), key(&b)) {
        (None, _) => b,
        (_, None) => a,
        (Some(x), Some(y)) if x < y => a,
        (Some(x), Some(y)) if y < x => b,
        _ => match a {
            Bound::Excluded(_) => a,
            _ => b,
        },
    }
}

/// The entries of one place between two bounds, page by page.
struct PlaceScan<'a> {
    engine: &'a RedisEngine,
    place: Place,
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
    reverse: bool,
    page: VecDeque<KvPair>,
    done: bool,
}

impl<'a> PlaceScan<'a> {
    fn new(
        engine: &'a RedisEngine,
        place: Place,
        lower: Bound<Vec<u8>>,
        upper: Bound<Vec<u8>>,
        reverse: bool,
    ) -> PlaceScan<'a> {
        PlaceScan {
            engine,
            place,
            lower,
            upper,
            reverse,
            page: VecDeque::new(),
            done: false,
        }
    }

    fn fetch(&mut self) -> Result<()> {
        let keys = self.engine.layout.keys(&self.place);
        let limit = PAGE.to_string();
        let pipe = self.engine.script(
            scripts::READ,
            &[&keys.zset, &keys.hash],
            &[
                &lex_lower(&self.lower),
                &lex_upper(&self.upper),
                if self.reverse { b"1" } else { b"0" },
                limit.as_bytes(),
            ],
        );
        let replies = self.engine.run(&keys.tag, pipe)?;
        let Some(redis::Value::Array(items)) = replies.first() else {
            return Err(storage_error("unexpected reply to a read"));
        };
        for pair in items.chunks(2) {
            let [key, value] = pair else {
                return Err(storage_error("odd reply to a read"));
            };
            let key = bytes(key)?;
            let value = bytes(value)
                .map_err(|_| storage_error("a key in a row's sorted set has no value"))?;
            self.page.push_back((key, value));
        }
        self.done = items.len() / 2 < PAGE;
        if let Some((last, _)) = self.page.back() {
            if self.reverse {
                self.upper = Bound::Excluded(last.clone());
            } else {
                self.lower = Bound::Excluded(last.clone());
            }
        }
        Ok(())
    }
}

impl Iterator for PlaceScan<'_> {
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.page.is_empty() && !self.done {
            if let Err(e) = self.fetch() {
                self.done = true;
                return Some(Err(e));
            }
        }
        self.page.pop_front().map(Ok)
    }
}

/// A bucket being read: its id and the member bounds still to read.
type BucketCursor = (Vec<u8>, Bound<Vec<u8>>, Bound<Vec<u8>>);

/// The entries of every indexed row between two bounds, in order.
struct RowsScan<'a> {
    engine: &'a RedisEngine,
    lower: Bound<Vec<u8>>,
    upper: Bound<Vec<u8>>,
    reverse: bool,
    /// Buckets still to read (their 5-byte ids), once the directory has been read.
    buckets: Option<VecDeque<Vec<u8>>>,
    /// The bucket being read, with the member bounds still to read.
    bucket: Option<BucketCursor>,
    rows: VecDeque<Vec<u8>>,
    current: Option<PlaceScan<'a>>,
    failed: bool,
}

impl RowsScan<'_> {
    /// The bucket ids in the directory that the bounds may reach.
    fn read_directory(&self) -> Result<VecDeque<Vec<u8>>> {
        let (dir, tag) = self.engine.layout.directory();
        let id = |k: &Vec<u8>| k[..k.len().min(5)].to_vec();
        let lower = match &self.lower {
            Bound::Included(k) | Bound::Excluded(k) => Bound::Included(id(k)),
            Bound::Unbounded => Bound::Unbounded,
        };
        let upper = match &self.upper {
            Bound::Included(k) | Bound::Excluded(k) => Bound::Included(id(k)),
            Bound::Unbounded => Bound::Unbounded,
        };
        let mut pipe = redis::pipe();
        pipe.cmd("ZRANGEBYLEX")
            .arg(dir)
            .arg(lex_lower(&lower))
            .arg(lex_upper(&upper));
        let replies = self.engine.run(&tag, pipe)?;
        let Some(redis::Value::Array(ids)) = replies.first() else {
            return Err(storage_error("unexpected reply from the bucket directory"));
        };
        let mut ids = ids.iter().map(bytes).collect::<Result<VecDeque<_>>>()?;
        if self.reverse {
            ids = ids.into_iter().rev().collect();
        }
        Ok(ids)
    }

    /// The next page of row prefixes; false when every bucket is read.
    fn next_rows(&mut self) -> Result<bool> {
        loop {
            if self.buckets.is_none() {
                self.buckets = Some(self.read_directory()?);
            }
            if self.bucket.is_none() {
                let Some(id) = self.buckets.as_mut().and_then(VecDeque::pop_front) else {
                    return Ok(false);
                };
                // Members are row prefixes: the row holding the lower bound starts at or
                // before it, and no row starting past the upper bound can reach back.
                let lower = match &self.lower {
                    Bound::Included(k) | Bound::Excluded(k) => {
                        let len = self.engine.layout.row_prefix_len(k).unwrap_or(k.len());
                        Bound::Included(k[..len].to_vec())
                    }
                    Bound::Unbounded => Bound::Unbounded,
                };
                let upper = match &self.upper {
                    Bound::Included(k) | Bound::Excluded(k) => Bound::Included(k.clone()),
                    Bound::Unbounded => Bound::Unbounded,
                };
                self.bucket = Some((id, lower, upper));
            }
            let Some((id, lower, upper)) = self.bucket.take() else {
                continue;
            };
            let (Ok(cf), Some(&first)) = (<[u8; 4]>::try_from(&id[..id.len().min(4)]), id.get(4))
            else {
                return Err(storage_error("malformed bucket id in the directory"));
            };
            let (key, tag) = self.engine.layout.bucket(cf, first);
            let mut pipe = redis::pipe();
            if self.reverse {
                pipe.cmd("ZREVRANGEBYLEX")
                    .arg(key)
                    .arg(lex_upper(&upper))
                    .arg(lex_lower(&lower));
            } else {
                pipe.cmd("ZRANGEBYLEX")
                    .arg(key)
                    .arg(lex_lower(&lower))
                    .arg(lex_upper(&upper));
            }
            pipe.arg("LIMIT").arg(0).arg(ROWS_PAGE);
            let replies = self.engine.run(&tag, pipe)?;
            let Some(redis::Value::Array(members)) = replies.first() else {
                return Err(storage_error("unexpected reply from an index bucket"));
            };
            let members = members.iter().map(bytes).collect::<Result<Vec<_>>>()?;
            if members.len() == ROWS_PAGE {
                let last = members[ROWS_PAGE - 1].clone();
                self.bucket = Some(if self.reverse {
                    (id, lower, Bound::Excluded(last))
                } else {
                    (id, Bound::Excluded(last), upper)
                });
            }
            if !members.is_empty() {
                self.rows.extend(members);
                return Ok(true);
            }
        }
    }
}

impl<'a> Iterator for RowsScan<'a> {
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            if let Some(current) = self.current.as_mut() {
                match current.next() {
                    Some(item) => return Some(item),
                    None => self.current = None,
                }
            }
            if self.rows.is_empty() {
                match self.next_rows() {
                    Ok(true) => {}
                    Ok(false) => return None,
                    Err(e) => {
                        self.failed = true;
                        return Some(Err(e));
                    }
                }
            }
            let prefix = self.rows.pop_front()?;
            let lower = max_lower(self.lower.clone(), Bound::Included(prefix.clone()));
            let upper = min_upper(self.upper.clone(), prefix_upper(&prefix));
            if range_is_empty(&lower, &upper) {
                continue;
            }
            let place = self.engine.layout.place(&prefix);
            // An engine borrowed for 'a lives in the scan as long as the scan does.
            let engine: &'a RedisEngine = self.engine;
            self.current = Some(PlaceScan::new(engine, place, lower, upper, self.reverse));
        }
    }
}

/// Two ordered scans merged into one (their keys never coincide).
struct Merge<A: Iterator<Item = Result<KvPair>>, B: Iterator<Item = Result<KvPair>>> {
    a: Peekable<A>,
    b: Peekable<B>,
    reverse: bool,
}

impl<A, B> Iterator for Merge<A, B>
where
    A: Iterator<Item = Result<KvPair>>,
    B: Iterator<Item = Result<KvPair>>,
{
    type Item = Result<KvPair>;

    fn next(&mut self) -> Option<Self::Item> {
        let take_a = match (self.a.peek(), self.b.peek()) {
            (None, None) => return None,
            (Some(_), None) | (Some(Err(_)), _) => true,
            (None, Some(_)) | (_, Some(Err(_))) => false,
            (Some(Ok((ka, _))), Some(Ok((kb, _)))) => (ka < kb) != self.reverse,
        };
        if take_a {
            self.a.next()
        } else {
            self.b.next()
        }
    }
}
