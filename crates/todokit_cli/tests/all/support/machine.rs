//! A user's machine for the tests of `todokit setup` and of the agents:
//! a fresh home folder, a project folder in it, and todokit's store.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use super::cli::todokit;

/// A user's machine: a fresh home folder, a project folder in it, and the
/// store todokit keeps its lists in.
pub struct Machine {
    _root: tempfile::TempDir,
    /// `$HOME`.
    pub home: PathBuf,
    /// The project the agent runs in.
    pub project: PathBuf,
    /// todokit's store.
    pub store: PathBuf,
}

impl Machine {
    /// A new machine with an empty project called `demo-project`.
    pub fn new() -> Self {
        Self::with_project("demo-project")
    }

    /// A new machine with an empty project called `name`.
    pub fn with_project(name: &str) -> Self {
        let root = tempfile::tempdir().expect("a temporary folder");
        // Canonical: agents key their trust by the real path.
        let base = root.path().canonicalize().expect("a real path");
        let home = base.join("home");
        let project = home.join(name);
        let store = base.join("store");
        std::fs::create_dir_all(&project).expect("the project folder");
        Self {
            _root: root,
            home,
            project,
            store,
        }
    }

    /// `todokit setup ARGS…` in the project, as the user runs it.
    pub fn setup(&self, args: &[&str]) -> Output {
        let out = todokit(&self.store)
            .arg("setup")
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("CODEX_HOME")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .output()
            .expect("todokit runs");
        assert!(
            out.status.success(),
            "todokit setup {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// The conversation's list as `todokit show --format json` prints it.
    pub fn list(&self, conversation: &str) -> Value {
        let out = todokit(&self.store)
            .args(["--conversation", conversation, "show", "--format", "json"])
            .output()
            .expect("todokit runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("JSON")
    }

    /// Every file under the project, with its text, for a before/after
    /// comparison.
    pub fn project_files(&self) -> Vec<(PathBuf, String)> {
        let mut files = Vec::new();
        let mut folders = vec![self.project.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("readable").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    files.push((
                        path.strip_prefix(&self.project).expect("inside").to_owned(),
                        String::new(),
                    ));
                    folders.push(path);
                } else {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    files.push((path.strip_prefix(&self.project).expect("inside").to_owned(), text));
                }
            }
        }
        files.sort();
        files
    }
}
