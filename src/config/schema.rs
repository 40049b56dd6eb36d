//! The keyspace and column-family definitions read from storage-conf.xml: what exists, what
//! kind it is and how its names sort. Built once by `config`, shared as `Arc<Schema>`.

use crate::comparator::Comparator;
use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Name of the keyspace 0.6 always has; reserved in the configuration.
pub const SYSTEM_KEYSPACE: &str = "system";

/// Standard or Super.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// One `<ColumnFamily>`.
#[derive(Debug, Clone, PartialEq)]
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
}

impl CfDef {
    /// True for a Super CF.
    pub fn is_super(&self) -> bool {
        self.column_type == ColumnType::Super
    }

    /// The comparator for names at a level: subcolumns when `in_super` is true.
    pub fn comparator_for(&self, in_super: bool) -> Comparator {
        match (in_super, self.subcomparator) {
            (true, Some(sub)) => sub,
            _ => self.comparator,
        }
    }
}

/// One `<Keyspace>`.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyspaceDef {
    /// The `Name` attribute.
    pub name: String,
    /// `ReplicationFactor`: decides whether QUORUM/ALL reads can succeed on one node.
    pub replication_factor: u32,
    /// `ReplicaPlacementStrategy` class name.
    pub replica_placement_strategy: String,
    /// `EndPointSnitch` class name.
    pub endpoint_snitch: String,
    /// The keyspace's column families by name.
    pub column_families: BTreeMap<String, CfDef>,
}

/// Every keyspace, including the built-in `system` keyspace.
#[derive(Debug, Clone, PartialEq, Default)]
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
        }
    }
}
