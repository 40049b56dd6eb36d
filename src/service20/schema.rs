//! The stored schema as the later API describes it (`docs/api-later.md#schema`): 0.6
//! placement strategies become their 0.7 names, comparators and validators their full type
//! strings, and every CfDef field comes from the stored definition — for a column family of
//! storage-conf.xml the value a CfDef created with only its names reads back with in
//! Cassandra 2.2. The schema version is a name-based (MD5) UUID of a canonical
//! text of the user keyspaces, so equal schemas have equal versions.

use crate::config::{CfDef as ConfCf, ColumnType, KeyspaceDef, Schema, SYSTEM_KEYSPACE};
use crate::protocol::v20::generated::{CfDef, ColumnDef, IndexType, KsDef};
use md5::{Digest, Md5};
use std::collections::BTreeMap;
use thrift::OrderedFloat;

const LOCATOR: &str = "org.apache.cassandra.locator.";
#[cfg(test)]
const BYTES_TYPE: &str = crate::config::BYTES_TYPE;

/// The strategy of the `system` keyspace (spec G8).
pub(super) const LOCAL_STRATEGY: &str = "org.apache.cassandra.locator.LocalStrategy";

/// The KsDef of a configured keyspace; `system` is LocalStrategy with no options and no
/// column families (spec G8).
pub(super) fn ks_def(ks: &KeyspaceDef, gc_grace_seconds: u32) -> KsDef {
    if ks.name == SYSTEM_KEYSPACE {
        return KsDef::new(
            ks.name.clone(),
            LOCAL_STRATEGY.to_string(),
            BTreeMap::new(),
            None,
            Vec::new(),
            true,
        );
    }
    // A definition built in code (tests) may have no options: the 0.6 factor stands in.
    let options = match ks.strategy_options.is_empty() {
        false => ks.strategy_options.clone(),
        true => BTreeMap::from([(
            "replication_factor".to_string(),
            ks.replication_factor.to_string(),
        )]),
    };
    let cf_defs = ks
        .column_families
        .values()
        .map(|cf| cf_def(&ks.name, cf, gc_grace_seconds))
        .collect();
    // replication_factor is set too whenever the options hold a numeric one, for 0.7
    // (19.4.0) clients whose bindings require it (spec G9).
    let rf = options
        .get("replication_factor")
        .and_then(|v| v.trim().parse::<i32>().ok());
    KsDef::new(
        ks.name.clone(),
        strategy_class(&ks.replica_placement_strategy),
        options,
        rf,
        cf_defs,
        ks.durable_writes,
    )
}

/// The 0.7 name of a 0.6 placement strategy: RackAwareStrategy became
/// OldNetworkTopologyStrategy; RackUnawareStrategy (and anything else 0.6 accepted) became
/// SimpleStrategy.
pub(super) fn strategy_class(placement: &str) -> String {
    let short = placement.rsplit('.').next().unwrap_or(placement);
    let name = match short {
        "RackAwareStrategy" | "OldNetworkTopologyStrategy" => "OldNetworkTopologyStrategy",
        "NetworkTopologyStrategy" => "NetworkTopologyStrategy",
        _ => "SimpleStrategy",
    };
    format!("{LOCATOR}{name}")
}

