//! What `todokit setup` changes in an agent's files, as a list of edits
//! per file, and the three ways to carry it out: write it, print it as a
//! diff, or take it back out (`--remove`).
//!
//! Every file is read and edited in memory first; nothing is written
//! unless every file of the plan parsed and took its edits, so a refusal
//! leaves all of them as they were. Each file is then replaced whole
//! (a temporary file beside it, renamed over it).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::document::tree::DocumentError;
use super::document::{Document, Syntax};

/// One edit to a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// todokit's own entry (the MCP server): written when missing; one
    /// that differs is the user's, kept unless `--force`.
    Entry {
        /// Where the entry goes.
        path: Vec<String>,
        /// The entry.
        value: Value,
    },
    /// A setting of the agent's own (its todo tool off): set to `value`.
    Setting {
        /// The setting's keys.
        path: Vec<String>,
        /// What it is set to.
        value: Value,
    },
    /// A switch in an entry of the agent's own (Goose's `todo` extension
    /// off): set to `value`, and back to `restore` on `--remove`. When the
    /// entry is missing, `made` is written whole in its place (as the agent
    /// would write it), and `--remove` takes it out again.
    Switch {
        /// The switch's keys; the entry is all but the last.
        path: Vec<String>,
        /// What it is set to.
        value: Value,
        /// What `--remove` sets it back to.
        restore: Value,
        /// The whole entry, for a file that has none.
        made: Value,
    },
    /// Members a list must hold (tool names allowed or denied).
    Members {
        /// The list's keys.
        path: Vec<String>,
        /// The members.
        values: Vec<Value>,
    },
}

impl Edit {
    /// The keys the edit is at.
    fn path(&self) -> Vec<&str> {
        let (Self::Entry { path, .. }
        | Self::Setting { path, .. }
        | Self::Switch { path, .. }
        | Self::Members { path, .. }) = self;
        path.iter().map(String::as_str).collect()
    }
}

/// `parts` as an edit's path.
pub fn keys(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|&part| part.to_owned()).collect()
}

/// The edits to one file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileEdits {
    /// The file.
    pub path: PathBuf,
    /// How it is written.
    pub syntax: Syntax,
    /// What changes in it.
    pub edits: Vec<Edit>,
    /// Keys the agent adds to the file itself (opencode's `$schema`): a
    /// file left with only these once setup's edits are out is removed.
    pub agent_keys: &'static [&'static str],
}

impl FileEdits {
    /// The same edits, for a file the agent also adds `keys` to.
    pub fn with_agent_keys(self, keys: &'static [&'static str]) -> Self {
        Self {
            agent_keys: keys,
            ..self
        }
    }
}

/// Why a plan could not be carried out; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// A file could not be read.
    #[error("cannot read {}: {reason}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// A file could not take an edit.
    #[error("{}: {reason}; nothing was written", path.display())]
    Document {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: DocumentError,
    },
    /// The file already has a `todokit` entry of the user's.
    #[error(
        "{} already has a different `{key}` entry; nothing was written (--force replaces it)\n  yours:   {theirs}\n  setup's: {ours}",
        path.display()
    )]
    TheirEntry {
        /// The file.
        path: PathBuf,
        /// The entry's keys, dotted.
        key: String,
        /// What is there, as compact JSON.
        theirs: String,
        /// What setup would write, as compact JSON.
        ours: String,
    },
    /// A file could not be written.
    #[error("cannot write {}: {reason}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
}

/// A file before and after the plan.
#[derive(Debug)]
pub struct Outcome {
    /// The file.
    pub path: PathBuf,
    /// Its text before (`None`: there was no file).
    pub before: Option<String>,
    /// Its text after (`None`: no file, or the file is removed).
    pub after: Option<String>,
    /// What the user should know about this file (an entry kept).
    pub notes: Vec<String>,
}

impl Outcome {
    /// Whether the plan changes the file.
    pub fn changes(&self) -> bool {
        self.before != self.after
    }
}

/// Works out each file after `edits` (`remove`: after taking them back
/// out), without writing anything.
pub fn compute(files: &[FileEdits], remove: bool, force: bool) -> Result<Vec<Outcome>, PlanError> {
    files
        .iter()
        .map(|file| compute_one(file, remove, force))
        .collect()
}

