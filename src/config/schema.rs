//! The keyspace and column-family definitions: what exists, what kind it is, how its names
//! sort, and the attributes only the later API can set (validators, column metadata, TTL
//! default, replication options — `docs/api-later.md#schema`). storage-conf.xml gives the
//! first schema; afterwards the one kept in the store (`storage::catalog`) is authoritative
//! and may change at run time, so readers hold `Arc<Schema>` snapshots.

use crate::comparator::Comparator;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Name of the keyspace 0.6 always has; reserved in the configuration.
pub const SYSTEM_KEYSPACE: &str = "system";

/// Standard or Super.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColumnType {
    /// Rows of columns.
    Standard,
    /// Rows of super columns, each holding subcolumns.
    Super,
}

impl ColumnType {
    /// The name used in storage-conf.xml and describe_keyspace.
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnType::Standard => "Standard",
            ColumnType::Super => "Super",
        }
    }
}

/// One `<ColumnFamily>`, or a column family created through the later API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CfDef {
    /// The `Name` attribute.
    pub name: String,
    /// The `ColumnType` attribute.
    pub column_type: ColumnType,
    /// `CompareWith`: the order of top-level names (columns, or super columns).
    pub comparator: Comparator,
    /// `CompareSubcolumnsWith`: the order of subcolumns; `Some` exactly for Super CFs.
    pub subcomparator: Option<Comparator>,
    /// The `<Comment>` child element, shown as `Desc` by describe_keyspace.
    pub comment: Option<String>,
    /// What only the later API sets; 2.2's defaults for a column family of the XML file.
    #[serde(default)]
    pub later: CfOptions,
}

/// The `CfDef` attributes of the later API that storage-conf.xml cannot express. Type
/// strings are kept in their reported form (full class names, `crate::types::DataType`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CfOptions {
    /// Validates values without column metadata; `CounterColumnType` makes a counter CF.
    pub default_validation_class: String,
    /// Validates row keys.
    pub key_validation_class: String,
    /// Per-column validators and indexes, sorted by the names' comparator order.
    pub column_metadata: Vec<ColumnMeta>,
    /// `None`: the node's `<GCGraceSeconds>`.
    pub gc_grace_seconds: Option<u32>,
    /// The TTL of a column written without one; 0 = none.
    pub default_time_to_live: u32,
    /// Stored and reported only (no effect on a single node).
    pub read_repair_chance: f64,
    /// Stored and reported only.
    pub dclocal_read_repair_chance: f64,
    /// Stored and reported only.
    pub min_compaction_threshold: i32,
    /// Stored and reported only.
    pub max_compaction_threshold: i32,
    /// The CQL name of the key; reported only.
    pub key_alias: Vec<u8>,
    /// Full class name; stored and reported only.
    pub compaction_strategy: String,
    /// Stored and reported as sent.
    pub compaction_strategy_options: BTreeMap<String, String>,
    /// Stored and reported as sent.
    pub compression_options: BTreeMap<String, String>,
    /// Stored and reported only.
    pub bloom_filter_fp_chance: f64,
    /// `ALL`, `KEYS_ONLY`, `ROWS_ONLY` or `NONE`; reported only.
    pub caching: String,
    /// Reported only.
    pub cells_per_row_to_cache: String,
    /// Reported only.
    pub memtable_flush_period_in_ms: i32,
    /// Reported only.
    pub speculative_retry: String,
    /// Reported only.
    pub min_index_interval: i32,
    /// Reported only.
    pub max_index_interval: i32,
}

/// Full class name of the default validator.
pub const BYTES_TYPE: &str = "org.apache.cassandra.db.marshal.BytesType";

/// Full class name of the validator that makes a counter CF.
pub const COUNTER_TYPE: &str = "org.apache.cassandra.db.marshal.CounterColumnType";

impl Default for CfOptions {
    /// What a CfDef sent with only its names reads back with in 2.2 (spec §5.3).
    fn default() -> CfOptions {
        CfOptions {
            default_validation_class: BYTES_TYPE.to_string(),
            key_validation_class: BYTES_TYPE.to_string(),
            column_metadata: Vec::new(),
            gc_grace_seconds: None,
            default_time_to_live: 0,
            read_repair_chance: 0.0,
            dclocal_read_repair_chance: 0.0,
            min_compaction_threshold: 4,
            max_compaction_threshold: 32,
            key_alias: b"key".to_vec(),
            compaction_strategy: "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"
                .to_string(),
            compaction_strategy_options: BTreeMap::new(),
            compression_options: BTreeMap::from([(
                "sstable_compression".to_string(),
                "org.apache.cassandra.io.compress.LZ4Compressor".to_string(),
            )]),
            bloom_filter_fp_chance: 0.01,
            caching: "KEYS_ONLY".to_string(),
            cells_per_row_to_cache: "0".to_string(),
            memtable_flush_period_in_ms: 0,
            speculative_retry: "NONE".to_string(),
            min_index_interval: 128,
            max_index_interval: 2048,
        }
    }
}

