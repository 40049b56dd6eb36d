//! The methods about the cluster rather than its data (`docs/api.md#describe`, `#auth`): login,
//! the `describe_*` family and the two deprecated property getters. None of them needs a login.
//! This node is the whole ring: one token, one endpoint, one range `(T, T]` — unless it is one
//! of several front ends over a shared store (`redis-cluster`), which split the ring evenly.

use super::errors::{self, DESCRIBE_SPLITS};
use super::Session;
use crate::config::{CfDef, SYSTEM_KEYSPACE};
use crate::error::{Error, Result};
use crate::partitioner::{Partitioner, RandomToken};
use crate::protocol::{AuthenticationRequest, TokenRange, VERSION};
use std::collections::{BTreeMap, BTreeSet};

impl Session {
    /// `login`: checks the credentials for `keyspace`; success is remembered for the rest of
    /// the connection, and a later failure does not forget it.
    pub(crate) fn login(&self, keyspace: &str, request: &AuthenticationRequest) -> Result<()> {
        self.service.auth.login(keyspace, &request.credentials)?;
        self.set_logged_in();
        Ok(())
    }

    /// `describe_keyspaces`: every keyspace name, `system` included.
    pub(crate) fn describe_keyspaces(&self) -> BTreeSet<String> {
        self.service.schema().keyspaces.keys().cloned().collect()
    }

    /// `describe_cluster_name`.
    pub(crate) fn describe_cluster_name(&self) -> String {
        self.service.config.cluster_name.clone()
    }

    /// `describe_version`: the IDL's VERSION.
    pub(crate) fn describe_version(&self) -> String {
        VERSION.to_string()
    }

    /// `describe_partitioner`: the partitioner's full class name.
    pub(crate) fn describe_partitioner(&self) -> String {
        self.service.db.partitioner().class_name()
    }

    /// `describe_keyspace`: per column family its type, comparators and description;
    /// NotFoundException for an unknown keyspace (`docs/compatibility.md#d8`). Counter CFs
    /// are left out: the 0.6 API cannot reach them (`docs/api-later.md#counters`); their
    /// keyspace is still listed by `describe_keyspaces`.
    pub(crate) fn describe_keyspace(
        &self,
        keyspace: &str,
    ) -> Result<BTreeMap<String, BTreeMap<String, String>>> {
        let schema = self.service.schema();
        let ks = schema.keyspace(keyspace).ok_or(Error::NotFound)?;
        Ok(ks
            .column_families
            .values()
            .filter(|cf| !cf.is_counter())
            .map(|cf| (cf.name.clone(), describe_cf(keyspace, cf)))
            .collect())
    }

    /// `describe_ring`: the one range `(T, T]` of this node, for a non-system keyspace; over
    /// a shared store with several live front ends, one range each (see [`shared_ring`]).
    pub(crate) fn describe_ring(&self, keyspace: &str) -> Result<Vec<TokenRange>> {
        let configured = self.service.schema().keyspace(keyspace).is_some();
        if keyspace == SYSTEM_KEYSPACE || !configured {
            return Err(Error::invalid(format!(
                "There is no ring for the keyspace: {keyspace}"
            )));
        }
        // One front end alone is the whole ring, as a single node is.
        if let Some(front_ends) = self.service.db.front_ends()?.filter(|f| f.len() > 1) {
            return Ok(shared_ring(self.service.db.partitioner(), &front_ends));
        }
        let token = self.service.db.token().to_string();
        let endpoints = vec![self.service.endpoint().to_string()];
        Ok(vec![TokenRange::new(token.clone(), token, endpoints)])
    }

