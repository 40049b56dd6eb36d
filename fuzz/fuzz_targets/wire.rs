//! Connection detection and the splitter (`ilion::fuzzing::wire::split`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ilion::fuzzing::wire::split(data));
