//! The MCP server's tests through its public API, in one binary: a
//! session served in process over stdio's framing (`todokit_mcp::serve`)
//! or over HTTP (`todokit_mcp::http::run`), spoken to as a client does.

mod listen;
mod metrics;
mod support;
