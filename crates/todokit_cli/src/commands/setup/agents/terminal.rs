//! The agents that run in a terminal: where each reads its MCP servers,
//! how its own todo tools are turned off and todokit's allowed. The
//! `todokit setup` tests run the first seven (their CLIs are on npm);
//! docs/agents.md gives the source of every key.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::super::document::Syntax;
use super::super::plan::{Edit, FileEdits, keys};
use super::inputs::{Inputs, SERVER_NAME, System, existing_or, file};

/// Claude Code's own todo tools: the old one and the four that replaced it.
const CLAUDE_CODE_TODO_TOOLS: [&str; 5] = ["TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];

pub fn claude_code(inputs: &Inputs) -> Vec<FileEdits> {
    let (servers, settings) = if inputs.global {
        let folder = inputs.variable("CLAUDE_CONFIG_DIR").map(PathBuf::from);
        match folder {
            Some(folder) => (folder.join(".claude.json"), folder.join("settings.json")),
            None => (
                inputs.home.join(".claude.json"),
                inputs.home.join(".claude/settings.json"),
            ),
        }
    } else {
        (
            inputs.project.join(".mcp.json"),
            inputs.project.join(".claude/settings.json"),
        )
    };
    let allowed = inputs.tool_names(|tool| format!("mcp__{SERVER_NAME}__{tool}"));
    vec![
        file(
            servers,
            Syntax::Json,
            vec![Edit::Entry {
                path: keys(&["mcpServers", SERVER_NAME]),
                value: json!({"type": "stdio", "command": inputs.program(), "args": inputs.args()}),
            }],
        ),
        file(
            settings,
            Syntax::Json,
            vec![
                Edit::Members {
                    path: keys(&["permissions", "deny"]),
                    values: CLAUDE_CODE_TODO_TOOLS.iter().map(|&t| Value::from(t)).collect(),
                },
                Edit::Members {
                    path: keys(&["permissions", "allow"]),
                    values: allowed,
                },
            ],
        ),
    ]
}

pub fn codex(inputs: &Inputs) -> Vec<FileEdits> {
    let path = if inputs.global {
        inputs.config_home("CODEX_HOME", ".codex").join("config.toml")
    } else {
        inputs.project.join(".codex/config.toml")
    };
    // Codex asks before every call of an MCP tool that is not marked
    // read-only, and `codex exec` refuses what it would ask: each of
    // todokit's tools is approved by name, nothing else.
    let approvals: serde_json::Map<String, Value> = inputs
        .tools
        .iter()
        .map(|tool| (tool.clone(), json!({"approval_mode": "approve"})))
        .collect();
    vec![file(
        path,
        Syntax::Toml,
        vec![
            Edit::Entry {
                path: keys(&["mcp_servers", SERVER_NAME]),
                value: inputs.stdio_entry(json!({"tools": approvals})),
            },
            Edit::Setting {
                path: keys(&["tools", "update_plan", "enabled"]),
                value: json!(false),
            },
        ],
    )]
}

pub fn gemini(inputs: &Inputs) -> Vec<FileEdits> {
    let folder = if inputs.global {
        &inputs.home
    } else {
        &inputs.project
    };
    vec![file(
        folder.join(".gemini/settings.json"),
        Syntax::Json,
        vec![
            // Trusted: run without a prompt (headless Gemini CLI leaves out
            // a tool it would have to ask for).
            Edit::Entry {
                path: keys(&["mcpServers", SERVER_NAME]),
                value: inputs.stdio_entry(json!({"trust": true})),
            },
            // Never `tools.exclude: ["write_todos"]`: Gemini CLI matches an
            // MCP tool by its bare name too, and would drop todokit's.
            Edit::Setting {
                path: keys(&["useWriteTodos"]),
                value: json!(false),
            },
        ],
    )]
}

pub fn qwen(inputs: &Inputs) -> Vec<FileEdits> {
    let folder = if inputs.global {
        &inputs.home
    } else {
        &inputs.project
    };
    vec![
        file(
            folder.join(".qwen/settings.json"),
            Syntax::Json,
            vec![
                // `alwaysLoadTools`: the tool is offered as itself, not only
                // behind Qwen Code's tool search.
                Edit::Entry {
                    path: keys(&["mcpServers", SERVER_NAME]),
                    value: inputs.stdio_entry(json!({"trust": true, "alwaysLoadTools": true})),
                },
                Edit::Setting {
                    path: keys(&["tools", "todoWrite", "enabled"]),
                    value: json!(false),
                },
            ],
        )
        // Qwen Code writes its settings format's version into a file it reads.
        .with_agent_keys(&["$version"]),
    ]
}

pub fn opencode(inputs: &Inputs) -> Vec<FileEdits> {
    let folder = if inputs.global {
        inputs.config_home("XDG_CONFIG_HOME", ".config").join("opencode")
    } else {
        inputs.project.clone()
    };
    vec![
        file(
            existing_or(&folder, &["opencode.jsonc"], "opencode.json"),
            Syntax::Json,
            vec![
                Edit::Entry {
                    path: keys(&["mcp", SERVER_NAME]),
                    value: json!({"type": "local", "command": inputs.command}),
                },
                Edit::Setting {
                    path: keys(&["permission", "todowrite"]),
                    value: json!("deny"),
                },
            ],
        )
        // opencode writes its schema's address into a configuration it reads.
        .with_agent_keys(&["$schema"]),
    ]
}

pub fn crush(inputs: &Inputs) -> Vec<FileEdits> {
    let path = if inputs.global {
        match inputs.variable("CRUSH_GLOBAL_CONFIG") {
            Some(folder) => PathBuf::from(folder).join("crush.json"),
            None => inputs
                .config_home("XDG_CONFIG_HOME", ".config")
                .join("crush/crush.json"),
        }
    } else {
        // Crush reads `.crush.json` before `crush.json`: the one there is.
        existing_or(&inputs.project, &[".crush.json"], "crush.json")
    };
    let allowed = inputs.tool_names(|tool| format!("mcp_{SERVER_NAME}_{tool}"));
    vec![file(
        path,
        Syntax::Json,
        vec![
            Edit::Entry {
                path: keys(&["mcp", SERVER_NAME]),
                value: json!({"type": "stdio", "command": inputs.program(), "args": inputs.args()}),
            },
            // Crush asks before every tool not listed here.
            Edit::Members {
                path: keys(&["permissions", "allowed_tools"]),
                values: allowed,
            },
            // Crush's own `todos`, hidden from the model.
            Edit::Members {
                path: keys(&["options", "disabled_tools"]),
                values: vec![json!("todos")],
            },
        ],
    )]
}

pub fn copilot(inputs: &Inputs) -> Vec<FileEdits> {
    let folder = inputs.config_home("COPILOT_HOME", ".copilot");
    vec![file(
        folder.join("mcp-config.json"),
        Syntax::Json,
        vec![Edit::Entry {
            path: keys(&["mcpServers", SERVER_NAME]),
            value: json!({"type": "local", "command": inputs.program(), "args": inputs.args(), "tools": ["*"]}),
        }],
    )]
}

/// Kimi CLI's share folder (`$KIMI_SHARE_DIR`, else `~/.kimi`).
fn kimi_share(inputs: &Inputs) -> PathBuf {
    inputs.config_home("KIMI_SHARE_DIR", ".kimi")
}

/// The agent file that leaves Kimi CLI's own `SetTodoList` out.
pub fn kimi_agent_file(inputs: &Inputs) -> PathBuf {
    kimi_share(inputs).join("todokit-agent.yaml")
}

pub fn kimi_cli(inputs: &Inputs) -> Vec<FileEdits> {
    let share = kimi_share(inputs);
    vec![
        file(
            share.join("mcp.json"),
            Syntax::Json,
            vec![Edit::Entry {
                path: keys(&["mcpServers", SERVER_NAME]),
                value: inputs.stdio_entry(json!({})),
            }],
        ),
        // Kimi CLI reads no setting for its own tools: an agent file that
        // extends its default agent and leaves SetTodoList out does it.
        file(
            kimi_agent_file(inputs),
            Syntax::Yaml,
            vec![
                Edit::Entry {
                    path: keys(&["version"]),
                    value: json!(1),
                },
                Edit::Entry {
                    path: keys(&["agent"]),
                    value: json!({
                        "extend": "default",
                        "exclude_tools": ["kimi_cli.tools.todo:SetTodoList"],
                    }),
                },
            ],
        ),
    ]
}

/// What Goose writes for its own `todo` extension, as its configuration
/// migration writes every built-in one.
const GOOSE_TODO_DESCRIPTION: &str = "Enable a todo list for goose so it can keep track of what it is doing";

pub fn goose(inputs: &Inputs) -> Vec<FileEdits> {
    let folder = match inputs.variable("GOOSE_PATH_ROOT") {
        Some(root) => PathBuf::from(root).join("config"),
        None if inputs.system == System::Windows => inputs.xdg_config().join("Block/goose/config"),
        None => inputs.xdg_config().join("goose"),
    };
    // Every key Goose writes back for an extension: an entry missing one
    // would differ from Goose's own rewrite of it, and a second setup would
    // take it for the user's.
    let entry = json!({
        "enabled": true,
        "type": "stdio",
        "name": SERVER_NAME,
        "description": "todokit's todo list",
        "cmd": inputs.program(),
        "args": inputs.args(),
        "envs": {},
        "env_keys": [],
        "timeout": 300,
        "bundled": null,
        "available_tools": [],
    });
    vec![file(
        folder.join("config.yaml"),
        Syntax::Yaml,
        vec![
            Edit::Entry {
                path: keys(&["extensions", SERVER_NAME]),
                value: entry,
            },
            // Goose keeps an entry for each built-in extension once it has
            // run; before that, the whole entry, switched off.
            Edit::Switch {
                path: keys(&["extensions", "todo", "enabled"]),
                value: json!(false),
                restore: json!(true),
                made: json!({
                    "enabled": false,
                    "type": "platform",
                    "name": "todo",
                    "description": GOOSE_TODO_DESCRIPTION,
                    "display_name": "Todo",
                    "bundled": true,
                    "available_tools": [],
                }),
            },
        ],
    )]
}