fn compute_one(file: &FileEdits, remove: bool, force: bool) -> Result<Outcome, PlanError> {
    let before = match std::fs::read_to_string(&file.path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(reason) => {
            return Err(PlanError::Read {
                path: file.path.clone(),
                reason,
            });
        }
    };
    if remove && before.is_none() {
        return Ok(Outcome {
            path: file.path.clone(),
            before,
            after: None,
            notes: Vec::new(),
        });
    }
    let doc_error = |reason| PlanError::Document {
        path: file.path.clone(),
        reason,
    };
    let mut doc = Document::parse(file.syntax, before.as_deref().unwrap_or("")).map_err(doc_error)?;
    let mut notes = Vec::new();
    for edit in &file.edits {
        let keys = edit.path();
        let path = keys.as_slice();
        match (edit, remove) {
            (Edit::Entry { value, .. }, false) => match doc.get(path) {
                Some(theirs) if &theirs == value => {}
                Some(theirs) if !force => {
                    return Err(PlanError::TheirEntry {
                        path: file.path.clone(),
                        key: path.join("."),
                        theirs: theirs.to_string(),
                        ours: value.to_string(),
                    });
                }
                _ => doc.set(path, value).map_err(doc_error)?,
            },
            (Edit::Entry { value, .. }, true) => match doc.get(path) {
                Some(theirs) if &theirs == value || force => doc.remove(path),
                Some(_) => notes.push(format!(
                    "kept `{}`: it is not the entry setup writes (--force removes it)",
                    path.join(".")
                )),
                None => {}
            },
            (Edit::Setting { value, .. }, false) => {
                if doc.get(path).as_ref() != Some(value) {
                    doc.set(path, value).map_err(doc_error)?;
                }
            }
            (Edit::Setting { value, .. }, true) => {
                if doc.get(path).as_ref() == Some(value) {
                    doc.remove(path);
                }
            }
            (Edit::Switch { value, made, .. }, false) => {
                let entry = &path[..path.len().saturating_sub(1)];
                if doc.get(entry).is_none() {
                    doc.set(entry, made).map_err(doc_error)?;
                } else if doc.get(path).as_ref() != Some(value) {
                    doc.set(path, value).map_err(doc_error)?;
                }
            }
            (
                Edit::Switch {
                    value, restore, made, ..
                },
                true,
            ) => {
                let entry = &path[..path.len().saturating_sub(1)];
                if doc.get(entry).as_ref() == Some(made) {
                    doc.remove(entry);
                } else if doc.get(path).as_ref() == Some(value) {
                    doc.set(path, restore).map_err(doc_error)?;
                }
            }
            (Edit::Members { values, .. }, false) => {
                for value in values {
                    doc.add_member(path, value).map_err(doc_error)?;
                }
            }
            (Edit::Members { values, .. }, true) => {
                for value in values {
                    doc.remove_member(path, value);
                }
            }
        }
    }
    let text = doc.render();
    let only_agents = doc
        .top_keys()
        .iter()
        .all(|key| file.agent_keys.contains(&key.as_str()));
    // A linked file is emptied, not removed: its target is the user's.
    let linked = std::fs::symlink_metadata(&file.path).is_ok_and(|meta| meta.file_type().is_symlink());
    let after = if remove && (doc.is_empty() || only_agents) && !linked {
        None
    } else if before.as_deref() == Some(text.as_str()) {
        before.clone()
    } else {
        Some(text)
    };
    Ok(Outcome {
        path: file.path.clone(),
        before,
        after,
        notes,
    })
}

/// Writes each outcome that changes its file: the new text, or the file
/// removed (with the folder setup made for it, when left empty).
pub fn write(outcomes: &[Outcome]) -> Result<(), PlanError> {
    for outcome in outcomes.iter().filter(|o| o.changes()) {
        let write_error = |reason| PlanError::Write {
            path: outcome.path.clone(),
            reason,
        };
        match &outcome.after {
            Some(text) => write_file(&outcome.path, text).map_err(write_error)?,
            None => {
                std::fs::remove_file(&outcome.path).map_err(write_error)?;
                remove_empty_folder(&outcome.path);
            }
        }
    }
    Ok(())
}

fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    // A settings file linked from elsewhere (a dotfiles repository) stays a
    // link: the file it points to is the one replaced.
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let folder = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder)?;
    let mut temp = tempfile::NamedTempFile::new_in(folder)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    // Keep the mode of the file it replaces (a settings file the user made
    // private stays private).
    if let Ok(meta) = std::fs::metadata(path) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Removes the folder of a removed file when it is a dot-folder of the
/// agent's (`.claude`, `.codex`) left empty, as setup would have made it.
fn remove_empty_folder(file: &Path) {
    if let Some(folder) = file.parent()
        && folder
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    {
        // Fails, as it should, when anything else is in it.
        let _ = std::fs::remove_dir(folder);
    }
}

/// The outcome as a unified diff, one file after the other; empty when
/// nothing changes.
/// `shown` gives the name a file is shown by.
pub fn diff(outcomes: &[Outcome], shown: impl Fn(&Path) -> String) -> String {
    let mut out = String::new();
    for outcome in outcomes.iter().filter(|o| o.changes()) {
        let shown = shown(&outcome.path);
        let (old_name, new_name) = match (&outcome.before, &outcome.after) {
            (None, _) => ("/dev/null".to_owned(), shown),
            (_, None) => (shown, "/dev/null".to_owned()),
            _ => (shown.clone(), shown),
        };
        let before = outcome.before.as_deref().unwrap_or("");
        let after = outcome.after.as_deref().unwrap_or("");
        let text = similar::TextDiff::from_lines(before, after);
        out.push_str(
            &text
                .unified_diff()
                .context_radius(3)
                .header(&old_name, &new_name)
                .to_string(),
        );
    }
    out
}
