//! oh-my-pi's words for what the ops engine reports, and its checklist
//! markers.

use todokit_domain::checklist::{Bullet, Mark, MarkerTable, Spacing};
use todokit_domain::{BatchProblem, Status};

/// `pi`'s markdown: `- [ ]`, `- [/]` in progress, `- [x]`, `- [-]`
/// abandoned, `- [!]` blocked; `>`, `~` and `X` read too.
pub const MARKERS: MarkerTable = MarkerTable {
    written: [
        Mark::plain(' '),
        Mark::plain('/'),
        Mark::plain('!'),
        Mark::plain('x'),
        Mark::plain('-'),
    ],
    also_read: &[
        ('>', Status::InProgress),
        ('~', Status::Abandoned),
        ('X', Status::Completed),
    ],
    bullet: Bullet::Required,
    spacing: Spacing::Exact,
};

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

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    // Golden facts from oh-my-pi (the npm package @oh-my-pi/pi-coding-agent 14.9.9, sha256
    // 2793491a1600e882ef5e13264f9b61f89661cef022ebe86570126f828ab1484d,
    // src/tools/todo-write.ts; first read in a copy of the repository at commit
    // 2f871b6d2359c4fd560936c5ce9197b5eb25c40d, equal but for one string literal of its renderer): the error of each op that
    // cannot apply; `Phase "X" already exists` is todokit's own (the
    // original lets `init` name a phase twice).
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
            "Phase \"P\" not found",
            "Task \"a\" already exists",
            "Phase \"P\" already exists",
        ];
        assert_eq!(actual, expected);
    }
}
