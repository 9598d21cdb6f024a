//! The shells driven as a user or a client does: the CLI, the MCP server on stdio (through
//! rmcp's client, and raw JSON-RPC lines), and `serve`'s HTTP, TCP and shared-server bridge.

mod cli;
mod mcp;
mod protocol;
mod serve;
