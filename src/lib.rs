//! mcp-java-index: IDE-grade navigation of Java code for LLM agents, as an MCP server and CLI.
//!
//! The core (`model`, `parser`, `index`, `cache`, `problems`) is synchronous and free of async, protocol
//! and CLI crates; `tools` puts typed arguments and results around it; `cli` and `mcp_server`
//! are the shells. See ARCHITECTURE.md.

pub mod cache;
pub mod cli;
pub mod config;
pub mod index;
pub mod mcp_server;
pub mod model;
pub mod parser;
pub mod problems;
pub mod tools;
pub mod xref;
