//! Why an op of a batch did not apply, as the engine found it. The profile
//! that runs the batch says it in its own agent's words.

/// One thing that kept an op from applying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchProblem {
    /// `init` came without a list.
    MissingList,
    /// A task was needed and none (or only whitespace) was named.
    MissingTask,
    /// A phase was named empty.
    MissingPhase,
    /// `append` came without a phase.
    MissingAppendPhase,
    /// `append` came without items.
    MissingAppendItems,
    /// `note` came without text (or only whitespace).
    MissingNoteText,
    /// No task has this content.
    TaskNotFound {
        /// The content asked for.
        task: String,
        /// Whether the list held nothing at all (it may have been replaced
        /// or never created).
        list_is_empty: bool,
    },
    /// No phase has this name.
    PhaseNotFound(String),
    /// A task with this content exists already (`append`).
    TaskExists(String),
    /// `init` names this phase twice.
    DuplicatePhase(String),
    /// `init` names this task twice.
    DuplicateTask(String),
    /// `block` named neither a task nor a phase.
    MissingBlockTarget,
    /// `unblock` named neither a task nor a phase.
    MissingUnblockTarget,
}

impl From<BatchProblem> for Vec<BatchProblem> {
    fn from(problem: BatchProblem) -> Self {
        vec![problem]
    }
}
