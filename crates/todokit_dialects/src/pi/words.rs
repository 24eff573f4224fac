//! oh-my-pi's words for what the ops engine reports, and its checklist
//! markers.

use todokit_domain::BatchProblem;
use todokit_domain::checklist::MarkerTable;

/// `pi`'s markdown: `- [ ]`, `- [/]` in progress, `- [x]`, `- [-]`
/// abandoned, `- [!]` blocked; `>`, `~` and `X` read too (the phased
/// checklist todokit's markdown codec speaks as well).
pub const MARKERS: MarkerTable = todokit_domain::checklist::PHASED;

/// What kept one op from applying, in oh-my-pi's words; several problems
/// of one op (an `append` with more than one bad item) joined by `; `.
pub fn op_error(problems: &[BatchProblem]) -> String {
    let words: Vec<String> = problems.iter().map(problem_text).collect();
    words.join("; ")
}

/// One problem of the batch engine, worded as oh-my-pi's `todo_write`
/// words it (todokit's own where the original has no such check:
/// `Phase "X" already exists`).
pub fn problem_text(problem: &BatchProblem) -> String {
    match problem {
        BatchProblem::MissingList => "Missing list for init operation".to_owned(),
        BatchProblem::MissingTask => "Missing task content".to_owned(),
        BatchProblem::MissingPhase => "Missing phase name".to_owned(),
        BatchProblem::MissingAppendPhase => "Missing phase name for append operation".to_owned(),
        BatchProblem::MissingAppendItems => "Missing items for append operation".to_owned(),
        BatchProblem::MissingNoteText => "Missing text for note operation".to_owned(),
        // An invented id is answered before the empty-list hint.
        BatchProblem::TaskNotFound { task, .. } if looks_like_an_id(task) => format!(
            "Task \"{task}\" not found. Tasks are referenced by content, not by IDs — pass the task's full text \
             from the previous result."
        ),
        BatchProblem::TaskNotFound {
            task,
            list_is_empty: true,
        } => format!("Task \"{task}\" not found (todo list is empty — was it replaced or not yet created?)"),
        BatchProblem::TaskNotFound { task, .. } => format!("Task \"{task}\" not found"),
        BatchProblem::PhaseNotFound(phase) => format!("Phase \"{phase}\" not found"),
        BatchProblem::TaskExists(task) | BatchProblem::DuplicateTask(task) => {
            format!("Task \"{task}\" already exists")
        }
        BatchProblem::DuplicatePhase(phase) => format!("Phase \"{phase}\" already exists"),
        // oh-my-pi's words since `block` arrived (July 2026, the `omp`
        // profile); `todo_write` has no such op, so none of its calls meets them.
        BatchProblem::MissingBlockTarget => "block requires a task or phase target".to_owned(),
        BatchProblem::MissingUnblockTarget => "unblock requires a task or phase target".to_owned(),
    }
}

/// True for `task-` followed by digits only (oh-my-pi's `/^task-\d+$/`):
/// the ids models invent for tasks that have none.
fn looks_like_an_id(task: &str) -> bool {
    task.strip_prefix("task-")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    // Golden facts from oh-my-pi: repository can1357/oh-my-pi at commit
    // 0eee5a40197560045d9390533dfa98b2fdb45076 (2026-05-30, read through
    // the copy yorha2B0826/oh-my-pi, whose main line carries it),
    // packages/coding-agent/src/tools/todo-write.ts: the error of each op
    // that cannot apply; `resolveTaskOrError` answers a name matching
    // /^task-\d+$/ with the hint on content, before (and instead of) the
    // empty-list hint (since b191e6c5ff). `Phase "X" already exists` is
    // todokit's own (the original lets `init` name a phase twice).
    #[test]
    fn every_batch_problem_is_worded_as_oh_my_pi_words_it() {
        let fixture = [
            BatchProblem::MissingList,
            BatchProblem::MissingTask,
            BatchProblem::MissingPhase,
            BatchProblem::MissingAppendPhase,
            BatchProblem::MissingAppendItems,
            BatchProblem::MissingNoteText,
            BatchProblem::TaskNotFound {
                task: "a".to_owned(),
                list_is_empty: false,
            },
            BatchProblem::TaskNotFound {
                task: "a".to_owned(),
                list_is_empty: true,
            },
            BatchProblem::TaskNotFound {
                task: "task-3".to_owned(),
                list_is_empty: false,
            },
            BatchProblem::TaskNotFound {
                task: "task-12".to_owned(),
                list_is_empty: true,
            },
            BatchProblem::TaskNotFound {
                task: "task-".to_owned(),
                list_is_empty: false,
            },
            BatchProblem::TaskNotFound {
                task: "Task-3".to_owned(),
                list_is_empty: false,
            },
            BatchProblem::PhaseNotFound("P".to_owned()),
            BatchProblem::TaskExists("a".to_owned()),
            BatchProblem::DuplicatePhase("P".to_owned()),
        ];
        let actual: Vec<String> = fixture.iter().map(problem_text).collect();
        let expected = vec![
            "Missing list for init operation",
            "Missing task content",
            "Missing phase name",
            "Missing phase name for append operation",
            "Missing items for append operation",
            "Missing text for note operation",
            "Task \"a\" not found",
            "Task \"a\" not found (todo list is empty — was it replaced or not yet created?)",
            "Task \"task-3\" not found. Tasks are referenced by content, not by IDs — pass the task's full text from \
             the previous result.",
            "Task \"task-12\" not found. Tasks are referenced by content, not by IDs — pass the task's full text from \
             the previous result.",
            "Task \"task-\" not found",
            "Task \"Task-3\" not found",
            "Phase \"P\" not found",
            "Task \"a\" already exists",
            "Phase \"P\" already exists",
        ];
        assert_eq!(actual, expected);
    }
}
