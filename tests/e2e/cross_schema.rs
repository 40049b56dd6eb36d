//! Schema made through the later API as the 0.6 API sees it (spec §9, `docs/api-later.md#schema`):
//! a keyspace and column families created by `system_*` are listed by `describe_keyspaces`
//! and `get_string_list_property("keyspaces")`, described with full comparator class names and
//! usable at once; dropping them makes them unknown to 0.6 sessions too.

use crate::cases::ONE;
use crate::cross_api::later;
use crate::harness::{Options, Server};
use crate::support::conf::{test_engine, REDIS_CLUSTER};
use crate::values::{ire, outcome};
use ilion::client::{TCassandraSyncClient as _, WireStyle};
use ilion::protocol::v20::generated as v20;
use ilion::protocol::{self as p06};
use v20::TCassandraSyncClient as _;

const MARSHAL: &str = "org.apache.cassandra.db.marshal.";

fn cf_def(
    ks: &str,
    name: &str,
    column_type: &str,
    comparator: &str,
    sub: Option<&str>,
) -> v20::CfDef {
    let mut def = v20::CfDef::default_for(ks, name);
    def.column_type = Some(column_type.into());
    def.comparator_type = Some(comparator.into());
    def.subcomparator_type = sub.map(Into::into);
    def
}

trait Named {
    fn default_for(ks: &str, name: &str) -> Self;
}

impl Named for v20::CfDef {
    fn default_for(ks: &str, name: &str) -> v20::CfDef {
        let none = || None::<String>;
        v20::CfDef::new(
            ks.into(),
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
}

#[test]
fn the_0_6_api_sees_schema_made_through_the_later_api() {
    let server = Server::start(Options::default());
    let mut new = later(server.later_addr());
    let mut old = server.client(WireStyle::ALL[1]);
    let options: std::collections::BTreeMap<String, String> =
        [("replication_factor".to_string(), "1".to_string())].into();
    let made = v20::KsDef::new(
        "Made".into(),
        "SimpleStrategy".into(),
        options,
        None,
        vec![
            cf_def("Made", "Longs", "Standard", "LongType", None),
            cf_def("Made", "Posts", "Super", "UTF8Type", Some("TimeUUIDType")),
        ],
        None,
    );
    if test_engine() == REDIS_CLUSTER {
        // Front ends of a shared store each keep the schema they loaded, so none may change
        // it (docs/api-later.md#schema).
        match new.system_add_keyspace(made) {
            Err(thrift::Error::User(e)) => {
                let why = &e
                    .downcast_ref::<v20::InvalidRequestException>()
                    .expect("an InvalidRequestException")
                    .why;
                assert_eq!(
                    why,
                    "schema changes are not supported by ilion on a shared store yet"
                );
            }
            other => panic!("a schema change on a shared store: {other:?}"),
        }
        return;
    }
    new.system_add_keyspace(made).unwrap();

    assert!(old.describe_keyspaces().unwrap().contains("Made"));
    let listed = old.get_string_list_property("keyspaces".into()).unwrap();
    assert!(listed.contains(&"Made".to_string()));
    let described = old.describe_keyspace("Made".into()).unwrap();
    let longs = &described["Longs"];
    assert_eq!(longs["Type"], "Standard");
    assert_eq!(longs["CompareWith"], format!("{MARSHAL}LongType"));
    let posts = &described["Posts"];
    assert_eq!(posts["Type"], "Super");
    assert_eq!(posts["CompareWith"], format!("{MARSHAL}UTF8Type"));
    assert_eq!(
        posts["CompareSubcolumnsWith"],
        format!("{MARSHAL}TimeUUIDType")
    );

    // Written through 0.6, read through the later API.
    let name = 7i64.to_be_bytes().to_vec();
    let path = p06::ColumnPath::new("Longs".into(), None, name.clone());
    old.insert(
        "Made".into(),
        "k".into(),
        path.clone(),
        b"v".to_vec(),
        1,
        ONE,
    )
    .unwrap();
    new.set_keyspace("Made".into()).unwrap();
    let got = new
        .get(
            b"k".to_vec(),
            v20::ColumnPath::new("Longs".into(), None, name),
            v20::ConsistencyLevel::ONE,
        )
        .unwrap();
    assert_eq!(got.column.unwrap().value, Some(b"v".to_vec()));

    // A CF added later appears too; a dropped one is unknown to 0.6 at once.
    new.system_add_column_family(cf_def("Made", "Added", "Standard", "BytesType", None))
        .unwrap();
    assert!(old
        .describe_keyspace("Made".into())
        .unwrap()
        .contains_key("Added"));
    new.system_drop_column_family("Longs".into()).unwrap();
    assert_eq!(
        outcome(old.get("Made".into(), "k".into(), path, ONE)),
        ire("unconfigured columnfamily Longs")
    );
    new.system_drop_keyspace("Made".into()).unwrap();
    assert!(!old.describe_keyspaces().unwrap().contains("Made"));
    let path = p06::ColumnPath::new("Added".into(), None, b"c".to_vec());
    assert_eq!(
        outcome(old.get("Made".into(), "k".into(), path, ONE)),
        ire("Keyspace Made does not exist in this schema.")
    );
}
