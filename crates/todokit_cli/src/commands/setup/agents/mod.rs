//! The agents `todokit setup` configures, and what it writes for each:
//! the MCP entry that starts todokit, the agent's own todo tools turned
//! off the agent's documented way, and todokit's tools (only those)
//! allowed to run without a prompt. docs/agents.md gives the source of
//! every key.

mod editors;
pub mod inputs;
#[cfg(test)]
mod paths_tests;
mod terminal;

use super::plan::FileEdits;
use inputs::Inputs;

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
        plan: terminal::claude_code,
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
        plan: terminal::codex,
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
        plan: terminal::gemini,
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
        plan: terminal::qwen,
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
        plan: terminal::opencode,
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
        plan: terminal::crush,
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
        plan: terminal::copilot,
        trust: |_| {
            Some("Copilot CLI takes tool permissions on its command line only: it asks before each of todokit's tools in an interactive session, and `copilot -p` needs `--allow-tool todokit`. Its own `sql` tool, which keeps its todos, cannot be turned off from a file (`--excluded-tools sql` takes the whole tool away).".to_owned())
        },
    },
    Agent {
        id: "cursor",
        name: "Cursor",
        profile: "cursor",
        files: [".cursor/mcp.json", "~/.cursor/mcp.json"],
        project_scope: true,
        plan: editors::cursor,
        trust: |_| {
            Some("Cursor asks before each call of an MCP tool: allow todokit's tools when it first asks (a project's server starts once you enable it in Cursor's MCP settings). To allow them from a file, list `todokit:TOOL` in `mcpAllowlist` of ~/.cursor/permissions.json if you keep one; setup does not start that list, which replaces the one in Cursor's settings. Cursor's own todo_write cannot be turned off from a file.".to_owned())
        },
    },
    Agent {
        id: "vscode",
        name: "VS Code with GitHub Copilot",
        profile: "copilot",
        files: [
            ".vscode/mcp.json",
            "mcp.json in VS Code's user folder (~/.config/Code/User on Linux)",
        ],
        project_scope: true,
        plan: editors::vscode,
        trust: |_| {
            Some("VS Code asks you to trust the server when it first starts it, and before each call of its tools: choose to always allow todokit's. Its own manage_todo_list has no setting: untick it in the chat's tool picker (Configure Tools).".to_owned())
        },
    },
    Agent {
        id: "zed",
        name: "Zed",
        profile: "zed",
        files: [
            ".zed/settings.json",
            "~/.config/zed/settings.json (with todokit's tools allowed)",
        ],
        project_scope: true,
        plan: editors::zed,
        trust: |inputs| {
            (!inputs.global).then(|| {
                "Zed asks before each call of an MCP tool: choose \"Always for\" todokit's tools, or run `todokit setup zed --global`, which allows them in your own settings.".to_owned()
            })
        },
    },
    Agent {
        id: "claude-desktop",
        name: "Claude Desktop",
        // It has no todo tool of its own; Claude models know TodoWrite, and
        // one tool that writes the whole list suits a chat.
        profile: "claude-code",
        files: [
            "(none: Claude Desktop reads its user configuration only)",
            "claude_desktop_config.json (~/Library/Application Support/Claude, %APPDATA%\\Claude)",
        ],
        project_scope: false,
        plan: editors::claude_desktop,
        trust: |inputs| {
            let linux = match inputs.system {
                inputs::System::Linux => {
                    " Claude Desktop ships for macOS and Windows; on Linux this is the file its community builds read."
                }
                inputs::System::MacOs | inputs::System::Windows => "",
            };
            Some(format!(
                "Restart Claude Desktop to start todokit; it asks before the first call of each tool.{linux}"
            ))
        },
    },
    Agent {
        id: "kimi-cli",
        name: "Kimi CLI",
        profile: "kimi-cli",
        files: [
            "(none: Kimi CLI reads its user configuration only)",
            "~/.kimi/mcp.json, ~/.kimi/todokit-agent.yaml (or $KIMI_SHARE_DIR)",
        ],
        project_scope: false,
        plan: terminal::kimi_cli,
        trust: |inputs| {
            Some(format!(
                "Start Kimi CLI as `kimi --agent-file {}`: its default agent without its own SetTodoList, which no setting turns off. It asks before each call of todokit's tool: approve it for the session.",
                terminal::kimi_agent_file(inputs).display()
            ))
        },
    },
    Agent {
        id: "goose",
        name: "Goose",
        profile: "goose",
        files: [
            "(none: Goose reads its user configuration only)",
            "~/.config/goose/config.yaml (or $GOOSE_PATH_ROOT/config)",
        ],
        project_scope: false,
        plan: terminal::goose,
        trust: |_| {
            Some("Goose runs todokit's tool without asking in its `auto` mode; in `approve` or `smart_approve` mode, choose \"Always allow\" when it first asks.".to_owned())
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
