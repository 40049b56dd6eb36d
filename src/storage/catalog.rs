//! The catalog: ilion's own metadata inside the store (keys under `META_PREFIX`). It marks
//! the store as ilion's, records the partitioner and this node's token, and gives every
//! column family a stable id together with the kind and comparators its data was written
//! with — so a restart under a changed partitioner or comparator is refused instead of
//! silently misreading the bytes.

use super::keys::{meta_key, CfLayout};
use super::{Batch, Store};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use crate::partitioner::{Partitioner, Token};
use std::collections::HashMap;
use std::ops::Bound;

/// Identifies the on-disk layout of this version.
const FORMAT: &[u8] = b"ilion-storage-2";

/// What the catalog needs to know about one configured column family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CfDescriptor {
    /// The keyspace's name.
    pub keyspace: String,
    /// The column family's name.
    pub name: String,
    /// `CompareWith`: decides how top-level names are encoded.
    pub comparator: Comparator,
    /// `Some` exactly for Super CFs.
    pub subcomparator: Option<Comparator>,
}

/// Column-family layouts by (keyspace, name), and the node's token.
#[derive(Debug, Clone)]
pub struct Catalog {
    layouts: HashMap<String, HashMap<String, CfLayout>>,
    token: Token,
}

fn cf_meta_key(keyspace: &str, name: &str) -> Vec<u8> {
    meta_key(format!("cf\0{keyspace}\0{name}").as_bytes())
}

/// How a CF is recorded: `Standard CompareWith` or `Super CompareWith/CompareSubcolumnsWith`.
fn describe(cf: &CfDescriptor) -> String {
    match cf.subcomparator {
        None => format!("Standard {}", cf.comparator.short_name()),
        Some(sub) => format!("Super {}/{}", cf.comparator.short_name(), sub.short_name()),
    }
}

impl Catalog {
    /// Checks that `store` is ilion's and was written with `partitioner`, records any new
    /// column families, and settles the node token (`initial_token`, else the recorded one,
    /// else a fresh one from `entropy`).
    pub fn load(
        store: &Store,
        partitioner: Partitioner,
        cfs: &[CfDescriptor],
        initial_token: Option<Token>,
        entropy: u128,
    ) -> Result<Catalog> {
        let mut batch = Batch::default();
        match store.get(&meta_key(b"format"))? {
            Some(format) if format == FORMAT => {}
            Some(other) => {
                return Err(Error::Corrupt(format!(
                    "the store has format {:?}; this ilion reads {:?}",
                    String::from_utf8_lossy(&other),
                    String::from_utf8_lossy(FORMAT)
                )))
            }
            None if store.first(Bound::Unbounded, Bound::Unbounded)?.is_some() => {
                return Err(Error::Corrupt(
                    "the directory holds a sled database that ilion did not write".into(),
                ))
            }
            None => batch.put(meta_key(b"format"), FORMAT.to_vec()),
        }
        let class = partitioner.class_name();
        match store.get(&meta_key(b"partitioner"))? {
            Some(stored) if stored == class.as_bytes() => {}
            Some(stored) => {
                return Err(Error::config(
                    "Partitioner",
                    format!(
                        "the data directory was written with {}; changing the partitioner \
                         requires wiping the data directory",
                        String::from_utf8_lossy(&stored)
                    ),
                ))
            }
            None => batch.put(meta_key(b"partitioner"), class.into_bytes()),
        }

        let mut next_id = match store.get(&meta_key(b"next_cf_id"))? {
            Some(bytes) => u32::from_be_bytes(
                bytes
                    .as_slice()
                    .try_into()
                    .map_err(|_| Error::Corrupt("bad next_cf_id".into()))?,
            ),
            None => 1,
        };
        let mut layouts: HashMap<String, HashMap<String, CfLayout>> = HashMap::new();
        for cf in cfs {
            let key = cf_meta_key(&cf.keyspace, &cf.name);
            let wanted = describe(cf);
            let id = match store.get(&key)? {
                Some(value) if value.len() >= 4 => {
                    let (id, recorded) = value.split_at(4);
                    if recorded != wanted.as_bytes() {
                        return Err(Error::config(
                            format!("Keyspace[@Name={}]/ColumnFamily[@Name={}]", cf.keyspace, cf.name),
                            format!(
                                "its data was written as {} but the configuration now says {wanted}; \
                                 the kind and comparators of an existing column family cannot change",
                                String::from_utf8_lossy(recorded)
                            ),
                        ));
                    }
                    u32::from_be_bytes(
                        id.try_into()
                            .map_err(|_| Error::Corrupt("bad cf id".into()))?,
                    )
                }
                Some(_) => {
                    return Err(Error::Corrupt(format!("bad catalog entry for {}", cf.name)))
                }
                None => {
                    let id = next_id;
                    next_id = next_id
                        .checked_add(1)
                        .filter(|n| *n < u32::MAX)
                        .ok_or_else(|| Error::Storage("out of column family ids".into()))?;
                    let mut value = id.to_be_bytes().to_vec();
                    value.extend_from_slice(wanted.as_bytes());
                    batch.put(key, value);
                    id
                }
            };
            let layout = CfLayout {
                id,
                partitioner,
                comparator: cf.comparator,
                subcomparator: cf.subcomparator,
            };
            layouts
                .entry(cf.keyspace.clone())
                .or_default()
                .insert(cf.name.clone(), layout);
        }
        batch.put(meta_key(b"next_cf_id"), next_id.to_be_bytes().to_vec());

        let token = match (initial_token, store.get(&meta_key(b"token"))?) {
            (Some(token), _) => token,
            (None, Some(stored)) => partitioner.parse_token(&String::from_utf8_lossy(&stored))?,
            (None, None) => partitioner.random_token(entropy),
        };
        batch.put(meta_key(b"token"), token.to_string().into_bytes());

        store.write_batch(batch)?;
        store.sync()?;
        Ok(Catalog { layouts, token })
    }

    /// The layout of column family `cf` in keyspace `ks`.
    pub fn layout(&self, ks: &str, cf: &str) -> Option<&CfLayout> {
        self.layouts.get(ks)?.get(cf)
    }

    /// Every known layout, with its keyspace and column family names.
    pub fn layouts(&self) -> impl Iterator<Item = (&str, &str, &CfLayout)> {
        self.layouts
            .iter()
            .flat_map(|(ks, cfs)| cfs.iter().map(move |(cf, l)| (ks.as_str(), cf.as_str(), l)))
    }

    /// This node's token.
    pub fn token(&self) -> &Token {
        &self.token
    }
}
