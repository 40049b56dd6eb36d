//! The later API's CfDef turned into a column-family definition (`docs/api-later.md#schema`,
//! spec §5.3–§5.5): conversion with its defaults and checks in 2.2's order, then `validate`,
//! ilion's own limits (G18, G19, G24), and what an update may change. Comparators may be any
//! later type; the six 0.6 ones keep their 0.6 comparators (`Comparator::of_type`), so a CF
//! created here and one from storage-conf.xml store names alike. Validators may be any type:
//! they only check values.

use super::validation::later_type;
use crate::comparator::Comparator;
use crate::config::{CfDef, CfOptions, ColumnMeta, ColumnType, Schema};
use crate::error::{Error, Result};
use crate::protocol::v20::generated::{CfDef as ThriftCf, IndexType};
use crate::types::DataType;
use std::cmp::Ordering;
use std::collections::BTreeSet;

const COMPACTION: &str = "org.apache.cassandra.db.compaction.";
const COMPACTIONS: [&str; 3] = [
    "SizeTieredCompactionStrategy",
    "LeveledCompactionStrategy",
    "DateTieredCompactionStrategy",
];
/// `MAX_TTL`: 20 years in seconds.
const MAX_TTL: i32 = 630_720_000;

fn invalid<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::invalid(why))
}

/// A name the later API accepts for a keyspace or column family: 1–48 ASCII letters,
/// digits or underscores.
pub(super) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 48
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The keyspace-name refusal of §5.1.
pub(super) fn check_keyspace_name(name: &str) -> Result<()> {
    match valid_name(name) {
        true => Ok(()),
        false => invalid(format!(
            "Keyspace name must not be empty, more than 48 characters long, or contain \
             non-alphanumeric-underscore characters (got \"{name}\")"
        )),
    }
}

/// A type string, empty meaning BytesType (§4.5).
fn parse_type(s: Option<&str>) -> Result<DataType> {
    match s {
        None => Ok(DataType::Bytes),
        Some(s) => DataType::parse(s),
    }
}

fn has_counter(t: &DataType) -> bool {
    match t {
        DataType::Counter => true,
        DataType::Composite(parts) => parts.iter().any(has_counter),
        DataType::DynamicComposite(aliases) => aliases.values().any(has_counter),
        DataType::Reversed(base) => has_counter(base),
        _ => false,
    }
}

/// A CfDef after conversion, before `validate`.
pub(super) struct Converted {
    column_type: ColumnType,
    comparator: DataType,
    subcomparator: Option<DataType>,
    key_validator: DataType,
    columns: Vec<(ColumnMeta, DataType)>,
    default_validator: DataType,
    compaction_strategy: String,
    speculative_retry: String,
}

/// Converts and validates a CfDef for `system_add_column_family` or (with `old`, the
/// stored definition) `system_update_column_family`. `schema` is the current schema, for
/// index names unique across the node.
pub(super) fn column_family(def: &ThriftCf, old: Option<&CfDef>, schema: &Schema) -> Result<CfDef> {
    validate(def, convert(def)?, old, schema)
}

/// The conversion of §5.3: kind, type strings, column names, compaction class and
/// speculative retry, in 2.2's order.
pub(super) fn convert(def: &ThriftCf) -> Result<Converted> {
    let column_type = match def.column_type.as_deref() {
        None | Some("Standard") => ColumnType::Standard,
        Some("Super") => ColumnType::Super,
        Some(other) => return invalid(format!("Invalid column type {other}")),
    };
    let comparator = parse_type(def.comparator_type.as_deref())?;
    let subcomparator = match column_type {
        ColumnType::Super => Some(parse_type(def.subcomparator_type.as_deref())?),
        ColumnType::Standard => None,
    };
    let key_validator = parse_type(def.key_validation_class.as_deref())?;
    let names_type = subcomparator.as_ref().unwrap_or(&comparator);
    let mut columns: Vec<(ColumnMeta, DataType)> = Vec::new();
    for c in def.column_metadata.iter().flatten() {
        let validator = DataType::parse(&c.validation_class)?;
        if names_type.validate(&c.name).is_err() {
            return invalid(format!(
                "Column name {} is not valid for comparator {}",
                crate::comparator::hex(&c.name),
                names_type.class_name()
            ));
        }
        let meta = ColumnMeta {
            name: c.name.clone(),
            validation_class: validator.class_name(),
            index_type: c.index_type.map(|IndexType(t)| t),
            index_name: c.index_name.clone(),
            index_options: c.index_options.clone(),
        };
        // A name listed twice: the last entry wins.
        columns.retain(|(m, _)| names_type.compare(&m.name, &c.name) != Ordering::Equal);
        columns.push((meta, validator));
    }
    columns.sort_by(|(a, _), (b, _)| names_type.compare(&a.name, &b.name));
    let default_validator = parse_type(def.default_validation_class.as_deref())?;
    let compaction_strategy = compaction_class(def.compaction_strategy.as_deref())?;
    let speculative_retry = speculative_retry(def.speculative_retry.as_deref())?;
    Ok(Converted {
        column_type,
        comparator,
        subcomparator,
        key_validator,
        columns,
        default_validator,
        compaction_strategy,
        speculative_retry,
    })
}

