//! The ops of `todo_write` as the model sends them: seven kinds, no
//! `block` (oh-my-pi's `todo_write` had no blocked status). Each is run by
//! the domain's batch engine.

use schemars::JsonSchema;
use serde::Deserialize;
use todokit_domain::{Op, OpKind, PhaseItems};

todokit_app::prelude::wire_enum! {
    /// The op words `todo_write` takes; the engine's own ops (`block`,
    /// `unblock`) are not among them.
    pub enum BatchOpKind {
        /// The list given replaces the old one.
        Init = "init",
        /// One task, named, goes in progress.
        Start = "start",
        /// A task, a phase or everything completes.
        Done = "done",
        /// A task, a phase or everything is abandoned.
        Drop = "drop",
        /// A task, a phase's tasks or every task go.
        Rm = "rm",
        /// New tasks at the end of a phase.
        Append = "append",
        /// Text added to a task.
        Note = "note",
    }
    aliases {}
}

/// One op of a batch. Which fields it uses depends on `op`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct BatchOp {
    /// What to do.
    pub op: BatchOpKind,
    /// For `init`: the whole new list.
    pub list: Option<Vec<PhaseItems>>,
    /// The task, by its exact content (`start`, `note`, and targeted `done`, `drop`, `rm`).
    pub task: Option<String>,
    /// The phase, by its exact name (`append`, and phase-wide `done`, `drop`, `rm`).
    pub phase: Option<String>,
    /// For `append`: the tasks to add.
    pub items: Option<Vec<String>>,
    /// For `note`: the note.
    pub text: Option<String>,
}

impl From<BatchOp> for Op {
    fn from(sent: BatchOp) -> Self {
        let kind = match sent.op {
            BatchOpKind::Init => OpKind::Init,
            BatchOpKind::Start => OpKind::Start,
            BatchOpKind::Done => OpKind::Done,
            BatchOpKind::Drop => OpKind::Drop,
            BatchOpKind::Rm => OpKind::Rm,
            BatchOpKind::Append => OpKind::Append,
            BatchOpKind::Note => OpKind::Note,
        };
        Op {
            list: sent.list,
            task: sent.task,
            phase: sent.phase,
            items: sent.items,
            text: sent.text,
            ..Op::new(kind)
        }
    }
}
