//! The durability watermark: a small file beside the engine's own, recording the highest
//! store generation known to be on disk. sled and fjall recover from a crash by dropping a
//! torn tail, and treat a damaged log the same way — they open what they can read, silently.
//! Every sync stamps a generation number into the store; the watermark file (rewritten
//! atomically, at most once a second and at close) remembers the last synced one. At start-up a store whose generation
//! is below the watermark has lost writes that were durable: it is damaged, and ilion refuses
//! to serve it rather than carry on with a silently shorter history.

use super::keys::meta_key;
use super::small_file::write_durably;
use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The file's name inside the store directory.
pub const FILE_NAME: &str = "ilion-watermark";

/// Least time between two rewrites of the file (each costs two fsyncs).
const MIN_INTERVAL: Duration = Duration::from_secs(1);

/// The meta key holding the store's generation.
pub fn generation_key() -> Vec<u8> {
    meta_key(b"generation")
}

/// The watermark file of one store directory.
#[derive(Debug)]
pub struct Watermark {
    path: PathBuf,
    last_written: Mutex<Option<Instant>>,
}

impl Watermark {
    /// The watermark of the store in `dir`.
    pub fn in_dir(dir: &Path) -> Watermark {
        Watermark {
            path: dir.join(FILE_NAME),
            last_written: Mutex::new(None),
        }
    }

    /// The recorded generation, or 0 when there is no file yet.
    pub fn read(&self) -> Result<u64> {
        match fs::read_to_string(&self.path) {
            Ok(text) => text.trim().parse().map_err(|_| {
                Error::Corrupt(format!(
                    "{} does not hold a generation number",
                    self.path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
            Err(e) => Err(Error::Storage(format!(
                "cannot read {}: {e}",
                self.path.display()
            ))),
        }
    }

    /// Refuses a store whose generation fell below the watermark.
    pub fn check(&self, store_generation: u64) -> Result<()> {
        let recorded = self.read()?;
        if store_generation < recorded {
            return Err(Error::Corrupt(format!(
                "the store in {} is damaged: it reads as generation {store_generation}, but \
                 generation {recorded} was already on disk (the engine dropped data it could not \
                 read). Restore it from a backup; if you restored an older copy on purpose, \
                 delete {} to accept it",
                self.path.parent().unwrap_or(Path::new(".")).display(),
                self.path.display(),
            )));
        }
        Ok(())
    }

    /// Records `generation`, unless the file was written less than a second ago and
    /// `force` is false.
    pub fn advance(&self, generation: u64, force: bool) -> Result<()> {
        let mut last = self.last_written.lock().unwrap_or_else(|p| p.into_inner());
        if !force && last.is_some_and(|t| t.elapsed() < MIN_INTERVAL) {
            return Ok(());
        }
        write_durably(&self.path, generation.to_string().as_bytes())?;
        *last = Some(Instant::now());
        Ok(())
    }
}
