#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bolide_host::fuzzing::head(data));
