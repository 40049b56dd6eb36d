//! `<Keyspaces>` → [`Schema`]: the keyspace elements and the column-family attributes of
//! `docs/api.md#config`, checked in one pass. Element paths in errors identify a keyspace or
//! column family by its `Name` (`Keyspaces/Keyspace[@Name='Keyspace1']`), or by its position
//! when the name is what is missing (`Keyspaces/Keyspace[2]`).

use super::raw::{
    ColumnFamilyChild, KeyspaceChild, KeyspacesChild, List, RawColumnFamily, RawKeyspace,
};
use super::values::{cache_size, integer};
use super::{CfDef, CfOptions, ColumnType, KeyspaceDef, Schema, SYSTEM_KEYSPACE};
use crate::comparator::Comparator;
use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Every configured keyspace plus `system`; at least one must be configured.
pub(super) fn schema(keyspaces: Option<List<KeyspacesChild>>) -> Result<Schema> {
    let raws = keyspaces
        .into_iter()
        .flat_map(|list| list.items)
        .filter_map(|child| match child {
            KeyspacesChild::Keyspace(ks) => Some(ks),
            KeyspacesChild::Other => None,
        });
    let mut schema = Schema::default();
    for (index, raw) in raws.enumerate() {
        let ks = keyspace(raw, index + 1)?;
        if schema.keyspaces.contains_key(&ks.name) {
            return Err(Error::config(
                format!("{}/@Name", keyspace_path(&ks.name)),
                format!("keyspace '{}' is defined more than once", ks.name),
            ));
        }
        schema.keyspaces.insert(ks.name.clone(), ks);
    }
    if schema.keyspaces.is_empty() {
        return Err(Error::config(
            "Keyspaces/Keyspace",
            "at least one is required",
        ));
    }
    schema
        .keyspaces
        .insert(SYSTEM_KEYSPACE.to_string(), Schema::system_keyspace());
    Ok(schema)
}

fn keyspace_path(name: &str) -> String {
    format!("Keyspaces/Keyspace[@Name='{name}']")
}

/// Sets a keyspace's single-valued child, refusing a second occurrence.
fn set_once(
    slot: &mut Option<Option<String>>,
    value: Option<String>,
    path: &str,
    element: &str,
) -> Result<()> {
    if slot.is_some() {
        return Err(Error::config(
            format!("{path}/{element}"),
            "appears more than once",
        ));
    }
    *slot = Some(value);
    Ok(())
}

/// One `<Keyspace>`; `position` (1-based) names it when the Name attribute is missing.
fn keyspace(raw: RawKeyspace, position: usize) -> Result<KeyspaceDef> {
    let name = raw.name.ok_or_else(|| {
        Error::config(
            format!("Keyspaces/Keyspace[{position}]/@Name"),
            "is required",
        )
    })?;
    let path = keyspace_path(&name);
    if name.eq_ignore_ascii_case(SYSTEM_KEYSPACE) {
        return Err(Error::config(
            format!("{path}/@Name"),
            format!("'{name}' is reserved for the built-in system keyspace"),
        ));
    }
    let (mut strategy, mut factor, mut snitch) = (None, None, None);
    let mut raw_cfs = Vec::new();
    for child in raw.children {
        match child {
            KeyspaceChild::ReplicaPlacementStrategy(v) => {
                set_once(&mut strategy, v, &path, "ReplicaPlacementStrategy")?
            }
            KeyspaceChild::ReplicationFactor(v) => {
                set_once(&mut factor, v, &path, "ReplicationFactor")?
            }
            KeyspaceChild::EndPointSnitch(v) => set_once(&mut snitch, v, &path, "EndPointSnitch")?,
            KeyspaceChild::ColumnFamily(cf) => raw_cfs.push(cf),
            KeyspaceChild::Other => {}
        }
    }
    let required = |value: Option<Option<String>>, element: &str, example: &str| {
        value.flatten().ok_or_else(|| {
            Error::config(
                format!("{path}/{element}"),
                format!("is required, e.g. {example}"),
            )
        })
    };
    let replica_placement_strategy = required(
        strategy,
        "ReplicaPlacementStrategy",
        "org.apache.cassandra.locator.RackUnawareStrategy",
    )?;
    let factor = required(factor, "ReplicationFactor", "1")?;
    let replication_factor = integer(
        &format!("{path}/ReplicationFactor"),
        Some(&factor),
        1,
        1,
        None,
    )?;
    let endpoint_snitch = required(
        snitch,
        "EndPointSnitch",
        "org.apache.cassandra.locator.EndPointSnitch",
    )?;
    let mut column_families = BTreeMap::new();
    for (index, raw_cf) in raw_cfs.into_iter().enumerate() {
        let cf = column_family(*raw_cf, &path, index + 1)?;
        if column_families.contains_key(&cf.name) {
            return Err(Error::config(
                format!("{path}/ColumnFamily[@Name='{}']/@Name", cf.name),
                format!(
                    "column family '{}' is defined more than once in keyspace '{name}'",
                    cf.name
                ),
            ));
        }
        column_families.insert(cf.name.clone(), cf);
    }
    // The later API reports the 0.6 factor as its strategy option (spec §5.9).
    let strategy_options = BTreeMap::from([(
        "replication_factor".to_string(),
        replication_factor.to_string(),
    )]);
    Ok(KeyspaceDef {
        name,
        replication_factor,
        replica_placement_strategy,
        endpoint_snitch,
        column_families,
        strategy_options,
        durable_writes: true,
    })
}

