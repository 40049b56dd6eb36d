//! A damaged store opened, read and written (`ilion::fuzzing::store::corrupted`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ilion::fuzzing::store::corrupted(data));
