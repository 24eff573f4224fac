//! Every end-to-end test of the `todokit` command, in one test binary: a
//! module per area, the helpers they share in [`support`]. One binary links
//! the command, axum, rmcp and the PostgreSQL client once, where a binary
//! per file linked them once each.

mod support;

mod acp;
mod agents;
mod board_browser;
mod board_sessions;
mod claims;
mod cli;
mod cli_hardening;
mod cli_schemas;
mod conversations_cli;
mod durability;
mod forget_gone;
mod hand_edits;
mod mcp;
mod mcp_limits;
mod mcp_resources;
mod modes;
mod readme_shell;
mod serve;
mod serve_direct;
mod serve_edge;
mod serve_hardening;
mod serve_mcp;
mod serve_scale;
mod serve_tenants;
mod serve_threads;
mod setup;
mod store_oddities;
mod subscribe;
mod subtasks;
mod summaries;
mod upstream_check;
mod user_side;
mod watch;
