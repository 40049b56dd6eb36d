//! The fuzz targets' entry points (`ilion::fuzzing`, docs/fuzzing.md) run outside libFuzzer:
//! every committed seed in fuzz/corpus/ must pass its target's checks, and each input that
//! once made a target fail is kept here as a named test with the bytes that did it.

use ilion::fuzzing::{dispatch, files, store, wire};
use std::path::Path;

/// Runs every seed of `target` through `run`; a seed that fails names itself.
fn replay_corpus(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.expect("corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no seeds in {}", dir.display());
    for file in files {
        let data = std::fs::read(&file).expect("seed");
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "seed {} fails its target", file.display());
    }
}

fn connection(data: &[u8]) {
    dispatch::connection(data, &dispatch::NoMeter);
}

#[test]
fn wire_seeds_pass() {
    replay_corpus("wire", wire::split);
}

#[test]
fn codec_seeds_pass() {
    replay_corpus("codec", wire::call);
}

#[test]
fn dispatch_seeds_pass() {
    replay_corpus("dispatch", connection);
}

#[test]
fn config_seeds_pass() {
    replay_corpus("config", files::config);
}

#[test]
fn store_seeds_pass() {
    replay_corpus("store", store::corrupted);
}
