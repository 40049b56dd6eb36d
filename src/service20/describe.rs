//! The later API's calls about the cluster rather than its data
//! (`docs/api-later.md#describe`): this node is the whole ring — one token, one endpoint, one
//! range `(T, T]` in data centre `datacenter1`, rack `rack1` (spec G5, G6) — and the
//! keyspaces are those of the stored schema (`Db::schema`), described by `schema`.

use super::schema::{self, LOCAL_STRATEGY};
use super::Session20;
use crate::config::SYSTEM_KEYSPACE;
use crate::error::{Error, Result};
use crate::protocol::v20::generated::{EndpointDetails, KsDef, TokenRange};
use std::collections::BTreeMap;

/// `describe_snitch` (spec G6).
pub(super) const SNITCH: &str = "org.apache.cassandra.locator.SimpleSnitch";

impl Session20 {
    /// `describe_keyspaces`: every keyspace sorted by name, `system` included (spec G8).
    pub(super) fn describe_keyspaces(&self) -> Result<Vec<KsDef>> {
        self.require_login()?;
        let grace = self.service.config.gc_grace_seconds;
        let schema = self.service.db.schema();
        Ok(schema
            .keyspaces
            .values()
            .map(|ks| schema::ks_def(ks, grace))
            .collect())
    }

    /// `describe_keyspace`: NotFoundException for a keyspace that does not exist
    /// (case-sensitive).
    pub(super) fn describe_keyspace(&self, keyspace: &str) -> Result<KsDef> {
        self.require_login()?;
        let grace = self.service.config.gc_grace_seconds;
        let schema = self.service.db.schema();
        let ks = schema.keyspace(keyspace).ok_or(Error::NotFound)?;
        Ok(schema::ks_def(ks, grace))
    }

    /// `describe_cluster_name`: `<ClusterName>`.
    pub(super) fn describe_cluster_name(&self) -> String {
        self.service.config.cluster_name.clone()
    }

    /// `describe_version`: `<Thrift20Version>`, 20.1.0 by default (spec G1).
    pub(super) fn describe_version(&self) -> String {
        self.service.config.thrift20.version.clone()
    }

    /// `describe_partitioner`: the partitioner's full class name.
    pub(super) fn describe_partitioner(&self) -> String {
        self.service.db.partitioner().class_name()
    }

    /// `describe_ring` and `describe_local_ring` (one data centre, so the same): the range
    /// `(T, T]`, with no endpoints when the keyspace places no replica here.
    pub(super) fn describe_ring(&self, keyspace: &str) -> Result<Vec<TokenRange>> {
        let grace = self.service.config.gc_grace_seconds;
        let ks = self
            .service
            .db
            .schema()
            .keyspace(keyspace)
            .map(|ks| schema::ks_def(ks, grace))
            .ok_or_else(|| Error::invalid(format!("No such keyspace: {keyspace}")))?;
        if keyspace == SYSTEM_KEYSPACE || ks.strategy_class == LOCAL_STRATEGY {
            return Err(Error::invalid(format!(
                "There is no ring for the keyspace: {keyspace}"
            )));
        }
        let token = self.service.db.token().to_string();
        let listen = self.service.listen_address().to_string();
        let rpc = self.service.rpc_address().to_string();
        let (endpoints, rpc_endpoints, details) = match places_replica_here(&ks) {
            true => (
                vec![listen.clone()],
                vec![rpc],
                vec![EndpointDetails::new(
                    listen,
                    "datacenter1".to_string(),
                    "rack1".to_string(),
                )],
            ),
            false => (Vec::new(), Vec::new(), Vec::new()),
        };
        Ok(vec![TokenRange::new(
            token.clone(),
            token,
            endpoints,
            rpc_endpoints,
            details,
        )])
    }

    /// `describe_token_map`: this node's token → its listen address.
    pub(super) fn describe_token_map(&self) -> BTreeMap<String, String> {
        let token = self.service.db.token().to_string();
        BTreeMap::from([(token, self.service.listen_address().to_string())])
    }

    /// `describe_schema_versions`: the one version, held by this node.
    pub(super) fn describe_schema_versions(&self) -> BTreeMap<String, Vec<String>> {
        let version = schema::schema_version(
            &self.service.db.schema(),
            self.service.config.gc_grace_seconds,
        );
        let listen = self.service.listen_address().to_string();
        BTreeMap::from([(version, vec![listen])])
    }

    /// `trace_next_query`: a fresh version-1 UUID; no trace is recorded (spec G10).
    pub(super) fn trace_next_query(&self) -> Vec<u8> {
        self.set_trace_next(true);
        crate::types::new_time_uuid().as_bytes().to_vec()
    }
}

/// Whether the keyspace's replication places a replica in this node's data centre
/// (`datacenter1`): a replication factor of at least 1 (spec G3).
fn places_replica_here(ks: &KsDef) -> bool {
    let options = ks.strategy_options.clone().unwrap_or_default();
    let count = match ks.strategy_class.rsplit('.').next() {
        Some("NetworkTopologyStrategy") => options.get("datacenter1"),
        _ => options.get("replication_factor"),
    };
    count
        .and_then(|c| c.trim().parse::<u64>().ok())
        .is_some_and(|n| n >= 1)
}