/// `validate()` of §5.3 in 2.2's order, then ilion's limits; builds the definition.
pub(super) fn validate(
    def: &ThriftCf,
    converted: Converted,
    old: Option<&CfDef>,
    schema: &Schema,
) -> Result<CfDef> {
    let Converted {
        column_type,
        comparator,
        subcomparator,
        key_validator,
        columns,
        default_validator,
        compaction_strategy,
        speculative_retry,
    } = converted;
    let names_type = subcomparator.as_ref().unwrap_or(&comparator);
    check_keyspace_name(&def.keyspace)?;
    if !valid_name(&def.name) {
        return invalid(format!(
            "ColumnFamily name must not be empty, more than 48 characters long, or contain \
             non-alphanumeric-underscore characters (got \"{}\")",
            def.name
        ));
    }
    if has_counter(&comparator) || subcomparator.as_ref().is_some_and(has_counter) {
        return invalid("CounterColumnType is not a valid comparator");
    }
    if has_counter(&key_validator) {
        return invalid("CounterColumnType is not a valid key validator");
    }
    let counter_cf = default_validator == DataType::Counter;
    for (meta, validator) in &columns {
        let name = names_type.get_string(&meta.name);
        match (counter_cf, *validator == DataType::Counter) {
            (true, false) => {
                return invalid(format!(
                    "Cannot add a non counter column ({name}) in a counter column family"
                ))
            }
            (false, true) => {
                return invalid(format!(
                    "Cannot add a counter column ({name}) in a non counter column family"
                ))
            }
            _ => {}
        }
    }
    let column_metadata = index_names(def, column_type, names_type, columns, old, schema)?;
    let min_compaction = def.min_compaction_threshold.unwrap_or(4);
    let max_compaction = def.max_compaction_threshold.unwrap_or(32);
    if max_compaction != 0 {
        if min_compaction < 2 {
            return invalid(format!(
                "Min compaction threshold cannot be less than 2 (got {min_compaction})."
            ));
        }
        if min_compaction > max_compaction {
            return invalid(format!(
                "Min compaction threshold (got {min_compaction}) cannot be greater than max \
                 compaction threshold (got {max_compaction})"
            ));
        }
    }
    let leveled = compaction_strategy.ends_with(".LeveledCompactionStrategy");
    let bloom = def
        .bloom_filter_fp_chance
        .map_or(if leveled { 0.1 } else { 0.01 }, |f| f.0);
    if bloom == 0.0 {
        return invalid(
            "Zero false positives is impossible; bloom filter false positive chance bffpc \
             must be 0 < bffpc <= 1",
        );
    }
    let min_index = def.min_index_interval.or(def.index_interval).unwrap_or(128);
    let max_index = def.max_index_interval.unwrap_or(min_index.max(2048));
    if min_index <= 0 {
        return invalid(format!(
            "Min index interval must be greater than 0 (got {min_index})."
        ));
    }
    if max_index < min_index {
        return invalid(format!(
            "Max index interval ({max_index}) must be greater than the min index interval \
             ({min_index})."
        ));
    }

    // ilion's own limits.
    let gc_grace = def.gc_grace_seconds.unwrap_or(864_000);
    let gc_grace_seconds = u32::try_from(gc_grace)
        .map_err(|_| Error::invalid("gc_grace_seconds must be non-negative"))?;
    let ttl = def.default_time_to_live.unwrap_or(0);
    if !(0..=MAX_TTL).contains(&ttl) {
        return invalid(format!(
            "default_time_to_live must be between 0 and {MAX_TTL}"
        ));
    }
    // NaN and the infinities have no stored form (the schema is JSON) and no meaning here.
    for (field, value) in [
        ("read_repair_chance", def.read_repair_chance),
        ("dclocal_read_repair_chance", def.dclocal_read_repair_chance),
        ("bloom_filter_fp_chance", def.bloom_filter_fp_chance),
    ] {
        if value.is_some_and(|v| !v.0.is_finite()) {
            return invalid(format!("{field} must be a finite number"));
        }
    }
    if def.triggers.as_ref().is_some_and(|t| !t.is_empty()) {
        return invalid("triggers are not supported by ilion");
    }
    let comparator_06 = Comparator::of_type(&comparator);
    let subcomparator_06 = subcomparator.as_ref().map(Comparator::of_type);
    let caching = caching(def.caching.as_deref())?;
    let cells = def
        .cells_per_row_to_cache
        .clone()
        .unwrap_or_else(|| "100".into());
    let row_caching = caching == "ALL" || caching == "ROWS_ONLY";
    Ok(CfDef {
        name: def.name.clone(),
        column_type,
        comparator: comparator_06,
        subcomparator: subcomparator_06,
        comment: def.comment.clone(),
        later: CfOptions {
            default_validation_class: default_validator.class_name(),
            key_validation_class: key_validator.class_name(),
            column_metadata,
            gc_grace_seconds: Some(gc_grace_seconds),
            default_time_to_live: ttl as u32,
            read_repair_chance: def.read_repair_chance.map_or(0.0, |f| f.0),
            dclocal_read_repair_chance: def.dclocal_read_repair_chance.map_or(0.1, |f| f.0),
            min_compaction_threshold: min_compaction,
            max_compaction_threshold: max_compaction,
            key_alias: def.key_alias.clone().unwrap_or_else(|| b"key".to_vec()),
            compaction_strategy,
            compaction_strategy_options: def
                .compaction_strategy_options
                .clone()
                .unwrap_or_default(),
            compression_options: def
                .compression_options
                .clone()
                .unwrap_or_else(|| CfOptions::default().compression_options),
            bloom_filter_fp_chance: bloom,
            caching,
            cells_per_row_to_cache: if row_caching { cells } else { "0".into() },
            memtable_flush_period_in_ms: def.memtable_flush_period_in_ms.unwrap_or(0),
            speculative_retry,
            min_index_interval: min_index,
            max_index_interval: max_index,
        },
    })
}

