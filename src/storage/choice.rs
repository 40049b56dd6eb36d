//! Which engine a data directory holds. The engine is chosen once, when the store is
//! created: the file `ilion-engine` (the engine's name in ASCII) is written before the engine
//! creates its own files. An existing store is always reopened with the engine that wrote it,
//! whatever the configuration asks for; a store from before the file existed is sled's (its
//! `conf` and `db` files say so).

use super::small_file::write_durably;
use super::{Engine, FjallEngine, SledEngine};
use crate::error::{Error, Result};
use std::fs;
use std::path::Path;
use std::sync::Arc;

/// The marker file's name inside the store directory.
pub const ENGINE_FILE: &str = "ilion-engine";

/// Files ilion itself keeps beside an engine's (the marker, the watermark, the trial file
/// of a recovery, and fjall's key layout).
const ILION_FILES: [&str; 7] = [
    ENGINE_FILE,
    "ilion-engine.tmp",
    super::watermark::FILE_NAME,
    "ilion-watermark.tmp",
    super::recovery::PROBE_FILE,
    super::fjall_engine::LAYOUT_FILE,
    "ilion-key-layout.tmp",
];

/// The storage engines a data directory can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    /// [`SledEngine`]: a log-structured B-tree (the default).
    Sled,
    /// [`FjallEngine`]: an LSM tree with journal, memtable and sorted tables.
    Fjall,
}

impl EngineKind {
    /// The name used in `<StorageEngine>` and in the marker file.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Sled => "sled",
            EngineKind::Fjall => "fjall",
        }
    }

    /// The kind named `name` (as written by [`EngineKind::name`]).
    pub fn from_name(name: &str) -> Option<EngineKind> {
        match name {
            "sled" => Some(EngineKind::Sled),
            "fjall" => Some(EngineKind::Fjall),
            _ => None,
        }
    }
}

/// An opened engine and the kind it is.
pub struct OpenedEngine {
    /// The engine.
    pub engine: Arc<dyn Engine>,
    /// Its kind: the requested one for a new store, otherwise the one that wrote it.
    pub kind: EngineKind,
}

/// Opens the store in `dir`: a new (missing or empty) directory with `requested`, an existing
/// store with the engine that wrote it, logging a warning when that differs from
/// `requested`. `cache_bytes` sizes the engine's cache. A non-empty directory that is no
/// ilion store is refused.
pub fn open_engine(dir: &Path, requested: EngineKind, cache_bytes: u64) -> Result<OpenedEngine> {
    let kind = match recorded_kind(dir)? {
        Some(kind) => kind,
        None => {
            record_kind(dir, requested)?;
            requested
        }
    };
    if kind != requested {
        tracing::warn!(
            "StorageEngine is {} but the store in {} was created by {}; opening it with {} \
             (an existing store always keeps its engine)",
            requested.name(),
            dir.display(),
            kind.name(),
            kind.name(),
        );
    }
    let engine: Arc<dyn Engine> = match kind {
        EngineKind::Sled => Arc::new(SledEngine::open(dir, cache_bytes)?),
        EngineKind::Fjall => Arc::new(FjallEngine::open(dir, cache_bytes)?),
    };
    Ok(OpenedEngine { engine, kind })
}

/// Opens the `redis-cluster` engine: the store lives in the cluster, not in a data
/// directory, so there is no marker file to consult (docs/redis.md).
pub fn open_redis_cluster(
    options: super::RedisOptions,
    partitioner: crate::partitioner::Partitioner,
) -> Result<Arc<dyn Engine>> {
    Ok(Arc::new(super::RedisEngine::open(options, partitioner)?))
}

/// The engine that wrote the store in `dir`, or None for a new store.
fn recorded_kind(dir: &Path) -> Result<Option<EngineKind>> {
    let marker = dir.join(ENGINE_FILE);
    match fs::read_to_string(&marker) {
        Ok(text) => EngineKind::from_name(text.trim()).map(Some).ok_or_else(|| {
            Error::Corrupt(format!(
                "{} does not name a storage engine (sled or fjall)",
                marker.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if !dir.exists() || holds_only_ilion_files(dir)? {
                Ok(None)
            } else if dir.join("conf").is_file() && dir.join("db").is_file() {
                // Written before the marker existed, when sled was the only engine.
                Ok(Some(EngineKind::Sled))
            } else {
                Err(Error::Corrupt(format!(
                    "{} is not empty but holds no ilion store (no `{ENGINE_FILE}` file); \
                     point the configuration at an empty or ilion-owned directory",
                    dir.display()
                )))
            }
        }
        Err(e) => Err(Error::Storage(format!(
            "cannot read {}: {e}",
            marker.display()
        ))),
    }
}

/// Writes the marker of a new store durably (file and directory entry fsynced).
fn record_kind(dir: &Path, kind: EngineKind) -> Result<()> {
    fs::create_dir_all(dir)
        .map_err(|e| Error::Storage(format!("cannot create {}: {e}", dir.display())))?;
    write_durably(&dir.join(ENGINE_FILE), kind.name().as_bytes())
}

/// True when `dir` holds nothing but ilion's own files (a store not yet created by its
/// engine).
pub(super) fn holds_only_ilion_files(dir: &Path) -> Result<bool> {
    let entries = fs::read_dir(dir)
        .map_err(|e| Error::Storage(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let name = entry?.file_name();
        if !ILION_FILES.iter().any(|f| name == *f) {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