/// The CfDef of a stored column family; `gc_grace_seconds` is the node's, for one that has
/// none of its own.
pub(super) fn cf_def(keyspace: &str, cf: &ConfCf, gc_grace_seconds: u32) -> CfDef {
    let subcomparator = match cf.column_type {
        ColumnType::Super => cf.subcomparator.map(|c| c.class_name()),
        ColumnType::Standard => None,
    };
    let later = &cf.later;
    let grace = later.gc_grace_seconds.unwrap_or(gc_grace_seconds);
    let float = |f: f64| Some(OrderedFloat(f));
    let columns = later
        .column_metadata
        .iter()
        .map(|c| {
            ColumnDef::new(
                c.name.clone(),
                c.validation_class.clone(),
                c.index_type.map(IndexType),
                c.index_name.clone(),
                c.index_options.clone(),
            )
        })
        .collect();
    CfDef {
        keyspace: keyspace.to_string(),
        name: cf.name.clone(),
        column_type: Some(cf.column_type.as_str().to_string()),
        comparator_type: Some(cf.comparator.class_name()),
        subcomparator_type: subcomparator,
        comment: Some(cf.comment.clone().unwrap_or_default()),
        row_cache_size: None,
        key_cache_size: None,
        read_repair_chance: float(later.read_repair_chance),
        column_metadata: Some(columns),
        gc_grace_seconds: Some(i32::try_from(grace).unwrap_or(i32::MAX)),
        default_validation_class: Some(later.default_validation_class.clone()),
        id: None,
        min_compaction_threshold: Some(later.min_compaction_threshold),
        max_compaction_threshold: Some(later.max_compaction_threshold),
        row_cache_save_period_in_seconds: None,
        key_cache_save_period_in_seconds: None,
        memtable_flush_after_mins: None,
        memtable_throughput_in_mb: None,
        memtable_operations_in_millions: None,
        replicate_on_write: None,
        merge_shards_chance: None,
        key_validation_class: Some(later.key_validation_class.clone()),
        row_cache_provider: None,
        key_alias: Some(later.key_alias.clone()),
        compaction_strategy: Some(later.compaction_strategy.clone()),
        compaction_strategy_options: Some(later.compaction_strategy_options.clone()),
        row_cache_keys_to_save: None,
        compression_options: Some(later.compression_options.clone()),
        bloom_filter_fp_chance: float(later.bloom_filter_fp_chance),
        caching: Some(later.caching.clone()),
        dclocal_read_repair_chance: float(later.dclocal_read_repair_chance),
        populate_io_cache_on_flush: None,
        memtable_flush_period_in_ms: Some(later.memtable_flush_period_in_ms),
        default_time_to_live: Some(i32::try_from(later.default_time_to_live).unwrap_or(i32::MAX)),
        index_interval: None,
        speculative_retry: Some(later.speculative_retry.clone()),
        triggers: Some(Vec::new()),
        cells_per_row_to_cache: Some(later.cells_per_row_to_cache.clone()),
        min_index_interval: Some(later.min_index_interval),
        max_index_interval: Some(later.max_index_interval),
    }
}

