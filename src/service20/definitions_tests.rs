//! CfDef conversion and validation (spec §5.3–§5.5): defaults, reported type strings, the
//! order of the refusals, index names, and what an update may change.

use super::definitions::*;
use crate::comparator::Comparator;
use crate::config::{ColumnType, Schema};
use crate::protocol::v20::generated::{CfDef as ThriftCf, ColumnDef, IndexType};
use crate::types::DataType;

const MARSHAL: &str = "org.apache.cassandra.db.marshal.";

/// A CfDef with only its names, every optional field absent.
fn def(name: &str) -> ThriftCf {
    let none = || None::<String>;
    ThriftCf::new(
        "Ks".into(),
        name.into(),
        none(),
        none(),
        none(),
        none(),
        None,
        None,
        None,
        None,
        None,
        none(),
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        none(),
        none(),
        None,
        none(),
        None,
        None,
        None,
        None,
        none(),
        None,
        None,
        None,
        None,
        None,
        none(),
        None,
        none(),
        None,
        None,
    )
}

/// The InvalidRequestException text of a refusal.
fn text(e: crate::Error) -> String {
    match e {
        crate::Error::InvalidRequest(why) => why,
        other => panic!("not an invalid request: {other:?}"),
    }
}

fn why(d: &ThriftCf) -> String {
    match column_family(d, None, &Schema::default()) {
        Err(e) => text(e),
        Ok(cf) => panic!("accepted {cf:?}"),
    }
}

#[test]
fn a_cfdef_with_only_names_gets_2_2_defaults() {
    let cf = column_family(&def("Cf"), None, &Schema::default()).unwrap();
    assert_eq!(cf.column_type, ColumnType::Standard);
    assert_eq!(cf.comparator, Comparator::Bytes);
    assert_eq!(cf.subcomparator, None);
    assert_eq!(cf.comment, None);
    let later = &cf.later;
    assert_eq!(
        later.default_validation_class,
        format!("{MARSHAL}BytesType")
    );
    assert_eq!(later.key_validation_class, format!("{MARSHAL}BytesType"));
    assert_eq!(later.gc_grace_seconds, Some(864_000));
    assert_eq!(later.dclocal_read_repair_chance, 0.1);
    assert_eq!(later.bloom_filter_fp_chance, 0.01);
    assert_eq!(
        (
            later.min_compaction_threshold,
            later.max_compaction_threshold
        ),
        (4, 32)
    );
    assert_eq!(
        (later.min_index_interval, later.max_index_interval),
        (128, 2048)
    );
    assert_eq!(later.caching, "KEYS_ONLY");
    assert_eq!(later.cells_per_row_to_cache, "0");
    assert_eq!(later.speculative_retry, "NONE");
    assert_eq!(later.key_alias, b"key");
}

#[test]
fn type_strings_are_kept_as_full_class_names() {
    let mut d = def("Cf");
    d.column_type = Some("Super".into());
    d.comparator_type = Some("UTF8Type".into());
    d.subcomparator_type = Some("org.apache.cassandra.db.marshal.LongType".into());
    d.default_validation_class = Some("CompositeType(UTF8Type, IntegerType)".into());
    d.column_metadata = Some(vec![
        ColumnDef::new(
            vec![0, 0, 0, 0, 0, 0, 0, 2],
            "ReversedType(Int32Type)".into(),
            None,
            None,
            None,
        ),
        ColumnDef::new(
            vec![0, 0, 0, 0, 0, 0, 0, 1],
            "AsciiType".into(),
            None,
            None,
            None,
        ),
    ]);
    d.speculative_retry = Some("99percentile".into());
    let cf = column_family(&d, None, &Schema::default()).unwrap();
    assert_eq!(cf.subcomparator, Some(Comparator::Long));
    assert_eq!(
        cf.later.default_validation_class,
        format!("{MARSHAL}CompositeType({MARSHAL}UTF8Type,{MARSHAL}IntegerType)")
    );
    // Sorted by the subcomparator's order.
    let names: Vec<u8> = cf.later.column_metadata.iter().map(|m| m.name[7]).collect();
    assert_eq!(names, [1, 2]);
    assert_eq!(
        cf.later.column_metadata[1].validation_class,
        format!("{MARSHAL}ReversedType({MARSHAL}Int32Type)")
    );
    assert_eq!(cf.later.speculative_retry, "99.0PERCENTILE");
    // Later comparators are kept whole and reported in the exact §4.5 form.
    d.comparator_type = Some(
        " CompositeType( UTF8Type ,ReversedType(LongType), DynamicCompositeType(z=>UUIDType,a=>BytesType))"
            .into(),
    );
    d.subcomparator_type = Some("LongType(reversed=true)".into());
    d.column_metadata = None;
    let cf = column_family(&d, None, &Schema::default()).unwrap();
    assert_eq!(
        cf.comparator.class_name(),
        format!(
            "{MARSHAL}CompositeType({MARSHAL}UTF8Type,{MARSHAL}ReversedType({MARSHAL}LongType),\
             {MARSHAL}DynamicCompositeType(a=>{MARSHAL}BytesType,z=>{MARSHAL}UUIDType))"
        )
    );
    assert_eq!(
        cf.subcomparator.map(Comparator::class_name),
        Some(format!("{MARSHAL}ReversedType({MARSHAL}LongType)"))
    );
    d.comparator_type = Some("UTF8Type".into());
    // A Standard CF ignores the subcomparator.
    d.column_type = None;
    d.subcomparator_type = Some("Nope".into());
    d.column_metadata = None;
    assert_eq!(
        column_family(&d, None, &Schema::default())
            .unwrap()
            .subcomparator,
        None
    );
}

