//! The todokit state model: per conversation, ordered phases of tasks, each
//! task with a status, notes, priority, active form and, for a subtask, its
//! parent; the limits and rules
//! a list must meet; and every pure state transition over it.
//!
//! Nothing here does I/O or needs an async runtime. Time arrives as a
//! [`Timestamp`] argument so that every transition is a pure function of its
//! inputs and tests never sleep.

mod batch;
pub mod checklist;
mod claim;
mod conversation_id;
mod error;
mod foreign;
mod graph;
mod lifecycle;
mod merge;
mod patch;
mod rules;
mod state;
mod status;
mod subtasks;
mod summary;
mod time;
mod todo;
mod transition;
pub mod turn;
mod updates;
mod validate;

pub use batch::{
    AppendMode, Batch, BatchProblem, CompletedTask, Op, OpKind, PhaseItems, apply_ops, apply_ops_with,
    check_op_size, normalize_in_progress,
};
pub use checklist::{Escape, progress_line};
pub use claim::{Claim, ClaimFields, check_claim};
pub use conversation_id::{
    CONVERSATION_ID_RULE, ConversationIdError, MAX_CONVERSATION_ID_BYTES, RESERVED_ID_CHAR,
    check_conversation_id,
};
pub use error::{
    MAX_LISTED_POSITIONS, MAX_QUOTED_CHARS, MAX_REPORTED_VIOLATIONS, TodoError, Violation, Violations, clip,
    list_some,
};
pub use lifecycle::{auto_clear, auto_clear_due, drop_finished, next_auto_clear};
pub use merge::{MergeItem, merge_by_id};
pub use patch::{TodoField, TodoPatch};
pub use rules::{FieldNames, InProgressPolicy, ItemPath, Limits, ListRules};
pub use state::{Notice, NoticeKind, Phase, StatusCounts, TodoState};
pub use status::{Priority, Status};
pub use subtasks::{OutlineEntry, outline};
pub use summary::ListSummary;
pub use time::{Timestamp, UtcTime};
pub use todo::Todo;
pub use transition::{Replacement, Transition, adopt_hidden_fields, diff, replace_flat};
pub use updates::{Applied, NewTodo, Updates, apply_updates};
pub use validate::{Presence, check_text, check_text_with, validate_list, validate_phases};
