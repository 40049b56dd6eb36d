//! The catalog: ilion's own metadata inside the store (keys under `META_PREFIX`). It marks
//! the store as ilion's, records the partitioner and this node's token, gives every column
//! family a stable id together with the kind and comparators its data was written with, and
//! keeps the schema itself (`docs/storage.md#the-catalog`): storage-conf.xml seeds it once,
//! afterwards the stored schema is authoritative and the later API's `system_*` calls change
//! it. Every change is one atomic batch, so a crash leaves the old or the new schema.

use super::keys::{meta_key, CfLayout};
use super::{Batch, Store};
use crate::comparator::Comparator;
use crate::config::{CfDef, KeyspaceDef, Schema, SYSTEM_KEYSPACE};
use crate::error::{Error, Result};
use crate::partitioner::{Partitioner, Token};
use crate::types::DataType;
use foldhash::fast::RandomState;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;

/// Identifies the on-disk layout of this version.
const FORMAT: &[u8] = b"ilion-storage-2";

/// Version of the stored schema's JSON shape.
const SCHEMA_FORMAT: u32 = 1;

/// The schema as kept under the meta key `schema` (JSON; the `system` keyspace is built in
/// and never stored).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct StoredSchema {
    format: u32,
    /// The user keyspaces.
    keyspaces: BTreeMap<String, KeyspaceDef>,
    /// Keyspaces of storage-conf.xml already taken into the schema: not added again, so
    /// that one dropped through the API stays dropped.
    seeded_keyspaces: BTreeSet<String>,
    /// Column families (keyspace, name) of storage-conf.xml already taken into the schema.
    seeded_cfs: BTreeSet<(String, String)>,
    /// Ids of dropped column families whose data may still be stored (a crash after the
    /// drop was recorded); removed at the next open.
    dropped_ids: Vec<u32>,
}

/// The schema, the column-family layouts by (keyspace, name), and the node's token: one
/// consistent snapshot; a schema change makes a new one.
#[derive(Debug, Clone)]
pub struct Catalog {
    layouts: Layouts,
    token: Token,
    partitioner: Partitioner,
    schema: std::sync::Arc<Schema>,
    stored: StoredSchema,
}

/// Layouts by keyspace, then CF name. Every request looks its CF up here; foldhash makes
/// that two short hashes rather than two SipHash runs.
type Layouts = HashMap<String, HashMap<String, CfLayout, RandomState>, RandomState>;

fn cf_meta_key(keyspace: &str, name: &str) -> Vec<u8> {
    meta_key(format!("cf\0{keyspace}\0{name}").as_bytes())
}

fn schema_key() -> Vec<u8> {
    meta_key(b"schema")
}

/// How a CF is recorded: `Standard CompareWith` or `Super CompareWith/CompareSubcolumnsWith`
/// (a later type by its short type string, which holds neither blanks nor `/`).
fn describe(comparator: Comparator, subcomparator: Option<Comparator>) -> String {
    match subcomparator {
        None => format!("Standard {}", comparator.short_string()),
        Some(sub) => format!("Super {}/{}", comparator.short_string(), sub.short_string()),
    }
}

/// Whether names written under `old` are stored exactly as `new` would store them, so the
/// comparator may change: the Bytes, Ascii and UTF-8 comparators share one encoding, and a
/// CompositeType may gain components after its own (a component's encoding does not depend
/// on the ones after it). Other later types stay as they are: DateType and TimestampType,
/// say, order alike only for positive dates, and a DynamicCompositeType's aliases decide the
/// bytes a name decodes to.
pub fn same_encoding(old: Comparator, new: Comparator) -> bool {
    let raw = |c| matches!(c, Comparator::Bytes | Comparator::Ascii | Comparator::Utf8);
    let extended = match (old, new) {
        (
            Comparator::Later(DataType::Composite(was)),
            Comparator::Later(DataType::Composite(now)),
        ) => now.starts_with(was),
        _ => false,
    };
    old == new || (raw(old) && raw(new)) || extended
}

