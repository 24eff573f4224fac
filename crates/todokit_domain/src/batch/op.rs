//! The ops a batch is made of, and what a batch returns.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::problem::BatchProblem;
use crate::state::TodoState;

/// What an op does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// Replace everything with `list` (every task pending).
    Init,
    /// Put `task` in progress (any other in-progress task goes back to pending).
    Start,
    /// Mark `task`, else every task of `phase`, else every task, completed.
    Done,
    /// Mark `task`, else every task of `phase`, else every task, abandoned.
    Drop,
    /// Remove `task`, else empty `phase`, else empty every phase.
    Rm,
    /// Add `items` as pending tasks to `phase`, creating it when missing.
    Append,
    /// Add `text` as a note to `task`.
    Note,
    /// Mark `task`, else every task of `phase`, blocked (only tasks still
    /// open or blocked; finished ones stay as they are), with `reason` as
    /// the blocker, or none. A target is required.
    Block,
    /// Put `task`, else every blocked task of `phase`, back to pending and
    /// forget its blocker. A target is required.
    Unblock,
}

/// One phase of an `init`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct PhaseItems {
    /// The phase's name.
    pub phase: String,
    /// Its tasks, in order.
    #[schemars(length(min = 1))]
    pub items: Vec<String>,
}

/// One op of a batch. Which fields it uses depends on `op`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct Op {
    /// What to do.
    pub op: OpKind,
    /// For `init`: the whole new list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<PhaseItems>>,
    /// The task, by its exact content (`start`, `note`, and targeted `done`, `drop`, `rm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The phase, by its exact name (`append`, and phase-wide `done`, `drop`, `rm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// For `append`: the tasks to add.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<String>>,
    /// For `note`: the note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// For `block`: what the task waits for. Runs of whitespace become one
    /// space, so the reason stays on one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Op {
    /// An op of `kind` with no fields set.
    pub fn new(kind: OpKind) -> Self {
        Self {
            op: kind,
            list: None,
            task: None,
            phase: None,
            items: None,
            text: None,
            reason: None,
        }
    }
}

/// What an `append` does with an item it cannot add (one already on the
/// list, or an empty one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AppendMode {
    /// Reports it and goes on with the next item: every item that can be
    /// added is.
    #[default]
    EachItem,
    /// Reports it and stops: the items before it are added, the ones after
    /// it are not tried.
    UpToFirstProblem,
}

/// A task that became completed during a batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CompletedTask {
    /// The task's content.
    pub content: String,
    /// Its phase.
    pub phase: String,
}

/// What a batch produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The state after every op that could apply, normalized.
    pub state: TodoState,
    /// What kept each failed op from applying, one entry per failed op,
    /// in op order (an `append` may find several problems).
    pub errors: Vec<Vec<BatchProblem>>,
    /// Tasks that went from not completed to completed.
    pub completed: Vec<CompletedTask>,
}
