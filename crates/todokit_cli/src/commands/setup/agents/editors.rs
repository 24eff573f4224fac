//! The agents inside an editor or a desktop application: Cursor, VS Code,
//! Zed and Claude Desktop. None of them can run in the tests here (no
//! package of theirs runs headless on Linux), so what setup writes for
//! them is pinned by snapshots and cited key by key in docs/agents.md.

use serde_json::json;

use super::super::document::Syntax;
use super::super::plan::{Edit, FileEdits, keys};
use super::inputs::{Inputs, SERVER_NAME, System, file};

pub fn cursor(inputs: &Inputs) -> Vec<FileEdits> {
    vec![file(
        inputs.scoped(".cursor/mcp.json", ".cursor/mcp.json"),
        Syntax::Json,
        vec![Edit::Entry {
            path: keys(&["mcpServers", SERVER_NAME]),
            value: inputs.stdio_entry(json!({"type": "stdio"})),
        }],
    )]
}

pub fn vscode(inputs: &Inputs) -> Vec<FileEdits> {
    let path = match inputs.global {
        true => inputs.app_settings().join("Code/User/mcp.json"),
        false => inputs.project.join(".vscode/mcp.json"),
    };
    vec![file(
        path,
        Syntax::Json,
        vec![Edit::Entry {
            path: keys(&["servers", SERVER_NAME]),
            value: inputs.stdio_entry(json!({"type": "stdio"})),
        }],
    )]
}

pub fn zed(inputs: &Inputs) -> Vec<FileEdits> {
    let path = match inputs.global {
        true if inputs.system == System::Windows => inputs.xdg_config().join("Zed/settings.json"),
        true => inputs.xdg_config().join("zed/settings.json"),
        false => inputs.project.join(".zed/settings.json"),
    };
    let mut edits = vec![Edit::Entry {
        path: keys(&["context_servers", SERVER_NAME]),
        value: inputs.stdio_entry(json!({})),
    }];
    // Tool permissions are the user's own settings: allowed with --global.
    if inputs.global {
        edits.extend(inputs.tools.iter().map(|tool| Edit::Setting {
            path: keys(&[
                "agent",
                "tool_permissions",
                "tools",
                &format!("mcp:{SERVER_NAME}:{tool}"),
                "default",
            ]),
            value: json!("allow"),
        }));
    }
    vec![file(path, Syntax::Json, edits)]
}

pub fn claude_desktop(inputs: &Inputs) -> Vec<FileEdits> {
    vec![file(
        inputs.app_settings().join("Claude/claude_desktop_config.json"),
        Syntax::Json,
        vec![Edit::Entry {
            path: keys(&["mcpServers", SERVER_NAME]),
            value: inputs.stdio_entry(json!({})),
        }],
    )]
}
