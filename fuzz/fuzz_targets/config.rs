//! storage-conf.xml and the properties files (`ilion::fuzzing::files::config`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ilion::fuzzing::files::config(data));
