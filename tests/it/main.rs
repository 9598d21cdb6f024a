//! The one integration-test binary, laid out like the code: `tools/` by tool family (the
//! files of crates/tools/src), `shells/` the ways in (the CLI, MCP on stdio, `serve`'s HTTP, TCP
//! and bridge), `invariants/` what holds everywhere (the crate graph, security, the answer
//! budget, load limits, deep nesting, freshness, the fuzz inputs replayed) and `oracles/` the
//! comparisons with javac and the JDK on real corpora. One binary links tokio, rmcp and hyper
//! once instead of once per file. Run a part with a filter on its module path:
//! `cargo test --test it -- oracles::xref_javac`.

mod common;
mod invariants;
mod oracles;
mod shells;
mod tools;
