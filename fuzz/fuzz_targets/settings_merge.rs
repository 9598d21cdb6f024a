//! Fuzz target: see `harness::settings_merge`.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::settings_merge(data);
});