#[test]
fn refusals_come_in_2_2_order() {
    let mut d = def("in-valid");
    d.column_type = Some("Wide".into());
    d.comparator_type = Some("Nope".into());
    assert_eq!(why(&d), "Invalid column type Wide");
    d.column_type = None;
    assert_eq!(
        why(&d),
        "Unable to find abstract-type class 'org.apache.cassandra.db.marshal.Nope'"
    );
    d.comparator_type = Some("CounterColumnType".into());
    assert!(
        why(&d).starts_with("ColumnFamily name must not be empty"),
        "names first"
    );
    d.name = "Cf".into();
    assert_eq!(why(&d), "CounterColumnType is not a valid comparator");
    d.comparator_type = Some("IntegerType".into());
    d.gc_grace_seconds = Some(-1);
    assert_eq!(why(&d), "gc_grace_seconds must be non-negative");
    d.gc_grace_seconds = None;
    // Every later comparator is served; the CQL-only types (G18) and a composite without
    // components (F9) are not.
    let schema = Schema::default();
    let accepted = column_family(&d, None, &schema).unwrap();
    assert_eq!(
        accepted.comparator.class_name(),
        format!("{MARSHAL}IntegerType")
    );
    d.comparator_type = Some("ShortType".into());
    assert_eq!(why(&d), "ShortType is not supported by ilion");
    d.comparator_type = Some("CompositeType".into());
    assert_eq!(
        why(&d),
        "CompositeType requires at least one component type"
    );
    d.comparator_type = None;
    // Counter CFs (§5.3 step 3): every column_metadata validator must match the CF's kind.
    d.default_validation_class = Some("CounterColumnType".into());
    let meta = |validator: &str| {
        Some(vec![ColumnDef::new(
            b"c1".to_vec(),
            validator.into(),
            None,
            None,
            None,
        )])
    };
    d.column_metadata = meta("BytesType");
    assert_eq!(
        why(&d),
        "Cannot add a non counter column (6331) in a counter column family"
    );
    d.column_metadata = meta("CounterColumnType");
    let counter = column_family(&d, None, &Schema::default()).unwrap();
    assert!(counter.is_counter());
    assert_eq!(
        counter.later.default_validation_class,
        format!("{MARSHAL}CounterColumnType")
    );
    d.default_validation_class = None;
    assert_eq!(
        why(&d),
        "Cannot add a counter column (6331) in a non counter column family"
    );
    d.column_metadata = None;
    d.default_time_to_live = Some(-1);
    assert_eq!(
        why(&d),
        "default_time_to_live must be between 0 and 630720000"
    );
    d.default_time_to_live = None;
    d.read_repair_chance = Some(thrift::OrderedFloat(f64::NAN));
    assert_eq!(why(&d), "read_repair_chance must be a finite number");
    d.read_repair_chance = None;
    d.max_compaction_threshold = Some(0);
    d.min_compaction_threshold = Some(0);
    column_family(&d, None, &Schema::default()).expect("max 0 disables compaction");
    d.max_index_interval = Some(10);
    assert_eq!(
        why(&d),
        "Max index interval (10) must be greater than the min index interval (128)."
    );
}

