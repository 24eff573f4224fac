//! Ordered ops over phases (the `pi` profile's `todo_write`): each op is
//! applied in turn to a working copy; one that fails is skipped and its
//! error recorded while the rest still run; then the list is normalized to
//! exactly one task in progress when any is open.
//!
//! Tasks are named by their exact content and phases by their exact name.
//! Where the reference behaviour is a trap, this does better: an empty name
//! is an error rather than "everything", `init` without a list changes
//! nothing, and `init` refuses duplicate task content.

mod op;
mod problem;

pub use op::{Batch, CompletedTask, Op, OpKind, PhaseItems};
pub use problem::BatchProblem;

use crate::{Phase, Status, Timestamp, Todo, TodoState};

/// Applies `ops` in order to a copy of `state`; see the module docs.
pub fn apply_ops(state: &TodoState, ops: &[Op], now: Timestamp) -> Batch {
    let mut work = state.clone();
    let mut errors = Vec::new();
    for op in ops {
        if let Err(error) = apply(&mut work, op, now) {
            errors.push(error);
        }
    }
    normalize_in_progress(&mut work, now);
    let completed = work
        .phases
        .iter()
        .flat_map(|p| p.tasks.iter().map(move |t| (p, t)))
        .filter(|(_, t)| t.status == Status::Completed)
        .filter(|(_, t)| {
            !state
                .tasks()
                .any(|o| o.content == t.content && o.status == Status::Completed)
        })
        .map(|(p, t)| CompletedTask {
            content: t.content.clone(),
            phase: p.name.clone(),
        })
        .collect();
    Batch {
        state: work,
        errors,
        completed,
    }
}

/// Keeps only the first in-progress task in progress (the others go back to
/// pending); when none is in progress, starts the first pending one.
pub fn normalize_in_progress(state: &mut TodoState, now: Timestamp) {
    let mut seen = false;
    for task in state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
        if task.status == Status::InProgress {
            if seen {
                task.set_status(Status::Pending, now);
            }
            seen = true;
        }
    }
    if !seen
        && let Some(task) = state
            .phases
            .iter_mut()
            .flat_map(|p| p.tasks.iter_mut())
            .find(|t| t.status == Status::Pending)
    {
        task.set_status(Status::InProgress, now);
    }
}

fn apply(state: &mut TodoState, op: &Op, now: Timestamp) -> Result<(), Vec<BatchProblem>> {
    match op.op {
        OpKind::Init => init(state, op, now),
        OpKind::Start => {
            let name = named(op.task.as_deref(), BatchProblem::MissingTask)?;
            locate(state, name)?;
            for task in state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
                if task.content == name {
                    task.set_status(Status::InProgress, now);
                } else if task.status == Status::InProgress {
                    task.set_status(Status::Pending, now);
                }
            }
            Ok(())
        }
        OpKind::Done => mark(state, op, Status::Completed, now),
        OpKind::Drop => mark(state, op, Status::Abandoned, now),
        OpKind::Rm => remove(state, op),
        OpKind::Append => append(state, op, now),
        OpKind::Note => {
            let name = named(op.task.as_deref(), BatchProblem::MissingTask)?;
            let text = op.text.as_deref().map(str::trim_end).unwrap_or_default();
            if text.trim().is_empty() {
                return Err(BatchProblem::MissingNoteText.into());
            }
            let (p, t) = locate(state, name)?;
            state.phases[p].tasks[t].notes.push(text.to_owned());
            Ok(())
        }
    }
}

fn init(state: &mut TodoState, op: &Op, now: Timestamp) -> Result<(), Vec<BatchProblem>> {
    let list = op.list.as_ref().ok_or(BatchProblem::MissingList)?;
    let mut phases: Vec<Phase> = Vec::new();
    for entry in list {
        let name = named(Some(&entry.phase), BatchProblem::MissingPhase)?;
        if phases.iter().any(|p| p.name == name) {
            return Err(BatchProblem::PhaseExists(name.to_owned()).into());
        }
        let mut tasks = Vec::new();
        for item in &entry.items {
            let content = named(Some(item), BatchProblem::MissingTask)?;
            if phases
                .iter()
                .flat_map(|p| &p.tasks)
                .chain(&tasks)
                .any(|t: &Todo| t.content == content)
            {
                return Err(BatchProblem::TaskExists(content.to_owned()).into());
            }
            tasks.push(Todo::new(content).created_at(now).status_changed_at(now));
        }
        phases.push(Phase::new(name).tasks(tasks));
    }
    state.phases = phases;
    Ok(())
}

fn mark(state: &mut TodoState, op: &Op, status: Status, now: Timestamp) -> Result<(), Vec<BatchProblem>> {
    for (p, t) in targets(state, op)? {
        state.phases[p].tasks[t].set_status(status, now);
    }
    Ok(())
}

