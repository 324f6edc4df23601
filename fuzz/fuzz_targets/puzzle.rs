#![no_main]
//! Fuzzes puzzle through the library entry point.

libfuzzer_sys::fuzz_target!(|data: &[u8]| engine::fuzzing::puzzle(data));
