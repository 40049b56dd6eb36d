//! `docs/api.md#describe`: describe_* and the property getters, and D5 and D8
//! (`docs/compatibility.md#d5`, `#d8`).

use super::*;
use crate::partitioner::Partitioner;
use crate::protocol::TokenRange;
use std::collections::BTreeSet;

fn attrs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const MARSHAL: &str = "org.apache.cassandra.db.marshal.";

#[test]
fn names_and_versions() {
    let f = Fixture::new();
    let s = f.session();
    let expected: BTreeSet<String> = [KS, KS_RF3, "system"].map(String::from).into();
    assert_eq!(s.handle_describe_keyspaces().unwrap(), expected);
    assert_eq!(s.handle_describe_cluster_name().unwrap(), "Test Cluster");
    assert_eq!(s.handle_describe_version().unwrap(), "2.2.0");
    assert_eq!(
        s.handle_get_string_property("version".into()).unwrap(),
        "2.2.0"
    );
    assert_eq!(
        s.handle_get_string_property("cluster name".into()).unwrap(),
        "Test Cluster"
    );
    assert_eq!(
        s.handle_get_string_property("config file".into()).unwrap(),
        f.config.config_text
    );
    assert!(f
        .config
        .config_text
        .contains("<ClusterName>Test Cluster</ClusterName>"));
    assert_eq!(s.handle_get_string_property("Version".into()).unwrap(), "?");
    assert_eq!(
        s.handle_get_string_list_property("keyspaces".into())
            .unwrap(),
        vec![KS.to_string(), KS_RF3.to_string(), "system".to_string()]
    );
    assert!(s
        .handle_get_string_list_property("tables".into())
        .unwrap()
        .is_empty());
    for p in Partitioner::ALL {
        let f = Fixture::with(Options {
            partitioner: p,
            ..Options::default()
        });
        assert_eq!(
            f.session().handle_describe_partitioner().unwrap(),
            format!("org.apache.cassandra.dht.{}", p.short_name())
        );
    }
}

#[test]
fn describe_keyspace_lists_column_families() {
    let f = Fixture::new();
    let s = f.session();
    let ks = s.handle_describe_keyspace(KS.into()).unwrap();
    assert_eq!(ks.len(), 11);
    assert_eq!(
        ks["Standard2"],
        attrs(&[
            ("Type", "Standard"),
            ("CompareWith", &format!("{MARSHAL}UTF8Type")),
            ("Desc", "UTF-8 names"),
        ])
    );
    let super_long = &ks["SuperLong"];
    assert_eq!(super_long["Type"], "Super");
    assert_eq!(super_long["CompareWith"], format!("{MARSHAL}UTF8Type"));
    assert_eq!(
        super_long["CompareSubcolumnsWith"],
        format!("{MARSHAL}LongType")
    );
    assert_eq!(
        ks["Super1"]["CompareSubcolumnsWith"],
        format!("{MARSHAL}BytesType")
    );
    assert_eq!(
        ks["StdTime"]["CompareWith"],
        format!("{MARSHAL}TimeUUIDType")
    );
    assert_eq!(
        ks["StdLexical"]["CompareWith"],
        format!("{MARSHAL}LexicalUUIDType")
    );

    let standard = &ks["Standard1"];
    assert_eq!(
        standard.keys().collect::<Vec<_>>(),
        ["CompareWith", "Desc", "Type"]
    );
    let desc = &standard["Desc"];
    let lines: Vec<&str> = desc.split('\n').collect();
    assert_eq!(lines.len(), 3, "{desc}");
    assert_eq!(lines[0], "Keyspace1.Standard1");
    assert_eq!(lines[1], "Column Family Type: Standard");
    let hash = lines[2]
        .strip_prefix(&format!("Columns Sorted By: {MARSHAL}BytesType@"))
        .unwrap_or_else(|| panic!("{desc}"));
    assert!(
        hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{desc}"
    );
    // Stable from call to call.
    assert_eq!(
        s.handle_describe_keyspace(KS.into()).unwrap()["Standard1"]["Desc"],
        *desc
    );

    let system = s.handle_describe_keyspace("system".into()).unwrap();
    let bytes = format!("{MARSHAL}BytesType");
    assert_eq!(
        system,
        BTreeMap::from([
            (
                "LocationInfo".to_string(),
                attrs(&[
                    ("Type", "Standard"),
                    ("CompareWith", &bytes),
                    ("Desc", "persistent metadata for the local node")
                ])
            ),
            (
                "HintsColumnFamily".to_string(),
                attrs(&[
                    ("Type", "Super"),
                    ("CompareWith", &bytes),
                    ("CompareSubcolumnsWith", &bytes),
                    ("Desc", "hinted handoff data"),
                ])
            ),
        ])
    );
    // D8.
    assert_eq!(
        outcome(s.handle_describe_keyspace("Nope".into())),
        Outcome::NotFound
    );
}

