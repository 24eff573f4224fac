//! What a plan for one agent is made from, and where each system keeps a
//! user's settings.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::super::document::Syntax;
use super::super::plan::{Edit, FileEdits};

/// The name of todokit's entry in every agent's list of MCP servers (and
/// so the prefix an agent gives its tools: `mcp__todokit__…`).
pub const SERVER_NAME: &str = "todokit";

/// The system whose conventions say where a user's settings live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// Linux and the other Unix systems: the XDG folders.
    Linux,
    /// macOS: `~/Library/Application Support` for desktop applications.
    MacOs,
    /// Windows: `%APPDATA%`.
    Windows,
}

impl System {
    /// The system todokit runs on.
    pub fn current() -> Self {
        if cfg!(target_os = "macos") {
            System::MacOs
        } else if cfg!(windows) {
            System::Windows
        } else {
            System::Linux
        }
    }
}

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
    /// The system whose folders the agents use.
    pub system: System,
    /// The environment the agents would read their folders' variables
    /// from (`XDG_CONFIG_HOME`, `CODEX_HOME`, …).
    pub environment: BTreeMap<String, OsString>,
}

impl Inputs {
    /// The program that starts todokit.
    pub fn program(&self) -> &str {
        &self.command[0]
    }

    /// Its arguments.
    pub fn args(&self) -> &[String] {
        &self.command[1..]
    }

    /// `{"command": …, "args": […]}`, plus `extra`'s keys.
    pub fn stdio_entry(&self, extra: Value) -> Value {
        let mut entry = json!({"command": self.program(), "args": self.args()});
        if let (Some(entry), Value::Object(extra)) = (entry.as_object_mut(), extra) {
            entry.extend(extra);
        }
        entry
    }

    /// The environment variable `name`, unless unset or empty.
    pub fn variable(&self, name: &str) -> Option<&OsStr> {
        self.environment
            .get(name)
            .map(OsString::as_os_str)
            .filter(|v| !v.is_empty())
    }

    /// The folder `variable` names, else `default` under the home folder.
    pub fn config_home(&self, variable: &str, default: &str) -> PathBuf {
        self.variable(variable)
            .map_or_else(|| self.home.join(default), PathBuf::from)
    }

    /// `%APPDATA%`, else its usual place under the home folder.
    fn app_data(&self) -> PathBuf {
        self.config_home("APPDATA", "AppData/Roaming")
    }

    /// Where desktop applications keep a user's settings: `~/Library/
    /// Application Support` on macOS, `%APPDATA%` on Windows, the XDG
    /// configuration folder elsewhere.
    pub fn app_settings(&self) -> PathBuf {
        match self.system {
            System::MacOs => self.home.join("Library/Application Support"),
            System::Windows => self.app_data(),
            System::Linux => self.xdg_config(),
        }
    }

    /// The XDG configuration folder (`$XDG_CONFIG_HOME`, else `~/.config`),
    /// which command-line tools use on macOS too; `%APPDATA%` on Windows.
    pub fn xdg_config(&self) -> PathBuf {
        match self.system {
            System::Windows => self.app_data(),
            System::Linux | System::MacOs => self.config_home("XDG_CONFIG_HOME", ".config"),
        }
    }

    /// The folder of the project's or the user's files: `project` under the
    /// project, `user` under the home folder.
    pub fn scoped(&self, project: &str, user: &str) -> PathBuf {
        match self.global {
            true => self.home.join(user),
            false => self.project.join(project),
        }
    }

    /// Each of todokit's tools as the agent names it.
    pub fn tool_names(&self, name: impl Fn(&str) -> String) -> Vec<Value> {
        self.tools.iter().map(|tool| Value::from(name(tool))).collect()
    }
}

/// The edits to one file, which the agent adds nothing to itself.
pub fn file(path: PathBuf, syntax: Syntax, edits: Vec<Edit>) -> FileEdits {
    FileEdits {
        path,
        syntax,
        edits,
        agent_keys: &[],
    }
}

/// The first of `others` that exists in `folder`, else `name`.
pub fn existing_or(folder: &Path, others: &[&str], name: &str) -> PathBuf {
    others
        .iter()
        .map(|other| folder.join(other))
        .find(|path| path.exists())
        .unwrap_or_else(|| folder.join(name))
}