#[test]
fn indexes_are_named_and_unique_on_the_node() {
    let mut d = def("BlankCF");
    let keys = |name: &[u8], index: Option<&str>| {
        ColumnDef::new(
            name.to_vec(),
            "BytesType".into(),
            IndexType::KEYS,
            index.map(Into::into),
            None,
        )
    };
    d.column_metadata = Some(vec![keys(b"birthdate", None)]);
    let cf = column_family(&d, None, &Schema::default()).unwrap();
    let generated = "BlankCF_626972746864617465_idx";
    assert_eq!(
        cf.later.column_metadata[0].index_name.as_deref(),
        Some(generated)
    );

    let mut schema = Schema::default();
    let mut ks = Schema::system_keyspace();
    ks.name = "Other".into();
    ks.column_families.clear();
    ks.column_families.insert("Taken".into(), cf.clone());
    schema.keyspaces.insert("Other".into(), ks);
    let second = column_family(&d, None, &schema).unwrap();
    assert_eq!(
        second.later.column_metadata[0].index_name.as_deref(),
        Some("BlankCF_626972746864617465_idx_1")
    );
    d.column_metadata = Some(vec![keys(b"x", Some(generated))]);
    let e = column_family(&d, None, &schema).map_err(text).unwrap_err();
    assert_eq!(e, format!("Duplicate index name {generated}"));
    // An update keeps the old name, and refuses another.
    d.column_metadata = Some(vec![keys(b"birthdate", None)]);
    let kept = column_family(&d, Some(&cf), &Schema::default()).unwrap();
    assert_eq!(
        kept.later.column_metadata[0].index_name.as_deref(),
        Some(generated)
    );
    d.column_metadata = Some(vec![keys(b"birthdate", Some("other"))]);
    let e = text(column_family(&d, Some(&cf), &Schema::default()).unwrap_err());
    assert_eq!(
        e,
        format!("Can't modify index name: was '{generated}' changed to 'other'.")
    );
    let mut custom = keys(b"c", None);
    custom.index_type = Some(IndexType::CUSTOM);
    d.column_metadata = Some(vec![custom]);
    assert_eq!(why(&d), "Required index option missing: class_name");
}

#[test]
fn updates_keep_the_kind_and_compatible_comparators() {
    let base = column_family(&def("Cf"), None, &Schema::default()).unwrap();
    let with = |t: &str| {
        let mut d = def("Cf");
        d.comparator_type = Some(t.into());
        column_family(&d, None, &Schema::default()).unwrap()
    };
    let ascii = with("AsciiType");
    check_update(&ascii, &with("UTF8Type")).unwrap();
    check_update(&ascii, &base).unwrap();
    assert_eq!(
        check_update(&base, &ascii).map_err(text).unwrap_err(),
        "Column family comparators do not match or are not compatible (found AsciiType; \
         expected BytesType)."
    );
    let mut super_def = def("Cf");
    super_def.column_type = Some("Super".into());
    let sup = column_family(&super_def, None, &Schema::default()).unwrap();
    assert_eq!(
        check_update(&base, &sup).map_err(text).unwrap_err(),
        "Column family types do not match (found Super; expected Standard)."
    );
    let p = |s: &str| DataType::parse(s).unwrap();
    assert!(compatible(
        &p("CompositeType(AsciiType)"),
        &p("CompositeType(UTF8Type,LongType)")
    ));
    assert!(!compatible(
        &p("CompositeType(UTF8Type,LongType)"),
        &p("CompositeType(UTF8Type)")
    ));
    assert!(compatible(
        &p("DynamicCompositeType(a=>AsciiType)"),
        &p("DynamicCompositeType(a=>AsciiType,b=>LongType)")
    ));
    assert!(!compatible(
        &p("DynamicCompositeType(a=>AsciiType)"),
        &p("DynamicCompositeType(a=>UTF8Type)")
    ));
    assert!(compatible(
        &p("ReversedType(AsciiType)"),
        &p("ReversedType(BytesType)")
    ));
    assert!(compatible(&p("TimestampType"), &p("DateType")));
    assert!(!compatible(&p("LongType"), &p("Int32Type")));
}
