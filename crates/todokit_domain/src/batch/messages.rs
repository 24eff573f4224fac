//! The error texts of the `pi` batch, worded as the original tool words
//! them, so a model trained on it reads what it expects.

/// `init` came without `list`.
pub const MISSING_LIST: &str = "Missing list for init operation";
/// A task was needed and none (or an empty one) was named.
pub const MISSING_TASK: &str = "Missing task content";
/// A phase was named empty.
pub const MISSING_PHASE: &str = "Missing phase name";
/// `append` came without a phase.
pub const MISSING_APPEND_PHASE: &str = "Missing phase name for append operation";
/// `append` came without items.
pub const MISSING_APPEND_ITEMS: &str = "Missing items for append operation";
/// `note` came without text (or only whitespace).
pub const MISSING_NOTE_TEXT: &str = "Missing text for note operation";

/// `Todo "X" not found`, with a hint when the list is empty.
pub fn task_not_found(task: &str, list_is_empty: bool) -> String {
    if list_is_empty {
        format!("Task \"{task}\" not found (todo list is empty — was it replaced or not yet created?)")
    } else {
        format!("Task \"{task}\" not found")
    }
}

/// `Phase "X" not found`.
pub fn phase_not_found(phase: &str) -> String {
    format!("Phase \"{phase}\" not found")
}

/// `Todo "X" already exists`.
pub fn task_exists(task: &str) -> String {
    format!("Task \"{task}\" already exists")
}

/// `Phase "X" already exists` (todokit's own: `init` refuses a phase twice).
pub fn phase_exists(phase: &str) -> String {
    format!("Phase \"{phase}\" already exists")
}
