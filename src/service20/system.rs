//! The six `system_*` calls (`docs/api-later.md#schema`, spec §5.1): their checks in 2.2's
//! order with its texts, the KsDef rules of §5.2 (strategy classes and options), and the
//! change itself through `Db`, which keeps the schema in the store. Each returns the schema
//! version after the change (spec §5.7).

use super::definitions::{self, check_keyspace_name};
use super::schema::schema_version;
use super::session::NO_KEYSPACE;
use super::Session20;
use crate::config::{KeyspaceDef, Schema, SYSTEM_KEYSPACE};
use crate::error::{Error, Result};
use crate::protocol::v20::generated::{CfDef as ThriftCf, KsDef};
use std::collections::BTreeMap;

const LOCATOR: &str = "org.apache.cassandra.locator.";
const NOT_MODIFIABLE: &str = "system keyspace is not user-modifiable";

fn invalid<T>(why: impl Into<String>) -> Result<T> {
    Err(Error::invalid(why))
}

impl Session20 {
    fn version(&self, schema: &Schema) -> String {
        schema_version(schema, self.service.config.gc_grace_seconds)
    }

    /// Login, then `<modify-keyspaces>` in access.properties (spec G17).
    fn require_schema_access(&self, keyspace: &str) -> Result<()> {
        self.require_login()?;
        self.require_modify_keyspaces(keyspace)
    }

    /// `system_add_keyspace`.
    pub(super) fn system_add_keyspace(&self, def: &KsDef) -> Result<String> {
        if def.name.eq_ignore_ascii_case(SYSTEM_KEYSPACE) {
            return invalid(NOT_MODIFIABLE);
        }
        self.require_schema_access(&def.name)?;
        let schema = self.service.db.schema();
        if let Some(existing) = schema
            .keyspaces
            .keys()
            .find(|k| k.eq_ignore_ascii_case(&def.name))
        {
            return invalid(format!(
                "Keyspace names must be case-insensitively unique (\"{}\" conflicts with \"{existing}\")",
                def.name
            ));
        }
        for cf in &def.cf_defs {
            if cf.keyspace != def.name {
                return invalid(format!(
                    "CfDef ({}) had a keyspace definition that did not match KsDef",
                    cf.name
                ));
            }
        }
        let converted = def
            .cf_defs
            .iter()
            .map(|cf| Ok((cf, definitions::convert(cf)?)))
            .collect::<Result<Vec<_>>>()?;
        let mut ks = keyspace_def(def)?;
        // Validation; of two CfDefs with one name the last wins. Each is validated against
        // the schema holding the ones before it, so index names differ among them too.
        let mut growing = (*schema).clone();
        growing.keyspaces.insert(def.name.clone(), ks.clone());
        for (cf, conv) in converted {
            let cf = definitions::validate(cf, conv, None, &growing)?;
            if let Some(k) = growing.keyspaces.get_mut(&def.name) {
                k.column_families.insert(cf.name.clone(), cf.clone());
            }
            ks.column_families.insert(cf.name.clone(), cf);
        }
        let schema = self.service.db.add_keyspace(ks)?;
        Ok(self.version(&schema))
    }

    /// `system_drop_keyspace`.
    pub(super) fn system_drop_keyspace(&self, keyspace: &str) -> Result<String> {
        if keyspace.eq_ignore_ascii_case(SYSTEM_KEYSPACE) {
            return invalid(NOT_MODIFIABLE);
        }
        self.require_schema_access(keyspace)?;
        if self.service.db.schema().keyspace(keyspace).is_none() {
            return invalid(format!("Cannot drop non existing keyspace '{keyspace}'."));
        }
        let schema = self.service.db.drop_keyspace(keyspace)?;
        Ok(self.version(&schema))
    }

    /// `system_update_keyspace`: replication settings only.
    pub(super) fn system_update_keyspace(&self, def: &KsDef) -> Result<String> {
        if def.name.eq_ignore_ascii_case(SYSTEM_KEYSPACE) {
            return invalid(NOT_MODIFIABLE);
        }
        self.require_schema_access(&def.name)?;
        if self.service.db.schema().keyspace(&def.name).is_none() {
            return invalid(format!("Keyspace {} does not exist", def.name));
        }
        if !def.cf_defs.is_empty() {
            return invalid("Keyspace update must not contain any table definitions.");
        }
        let schema = self.service.db.update_keyspace(keyspace_def(def)?)?;
        Ok(self.version(&schema))
    }

