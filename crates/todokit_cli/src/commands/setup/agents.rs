//! The agents `todokit setup` configures, and what it writes for each:
//! the MCP entry that starts todokit, the agent's own todo tools turned
//! off the agent's documented way, and todokit's tools (only those)
//! allowed to run without a prompt. docs/agents.md gives the source of
//! every key.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::document::Syntax;
use super::plan::{Edit, FileEdits};

/// The name of todokit's entry in every agent's list of MCP servers (and
/// so the prefix an agent gives its tools: `mcp__todokit__…`).
pub const SERVER_NAME: &str = "todokit";

/// What a plan for one agent is made from.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// `--global`: the user's configuration rather than the project's.
    pub global: bool,
    /// The project: the folder setup runs in.
    pub project: PathBuf,
    /// The user's home folder.
    pub home: PathBuf,
    /// The program and every argument that starts todokit's MCP server.
    pub command: Vec<String>,
    /// The names of the profile's tools.
    pub tools: Vec<String>,
}

impl Inputs {
    fn program(&self) -> &str {
        &self.command[0]
    }

    fn args(&self) -> &[String] {
        &self.command[1..]
    }

    /// `{"command": …, "args": […]}`, plus `extra`'s keys.
    fn stdio_entry(&self, extra: Value) -> Value {
        let mut entry = json!({"command": self.program(), "args": self.args()});
        if let (Some(entry), Value::Object(extra)) = (entry.as_object_mut(), extra) {
            entry.extend(extra);
        }
        entry
    }

    fn config_home(&self, variable: &str, default: &str) -> PathBuf {
        std::env::var_os(variable)
            .filter(|v| !v.is_empty())
            .map_or_else(|| self.home.join(default), PathBuf::from)
    }
}

/// One agent todokit can be set up for.
pub struct Agent {
    /// Its name on the command line.
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// The profile its models know.
    pub profile: &'static str,
    /// The files setup writes, project and global, for `--list`.
    pub files: [&'static str; 2],
    /// Whether the agent reads a project's own configuration; one that
    /// does not is set up with `--global` only.
    pub project_scope: bool,
    plan: fn(&Inputs) -> Vec<FileEdits>,
    trust: fn(&Inputs) -> Option<String>,
}

impl Agent {
    /// What setup changes for this agent.
    pub fn plan(&self, inputs: &Inputs) -> Vec<FileEdits> {
        (self.plan)(inputs)
    }

