//! Where each engine key lives in the cluster: the Redis key names of the `redis-cluster`
//! engine (docs/redis.md#keys). Every name starts with the namespace; the part in braces is
//! Redis Cluster's hash tag, which alone decides the slot.
//!
//! * a **row** (all column families of one row key, as the row part of storage's keys): a
//!   sorted set of its chunk keys (all scores 0, so ordered by bytes: `ZRANGEBYLEX`), a hash
//!   from chunk key to chunk value, and its write lease — all under one tag, the first 8 bytes
//!   of the MD5 of the row part in hex, so one script can change the whole row atomically;
//! * the **meta** keys (catalog), and any key that is no row's, the same way, under the tag
//!   `<namespace>:meta`;
//! * the **row index**: which rows of a column family exist, split into buckets by the
//!   row part's first byte (the token's top byte under RandomPartitioner), each a sorted set
//!   of row prefixes under its own tag — so no single key holds the whole index, and the
//!   buckets in order, each read in order, give the rows in ring order.

use crate::partitioner::Partitioner;
use crate::storage::keys::{decode_row, META_PREFIX};
use md5::{Digest, Md5};

/// Where one engine key is kept.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Place {
    /// ilion's metadata (keys under `META_PREFIX`), and any key that is no row's (the
    /// engine suite's): one sorted set and hash, never packed or leased.
    Flat,
    /// One row of every column family: the row part of the key (after the CF id).
    Row(Vec<u8>),
}

/// Key naming for one namespace and partitioner.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    namespace: String,
    partitioner: Partitioner,
}

/// The Redis keys of one place: (sorted set, hash, lease) and the tag deciding the slot.
pub(super) struct PlaceKeys {
    pub tag: String,
    pub zset: Vec<u8>,
    pub hash: Vec<u8>,
    pub lease: Vec<u8>,
}

impl Layout {
    pub(super) fn new(namespace: &str, partitioner: Partitioner) -> Layout {
        Layout {
            namespace: namespace.to_string(),
            partitioner,
        }
    }

    /// The length of the row prefix (CF id and row part) of a data key, or None for a meta
    /// key or a key that is no row's (a scan bound such as a CF's first token).
    pub(super) fn row_prefix_len(&self, key: &[u8]) -> Option<usize> {
        if key.len() < 4 || key[..4] == META_PREFIX {
            return None;
        }
        decode_row(self.partitioner, &key[4..]).map(|(_, len)| 4 + len)
    }

    /// Where `key` is kept.
    pub(super) fn place(&self, key: &[u8]) -> Place {
        match self.row_prefix_len(key) {
            Some(len) => Place::Row(key[4..len].to_vec()),
            None => Place::Flat,
        }
    }

    /// The Redis keys of `place`.
    pub(super) fn keys(&self, place: &Place) -> PlaceKeys {
        let (tag, row): (String, &[u8]) = match place {
            Place::Flat => (format!("{}:meta", self.namespace), &[]),
            Place::Row(row) => (hex::encode(&Md5::digest(row)[..8]), row),
        };
        let name = |kind: &str| {
            let mut key = format!("{}:{{{tag}}}{kind}", self.namespace).into_bytes();
            key.extend_from_slice(row);
            key
        };
        PlaceKeys {
            zset: name("z"),
            hash: name("h"),
            lease: name("l"),
            tag,
        }
    }

    /// The index bucket of the rows of CF `cf` whose row part starts with `first`: its Redis
    /// key and tag.
    pub(super) fn bucket(&self, cf: [u8; 4], first: u8) -> (Vec<u8>, String) {
        let tag = format!("i{}{first:02x}", hex::encode(cf));
        (format!("{}:{{{tag}}}", self.namespace).into_bytes(), tag)
    }

    /// The directory of index buckets that have ever held a row (5-byte ids: CF id and
    /// first byte), so a scan visits only those: its Redis key and tag.
    pub(super) fn directory(&self) -> (Vec<u8>, String) {
        let tag = format!("{}:dir", self.namespace);
        (format!("{{{tag}}}").into_bytes(), tag)
    }

    /// The registry of live front ends (see `ring`): its Redis key and tag.
    pub(super) fn front_ends(&self) -> (Vec<u8>, String) {
        let tag = format!("{}:ring", self.namespace);
        (format!("{{{tag}}}fe").into_bytes(), tag)
    }
}

/// The cluster slot of a hash tag (CRC-16/XMODEM modulo 16384).
pub(super) fn slot(tag: &str) -> u16 {
    const CRC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    CRC.checksum(tag.as_bytes()) % 16384
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_match_redis() {
        // Values from `redis-cli CLUSTER KEYSLOT`.
        assert_eq!(slot("foo"), 12182);
        assert_eq!(slot("user1000"), 3443);
        assert_eq!(slot(""), 0);
    }

    #[test]
    fn a_row_keeps_every_column_family_under_one_tag() {
        let layout = Layout::new("ns", Partitioner::OrderPreserving);
        let a = layout.place(&[0, 0, 0, 3, b'a', 0, 0, 1, b'x']);
        let b = layout.place(&[0, 0, 0, 9, b'a', 0, 0]);
        assert_eq!(a, b);
        assert_eq!(a, Place::Row(vec![b'a', 0, 0]));
        let keys = layout.keys(&a);
        assert!(keys
            .zset
            .starts_with(format!("ns:{{{}}}z", keys.tag).as_bytes()));
        assert_eq!(layout.place(&[0, 0, 0, 0, b'f']), Place::Flat);
        assert_eq!(layout.place(&[0, 0, 0, 3]), Place::Flat);
    }
}