    /// `system_add_column_family`: the CF goes to `cf_def.keyspace` (spec G22).
    pub(super) fn system_add_column_family(&self, def: &ThriftCf) -> Result<String> {
        let session = self.keyspace().ok_or_else(|| Error::invalid(NO_KEYSPACE))?;
        self.require_login()?;
        self.require_access(&session)?;
        if def.keyspace == SYSTEM_KEYSPACE {
            return invalid(format!("{NOT_MODIFIABLE}."));
        }
        let schema = self.service.db.schema();
        let cf = definitions::column_family(def, None, &schema)?;
        let Some(ks) = schema.keyspace(&def.keyspace) else {
            return invalid(format!(
                "Cannot add table '{}' to non existing keyspace '{}'.",
                def.name, def.keyspace
            ));
        };
        if ks.column_families.contains_key(&def.name) {
            return invalid(format!(
                "Cannot add already existing table \"{}\" to keyspace \"{}\"",
                def.name, def.keyspace
            ));
        }
        let schema = self.service.db.add_column_family(&def.keyspace, cf)?;
        Ok(self.version(&schema))
    }

    /// `system_drop_column_family`: a CF of the session keyspace.
    pub(super) fn system_drop_column_family(&self, column_family: &str) -> Result<String> {
        let schema = self.service.db.schema();
        let (ks, _) = self.column_family(&schema, column_family)?;
        if ks.name == SYSTEM_KEYSPACE {
            return invalid(format!("{NOT_MODIFIABLE}."));
        }
        let schema = self
            .service
            .db
            .drop_column_family(&ks.name, column_family)?;
        Ok(self.version(&schema))
    }

    /// `system_update_column_family`: the CfDef replaces the definition entirely.
    pub(super) fn system_update_column_family(&self, def: &ThriftCf) -> Result<String> {
        if def.keyspace.is_empty() || def.name.is_empty() {
            return invalid("Keyspace and CF name must be set.");
        }
        let schema = self.service.db.schema();
        let ks = schema
            .keyspace(&def.keyspace)
            .ok_or_else(|| Error::invalid(format!("Keyspace {} does not exist", def.keyspace)))?;
        let old = super::session::table(ks, &def.name)?;
        self.require_login()?;
        self.require_access(&def.keyspace)?;
        if def.keyspace == SYSTEM_KEYSPACE {
            return invalid(format!("{NOT_MODIFIABLE}."));
        }
        let new = definitions::column_family(def, Some(old), &schema)?;
        definitions::check_update(old, &new)?;
        let schema = self.service.db.update_column_family(&def.keyspace, new)?;
        Ok(self.version(&schema))
    }
}

/// The keyspace of a KsDef, without column families: strategy class (§5.2), name, options.
fn keyspace_def(def: &KsDef) -> Result<KeyspaceDef> {
    let class = strategy_class(&def.strategy_class)?;
    check_keyspace_name(&def.name)?;
    let mut options = def.strategy_options.clone().unwrap_or_default();
    let short = class.trim_start_matches(LOCATOR);
    let simple = short != "NetworkTopologyStrategy";
    // 0.8–1.0 clients send the factor as a KsDef field (spec G9).
    if simple && !options.contains_key("replication_factor") {
        if let Some(rf) = def.replication_factor {
            options.insert("replication_factor".into(), rf.to_string());
        }
    }
    let rf = check_options(short, &def.name, &options)?;
    let mut ks = placeholder(&def.name);
    ks.replica_placement_strategy = class;
    ks.replication_factor = rf;
    ks.strategy_options = options;
    ks.durable_writes = def.durable_writes.unwrap_or(true);
    Ok(ks)
}

/// An empty keyspace named `name`.
fn placeholder(name: &str) -> KeyspaceDef {
    KeyspaceDef {
        name: name.to_string(),
        replication_factor: 1,
        replica_placement_strategy: format!("{LOCATOR}SimpleStrategy"),
        endpoint_snitch: "org.apache.cassandra.locator.EndPointSnitch".into(),
        column_families: BTreeMap::new(),
        strategy_options: BTreeMap::new(),
        durable_writes: true,
    }
}

