//! The fuzz targets' entry points (`ilion::fuzzing`, docs/fuzzing.md) run outside libFuzzer:
//! every committed seed in fuzz/corpus/ must pass its target's checks, and each input that
//! once made a target fail is kept here as a named test with the bytes that did it.

use ilion::fuzzing::{dispatch, files, store, wire};
use std::path::Path;
use std::sync::Once;

/// libFuzzer's default memory limit, as an address-space cap for this test process: an input
/// that once made a target allocate gigabytes fails here too (the allocation aborts the
/// process) instead of passing slowly on a machine with memory to spare.
const ADDRESS_SPACE_BYTES: u64 = 2 << 30;

fn cap_memory() {
    static CAP: Once = Once::new();
    CAP.call_once(|| {
        rlimit::Resource::AS
            .set(ADDRESS_SPACE_BYTES, ADDRESS_SPACE_BYTES)
            .expect("cap the address space");
    });
}

/// Runs every seed of `target` through `run`; a seed that fails names itself.
fn replay_corpus(target: &str, run: fn(&[u8])) {
    cap_memory();
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

/// Found by the store target in CI's smoke run: four flipped bytes of the catalog gave a
/// column family a huge storage id, and the per-CF statistics were a vector indexed by id
/// (2.9 GB allocated at open). They are now looked up by id.
#[test]
fn store_flipped_value_does_not_exhaust_memory() {
    cap_memory();
    store::corrupted(&[0x02, 0x05, 0x28, 0x00, 0x01, 0xff, 0x23, 0x23]);
}