/// Index checks and names (§5.4): every indexed column gets a name unique on the node.
fn index_names(
    def: &ThriftCf,
    column_type: ColumnType,
    names_type: &DataType,
    columns: Vec<(ColumnMeta, DataType)>,
    old: Option<&CfDef>,
    schema: &Schema,
) -> Result<Vec<ColumnMeta>> {
    // Index names of every other column family of the node.
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for ks in schema.keyspaces.values() {
        for cf in ks.column_families.values() {
            if ks.name == def.keyspace && cf.name == def.name {
                continue;
            }
            taken.extend(
                cf.later
                    .column_metadata
                    .iter()
                    .filter_map(|m| m.index_name.clone()),
            );
        }
    }
    let old_index = |name: &[u8]| {
        old.and_then(|o| {
            o.later
                .column_metadata
                .iter()
                .find(|m| names_type.compare(&m.name, name) == Ordering::Equal)
                .and_then(|m| m.index_name.clone())
        })
    };
    let mut out = Vec::with_capacity(columns.len());
    let mut own: BTreeSet<String> = BTreeSet::new();
    for (mut meta, validator) in columns {
        let Some(kind) = meta.index_type else {
            if meta.index_name.is_some() {
                return invalid("Index name cannot be set without index type");
            }
            out.push(meta);
            continue;
        };
        if column_type == ColumnType::Super {
            return invalid("Secondary indexes are not supported on super column families");
        }
        if let Some(name) = &meta.index_name {
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return invalid(format!("Illegal index name {name}"));
            }
        }
        match IndexType(kind) {
            IndexType::KEYS => {}
            IndexType::CUSTOM => {
                if !meta
                    .index_options
                    .as_ref()
                    .is_some_and(|o| o.contains_key("class_name"))
                {
                    return invalid("Required index option missing: class_name");
                }
                return invalid("CUSTOM indexes are not supported by ilion");
            }
            _ => return invalid("COMPOSITES indexes are not supported by ilion"),
        }
        if validator == DataType::Counter {
            return invalid("indexes on counter column families are not supported by ilion");
        }
        let name = match (meta.index_name.take(), old_index(&meta.name)) {
            (Some(new), Some(was)) if new != was => {
                return invalid(format!(
                    "Can't modify index name: was '{was}' changed to '{new}'."
                ))
            }
            (Some(name), _) | (None, Some(name)) => name,
            (None, None) => {
                let text = names_type.get_string(&meta.name);
                let base: String = format!("{}_{text}_idx", def.name)
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let mut name = base.clone();
                let mut n = 1;
                while taken.contains(&name) || own.contains(&name) {
                    name = format!("{base}_{n}");
                    n += 1;
                }
                name
            }
        };
        if taken.contains(&name) || !own.insert(name.clone()) {
            return invalid(format!("Duplicate index name {name}"));
        }
        meta.index_name = Some(name);
        out.push(meta);
    }
    Ok(out)
}