fn parse_id(bytes: &[u8]) -> Result<u32> {
    Ok(u32::from_be_bytes(bytes.try_into().map_err(|_| {
        Error::Corrupt("bad column family id in the catalog".into())
    })?))
}

/// The recorded id and description of a CF, if any.
fn recorded(store: &Store, ks: &str, cf: &str) -> Result<Option<(u32, String)>> {
    match store.get(&cf_meta_key(ks, cf))? {
        None => Ok(None),
        Some(value) if value.len() >= 4 => {
            let (id, text) = value.split_at(4);
            Ok(Some((
                parse_id(id)?,
                String::from_utf8_lossy(text).into_owned(),
            )))
        }
        Some(_) => Err(Error::Corrupt(format!("bad catalog entry for {ks}.{cf}"))),
    }
}

/// Allocates column-family ids from `next`.
struct Ids {
    next: u32,
}

impl Ids {
    fn take(&mut self) -> Result<u32> {
        let id = self.next;
        self.next = self
            .next
            .checked_add(1)
            .filter(|n| *n < u32::MAX)
            .ok_or_else(|| Error::Storage("out of column family ids".into()))?;
        Ok(id)
    }
}

impl Catalog {
    /// Checks that `store` is ilion's and was written with `partitioner`, loads the stored
    /// schema (seeding it from `conf` on a fresh store or one written before schemas were
    /// stored) and adds the keyspaces and column families of `conf` it has never seen, gives
    /// every column family an id, and settles the node token (`initial_token`, else the
    /// recorded one, else a fresh one from `entropy`). A conf column family whose kind or
    /// comparators contradict the stored one is refused.
    pub fn load(
        store: &Store,
        partitioner: Partitioner,
        conf: &Schema,
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
        let mut stored = match store.get(&schema_key())? {
            Some(bytes) => {
                let stored: StoredSchema = serde_json::from_slice(&bytes).map_err(|e| {
                    Error::Corrupt(format!("the stored schema cannot be read: {e}"))
                })?;
                if stored.format != SCHEMA_FORMAT {
                    return Err(Error::Corrupt(format!(
                        "the stored schema has format {}; this ilion reads {SCHEMA_FORMAT}",
                        stored.format
                    )));
                }
                stored
            }
            // A fresh store, or one from before schemas were stored: the configuration
            // seeds it (the recorded ids and comparators of the latter are checked below).
            None => StoredSchema {
                format: SCHEMA_FORMAT,
                ..StoredSchema::default()
            },
        };
        seed(&mut stored, conf)?;
        let token = match (initial_token, store.get(&meta_key(b"token"))?) {
            (Some(token), _) => token,
            (None, Some(stored)) => partitioner.parse_token(&String::from_utf8_lossy(&stored))?,
            (None, None) => partitioner.random_token(entropy),
        };
        batch.put(meta_key(b"token"), token.to_string().into_bytes());
        let catalog = Catalog {
            layouts: Layouts::default(),
            token,
            partitioner,
            schema: Default::default(),
            stored,
        };
        catalog.commit(store, batch, &[], |ks, cf, recorded, wanted| {
            Err(Error::config(
                format!("Keyspace[@Name={ks}]/ColumnFamily[@Name={cf}]"),
                format!(
                    "its data was written as {recorded} but the configuration now says \
                     {wanted}; the kind and comparators of an existing column family cannot \
                     change"
                ),
            ))
        })
    }

