#![no_main]
//! Fuzzes piece through the library entry point.

libfuzzer_sys::fuzz_target!(|data: &[u8]| engine::fuzzing::piece(data));