/// One `<ColumnFamily>` of the keyspace at `ks_path`.
fn column_family(raw: RawColumnFamily, ks_path: &str, position: usize) -> Result<CfDef> {
    let name = raw.name.ok_or_else(|| {
        Error::config(
            format!("{ks_path}/ColumnFamily[{position}]/@Name"),
            "is required",
        )
    })?;
    let path = format!("{ks_path}/ColumnFamily[@Name='{name}']");
    let at = |attribute: &str| format!("{path}/@{attribute}");
    if name.contains('-') {
        return Err(Error::config(
            at("Name"),
            format!("'{name}' may not contain '-'"),
        ));
    }
    if raw.column_sort.is_some() {
        return Err(Error::config(
            at("ColumnSort"),
            "is no longer accepted; use CompareWith",
        ));
    }
    let column_type = match raw.column_type.as_deref() {
        None | Some("Standard") => ColumnType::Standard,
        Some("Super") => ColumnType::Super,
        Some(v) => {
            return Err(Error::config(
                at("ColumnType"),
                format!("must be Standard or Super, not '{v}'"),
            ))
        }
    };
    let comparator_named = |attribute: &str, class: Option<&str>| match class {
        None => Ok(Comparator::Bytes),
        Some(class) => Comparator::from_class_name(class).ok_or_else(|| {
            Error::config(
                at(attribute),
                format!(
                    "column family '{name}' names comparator '{class}', which ilion does not \
                     have; use BytesType, AsciiType, UTF8Type, LongType, LexicalUUIDType or \
                     TimeUUIDType (optionally prefixed by org.apache.cassandra.db.marshal.)"
                ),
            )
        }),
    };
    let comparator = comparator_named("CompareWith", raw.compare_with.as_deref())?;
    let subcomparator = match column_type {
        ColumnType::Super => Some(comparator_named(
            "CompareSubcolumnsWith",
            raw.compare_subcolumns_with.as_deref(),
        )?),
        ColumnType::Standard if raw.compare_subcolumns_with.is_some() => {
            return Err(Error::config(
                at("CompareSubcolumnsWith"),
                "is only allowed on a column family with ColumnType=\"Super\"",
            ))
        }
        ColumnType::Standard => None,
    };
    cache_size(&at("KeysCached"), raw.keys_cached.as_deref())?;
    cache_size(&at("RowsCached"), raw.rows_cached.as_deref())?;
    if raw.keys_cached_fraction.is_some() {
        tracing::warn!("{} is deprecated; use KeysCached", at("KeysCachedFraction"));
        cache_size(
            &at("KeysCachedFraction"),
            raw.keys_cached_fraction.as_deref(),
        )?;
    }
    for (attribute, value) in [
        (
            "RowCacheSavePeriodInSeconds",
            &raw.row_cache_save_period_in_seconds,
        ),
        (
            "KeyCacheSavePeriodInSeconds",
            &raw.key_cache_save_period_in_seconds,
        ),
    ] {
        integer(&at(attribute), value.as_deref(), 0u32, 0, None)?;
    }
    let mut comment = None;
    for child in raw.children {
        if let ColumnFamilyChild::Comment(text) = child {
            set_once(&mut comment, text, &path, "Comment")?;
        }
    }
    Ok(CfDef {
        name,
        column_type,
        comparator,
        subcomparator,
        comment: comment.flatten(),
        later: CfOptions::default(),
    })
}