fn remove(state: &mut TodoState, op: &Op) -> Result<(), Vec<BatchProblem>> {
    if let Some(task) = op.task.as_deref() {
        let name = named(Some(task), BatchProblem::MissingTask)?;
        let (p, t) = locate(state, name)?;
        state.phases[p].tasks.remove(t);
    } else if let Some(phase) = op.phase.as_deref() {
        let p = locate_phase(state, named(Some(phase), BatchProblem::MissingPhase)?)?;
        state.phases[p].tasks.clear();
    } else {
        for phase in &mut state.phases {
            phase.tasks.clear();
        }
    }
    Ok(())
}

fn append(state: &mut TodoState, op: &Op, now: Timestamp) -> Result<(), Vec<BatchProblem>> {
    let phase = named(op.phase.as_deref(), BatchProblem::MissingAppendPhase)?;
    let items = op
        .items
        .as_deref()
        .filter(|i| !i.is_empty())
        .ok_or(BatchProblem::MissingAppendItems)?;
    let mut errors = Vec::new();
    let mut added = Vec::new();
    for item in items {
        match named(Some(item), BatchProblem::MissingTask) {
            Err(e) => errors.push(e),
            Ok(content) if state.tasks().chain(&added).any(|t| t.content == content) => {
                errors.push(BatchProblem::TaskExists(content.to_owned()));
            }
            Ok(content) => added.push(Todo::new(content).created_at(now).status_changed_at(now)),
        }
    }
    if !added.is_empty() {
        let index = match state.phases.iter().position(|p| p.name == phase) {
            Some(i) => i,
            None => {
                state.phases.push(Phase::new(phase));
                state.phases.len() - 1
            }
        };
        state.phases[index].tasks.extend(added);
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The tasks a `done`/`drop` targets: one task, one phase, or all.
fn targets(state: &TodoState, op: &Op) -> Result<Vec<(usize, usize)>, BatchProblem> {
    if let Some(task) = op.task.as_deref() {
        return Ok(vec![locate(
            state,
            named(Some(task), BatchProblem::MissingTask)?,
        )?]);
    }
    let phases: Vec<usize> = match op.phase.as_deref() {
        Some(phase) => vec![locate_phase(
            state,
            named(Some(phase), BatchProblem::MissingPhase)?,
        )?],
        None => (0..state.phases.len()).collect(),
    };
    Ok(phases
        .into_iter()
        .flat_map(|p| (0..state.phases[p].tasks.len()).map(move |t| (p, t)))
        .collect())
}

/// `value` when it is present and not empty after trimming, else `missing`.
fn named(value: Option<&str>, missing: BatchProblem) -> Result<&str, BatchProblem> {
    value.filter(|v| !v.trim().is_empty()).ok_or(missing)
}

fn locate(state: &TodoState, content: &str) -> Result<(usize, usize), BatchProblem> {
    state
        .phases
        .iter()
        .enumerate()
        .find_map(|(p, phase)| {
            phase
                .tasks
                .iter()
                .position(|t| t.content == content)
                .map(|t| (p, t))
        })
        .ok_or_else(|| BatchProblem::TaskNotFound {
            task: content.to_owned(),
            list_is_empty: state.is_empty(),
        })
}

fn locate_phase(state: &TodoState, name: &str) -> Result<usize, BatchProblem> {
    state
        .phases
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| BatchProblem::PhaseNotFound(name.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const NOW: Timestamp = 1_000;

    fn init_op(list: &[(&str, &[&str])]) -> Op {
        Op::new(OpKind::Init).list(
            list.iter()
                .map(|(phase, items)| PhaseItems::new_phase(phase, items))
                .collect::<Vec<_>>(),
        )
    }

    impl PhaseItems {
        fn new_phase(phase: &str, items: &[&str]) -> Self {
            Self {
                phase: phase.to_owned(),
                items: items.iter().map(|s| (*s).to_owned()).collect(),
            }
        }
    }

    fn two_phases() -> TodoState {
        apply_ops(
            &TodoState::new(),
            &[init_op(&[("Build", &["a", "b"]), ("Ship", &["c"])])],
            NOW,
        )
        .state
    }

    fn statuses(state: &TodoState) -> Vec<(String, Status)> {
        state.tasks().map(|t| (t.content.clone(), t.status)).collect()
    }

    /// Each task's (content, status) after a batch, and the batch's errors.
    type Run = (Vec<(String, Status)>, Vec<Vec<BatchProblem>>);

    fn run(state: &TodoState, ops: &[Op]) -> Run {
        let batch = apply_ops(state, ops, NOW);
        (statuses(&batch.state), batch.errors)
    }

    #[test]
    fn init_replaces_everything_and_normalization_starts_the_first_task() {
        let actual = statuses(&two_phases());
        let expected = vec![
            ("a".to_owned(), Status::InProgress),
            ("b".to_owned(), Status::Pending),
            ("c".to_owned(), Status::Pending),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn init_without_a_list_changes_nothing() {
        let fixture = two_phases();
        let actual = run(&fixture, &[Op::new(OpKind::Init)]);
        let expected = (statuses(&fixture), vec![vec![BatchProblem::MissingList]]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn init_refuses_duplicate_content_and_phases_and_empty_names() {
        let fixture = two_phases();
        let actual: Vec<Vec<Vec<BatchProblem>>> = [
            init_op(&[("X", &["a", "a"])]),
            init_op(&[("X", &["a"]), ("X", &["b"])]),
            init_op(&[("", &["a"])]),
            init_op(&[("X", &[" "])]),
        ]
        .into_iter()
        .map(|op| run(&fixture, &[op]).1)
        .collect();
        let expected = vec![
            vec![vec![BatchProblem::TaskExists("a".to_owned())]],
            vec![vec![BatchProblem::PhaseExists("X".to_owned())]],
            vec![vec![BatchProblem::MissingPhase]],
            vec![vec![BatchProblem::MissingTask]],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn start_moves_the_single_in_progress_task() {
        let actual = run(&two_phases(), &[Op::new(OpKind::Start).task("c")]);
        let expected = (
            vec![
                ("a".to_owned(), Status::Pending),
                ("b".to_owned(), Status::Pending),
                ("c".to_owned(), Status::InProgress),
            ],
            vec![],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn done_targets_a_task_a_phase_or_everything() {
        let fixture = two_phases();
        let actual = [
            Op::new(OpKind::Done).task("b"),
            Op::new(OpKind::Done).phase("Build"),
            Op::new(OpKind::Done),
        ]
        .into_iter()
        .map(|op| run(&fixture, &[op]).0)
        .collect::<Vec<_>>();
        let expected = vec![
            vec![
                ("a".to_owned(), Status::InProgress),
                ("b".to_owned(), Status::Completed),
                ("c".to_owned(), Status::Pending),
            ],
            vec![
                ("a".to_owned(), Status::Completed),
                ("b".to_owned(), Status::Completed),
                ("c".to_owned(), Status::InProgress),
            ],
            vec![
                ("a".to_owned(), Status::Completed),
                ("b".to_owned(), Status::Completed),
                ("c".to_owned(), Status::Completed),
            ],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn drop_abandons_and_the_next_pending_task_starts() {
        let actual = run(&two_phases(), &[Op::new(OpKind::Drop).task("a")]);
        let expected = (
            vec![
                ("a".to_owned(), Status::Abandoned),
                ("b".to_owned(), Status::InProgress),
                ("c".to_owned(), Status::Pending),
            ],
            vec![],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn rm_removes_a_task_empties_a_phase_or_empties_all() {
        let fixture = two_phases();
        let actual: Vec<(usize, Vec<String>)> = [
            Op::new(OpKind::Rm).task("b"),
            Op::new(OpKind::Rm).phase("Build"),
            Op::new(OpKind::Rm),
        ]
        .into_iter()
        .map(|op| {
            let batch = apply_ops(&fixture, &[op], NOW);
            (
                batch.state.tasks().count(),
                batch.state.phases.iter().map(|p| p.name.clone()).collect(),
            )
        })
        .collect();
        let expected = vec![
            (2, vec!["Build".to_owned(), "Ship".to_owned()]),
            (1, vec!["Build".to_owned(), "Ship".to_owned()]),
            (0, vec!["Build".to_owned(), "Ship".to_owned()]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn append_creates_the_phase_and_refuses_existing_content_item_by_item() {
        let fixture = two_phases();
        let op =
            Op::new(OpKind::Append)
                .phase("Docs")
                .items(vec!["d".to_owned(), "a".to_owned(), "e".to_owned()]);
        let batch = apply_ops(&fixture, &[op], NOW);
        let actual = (
            batch
                .state
                .phases
                .iter()
                .map(|p| (p.name.clone(), p.tasks.len()))
                .collect::<Vec<_>>(),
            batch.errors,
        );
        let expected = (
            vec![
                ("Build".to_owned(), 2),
                ("Ship".to_owned(), 1),
                ("Docs".to_owned(), 2),
            ],
            vec![vec![BatchProblem::TaskExists("a".to_owned())]],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn append_needs_a_phase_and_items() {
        let fixture = two_phases();
        let actual: Vec<Vec<Vec<BatchProblem>>> = [
            Op::new(OpKind::Append).items(vec!["x".to_owned()]),
            Op::new(OpKind::Append).phase("P"),
            Op::new(OpKind::Append).phase("P").items(Vec::<String>::new()),
        ]
        .into_iter()
        .map(|op| run(&fixture, &[op]).1)
        .collect();
        let expected = vec![
            vec![vec![BatchProblem::MissingAppendPhase]],
            vec![vec![BatchProblem::MissingAppendItems]],
            vec![vec![BatchProblem::MissingAppendItems]],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn note_strips_trailing_whitespace_and_refuses_empty_text() {
        let fixture = two_phases();
        let batch = apply_ops(
            &fixture,
            &[
                Op::new(OpKind::Note).task("a").text("  first line\nsecond  \n"),
                Op::new(OpKind::Note).task("a").text(" \n "),
                Op::new(OpKind::Note).task("a"),
            ],
            NOW,
        );
        let actual = (batch.state.tasks().next().map(|t| t.notes.clone()), batch.errors);
        let expected = (
            Some(vec!["  first line\nsecond".to_owned()]),
            vec![
                vec![BatchProblem::MissingNoteText],
                vec![BatchProblem::MissingNoteText],
            ],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_name_is_an_error_never_everything() {
        let fixture = two_phases();
        let actual: Vec<Run> = [
            Op::new(OpKind::Done).task(""),
            Op::new(OpKind::Rm).phase(" "),
            Op::new(OpKind::Start).task(""),
        ]
        .into_iter()
        .map(|op| run(&fixture, &[op]))
        .collect();
        let expected = vec![
            (statuses(&fixture), vec![vec![BatchProblem::MissingTask]]),
            (statuses(&fixture), vec![vec![BatchProblem::MissingPhase]]),
            (statuses(&fixture), vec![vec![BatchProblem::MissingTask]]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn not_found_names_the_task_or_phase_and_whether_the_list_was_empty() {
        let actual = (
            run(
                &two_phases(),
                &[
                    Op::new(OpKind::Start).task("zz"),
                    Op::new(OpKind::Done).phase("Q"),
                ],
            )
            .1,
            run(&TodoState::new(), &[Op::new(OpKind::Start).task("zz")]).1,
        );
        let expected = (
            vec![
                vec![BatchProblem::TaskNotFound {
                    task: "zz".to_owned(),
                    list_is_empty: false,
                }],
                vec![BatchProblem::PhaseNotFound("Q".to_owned())],
            ],
            vec![vec![BatchProblem::TaskNotFound {
                task: "zz".to_owned(),
                list_is_empty: true,
            }]],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_failing_op_is_skipped_and_later_ops_still_apply() {
        let fixture = two_phases();
        let actual = run(
            &fixture,
            &[
                Op::new(OpKind::Done).task("a"),
                Op::new(OpKind::Start).task("missing"),
                Op::new(OpKind::Start).task("c"),
                Op::new(OpKind::Note).task("c").text("n"),
            ],
        );
        let expected = (
            vec![
                ("a".to_owned(), Status::Completed),
                ("b".to_owned(), Status::Pending),
                ("c".to_owned(), Status::InProgress),
            ],
            vec![vec![BatchProblem::TaskNotFound {
                task: "missing".to_owned(),
                list_is_empty: false,
            }]],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn normalization_keeps_the_first_of_several_in_progress_across_phases() {
        let mut fixture = TodoState::new().phases(vec![
            Phase::new("A").tasks(vec![Todo::new("a"), Todo::new("b").status(Status::InProgress)]),
            Phase::new("B").tasks(vec![Todo::new("c").status(Status::InProgress)]),
        ]);
        normalize_in_progress(&mut fixture, NOW);
        let actual = statuses(&fixture);
        let expected = vec![
            ("a".to_owned(), Status::Pending),
            ("b".to_owned(), Status::InProgress),
            ("c".to_owned(), Status::Pending),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn normalization_leaves_a_list_with_nothing_open_alone() {
        let mut fixture = TodoState::flat(vec![Todo::new("a").status(Status::Completed)]);
        let before = fixture.clone();
        normalize_in_progress(&mut fixture, NOW);
        assert_eq!(fixture, before);
    }

    #[test]
    fn completed_tasks_of_the_call_are_reported() {
        let fixture = two_phases();
        let actual = apply_ops(&fixture, &[Op::new(OpKind::Done).phase("Build")], NOW).completed;
        let expected = vec![
            CompletedTask {
                content: "a".into(),
                phase: "Build".into(),
            },
            CompletedTask {
                content: "b".into(),
                phase: "Build".into(),
            },
        ];
        assert_eq!(actual, expected);
    }
}
