//! The text `todo` answers with: what is left, the overall count, the
//! active phase and every phase as a checklist, line for line as
//! oh-my-pi's `formatSummary` writes it.

use std::fmt::Write;

use todokit_domain::{Status, TodoState};

use crate::pi::{active_phase, phase_label};

/// The answer to `view` on a list with no task.
pub const EMPTY: &str = "Todo list is empty.";
/// The answer to a change that leaves no task.
pub const CLEARED: &str = "Todo list cleared.";
/// Said after the active phase when a later phase has finished work, so the
/// pointer moving back reads as what it is.
pub const WORKED_AHEAD: &str = " — earliest phase with open tasks; the in-progress pointer auto-advances to the \
                                earliest open task on each completion, so it can sit behind out-of-order work \
                                (nothing was un-completed).";

/// The summary of `state`, led by `errors` when there are any; `read_only`
/// for a `view`, whose empty list is [`EMPTY`] rather than [`CLEARED`].
pub fn summary(state: &TodoState, errors: &[String], read_only: bool) -> String {
    let joined = || errors.join("; ");
    if state.is_empty() {
        return match (errors.is_empty(), read_only) {
            (false, _) => format!("Errors: {}", joined()),
            (true, true) => EMPTY.to_owned(),
            (true, false) => CLEARED.to_owned(),
        };
    }
    let mut out = String::with_capacity(96 * state.tasks().count() + 256);
    if !errors.is_empty() {
        let _ = writeln!(out, "Errors: {}", joined());
    }
    let counts = state.counts();
    match counts.open() {
        0 => out.push_str("Remaining items: none.\n"),
        open => {
            let _ = writeln!(out, "Remaining items ({open}):");
            for phase in &state.phases {
                for task in phase.tasks.iter().filter(|t| t.status.is_open()) {
                    let _ = writeln!(
                        out,
                        "  - {} [{}] ({})",
                        task.content,
                        task.status,
                        phase_label(phase)
                    );
                }
            }
        }
    }
    let finished = counts.completed + counts.abandoned;
    let _ = write!(
        out,
        "Overall: {finished}/{} done, {} open",
        counts.total(),
        counts.open()
    );
    if counts.blocked > 0 {
        let _ = write!(out, ", {} blocked", counts.blocked);
    }
    out.push_str(".\n");
    // A list with tasks has phases, so there is always an active one.
    let Some((active, current, done)) = active_phase(state) else {
        return out;
    };
    let worked_ahead = state.phases[active + 1..]
        .iter()
        .any(|p| p.tasks.iter().any(|t| t.status.is_finished()));
    let (number, phases, name, size) = (
        active + 1,
        state.phases.len(),
        phase_label(current),
        current.tasks.len(),
    );
    let _ = write!(out, "Active phase {number}/{phases} \"{name}\" ({done}/{size})");
    out.push_str(if worked_ahead { WORKED_AHEAD } else { "." });
    for phase in &state.phases {
        let _ = write!(out, "\n  {}:", phase_label(phase));
        for task in &phase.tasks {
            let checkbox = if task.status == Status::Completed {
                "[X]"
            } else {
                "[ ]"
            };
            let _ = write!(out, "\n    - {checkbox} {}", task.content);
            match (task.status, task.blocked_reason.as_deref()) {
                (Status::InProgress, _) => out.push_str(" (in progress)"),
                (Status::Abandoned, _) => out.push_str(" (dropped)"),
                (Status::Blocked, Some(reason)) => {
                    let _ = write!(out, " (blocked: {reason})");
                }
                (Status::Blocked, None) => out.push_str(" (blocked)"),
                (Status::Pending | Status::Completed, _) => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use todokit_domain::{Phase, Todo};

    fn task(content: &str, status: Status) -> Todo {
        Todo::new(content).status(status)
    }

    // Golden facts from oh-my-pi (the npm package @oh-my-pi/pi-coding-agent 18.1.16, sha256
    // cadfd9651a53537b3831ef925ec9b9eea4640d059f4cb9ec8fbb339eb864a49b,
    // src/tools/todo.ts; first read in a copy of the repository at commit
    // c13ef04b54fb89d4b794e96bf89fa0af74114294, equal but for one schema description, `formatSummary`): errors
    // first; `Remaining items (n):` with `  - content [status] (phase)` for
    // pending and in-progress tasks, or `Remaining items: none.`;
    // `Overall: closed/total done, open open[, b blocked].`; the active
    // phase (the first with open work, else the last) with its closed
    // count, and the worked-ahead explanation when a later phase has closed
    // work; then `  Phase:` and `    - [X]`/`[ ]` content with ` (in
    // progress)`, ` (dropped)`, ` (blocked: reason)` or ` (blocked)`. With
    // no task, the errors alone, `Todo list is empty.` for a view, else
    // `Todo list cleared.`.
    #[test]
    fn the_summary_is_oh_my_pis_format_summary() {
        let worked_ahead = TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![
                task("Scaffold", Status::Completed),
                task("Wire", Status::InProgress),
            ]),
            Phase::new("Ship").tasks(vec![
                task("Tag", Status::Abandoned),
                task("Publish", Status::Blocked).blocked_reason("waits for the release manager"),
                task("Announce", Status::Blocked),
            ]),
        ]);
        let finished = TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![task("Scaffold", Status::Completed)]),
            Phase::new("Ship").tasks(vec![task("Tag", Status::Abandoned)]),
        ]);
        let errors = ["Phase \"Docs\" not found".to_owned()];
        let actual = [
            summary(&worked_ahead, &[], false),
            summary(&finished, &errors, false),
            summary(&TodoState::new(), &errors, true),
            summary(&TodoState::new(), &[], true),
            summary(&TodoState::new().phases(vec![Phase::new("Build")]), &[], false),
        ];
        let expected = [
            "Remaining items (1):\n  - Wire [in_progress] (Build)\nOverall: 2/5 done, 1 open, 2 blocked.\nActive phase \
             1/2 \"Build\" (1/2) — earliest phase with open tasks; the in-progress pointer auto-advances to the \
             earliest open task on each completion, so it can sit behind out-of-order work (nothing was \
             un-completed).\n  Build:\n    - [X] Scaffold\n    - [ ] Wire (in progress)\n  Ship:\n    - [ ] Tag \
             (dropped)\n    - [ ] Publish (blocked: waits for the release manager)\n    - [ ] Announce (blocked)"
                .to_owned(),
            "Errors: Phase \"Docs\" not found\nRemaining items: none.\nOverall: 2/2 done, 0 open.\nActive phase 2/2 \
             \"Ship\" (1/1).\n  Build:\n    - [X] Scaffold\n  Ship:\n    - [ ] Tag (dropped)"
                .to_owned(),
            "Errors: Phase \"Docs\" not found".to_owned(),
            "Todo list is empty.".to_owned(),
            "Todo list cleared.".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_flat_lists_unnamed_phase_is_shown_as_todos() {
        let fixture = TodoState::flat(vec![task("Read", Status::InProgress)]);
        let actual = summary(&fixture, &[], true);
        let expected = "Remaining items (1):\n  - Read [in_progress] (Todos)\nOverall: 0/1 done, 1 open.\nActive \
                        phase 1/1 \"Todos\" (0/1).\n  Todos:\n    - [ ] Read (in progress)";
        assert_eq!(actual, expected);
    }
}
