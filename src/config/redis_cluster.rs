//! `<RedisCluster>` (ilion extension): where the `redis-cluster` storage engine finds its
//! cluster and which namespace its keys live under (docs/redis.md#configuration).

use super::raw::RedisClusterChild;
use super::RedisClusterSettings;
use crate::error::{Error, Result};

/// The settings of a `<RedisCluster>` element (`children`), required when the engine is
/// `redis-cluster`. The namespace defaults to the cluster's name.
pub(super) fn settings(
    children: Option<&[RedisClusterChild]>,
    cluster_name: &str,
) -> Result<RedisClusterSettings> {
    let children = children.ok_or_else(|| {
        Error::config(
            "RedisCluster",
            "is required when StorageEngine is redis-cluster",
        )
    })?;
    let mut seeds = Vec::new();
    let mut namespace = None;
    for child in children {
        match child {
            RedisClusterChild::Seed(Some(seed)) => {
                let port = seed.rsplit_once(':').map(|(_, port)| port.parse::<u16>());
                if !matches!(port, Some(Ok(p)) if p > 0) {
                    return Err(Error::config(
                        "RedisCluster/Seed",
                        format!("must be host:port, not '{seed}'"),
                    ));
                }
                seeds.push(seed.clone());
            }
            RedisClusterChild::Namespace(Some(_)) if namespace.is_some() => {
                return Err(Error::config(
                    "RedisCluster/Namespace",
                    "appears more than once",
                ));
            }
            RedisClusterChild::Namespace(Some(name)) => namespace = Some(name.clone()),
            _ => {}
        }
    }
    if seeds.is_empty() {
        return Err(Error::config(
            "RedisCluster/Seed",
            "at least one is required",
        ));
    }
    let namespace = namespace.unwrap_or_else(|| cluster_name.to_string());
    // A brace would start Redis Cluster's hash tag inside the namespace and move keys to
    // other slots than the engine computes.
    if namespace.contains(['{', '}']) {
        return Err(Error::config(
            "RedisCluster/Namespace",
            format!("must not contain braces, not '{namespace}'"),
        ));
    }
    Ok(RedisClusterSettings { seeds, namespace })
}

#[cfg(test)]
mod tests {
    use crate::config::tests::MINIMAL;
    use crate::config::{Config, RedisClusterSettings, StorageEngine};
    use std::path::Path;

    fn parse(extra: &str) -> crate::Result<Config> {
        let text = MINIMAL.replacen("<Storage>", &format!("<Storage>{extra}"), 1);
        Config::from_xml(&text, Path::new("/etc/ilion"), Path::new("/srv"))
    }

    #[test]
    fn the_redis_cluster_engine_reads_its_seeds_and_namespace() {
        let c = parse(
            "<StorageEngine>redis-cluster</StorageEngine>\
             <RedisCluster><Seed>127.0.0.1:7100</Seed><Namespace>prod</Namespace>\
             <Seed>10.0.0.2:7000</Seed></RedisCluster>",
        )
        .unwrap();
        assert_eq!(c.storage_engine, StorageEngine::RedisCluster);
        assert_eq!(
            c.redis_cluster,
            Some(RedisClusterSettings {
                seeds: vec!["127.0.0.1:7100".into(), "10.0.0.2:7000".into()],
                namespace: "prod".into(),
            })
        );
        // The namespace defaults to the cluster's name.
        let c = parse(
            "<ClusterName>Blue</ClusterName><StorageEngine>redis-cluster</StorageEngine>\
             <RedisCluster><Seed>h:1</Seed></RedisCluster>",
        )
        .unwrap();
        assert_eq!(c.redis_cluster.unwrap().namespace, "Blue");
        // Other engines ignore the element.
        let c = parse("<RedisCluster><Seed>h:1</Seed></RedisCluster>").unwrap();
        assert_eq!(c.redis_cluster, None);
    }

    #[test]
    fn bad_redis_cluster_settings_are_refused() {
        let engine = "<StorageEngine>redis-cluster</StorageEngine>";
        let cases = [
            (
                String::new(),
                "is required when StorageEngine is redis-cluster",
            ),
            (
                "<RedisCluster></RedisCluster>".to_string(),
                "at least one is required",
            ),
            (
                "<RedisCluster><Seed>localhost</Seed></RedisCluster>".to_string(),
                "must be host:port, not 'localhost'",
            ),
            (
                "<RedisCluster><Seed>h:1</Seed><Namespace>a{b}</Namespace></RedisCluster>"
                    .to_string(),
                "must not contain braces",
            ),
        ];
        for (element, message) in cases {
            let err = parse(&format!("{engine}{element}"))
                .unwrap_err()
                .to_string();
            assert!(err.contains(message), "{err}");
        }
    }
}
