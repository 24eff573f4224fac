//! What the MCP tests share: the server as a child process, spoken to by
//! rmcp's client or in raw lines, the handshake, and a look at the store
//! through the CLI.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::cli::todokit;

/// `todokit mcp` on `store` for `profile`, free of the caller's environment.
pub fn command(store: &Path, profile: &str) -> tokio::process::Command {
    let mut command = todokit(store);
    command.args(["--profile", profile, "mcp"]);
    tokio::process::Command::from(command)
}

/// `todokit mcp` on `store` spoken to in raw lines: each of `lines`, then,
/// once a reply `wait_for` accepts is among the replies, the end of input.
/// Every reply (a line that is not JSON as a string) and what the server
/// wrote to standard error.
pub fn raw_session(
    store: &Path,
    lines: &[String],
    wait_for: impl Fn(&Value) -> bool,
) -> (Vec<Value>, String) {
    raw_session_with(store, &[], lines, wait_for)
}

/// [`raw_session`] with `todokit mcp`'s own `options`.
pub fn raw_session_with(
    store: &Path,
    options: &[&str],
    lines: &[String],
    wait_for: impl Fn(&Value) -> bool,
) -> (Vec<Value>, String) {
    let mut child = todokit(store)
        .arg("mcp")
        .args(options)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("todokit mcp starts");
    let mut input = child.stdin.take().expect("piped");
    for line in lines {
        // A server that stopped reading ends the session; its replies say why.
        if writeln!(input, "{line}").is_err() {
            break;
        }
    }
    let mut replies = Vec::new();
    let mut output = BufReader::new(child.stdout.take().expect("piped")).lines();
    while !replies.iter().any(&wait_for) {
        let Some(Ok(line)) = output.next() else { break };
        replies.push(serde_json::from_str(&line).unwrap_or(Value::String(line)));
    }
    drop(input);
    replies.extend(
        output
            .map_while(Result::ok)
            .map(|line| serde_json::from_str(&line).unwrap_or(Value::String(line))),
    );
    let finished = child.wait_with_output().expect("the server ends");
    (replies, String::from_utf8_lossy(&finished.stderr).into_owned())
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
    let mut command = todokit(store);
    if let Some(conversation) = conversation {
        command.args(["--conversation", conversation]);
    }
    let out = command
        .args(["show", "--format", "json"])
        .output()
        .expect("todokit show runs");
    serde_json::from_slice(&out.stdout).expect("show prints JSON")
}