#[test]
fn describe_ring_and_token_map() {
    let f = Fixture::with(Options {
        initial_token: Some("12345".into()),
        ..Options::default()
    });
    let s = f.session();
    let ring = vec![TokenRange::new(
        "12345".into(),
        "12345".into(),
        vec!["127.0.0.1".into()],
    )];
    assert_eq!(s.handle_describe_ring(KS.into()).unwrap(), ring);
    assert_eq!(s.handle_describe_ring(KS_RF3.into()).unwrap(), ring);
    for ks in ["system", "Nope"] {
        assert_eq!(
            outcome(s.handle_describe_ring(ks.into())),
            ire(&format!("There is no ring for the keyspace: {ks}"))
        );
    }
    assert_eq!(
        s.handle_get_string_property("token map".into()).unwrap(),
        r#"{"12345":"127.0.0.1"}"#
    );

    let f = Fixture::with(Options {
        partitioner: Partitioner::CollatingOrderPreserving,
        initial_token: Some("0053".into()),
        thrift_address: Some("0.0.0.0".into()),
        listen_address: "127.0.0.2".into(),
        ..Options::default()
    });
    let s = f.session();
    let ring = vec![TokenRange::new(
        "0053".into(),
        "0053".into(),
        vec!["127.0.0.2".into()],
    )];
    assert_eq!(s.handle_describe_ring(KS.into()).unwrap(), ring);
    assert_eq!(
        s.handle_get_string_property("token map".into()).unwrap(),
        r#"{"Token(bytes[0053])":"127.0.0.2"}"#
    );

    let f = Fixture::with(Options {
        partitioner: Partitioner::OrderPreserving,
        initial_token: Some("m".into()),
        thrift_address: Some("127.0.0.3".into()),
        ..Options::default()
    });
    let s = f.session();
    assert_eq!(
        s.handle_describe_ring(KS.into()).unwrap()[0].endpoints,
        vec!["127.0.0.3".to_string()]
    );
    assert_eq!(
        s.handle_get_string_property("token map".into()).unwrap(),
        r#"{"m":"127.0.0.3"}"#
    );
}

#[test]
fn describe_splits() {
    let f = Fixture::new();
    let s = f.session();
    let splits = |start: &str, end: &str, k: i32| {
        outcome(s.handle_describe_splits(start.into(), end.into(), k))
    };
    let list = |start: &str, end: &str, k: i32| {
        s.handle_describe_splits(start.into(), end.into(), k)
            .unwrap()
    };
    assert_eq!(list("0", "0", 128), ["0", "0"]);
    for key in ["a", "b", "key1", "key2"] {
        assert_eq!(
            insert(&s, KS, key, path("Standard1", None, Some(b"c"))),
            Outcome::Ok
        );
    }
    // A row in another CF with the same key counts once.
    assert_eq!(
        insert(&s, KS_RF3, "a", path("Standard1", None, Some(b"c"))),
        Outcome::Ok
    );
    let token = |key: &str| Partitioner::Random.token(key.as_bytes()).to_string();
    let (a, b, key1, key2) = (token("a"), token("b"), token("key1"), token("key2"));
    assert_eq!(list("0", "0", 1), ["0", &a, &key1, &b, &key2, "0"]);
    assert_eq!(list("0", "0", 2), ["0", &key1, &key2, "0"]);
    assert_eq!(
        list("007", "0", 128),
        ["7", "0"],
        "tokens come back in their normal form"
    );
    // (key1, b]: b is the end, not a split point.
    assert_eq!(list(&key1, &b, 1), [key1.as_str(), &b]);
    assert_eq!(list(&key2, &key1, 1), [key2.as_str(), &a, &key1]);
    // D5: INTERNAL_ERROR carrying the D4 text.
    assert_eq!(
        splits("x", "0", 1),
        internal("Invalid token 'x': RandomPartitioner tokens are decimal integers")
    );
    assert_eq!(
        splits("0", "1.5", 1),
        internal("Invalid token '1.5': RandomPartitioner tokens are decimal integers")
    );
    assert_eq!(
        splits("0", "0", 0),
        internal("keys_per_split must be positive, not 0")
    );
    assert_eq!(
        splits("0", "0", -3),
        internal("keys_per_split must be positive, not -3")
    );

    let copp = Fixture::with(Options {
        partitioner: Partitioner::CollatingOrderPreserving,
        ..Options::default()
    });
    let got = outcome(
        copp.session()
            .handle_describe_splits("abc".into(), "".into(), 1),
    );
    assert_eq!(
        got,
        internal("Invalid token 'abc': CollatingOrderPreservingPartitioner tokens are hex strings of even length")
    );
    assert_eq!(
        copp.session()
            .handle_describe_splits("00AB".into(), "".into(), 1)
            .unwrap(),
        ["00ab", ""]
    );
}

/// `docs/api-later.md#counters`: the 0.6 API cannot express counters, so a counter CF made
/// through the later API is left out of describe_keyspace and unconfigured for every 0.6
/// call, while its keyspace stays listed.
#[test]
fn counter_families_are_invisible_to_the_0_6_api() {
    let f = Fixture::new();
    let mut def = crate::config::CfDef {
        name: "Counters".into(),
        column_type: crate::config::ColumnType::Standard,
        comparator: crate::comparator::Comparator::Bytes,
        subcomparator: None,
        comment: None,
        later: Default::default(),
    };
    def.later.default_validation_class = crate::config::COUNTER_TYPE.into();
    f.service.db.add_column_family(KS, def).unwrap();
    let s = f.session();
    let described = s.handle_describe_keyspace(KS.into()).unwrap();
    assert!(!described.contains_key("Counters"));
    assert!(described.contains_key("Standard1"));
    assert!(s.handle_describe_keyspaces().unwrap().contains(KS));
    let unconfigured = ire("unconfigured columnfamily Counters");
    let got =
        outcome(s.handle_get_slice(KS.into(), "k".into(), parent("Counters", None), all(), ONE));
    assert_eq!(got, unconfigured);
    let got = outcome(s.handle_insert(
        KS.into(),
        "k".into(),
        path("Counters", None, Some(b"c")),
        b"v".to_vec(),
        1,
        ONE,
    ));
    assert_eq!(got, unconfigured);
}