    /// `describe_splits`: `[start, t1, …, end]` with a split point every `keys_per_split` row
    /// tokens. Bad input is an INTERNAL_ERROR, as the method declares no exception; for a token
    /// string its message is the D4 text (`docs/compatibility.md#d5`).
    pub(crate) fn describe_splits(
        &self,
        start: &str,
        end: &str,
        keys_per_split: i32,
    ) -> thrift::Result<Vec<String>> {
        let partitioner = self.service.db.partitioner();
        let parse = |s: &str| {
            partitioner.parse_token(s).map_err(|e| match e {
                Error::InvalidRequest(why) => errors::internal_with_message(DESCRIBE_SPLITS, why),
                other => errors::to_thrift(DESCRIBE_SPLITS, other),
            })
        };
        let (start, end) = (parse(start)?, parse(end)?);
        let per_split = usize::try_from(keys_per_split)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                errors::internal_with_message(
                    DESCRIBE_SPLITS,
                    format!("keys_per_split must be positive, not {keys_per_split}"),
                )
            })?;
        let inner = self
            .service
            .db
            .split_tokens(&start, &end, per_split)
            .map_err(|e| errors::to_thrift(DESCRIBE_SPLITS, e))?;
        let mut out = Vec::with_capacity(inner.len() + 2);
        out.push(start.to_string());
        out.extend(inner.iter().map(ToString::to_string));
        out.push(end.to_string());
        Ok(out)
    }

    /// `get_string_property`: "cluster name", "config file", "token map", "version"; "?"
    /// for anything else.
    pub(crate) fn get_string_property(&self, property: &str) -> String {
        let config = &self.service.config;
        match property {
            "cluster name" => config.cluster_name.clone(),
            "config file" => config.config_text.clone(),
            "token map" => {
                let mut map = serde_json::Map::new();
                let endpoint = self.service.endpoint().to_string();
                map.insert(self.service.db.token().java_to_string(), endpoint.into());
                serde_json::Value::Object(map).to_string()
            }
            "version" => VERSION.to_string(),
            _ => "?".to_string(),
        }
    }

    /// `get_string_list_property`: "keyspaces" lists every keyspace; anything else nothing.
    pub(crate) fn get_string_list_property(&self, property: &str) -> Vec<String> {
        match property {
            "keyspaces" => self.describe_keyspaces().into_iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// The attribute map describe_keyspace gives one column family.
fn describe_cf(keyspace: &str, cf: &CfDef) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    out.insert("Type".to_string(), cf.column_type.as_str().to_string());
    out.insert("CompareWith".to_string(), cf.comparator.class_name());
    if let Some(sub) = cf.subcomparator.filter(|_| cf.is_super()) {
        out.insert("CompareSubcolumnsWith".to_string(), sub.class_name());
    }
    let desc = match &cf.comment {
        Some(comment) => comment.clone(),
        None => generated_description(keyspace, cf),
    };
    out.insert("Desc".to_string(), desc);
    out
}

/// 0.6's description of a CF without a comment. Its last line ends in a Java identity hash;
/// ilion puts a stable hash of the CF's name there, so the text is the same on every call.
fn generated_description(keyspace: &str, cf: &CfDef) -> String {
    let qualified = format!("{keyspace}.{}", cf.name);
    format!(
        "{qualified}\nColumn Family Type: {}\nColumns Sorted By: {}@{:08x}",
        cf.column_type.as_str(),
        cf.comparator.class_name(),
        fnv1a(qualified.as_bytes())
    )
}

/// 32-bit FNV-1a: a stable stand-in for an identity hash.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash, &b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The ring of the front ends sharing one store (docs/redis.md#ring): any of them serves any
/// key, so their tokens just split the ring evenly, to spread the load of ring-aware
/// clients. Front end `i` of `n` (in endpoint order) owns `(t(i-1), t(i)]`: under
/// RandomPartitioner `t(i) = i · 2^127 / n`; under Murmur3Partitioner `t(i) = −2^63 + i · 2^64 /
/// n`; under the order-preserving partitioners the first character (OPP, one of 128 ASCII
/// values) or byte (COPP, BOP: hex) is split the same way.
fn shared_ring(partitioner: Partitioner, front_ends: &[String]) -> Vec<TokenRange> {
    let n = front_ends.len() as u128;
    let token = |i: u128| -> String {
        match partitioner {
            Partitioner::Random => RandomToken::from_value(i * ((1u128 << 127) / n)).to_string(),
            Partitioner::OrderPreserving => match i {
                0 => String::new(),
                _ => char::from((i * 128 / n) as u8).to_string(),
            },
            Partitioner::CollatingOrderPreserving | Partitioner::ByteOrdered => match i {
                0 => String::new(),
                _ => format!("{:02x}", i * 256 / n),
            },
            // i < n ≤ u64::MAX, so the offset fits in 64 bits.
            Partitioner::Murmur3 => {
                let offset = (i * (1u128 << 64) / n) as u64;
                (i64::MIN as u64)
                    .wrapping_add(offset)
                    .cast_signed()
                    .to_string()
            }
        }
    };
    (0..n)
        .zip(front_ends)
        .map(|(i, endpoint)| {
            let start = token((i + n - 1) % n);
            TokenRange::new(start, token(i), vec![endpoint.clone()])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(partitioner: Partitioner, n: usize) -> Vec<String> {
        let front_ends: Vec<String> = (0..n).map(|i| format!("10.0.0.{i}")).collect();
        shared_ring(partitioner, &front_ends)
            .into_iter()
            .map(|r| r.end_token)
            .collect()
    }

    #[test]
    fn compare_with_is_the_full_type_string_of_a_later_comparator() {
        let t = crate::types::DataType::parse("CompositeType(UTF8Type,ReversedType(LongType))")
            .unwrap();
        let cf = CfDef {
            name: "Comp".into(),
            column_type: crate::config::ColumnType::Super,
            comparator: crate::comparator::Comparator::of_type(&t),
            subcomparator: Some(crate::comparator::Comparator::Long),
            comment: Some("c".into()),
            later: Default::default(),
        };
        let m = "org.apache.cassandra.db.marshal.";
        let described = describe_cf("Ks", &cf);
        assert_eq!(
            described["CompareWith"],
            format!("{m}CompositeType({m}UTF8Type,{m}ReversedType({m}LongType))")
        );
        assert_eq!(described["CompareSubcolumnsWith"], format!("{m}LongType"));
    }

    #[test]
    fn shared_rings_of_the_later_partitioners_split_evenly() {
        assert_eq!(ends(Partitioner::Murmur3, 2), ["-9223372036854775808", "0"]);
        assert_eq!(
            ends(Partitioner::Murmur3, 4),
            [
                "-9223372036854775808",
                "-4611686018427387904",
                "0",
                "4611686018427387904"
            ]
        );
        assert_eq!(ends(Partitioner::ByteOrdered, 2), ["", "80"]);
        // Every token parses back under its partitioner.
        for p in [Partitioner::Murmur3, Partitioner::ByteOrdered] {
            for t in ends(p, 3) {
                assert!(p.parse_token(&t).is_ok(), "{p:?} {t}");
            }
        }
    }
}
