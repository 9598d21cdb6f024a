//! Fuzz target: see `harness::jsonrpc`.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = harness::jsonrpc(data);
});
