//! Why a hand edit could not apply, in todokit's own words: the user typed
//! the edit, so no agent's dialect is spoken to them. The model still reads
//! the change in its profile's words, through the notice's reminder.

use todokit_domain::{BatchProblem, clip};

/// One problem of the batch engine, said to the user who made the edit.
/// Names the user typed are quoted clipped (see [`clip`]).
pub fn refusal(problem: &BatchProblem) -> String {
    match problem {
        BatchProblem::MissingList => "no list was given to start from".to_owned(),
        BatchProblem::MissingTask => "a task's text is empty; name the task".to_owned(),
        BatchProblem::MissingPhase => "a phase's name is empty; name the phase".to_owned(),
        BatchProblem::MissingAppendPhase => "name the phase to add the tasks to".to_owned(),
        BatchProblem::MissingAppendItems => "name at least one task to add".to_owned(),
        BatchProblem::MissingNoteText => "a note's text is empty".to_owned(),
        BatchProblem::TaskNotFound { task, list_is_empty } => match list_is_empty {
            true => format!("no task is called \"{}\": the list is empty", clip(task)),
            false => format!("no task is called \"{}\"", clip(task)),
        },
        BatchProblem::PhaseNotFound(phase) => format!("no phase is called \"{}\"", clip(phase)),
        BatchProblem::TaskExists(task) | BatchProblem::DuplicateTask(task) => {
            format!("the list already has a task called \"{}\"", clip(task))
        }
        BatchProblem::DuplicatePhase(phase) => {
            format!("the list already has a phase called \"{}\"", clip(phase))
        }
        BatchProblem::MissingBlockTarget => "name the task or phase to block".to_owned(),
        BatchProblem::MissingUnblockTarget => "name the task or phase to unblock".to_owned(),
    }
}

/// Several problems of one edit, in one line.
pub fn refusals(problems: &[BatchProblem]) -> String {
    problems.iter().map(refusal).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn every_problem_is_said_in_todokits_words_with_names_clipped() {
        let long = "x".repeat(500);
        let fixture = vec![
            BatchProblem::MissingTask,
            BatchProblem::TaskNotFound {
                task: "Ship".to_owned(),
                list_is_empty: true,
            },
            BatchProblem::TaskExists(long.clone()),
            BatchProblem::PhaseNotFound("Later".to_owned()),
        ];
        let actual = refusals(&fixture);
        let expected = format!(
            "a task's text is empty; name the task; no task is called \"Ship\": the list is empty; \
             the list already has a task called \"{}… (500 bytes)\"; no phase is called \"Later\"",
            "x".repeat(200)
        );
        assert_eq!(actual, expected);
    }
}
