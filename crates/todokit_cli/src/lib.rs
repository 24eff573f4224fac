//! The `todokit` command's library half: the MCP server, kept out of the
//! `todokit` crate so a host that embeds the library does not build rmcp.
//!
//! The binary (`src/main.rs`) adds the CLI, `watch` and the demo.

pub mod mcp;
