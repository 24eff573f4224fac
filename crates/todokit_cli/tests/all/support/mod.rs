//! What the test modules share, one module per kind of real part: the
//! command ([`cli`]), the test binary run again as a child ([`harness`]),
//! a user's home folder and project ([`machine`]), the MCP server over
//! stdio ([`mcp`]), the official
//! SDKs' clients run by node ([`node`]), `todokit serve` and a browser
//! ([`serve`]), a pseudo-terminal ([`tmux`]).

pub mod cli;
pub mod harness;
pub mod machine;
pub mod mcp;
pub mod node;
pub mod serve;
pub mod tmux;