/// The schema version (spec G7): the version-3 UUID of the MD5 of a canonical text of every
/// user keyspace (names sorted; `system` left out), as a lowercase string.
pub(super) fn schema_version(schema: &Schema, gc_grace_seconds: u32) -> String {
    let mut hasher = Md5::new();
    for ks in schema
        .keyspaces
        .values()
        .filter(|k| k.name != SYSTEM_KEYSPACE)
    {
        // Debug output of the generated structs is deterministic (BTreeMaps, Vecs in
        // order) and includes every field, so it serves as the canonical text; each
        // keyspace is length-prefixed so that no two schemas concatenate alike.
        let text = format!("{:?}", ks_def(ks, gc_grace_seconds));
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(text.as_bytes());
    }
    let digest: [u8; 16] = hasher.finalize().into();
    uuid::Builder::from_md5_bytes(digest)
        .into_uuid()
        .hyphenated()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comparator::Comparator;

    fn keyspace(strategy: &str, cfs: &[ConfCf]) -> KeyspaceDef {
        KeyspaceDef {
            name: "Keyspace1".into(),
            replication_factor: 3,
            replica_placement_strategy: strategy.into(),
            endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".into(),
            column_families: cfs.iter().map(|c| (c.name.clone(), c.clone())).collect(),
            strategy_options: Default::default(),
            durable_writes: true,
        }
    }

    fn super_cf() -> ConfCf {
        ConfCf {
            name: "Super1".into(),
            column_type: ColumnType::Super,
            comparator: Comparator::Utf8,
            subcomparator: Some(Comparator::Long),
            comment: Some("posts".into()),
            later: Default::default(),
        }
    }

    #[test]
    fn strategies_take_their_later_names() {
        let class = |s: &str| strategy_class(s);
        let rack_unaware = "org.apache.cassandra.locator.RackUnawareStrategy";
        assert_eq!(
            class(rack_unaware),
            "org.apache.cassandra.locator.SimpleStrategy"
        );
        assert_eq!(
            class("org.apache.cassandra.locator.RackAwareStrategy"),
            "org.apache.cassandra.locator.OldNetworkTopologyStrategy"
        );
        let ks = ks_def(&keyspace(rack_unaware, &[]), 10);
        assert_eq!(ks.strategy_options.unwrap()["replication_factor"], "3");
        assert_eq!(ks.replication_factor, Some(3));
        assert_eq!(ks.durable_writes, Some(true));
    }

    #[test]
    fn a_super_cf_reads_back_with_both_comparators_and_2_2_defaults() {
        let cf = cf_def("Keyspace1", &super_cf(), 864_000);
        assert_eq!(cf.column_type.as_deref(), Some("Super"));
        assert_eq!(
            cf.comparator_type.as_deref(),
            Some("org.apache.cassandra.db.marshal.UTF8Type")
        );
        assert_eq!(
            cf.subcomparator_type.as_deref(),
            Some("org.apache.cassandra.db.marshal.LongType")
        );
        assert_eq!(cf.comment.as_deref(), Some("posts"));
        assert_eq!(cf.gc_grace_seconds, Some(864_000));
        assert_eq!(cf.default_validation_class.as_deref(), Some(BYTES_TYPE));
        assert_eq!(cf.key_alias.as_deref(), Some(&b"key"[..]));
        assert_eq!(cf.id, None);
        assert_eq!(cf.caching.as_deref(), Some("KEYS_ONLY"));
        let standard = ConfCf {
            column_type: ColumnType::Standard,
            comment: None,
            ..super_cf()
        };
        let cf = cf_def("Keyspace1", &standard, 1);
        assert_eq!(cf.subcomparator_type, None);
        assert_eq!(cf.comment.as_deref(), Some(""));
    }

    #[test]
    fn the_system_keyspace_is_local_and_empty() {
        let ks = ks_def(&Schema::system_keyspace(), 10);
        assert_eq!(ks.strategy_class, LOCAL_STRATEGY);
        assert!(ks.cf_defs.is_empty());
        assert_eq!(ks.strategy_options, Some(BTreeMap::new()));
    }

    #[test]
    fn versions_are_name_based_and_follow_the_user_schema_only() {
        let mut schema = Schema::default();
        let with_system = |mut s: Schema| {
            s.keyspaces
                .insert(SYSTEM_KEYSPACE.into(), Schema::system_keyspace());
            s
        };
        let empty = schema_version(&schema, 10);
        assert_eq!(empty, schema_version(&with_system(schema.clone()), 10));
        let parsed = uuid::Uuid::parse_str(&empty).unwrap();
        assert_eq!(parsed.get_version_num(), 3);
        assert_eq!(empty, empty.to_lowercase());
        let ks = keyspace("RackUnawareStrategy", &[super_cf()]);
        schema.keyspaces.insert(ks.name.clone(), ks.clone());
        let one = schema_version(&schema, 10);
        assert_ne!(one, empty);
        assert_eq!(one, schema_version(&schema.clone(), 10));
        assert_ne!(
            one,
            schema_version(&schema, 11),
            "gc grace is part of the CfDef"
        );
        let mut renamed = ks.clone();
        renamed.column_families.clear();
        schema.keyspaces.insert(ks.name.clone(), renamed);
        assert_ne!(one, schema_version(&schema, 10));
    }
}
