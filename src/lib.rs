//! mcp-java-index: IDE-grade navigation of Java code for LLM agents, as an MCP server and CLI.
//!
//! This package is the command-line shell and the binary. The layers are crates under
//! `crates/` (see ARCHITECTURE.md); they are re-exported here under their layer names so the
//! tests and benchmarks reach every layer through one path.

pub mod cli;

pub use mji_build as build;
pub use mji_cache as cache;
pub use mji_classfile as classfile;
pub use mji_config as config;
pub use mji_edit as edit;
pub use mji_editor as editor;
pub use mji_fs as fs;
pub use mji_index as index;
pub use mji_lsp as lsp;
pub use mji_model as model;
pub use mji_parser as parser;
pub use mji_problems as problems;
pub use mji_scip as scip;
pub use mji_server as mcp_server;
pub use mji_tools as tools;
pub use mji_xref as xref;
