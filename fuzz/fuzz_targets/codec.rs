//! The codec and every method's argument decode (`ilion::fuzzing::wire::call`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ilion::fuzzing::wire::call(data));