    /// Replaces the user keyspaces by those of `schema` (the `system` keyspace is built in),
    /// durably and atomically. Column families in `dropped` lose their id (a later one of
    /// the same name gets a fresh, empty one) and their data is left for
    /// [`Catalog::dropped_ids`] to remove; new column families get fresh ids.
    pub fn change(
        &self,
        store: &Store,
        schema: &Schema,
        dropped: &[(String, String)],
    ) -> Result<Catalog> {
        let mut next = self.clone();
        next.stored.keyspaces = schema
            .keyspaces
            .iter()
            .filter(|(name, _)| name.as_str() != SYSTEM_KEYSPACE)
            .map(|(name, ks)| (name.clone(), ks.clone()))
            .collect();
        let mut batch = Batch::default();
        for (ks, cf) in dropped {
            if let Some(layout) = self.layout(ks, cf) {
                next.stored.dropped_ids.push(layout.id);
                batch.delete(cf_meta_key(ks, cf));
            }
        }
        next.commit(store, batch, dropped, |ks, cf, was, now| {
            Err(Error::Storage(format!(
                "{ks}.{cf} was written as {was}; it cannot become {now}"
            )))
        })
    }

    /// Records that the data of every dropped column family is gone.
    pub fn forget_dropped(&self, store: &Store) -> Result<Catalog> {
        let mut next = self.clone();
        next.stored.dropped_ids.clear();
        next.commit(store, Batch::default(), &[], |_, _, _, _| Ok(()))
    }

    /// Ids of dropped column families whose data may still be stored.
    pub fn dropped_ids(&self) -> &[u32] {
        &self.stored.dropped_ids
    }

    /// Writes the stored schema with `batch`, giving ids to column families without one and
    /// checking (`mismatch`) or updating the recorded comparators of the others; builds the
    /// resulting snapshot.
    fn commit(
        mut self,
        store: &Store,
        mut batch: Batch,
        dropped: &[(String, String)],
        mismatch: impl Fn(&str, &str, &str, &str) -> Result<()>,
    ) -> Result<Catalog> {
        let mut ids = Ids {
            next: match store.get(&meta_key(b"next_cf_id"))? {
                Some(bytes) => parse_id(&bytes)?,
                None => 1,
            },
        };
        let mut schema = Schema {
            keyspaces: self.stored.keyspaces.clone(),
        };
        schema
            .keyspaces
            .insert(SYSTEM_KEYSPACE.to_string(), Schema::system_keyspace());
        let mut layouts = Layouts::default();
        for ks in schema.keyspaces.values() {
            for cf in ks.column_families.values() {
                let wanted = describe(cf.comparator, cf.subcomparator);
                let gone = dropped.iter().any(|(k, c)| *k == ks.name && *c == cf.name);
                let id = match recorded(store, &ks.name, &cf.name)? {
                    Some((id, text)) if !gone => {
                        if text != wanted {
                            if !compatible(&text, cf) {
                                mismatch(&ks.name, &cf.name, &text, &wanted)?;
                            }
                            // Same encoding: only the record follows the new comparator.
                            batch.put(cf_meta_key(&ks.name, &cf.name), entry(id, &wanted));
                        }
                        id
                    }
                    _ => {
                        let id = ids.take()?;
                        batch.put(cf_meta_key(&ks.name, &cf.name), entry(id, &wanted));
                        id
                    }
                };
                let layout = CfLayout {
                    id,
                    partitioner: self.partitioner,
                    comparator: cf.comparator,
                    subcomparator: cf.subcomparator,
                };
                layouts
                    .entry(ks.name.clone())
                    .or_default()
                    .insert(cf.name.clone(), layout);
            }
        }
        batch.put(meta_key(b"next_cf_id"), ids.next.to_be_bytes().to_vec());
        let json = serde_json::to_vec(&self.stored)
            .map_err(|e| Error::Storage(format!("the schema cannot be written: {e}")))?;
        batch.put(schema_key(), json);
        store.write_batch(batch)?;
        store.sync()?;
        self.layouts = layouts;
        self.schema = std::sync::Arc::new(schema);
        Ok(self)
    }

    /// The schema of this snapshot, `system` included.
    pub fn schema(&self) -> &std::sync::Arc<Schema> {
        &self.schema
    }