    /// What the agent still needs before it reads what setup wrote, said
    /// after the files.
    pub fn trust(&self, inputs: &Inputs) -> Option<String> {
        (self.trust)(inputs)
    }
}

/// Every agent, in the order `--list` shows them.
pub static AGENTS: &[Agent] = &[
    Agent {
        id: "claude-code",
        name: "Claude Code",
        // Claude Code sends its Task tools, not TodoWrite, to every model
        // that gets todo tools at all (TodoWrite only with
        // CLAUDE_CODE_ENABLE_TASKS=0): the tools its models now work with.
        profile: "claude-tasks",
        files: [
            ".mcp.json, .claude/settings.json",
            "~/.claude.json, ~/.claude/settings.json",
        ],
        project_scope: true,
        plan: claude_code,
        trust: |inputs| {
            (!inputs.global).then(|| {
                "Claude Code counts a project's allow rules only once you have trusted the folder, and asks once before it starts a server of .mcp.json: start `claude` in this folder and accept both.".to_owned()
            })
        },
    },
    Agent {
        id: "codex",
        name: "Codex",
        profile: "codex",
        files: [".codex/config.toml", "~/.codex/config.toml (or $CODEX_HOME)"],
        project_scope: true,
        plan: codex,
        trust: |inputs| {
            (!inputs.global).then(|| {
                "Codex reads .codex/config.toml only in a trusted project: start `codex` in this folder and trust it.".to_owned()
            })
        },
    },
    Agent {
        id: "gemini",
        name: "Gemini CLI",
        profile: "gemini",
        files: [".gemini/settings.json", "~/.gemini/settings.json"],
        project_scope: true,
        plan: gemini,
        trust: |inputs| {
            (!inputs.global).then(|| {
                "Gemini CLI reads .gemini/settings.json only in a trusted folder: start `gemini` in this folder and trust it.".to_owned()
            })
        },
    },
    Agent {
        id: "qwen",
        name: "Qwen Code",
        profile: "qwen",
        files: [".qwen/settings.json", "~/.qwen/settings.json"],
        project_scope: true,
        plan: qwen,
        trust: |inputs| {
            (!inputs.global).then(|| {
                "Qwen Code starts a project's MCP server only once you approve it: run `qwen mcp approve todokit` in this folder (or approve it when Qwen Code asks).".to_owned()
            })
        },
    },
    Agent {
        id: "opencode",
        name: "opencode",
        profile: "opencode",
        files: ["opencode.json", "~/.config/opencode/opencode.json"],
        project_scope: true,
        plan: opencode,
        trust: |_| None,
    },
    Agent {
        id: "crush",
        name: "Crush",
        profile: "crush",
        files: [
            "crush.json (an existing .crush.json instead)",
            "~/.config/crush/crush.json (or $CRUSH_GLOBAL_CONFIG)",
        ],
        project_scope: true,
        plan: crush,
        trust: |_| None,
    },
    Agent {
        id: "copilot",
        name: "GitHub Copilot CLI",
        profile: "copilot-cli",
        files: [
            "(none: Copilot CLI reads its user configuration only)",
            "~/.copilot/mcp-config.json (or $COPILOT_HOME)",
        ],
        project_scope: false,
        plan: copilot,
        trust: |_| {
            Some("Copilot CLI takes tool permissions on its command line only: it asks before each of todokit's tools in an interactive session, and `copilot -p` needs `--allow-tool todokit`. Its own `sql` tool, which keeps its todos, cannot be turned off from a file (`--excluded-tools sql` takes the whole tool away).".to_owned())
        },
    },
];

/// The agent named `id`.
pub fn find(id: &str) -> Option<&'static Agent> {
    AGENTS.iter().find(|agent| agent.id == id)
}

/// The agents' names, for the command line.
pub fn ids() -> Vec<&'static str> {
    AGENTS.iter().map(|agent| agent.id).collect()
}

fn file(path: PathBuf, syntax: Syntax, edits: Vec<Edit>) -> FileEdits {
    FileEdits {
        path,
        syntax,
        edits,
        agent_keys: &[],
    }
}

/// Claude Code's own todo tools: the old one and the four that replaced it.
const CLAUDE_CODE_TODO_TOOLS: [&str; 5] = ["TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];

fn claude_code(inputs: &Inputs) -> Vec<FileEdits> {
    let (servers, settings) = if inputs.global {
        let folder = std::env::var_os("CLAUDE_CONFIG_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
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
    let allowed = inputs
        .tools
        .iter()
        .map(|tool| Value::from(format!("mcp__{SERVER_NAME}__{tool}")))
        .collect();
    vec![
        file(
            servers,
            Syntax::Json,
            vec![Edit::Entry {
                path: vec!["mcpServers", SERVER_NAME],
                value: json!({"type": "stdio", "command": inputs.program(), "args": inputs.args()}),
            }],
        ),
        file(
            settings,
            Syntax::Json,
            vec![
                Edit::Members {
                    path: vec!["permissions".into(), "deny".into()],
                    values: CLAUDE_CODE_TODO_TOOLS.iter().map(|&t| Value::from(t)).collect(),
                },
                Edit::Members {
                    path: vec!["permissions".into(), "allow".into()],
                    values: allowed,
                },
            ],
        ),
    ]
}

fn codex(inputs: &Inputs) -> Vec<FileEdits> {
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
                path: vec!["mcp_servers", SERVER_NAME],
                value: inputs.stdio_entry(json!({"tools": approvals})),
            },
            Edit::Setting {
                path: vec!["tools", "update_plan", "enabled"],
                value: json!(false),
            },
        ],
    )]
}

