//! The Rust side's one way to a test configuration: [`TestConf`] is tests/conf/storage-conf.xml
//! with single top-level elements varied (partitioner, CommitLogSync, authenticator, …; the
//! storage engine comes from the environment, [`ENGINE_ENV`]), written with the
//! SimpleAuthenticator files beside it into a test's own directory. Its
//! directories are relative, so they resolve against that directory: in-process servers get
//! it as their working directory, and the binary is started in it.
//!
//! Included by the integration suites (tests/support/mod.rs) and, through `#[path]`, by the
//! crate's own service fixture, so it uses nothing but std.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The environment variable naming the storage engine every test configuration asks for:
/// `sled` (also when unset), `fjall`, or `redis-cluster` (with [`REDIS_ENV`]). CI runs the wire
/// suites once with each.
pub const ENGINE_ENV: &str = "ILION_TEST_ENGINE";

/// The storage engine the tests run on, from [`ENGINE_ENV`].
pub fn test_engine() -> String {
    match std::env::var(ENGINE_ENV) {
        Err(std::env::VarError::NotPresent) => "sled".to_string(),
        Ok(name) if name == "sled" || name == "fjall" || name == REDIS_CLUSTER => name,
        other => panic!("{ENGINE_ENV} must be sled, fjall or {REDIS_CLUSTER}, not {other:?}"),
    }
}

/// The engine name that runs the tests over a Redis Cluster, whose nodes [`REDIS_ENV`]
/// lists (`host:port,host:port…`, as `scripts/redis-cluster.sh up` prints them).
pub const REDIS_CLUSTER: &str = "redis-cluster";

/// The environment variable with the test cluster's nodes.
pub const REDIS_ENV: &str = "ILION_TEST_REDIS";

/// A `<RedisCluster>` element for the test cluster with a namespace no other configuration
/// uses, so every test starts on an empty store.
fn redis_cluster_element() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let seeds = std::env::var(REDIS_ENV)
        .unwrap_or_else(|_| panic!("{ENGINE_ENV}={REDIS_CLUSTER} needs {REDIS_ENV}"));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut element = String::from("<RedisCluster>");
    for seed in seeds.split([',', ' ', '\n']).filter(|s| !s.is_empty()) {
        element.push_str(&format!("<Seed>{seed}</Seed>"));
    }
    element.push_str(&format!(
        "<Namespace>t{}-{nanos:x}-{}</Namespace></RedisCluster>",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    element
}

/// tests/conf, where the configuration and its properties files live.
pub fn conf_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conf")
}

/// The text of a storage-conf.xml, varied element by element.
#[derive(Debug, Clone)]
pub struct TestConf {
    text: String,
    passwd: &'static str,
}

impl Default for TestConf {
    fn default() -> Self {
        TestConf::new()
    }
}

impl TestConf {
    /// tests/conf/storage-conf.xml with the `<StorageEngine>` of [`test_engine`], and
    /// tests/conf/passwd.properties.
    pub fn new() -> TestConf {
        let path = conf_dir().join("storage-conf.xml");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
        let mut conf = TestConf {
            text,
            passwd: "passwd.properties",
        }
        .set("StorageEngine", &test_engine());
        if test_engine() == REDIS_CLUSTER {
            conf.insert(&redis_cluster_element());
        }
        conf
    }

    /// Sets the top-level element `<name>` to `value`: replaced where the file has it,
    /// otherwise added at the end of `<Storage>`.
    pub fn set(mut self, name: &str, value: &str) -> TestConf {
        let element = format!("<{name}>{value}</{name}>");
        match self.span(name) {
            Some(span) => self.text.replace_range(span, &element),
            None => self.insert(&element),
        }
        self
    }

    /// Removes the top-level element `<name>` (the default applies), if the file has it.
    pub fn remove(mut self, name: &str) -> TestConf {
        if let Some(span) = self.span(name) {
            self.text.replace_range(span, "");
        }
        self
    }

    /// `<CommitLogSync>` in `mode` ("batch" or "periodic") with its interval element set to
    /// `interval_ms` (the batch window or the sync period) and the other one removed.
    pub fn commit_log(self, mode: &str, interval_ms: &str) -> TestConf {
        let (interval, other) = match mode {
            "batch" => ("CommitLogSyncBatchWindowInMS", "CommitLogSyncPeriodInMS"),
            "periodic" => ("CommitLogSyncPeriodInMS", "CommitLogSyncBatchWindowInMS"),
            _ => panic!("CommitLogSync mode {mode} is neither batch nor periodic"),
        };
        self.remove(other)
            .set("CommitLogSync", mode)
            .set(interval, interval_ms)
    }

    /// `<Partitioner>` of `short_name` (e.g. "OrderPreservingPartitioner").
    pub fn partitioner(self, short_name: &str) -> TestConf {
        self.set(
            "Partitioner",
            &format!("org.apache.cassandra.dht.{short_name}"),
        )
    }

    /// SimpleAuthenticator instead of AllowAllAuthenticator.
    pub fn simple_auth(self) -> TestConf {
        self.set(
            "Authenticator",
            "org.apache.cassandra.auth.SimpleAuthenticator",
        )
    }

    /// `<PasswordMode>MD5</PasswordMode>`, with tests/conf/passwd-md5.properties written as
    /// passwd.properties.
    pub fn md5_passwords(mut self) -> TestConf {
        self.passwd = "passwd-md5.properties";
        self.set("PasswordMode", "MD5")
    }

    /// `<DataFileDirectories>` holding the one directory `path` (e.g. a restored snapshot)
    /// instead of tests/conf's relative `data`.
    pub fn data_directory(self, path: &Path) -> TestConf {
        self.set(
            "DataFileDirectories",
            &format!("<DataFileDirectory>{}</DataFileDirectory>", path.display()),
        )
    }

    /// The XML text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Writes storage-conf.xml, passwd.properties and access.properties into `dir` and
    /// returns the path of storage-conf.xml.
    pub fn write(&self, dir: &Path) -> PathBuf {
        let from = conf_dir();
        for (source, target) in [
            (self.passwd, "passwd.properties"),
            ("access.properties", "access.properties"),
        ] {
            std::fs::copy(from.join(source), dir.join(target))
                .unwrap_or_else(|e| panic!("copy {source} into {}: {e}", dir.display()));
        }
        let config = dir.join("storage-conf.xml");
        std::fs::write(&config, &self.text).expect("write storage-conf.xml");
        config
    }

    /// The byte range of the top-level `<name>…</name>`, if present.
    fn span(&self, name: &str) -> Option<std::ops::Range<usize>> {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        let start = self.text.find(&open)?;
        let end = start + self.text[start..].find(&close)? + close.len();
        Some(start..end)
    }

    fn insert(&mut self, element: &str) {
        let at = self
            .text
            .rfind("</Storage>")
            .expect("storage-conf.xml ends with </Storage>");
        self.text.insert_str(at, &format!("  {element}\n"));
    }
}
