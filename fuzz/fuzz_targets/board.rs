#![no_main]
//! Fuzzes board through the library entry point.

libfuzzer_sys::fuzz_target!(|data: &[u8]| engine::fuzzing::board(data));
