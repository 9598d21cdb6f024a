//! Fuzz target: see `harness::repo_config`.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::repo_config(data);
});