/// One `ColumnDef`: a column's value validator and optional KEYS index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnMeta {
    /// The column name (a subcolumn name in a Super CF).
    pub name: Vec<u8>,
    /// Full type string of the values' validator.
    pub validation_class: String,
    /// `Some(0)` (KEYS) when indexed; the only index type ilion keeps.
    pub index_type: Option<i32>,
    /// The index name, set exactly when indexed.
    pub index_name: Option<String>,
    /// As sent.
    pub index_options: Option<BTreeMap<String, String>>,
}

impl CfDef {
    /// True for a Super CF.
    pub fn is_super(&self) -> bool {
        self.column_type == ColumnType::Super
    }

    /// True for a counter CF: its default validator is CounterColumnType
    /// (`docs/api-later.md#counters`); it holds only counters, and the 0.6 API does not see
    /// it.
    pub fn is_counter(&self) -> bool {
        self.later.default_validation_class == COUNTER_TYPE
    }

    /// The comparator for names at a level: subcolumns when `in_super` is true.
    pub fn comparator_for(&self, in_super: bool) -> Comparator {
        match (in_super, self.subcomparator) {
            (true, Some(sub)) => sub,
            _ => self.comparator,
        }
    }
}

/// One `<Keyspace>`, or a keyspace created through the later API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyspaceDef {
    /// The `Name` attribute.
    pub name: String,
    /// `ReplicationFactor`: decides whether QUORUM/ALL reads can succeed on one node.
    pub replication_factor: u32,
    /// `ReplicaPlacementStrategy` class name (the later API's full `strategy_class` for a
    /// keyspace it created).
    pub replica_placement_strategy: String,
    /// `EndPointSnitch` class name.
    pub endpoint_snitch: String,
    /// The keyspace's column families by name.
    pub column_families: BTreeMap<String, CfDef>,
    /// The later API's `strategy_options` as sent; empty for an XML keyspace, which reports
    /// `replication_factor` = `ReplicationFactor`.
    #[serde(default)]
    pub strategy_options: BTreeMap<String, String>,
    /// Stored and reported; every write is durable regardless (spec G23).
    #[serde(default = "yes")]
    pub durable_writes: bool,
}

fn yes() -> bool {
    true
}

/// Every keyspace, including the built-in `system` keyspace.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Schema {
    /// Every keyspace by name.
    pub keyspaces: BTreeMap<String, KeyspaceDef>,
}

impl Schema {
    /// The keyspace named `name`, if configured.
    pub fn keyspace(&self, name: &str) -> Option<&KeyspaceDef> {
        self.keyspaces.get(name)
    }

    /// The column family `cf` of keyspace `ks`, if both exist.
    pub fn cf(&self, ks: &str, cf: &str) -> Option<&CfDef> {
        self.keyspaces.get(ks)?.column_families.get(cf)
    }

    /// The column family `cf` of keyspace `ks`, or the error 0.6 gives for an unknown one.
    pub fn column_family(&self, ks: &str, cf: &str) -> Result<&CfDef> {
        self.keyspace(ks)
            .ok_or_else(|| Error::invalid(format!("Keyspace {ks} does not exist in this schema.")))?
            .column_families
            .get(cf)
            .ok_or_else(|| Error::invalid(format!("unconfigured columnfamily {cf}")))
    }

    /// The `system` keyspace as 0.6 describes it: LocationInfo and HintsColumnFamily.
    pub fn system_keyspace() -> KeyspaceDef {
        let cf = |name: &str, column_type, subcomparator, comment: &str| CfDef {
            name: name.to_string(),
            column_type,
            comparator: Comparator::Bytes,
            subcomparator,
            comment: Some(comment.to_string()),
            later: CfOptions::default(),
        };
        let cfs = [
            cf(
                "LocationInfo",
                ColumnType::Standard,
                None,
                "persistent metadata for the local node",
            ),
            cf(
                "HintsColumnFamily",
                ColumnType::Super,
                Some(Comparator::Bytes),
                "hinted handoff data",
            ),
        ];
        KeyspaceDef {
            name: SYSTEM_KEYSPACE.to_string(),
            replication_factor: 1,
            replica_placement_strategy: "org.apache.cassandra.locator.LocalStrategy".to_string(),
            endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".to_string(),
            column_families: cfs.into_iter().map(|c| (c.name.clone(), c)).collect(),
            strategy_options: BTreeMap::new(),
            durable_writes: true,
        }
    }
}
