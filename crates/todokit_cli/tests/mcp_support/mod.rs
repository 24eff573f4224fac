//! What the MCP tests share: the server as a child process, the handshake,
//! and a look at the store through the CLI.

#![allow(dead_code)]

use std::path::Path;

use rmcp::transport::ConfigureCommandExt;
use serde_json::{Value, json};

/// `todokit mcp` on `store` for `profile`, free of the caller's environment.
pub fn command(store: &Path, profile: &str) -> tokio::process::Command {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_todokit")).configure(|c| {
        c.arg("--store").arg(store).args(["--profile", profile, "mcp"]);
        c.env_remove("TODOKIT_CONVERSATION")
            .env_remove("TODOKIT_STORE")
            .env_remove("TODOKIT_PROFILE");
    })
}

/// The two messages that open a raw session, as lines.
pub fn handshake() -> [String; 2] {
    [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}).to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

/// A `tools/call` request as a line.
pub fn call_line(id: impl Into<Value>, tool: &str, args: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id.into(), "method": "tools/call", "params": {"name": tool, "arguments": args}}).to_string()
}

/// A one-item `TodoWrite` payload.
pub fn one(content: &str) -> Value {
    json!({"todos": [{"content": content, "status": "in_progress", "activeForm": content}]})
}

/// The stored state of `conversation` (or the default one), as JSON.
pub fn todokit_show(store: &Path, conversation: Option<&str>) -> Value {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_todokit"));
    command.arg("--store").arg(store);
    command
        .env_remove("TODOKIT_CONVERSATION")
        .env_remove("TODOKIT_PROFILE");
    if let Some(conversation) = conversation {
        command.args(["--conversation", conversation]);
    }
    let out = command
        .args(["show", "--format", "json"])
        .output()
        .expect("todokit show runs");
    serde_json::from_slice(&out.stdout).expect("show prints JSON")
}
