//! oh-my-pi's words, as its `todo` says them, for what kept an op from
//! applying. Most are the words `todo_write` used (the `pi` profile: the
//! not-found texts, the hint for an invented `task-N` id among them); the
//! ones `todo` changed are here.

use todokit_domain::BatchProblem;

use crate::pi;

/// One problem of the batch engine, in `todo`'s words.
pub fn problem_text(problem: &BatchProblem) -> String {
    match problem {
        BatchProblem::DuplicateTask(task) => format!("Duplicate task \"{task}\" in init list"),
        BatchProblem::DuplicatePhase(phase) => format!("Duplicate phase \"{phase}\" in init list"),
        other => pi::problem_text(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn not_found(task: &str, list_is_empty: bool) -> BatchProblem {
        BatchProblem::TaskNotFound {
            task: task.to_owned(),
            list_is_empty,
        }
    }

    // Golden facts from oh-my-pi (the npm package @oh-my-pi/pi-coding-agent 18.1.16, sha256
    // cadfd9651a53537b3831ef925ec9b9eea4640d059f4cb9ec8fbb339eb864a49b,
    // src/tools/todo.ts; first read in a copy of the repository at commit
    // c13ef04b54fb89d4b794e96bf89fa0af74114294, equal but for one schema description): `resolveTaskOrError` tests
    // /^task-\d+$/ before the empty-list hint; `initPhases` reports each
    // repeated phase and task; `block`/`unblock` without a target; the
    // rest as `todo_write` said them.
    #[test]
    fn every_problem_is_worded_as_todo_words_it() {
        let fixture = [
            not_found("task-3", false),
            not_found("task-12", true),
            not_found("task-", false),
            not_found("Task-3", false),
            not_found("task-3a", false),
            not_found("Wire", true),
            BatchProblem::DuplicateTask("Wire".to_owned()),
            BatchProblem::DuplicatePhase("Auth".to_owned()),
            BatchProblem::MissingBlockTarget,
            BatchProblem::MissingUnblockTarget,
            BatchProblem::MissingList,
            BatchProblem::MissingTask,
            BatchProblem::MissingPhase,
            BatchProblem::MissingAppendPhase,
            BatchProblem::MissingAppendItems,
            BatchProblem::PhaseNotFound("Docs".to_owned()),
            BatchProblem::TaskExists("Wire".to_owned()),
        ];
        let actual: Vec<String> = fixture.iter().map(problem_text).collect();
        let expected = vec![
            "Task \"task-3\" not found. Tasks are referenced by content, not by IDs — pass the task's full text from \
             the previous result.",
            "Task \"task-12\" not found. Tasks are referenced by content, not by IDs — pass the task's full text from \
             the previous result.",
            "Task \"task-\" not found",
            "Task \"Task-3\" not found",
            "Task \"task-3a\" not found",
            "Task \"Wire\" not found (todo list is empty — was it replaced or not yet created?)",
            "Duplicate task \"Wire\" in init list",
            "Duplicate phase \"Auth\" in init list",
            "block requires a task or phase target",
            "unblock requires a task or phase target",
            "Missing list for init operation",
            "Missing task content",
            "Missing phase name",
            "Missing phase name for append operation",
            "Missing items for append operation",
            "Phase \"Docs\" not found",
            "Task \"Wire\" already exists",
        ];
        assert_eq!(actual, expected);
    }
}