/// The compaction strategy's full class name.
fn compaction_class(class: Option<&str>) -> Result<String> {
    let class = class.unwrap_or("SizeTieredCompactionStrategy");
    let full = match class.contains('.') {
        true => class.to_string(),
        false => format!("{COMPACTION}{class}"),
    };
    match full
        .strip_prefix(COMPACTION)
        .is_some_and(|short| COMPACTIONS.contains(&short))
    {
        true => Ok(full),
        false => invalid(format!("Unable to find compaction strategy class '{full}'")),
    }
}

/// `NONE`, `ALWAYS`, `<x>PERCENTILE` or `<x>ms`, as 2.2 prints them.
fn speculative_retry(value: Option<&str>) -> Result<String> {
    let Some(value) = value else {
        return Ok("NONE".into());
    };
    let upper = value.to_ascii_uppercase();
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
    };
    if upper == "NONE" || upper == "ALWAYS" {
        return Ok(upper);
    }
    if let Some(x) = upper.strip_suffix("PERCENTILE").and_then(number) {
        if x <= 100.0 {
            return Ok(format!("{x:?}PERCENTILE"));
        }
    }
    if let Some(x) = upper.strip_suffix("MS").and_then(number) {
        return Ok(format!("{x:?}ms"));
    }
    invalid(format!("invalid speculative_retry type: {value}"))
}

/// The caching setting, upper case.
fn caching(value: Option<&str>) -> Result<String> {
    let value = value.unwrap_or("keys_only").to_ascii_uppercase();
    match value.as_str() {
        "ALL" | "KEYS_ONLY" | "ROWS_ONLY" | "NONE" => Ok(value),
        _ => invalid(format!(
            "caching must be ALL, KEYS_ONLY, ROWS_ONLY or NONE (got {value})"
        )),
    }
}

/// What an update may change (§5.5, G19): the kind stays, comparators stay compatible, and
/// a CF does not switch between counter and non-counter.
pub(super) fn check_update(old: &CfDef, new: &CfDef) -> Result<()> {
    if old.column_type != new.column_type {
        return invalid(format!(
            "Column family types do not match (found {}; expected {}).",
            new.column_type.as_str(),
            old.column_type.as_str()
        ));
    }
    let levels = [
        (Some(old.comparator), Some(new.comparator)),
        (old.subcomparator, new.subcomparator),
    ];
    for (was, now) in levels {
        if let (Some(was), Some(now)) = (was, now) {
            if !compatible(&later_type(was), &later_type(now)) {
                return invalid(format!(
                    "Column family comparators do not match or are not compatible (found {}; \
                     expected {}).",
                    now.short_string(),
                    was.short_string()
                ));
            }
        }
    }
    if old.is_counter() != new.is_counter() {
        return invalid("Cannot change a column family between counter and non-counter");
    }
    Ok(())
}

/// Whether `new` may replace the comparator `old` (§5.5).
pub(super) fn compatible(old: &DataType, new: &DataType) -> bool {
    use DataType::*;
    match (old, new) {
        _ if old == new => true,
        (Ascii | Utf8, Bytes) | (Ascii, Utf8) => true,
        (Timestamp, Date) | (Date, Timestamp) => true,
        (Composite(was), Composite(now)) => {
            now.len() >= was.len() && was.iter().zip(now).all(|(w, n)| compatible(w, n))
        }
        (DynamicComposite(was), DynamicComposite(now)) => {
            was.iter().all(|(alias, t)| now.get(alias) == Some(t))
        }
        (Reversed(was), Reversed(now)) => compatible(was, now),
        _ => false,
    }
}