    /// The layout of column family `cf` in keyspace `ks`.
    pub fn layout(&self, ks: &str, cf: &str) -> Option<&CfLayout> {
        self.layouts.get(ks)?.get(cf)
    }

    /// A layout for removing the data of a dropped column family's id (removal needs the id
    /// only).
    pub fn dropped_layout(&self, id: u32) -> CfLayout {
        CfLayout {
            id,
            partitioner: self.partitioner,
            comparator: Comparator::Bytes,
            subcomparator: None,
        }
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

fn entry(id: u32, description: &str) -> Vec<u8> {
    let mut value = id.to_be_bytes().to_vec();
    value.extend_from_slice(description.as_bytes());
    value
}

/// Whether a CF recorded as `recorded` may be read as `cf` says: same kind, and names
/// stored the same way at each level.
fn compatible(recorded: &str, cf: &CfDef) -> bool {
    let mut parts = recorded.splitn(2, ' ');
    let (kind, names) = (parts.next(), parts.next().unwrap_or(""));
    let mut names = names.splitn(2, '/');
    let level = |name: Option<&str>, now: Option<Comparator>| match (name, now) {
        (Some(n), Some(c)) => {
            Comparator::from_type_string(n).is_ok_and(|old| same_encoding(old, c))
        }
        (None, None) => true,
        _ => false,
    };
    kind == Some(cf.column_type.as_str())
        && level(names.next(), Some(cf.comparator))
        && level(names.next(), cf.subcomparator)
}

/// Takes into `stored` the keyspaces and column families of storage-conf.xml it has never
/// seen; a conf keyspace or column family seen before but no longer stored was dropped
/// through the API and stays dropped. For the others the stored schema wins, except that a
/// conf column family whose kind or comparators differ from the stored one is refused (the
/// data was written with the stored ones).
fn seed(stored: &mut StoredSchema, conf: &Schema) -> Result<()> {
    for ks in conf
        .keyspaces
        .values()
        .filter(|k| k.name != SYSTEM_KEYSPACE)
    {
        let new_keyspace = stored.seeded_keyspaces.insert(ks.name.clone());
        let Some(existing) = stored.keyspaces.get_mut(&ks.name) else {
            if new_keyspace {
                stored.keyspaces.insert(ks.name.clone(), ks.clone());
                for cf in ks.column_families.keys() {
                    stored.seeded_cfs.insert((ks.name.clone(), cf.clone()));
                }
            } else {
                tracing::warn!(
                    "keyspace {} of storage-conf.xml was dropped through the API; it is not \
                     re-created",
                    ks.name
                );
            }
            continue;
        };
        for cf in ks.column_families.values() {
            let new_cf = stored.seeded_cfs.insert((ks.name.clone(), cf.name.clone()));
            match existing.column_families.get(&cf.name) {
                None if new_cf => {
                    existing.column_families.insert(cf.name.clone(), cf.clone());
                }
                None => {}
                Some(s) => {
                    let (was, now) = (
                        describe(s.comparator, s.subcomparator),
                        describe(cf.comparator, cf.subcomparator),
                    );
                    if was != now || s.column_type != cf.column_type {
                        return Err(Error::config(
                            format!(
                                "Keyspace[@Name={}]/ColumnFamily[@Name={}]",
                                ks.name, cf.name
                            ),
                            format!(
                                "its data was written as {was} but the configuration now says \
                                 {now}; the kind and comparators of an existing column family \
                                 cannot change (the stored schema is authoritative: make \
                                 storage-conf.xml agree or leave the column family out of it)"
                            ),
                        ));
                    }
                    if s.comment != cf.comment {
                        tracing::warn!(
                            "{}.{} differs in storage-conf.xml; the stored schema's definition \
                             is kept",
                            ks.name,
                            cf.name
                        );
                    }
                }
            }
        }
    }
    Ok(())
}