fn gemini(inputs: &Inputs) -> Vec<FileEdits> {
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
                path: vec!["mcpServers", SERVER_NAME],
                value: inputs.stdio_entry(json!({"trust": true})),
            },
            // Never `tools.exclude: ["write_todos"]`: Gemini CLI matches an
            // MCP tool by its bare name too, and would drop todokit's.
            Edit::Setting {
                path: vec!["useWriteTodos"],
                value: json!(false),
            },
        ],
    )]
}

fn qwen(inputs: &Inputs) -> Vec<FileEdits> {
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
                    path: vec!["mcpServers", SERVER_NAME],
                    value: inputs.stdio_entry(json!({"trust": true, "alwaysLoadTools": true})),
                },
                Edit::Setting {
                    path: vec!["tools", "todoWrite", "enabled"],
                    value: json!(false),
                },
            ],
        )
        // Qwen Code writes its settings format's version into a file it reads.
        .with_agent_keys(&["$version"]),
    ]
}

fn opencode(inputs: &Inputs) -> Vec<FileEdits> {
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
                    path: vec!["mcp", SERVER_NAME],
                    value: json!({"type": "local", "command": inputs.command}),
                },
                Edit::Setting {
                    path: vec!["permission", "todowrite"],
                    value: json!("deny"),
                },
            ],
        )
        // opencode writes its schema's address into a configuration it reads.
        .with_agent_keys(&["$schema"]),
    ]
}

/// The first of `others` that exists in `folder`, else `name`.
fn existing_or(folder: &Path, others: &[&str], name: &str) -> PathBuf {
    others
        .iter()
        .map(|other| folder.join(other))
        .find(|path| path.exists())
        .unwrap_or_else(|| folder.join(name))
}

fn crush(inputs: &Inputs) -> Vec<FileEdits> {
    let path = if inputs.global {
        match std::env::var_os("CRUSH_GLOBAL_CONFIG").filter(|v| !v.is_empty()) {
            Some(folder) => PathBuf::from(folder).join("crush.json"),
            None => inputs
                .config_home("XDG_CONFIG_HOME", ".config")
                .join("crush/crush.json"),
        }
    } else {
        // Crush reads `.crush.json` before `crush.json`: the one there is.
        existing_or(&inputs.project, &[".crush.json"], "crush.json")
    };
    let allowed = inputs
        .tools
        .iter()
        .map(|tool| Value::from(format!("mcp_{SERVER_NAME}_{tool}")))
        .collect();
    vec![file(
        path,
        Syntax::Json,
        vec![
            Edit::Entry {
                path: vec!["mcp", SERVER_NAME],
                value: json!({"type": "stdio", "command": inputs.program(), "args": inputs.args()}),
            },
            // Crush asks before every tool not listed here.
            Edit::Members {
                path: vec!["permissions".into(), "allowed_tools".into()],
                values: allowed,
            },
            // Crush's own `todos`, hidden from the model.
            Edit::Members {
                path: vec!["options".into(), "disabled_tools".into()],
                values: vec![json!("todos")],
            },
        ],
    )]
}

fn copilot(inputs: &Inputs) -> Vec<FileEdits> {
    let folder = std::env::var_os("COPILOT_HOME")
        .filter(|v| !v.is_empty())
        .map_or_else(|| inputs.home.join(".copilot"), PathBuf::from);
    vec![file(
        folder.join("mcp-config.json"),
        Syntax::Json,
        vec![Edit::Entry {
            path: vec!["mcpServers", SERVER_NAME],
            value: json!({"type": "local", "command": inputs.program(), "args": inputs.args(), "tools": ["*"]}),
        }],
    )]
}
