//! The shells driven as a user or a client does: the CLI, the MCP server on stdio (through
//! rmcp's client, and raw JSON-RPC lines), `serve`'s HTTP, TCP and shared-server bridge, and
//! the language server (`lsp`, through pygls' client) and the install commands (`setup`,
//! `doctor`, completions).

mod cli;
mod install;
mod lsp;
mod mcp;
mod parity;
mod protocol;
mod serve;
