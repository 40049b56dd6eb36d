//! describe_* and the property getters over real sockets (`docs/api.md#describe`): cluster
//! name, version, keyspaces (system included), "config file", "token map"'s neighbours and
//! unknown properties, and the describe_keyspace maps — every comparator's class name, Super
//! subcomparators, comments and 0.6's generated descriptions, the system keyspace, and
//! NotFoundException for an unknown keyspace (`docs/compatibility.md#d8`). All four wire
//! styles.

use crate::harness::{tag, Options, Server, CLUSTER, KS, KS_RF3};
use crate::values::*;
use ilion::client::{TCassandraSyncClient, WireStyle};
use ilion::protocol::VERSION;
use std::collections::{BTreeMap, BTreeSet};

const MARSHAL: &str = "org.apache.cassandra.db.marshal.";

fn attrs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn names_versions_and_properties() {
    let server = Server::start(Options::default());
    let config_text = std::fs::read_to_string(server.dir().join("storage-conf.xml")).unwrap();
    let all_keyspaces = [KS, KS_RF3, "system"].map(String::from);
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        assert_eq!(c.describe_cluster_name().unwrap(), CLUSTER, "{at}");
        assert_eq!(c.describe_version().unwrap(), "2.2.0", "{at}");
        assert_eq!(VERSION, "2.2.0");
        assert_eq!(
            c.describe_keyspaces().unwrap(),
            BTreeSet::from(all_keyspaces.clone()),
            "{at}"
        );
        assert_eq!(
            c.describe_partitioner().unwrap(),
            "org.apache.cassandra.dht.RandomPartitioner"
        );
        let prop =
            |c: &mut ilion::client::Client, p: &str| c.get_string_property(p.into()).unwrap();
        assert_eq!(prop(&mut c, "cluster name"), CLUSTER, "{at}");
        assert_eq!(prop(&mut c, "version"), "2.2.0", "{at}");
        assert_eq!(
            prop(&mut c, "config file"),
            config_text,
            "{at}: the file's full text"
        );
        assert_eq!(prop(&mut c, "Version"), "?", "{at}: names are exact");
        assert_eq!(prop(&mut c, "nonsense"), "?", "{at}");
        let mut listed = c.get_string_list_property("keyspaces".into()).unwrap();
        listed.sort();
        let mut expected = all_keyspaces.to_vec();
        expected.sort();
        assert_eq!(listed, expected, "{at}");
        assert!(
            c.get_string_list_property("tables".into())
                .unwrap()
                .is_empty(),
            "{at}"
        );
    }
}

#[test]
fn describe_keyspace_maps() {
    let server = Server::start(Options::default());
    let class = |short: &str| format!("{MARSHAL}{short}");
    let bytes = class("BytesType");
    let system = BTreeMap::from([
        (
            "LocationInfo".to_string(),
            attrs(&[
                ("Type", "Standard"),
                ("CompareWith", &bytes),
                ("Desc", "persistent metadata for the local node"),
            ]),
        ),
        (
            "HintsColumnFamily".to_string(),
            attrs(&[
                ("Type", "Super"),
                ("CompareWith", &bytes),
                ("CompareSubcolumnsWith", &bytes),
                ("Desc", "hinted handoff data"),
            ]),
        ),
    ]);
    let standard = [
        ("Standard1", "BytesType"),
        ("Standard2", "UTF8Type"),
        ("StdAscii", "AsciiType"),
        ("StdLong", "LongType"),
        ("StdLexical", "LexicalUUIDType"),
        ("StdTime", "TimeUUIDType"),
    ];
    let supers = [
        ("Super1", "BytesType", "BytesType"),
        ("SuperLong", "UTF8Type", "LongType"),
        ("SuperUtf8", "LongType", "UTF8Type"),
        ("SuperTime", "TimeUUIDType", "LexicalUUIDType"),
        ("SuperTimeBytes", "TimeUUIDType", "BytesType"),
    ];
    for style in WireStyle::ALL {
        let mut c = server.client(style);
        let at = tag(style);
        let ks = c.describe_keyspace(KS.into()).unwrap();
        assert_eq!(
            ks.len(),
            standard.len() + supers.len(),
            "{at}: {:?}",
            ks.keys()
        );
        for (cf, cmp) in standard {
            let a = &ks[cf];
            assert_eq!(
                a.keys().collect::<Vec<_>>(),
                ["CompareWith", "Desc", "Type"],
                "{at} {cf}"
            );
            assert_eq!(
                (a["Type"].as_str(), a["CompareWith"].clone()),
                ("Standard", class(cmp)),
                "{at} {cf}"
            );
        }
        for (cf, cmp, sub) in supers {
            let a = &ks[cf];
            assert_eq!(a.len(), 4, "{at} {cf}: {a:?}");
            assert_eq!(a["Type"], "Super", "{at} {cf}");
            assert_eq!(
                (a["CompareWith"].clone(), a["CompareSubcolumnsWith"].clone()),
                (class(cmp), class(sub)),
                "{at} {cf}"
            );
        }
        assert_eq!(
            ks["Standard2"]["Desc"], "UTF-8 names",
            "{at}: the <Comment>"
        );
        // Without a comment: 0.6's three generated lines (ending in an identity hash).
        let desc = &ks["StdLong"]["Desc"];
        let lines: Vec<&str> = desc.split('\n').collect();
        assert_eq!(lines.len(), 3, "{at}: {desc}");
        assert_eq!(
            lines[..2],
            ["Keyspace1.StdLong", "Column Family Type: Standard"],
            "{at}"
        );
        assert!(
            lines[2].starts_with(&format!("Columns Sorted By: {MARSHAL}LongType@")),
            "{at}: {desc}"
        );
        assert!(
            ks["SuperTime"]["Desc"].contains("Column Family Type: Super"),
            "{at}"
        );

        let rf3 = c.describe_keyspace(KS_RF3.into()).unwrap();
        assert_eq!(
            rf3["Super1"]["CompareSubcolumnsWith"],
            class("AsciiType"),
            "{at}"
        );
        assert_eq!(rf3.len(), 2, "{at}");
        assert_eq!(
            c.describe_keyspace("system".into()).unwrap(),
            system,
            "{at}"
        );
        assert_eq!(
            outcome(c.describe_keyspace("Nope".into())),
            Outcome::NotFound,
            "{at}: D8"
        );
        assert_eq!(
            outcome(c.describe_keyspace("keyspace1".into())),
            Outcome::NotFound,
            "{at}: case matters"
        );
    }
}
