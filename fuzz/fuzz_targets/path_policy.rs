//! Fuzz target: see `harness::path_policy`.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = harness::path_policy(data);
});