/// The full class name of a replication strategy (§5.2).
fn strategy_class(class: &str) -> Result<String> {
    let full = match class.contains('.') {
        true => class.to_string(),
        false => format!("{LOCATOR}{class}"),
    };
    match full.strip_prefix(LOCATOR) {
        Some("SimpleStrategy" | "NetworkTopologyStrategy" | "OldNetworkTopologyStrategy") => {
            Ok(full)
        }
        Some("LocalStrategy") => invalid(
            "Unable to use given strategy class: LocalStrategy is reserved for internal use.",
        ),
        _ => invalid(format!(
            "Unable to find replication strategy class '{full}'"
        )),
    }
}

/// Checks the strategy options (§5.2); returns the replica count of this node's data
/// centre, which decides availability (§6.17).
fn check_options(short: &str, keyspace: &str, options: &BTreeMap<String, String>) -> Result<u32> {
    let count = |v: &String| -> Result<u32> {
        match v.trim().parse::<i64>() {
            Err(_) => invalid(format!("Replication factor must be numeric; found {v}")),
            Ok(n) if n < 0 => invalid(format!(
                "Replication factor must be non-negative; found {v}"
            )),
            Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
        }
    };
    if short == "NetworkTopologyStrategy" {
        if options
            .keys()
            .any(|k| k.eq_ignore_ascii_case("replication_factor"))
        {
            return invalid(
                "replication_factor is an option for SimpleStrategy, not NetworkTopologyStrategy",
            );
        }
        let mut here = 0;
        for (dc, v) in options {
            let n = count(v)?;
            if dc == "datacenter1" {
                here = n;
            }
        }
        return Ok(here);
    }
    if let Some(key) = options.keys().find(|k| *k != "replication_factor") {
        return invalid(format!(
            "Unrecognized strategy option {{{key}}} passed to {short} for keyspace {keyspace}"
        ));
    }
    match options.get("replication_factor") {
        None => invalid("SimpleStrategy requires a replication_factor strategy option."),
        Some(v) => count(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ks(class: &str, options: &[(&str, &str)], rf: Option<i32>) -> KsDef {
        let options: BTreeMap<String, String> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        KsDef::new("Ks".into(), class.into(), options, rf, Vec::new(), None)
    }

    fn why(def: &KsDef) -> String {
        match keyspace_def(def) {
            Err(Error::InvalidRequest(why)) => why,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn strategies_and_their_options() {
        let simple = keyspace_def(&ks("SimpleStrategy", &[("replication_factor", "3")], None));
        let simple = simple.unwrap();
        assert_eq!(
            simple.replica_placement_strategy,
            format!("{LOCATOR}SimpleStrategy")
        );
        assert_eq!(simple.replication_factor, 3);
        assert!(simple.durable_writes);
        // 0.8–1.0 clients: the KsDef field becomes the option (G9).
        let old = keyspace_def(&ks("OldNetworkTopologyStrategy", &[], Some(2))).unwrap();
        assert_eq!(old.strategy_options["replication_factor"], "2");
        let nts = ks(
            "org.apache.cassandra.locator.NetworkTopologyStrategy",
            &[("datacenter1", "2"), ("other", "5")],
            None,
        );
        assert_eq!(keyspace_def(&nts).unwrap().replication_factor, 2);
        let elsewhere = ks("NetworkTopologyStrategy", &[("dc2", "1")], None);
        assert_eq!(keyspace_def(&elsewhere).unwrap().replication_factor, 0);
        assert_eq!(
            why(&ks(
                "NetworkTopologyStrategy",
                &[("Replication_Factor", "1")],
                None
            )),
            "replication_factor is an option for SimpleStrategy, not NetworkTopologyStrategy"
        );
        assert_eq!(
            why(&ks("OldNetworkTopologyStrategy", &[("x", "1")], None)),
            "Unrecognized strategy option {x} passed to OldNetworkTopologyStrategy for keyspace Ks"
        );
        assert_eq!(
            why(&ks("RackUnawareStrategy", &[], None)),
            "Unable to find replication strategy class \
             'org.apache.cassandra.locator.RackUnawareStrategy'"
        );
        assert_eq!(
            why(&ks("NetworkTopologyStrategy", &[("dc", "x")], None)),
            "Replication factor must be numeric; found x"
        );
    }
}
