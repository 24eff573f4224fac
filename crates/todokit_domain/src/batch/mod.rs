//! Ordered ops over phases (the `pi` profile's `todo_write` batch, and the
//! single op of `omp`'s `todo`): each op is applied in turn to a working
//! copy; one that fails is skipped and its error recorded while the rest
//! still run (a profile whose original discards a batch with any error
//! keeps the state it had); then the list is normalized to exactly one task
//! in progress when any is open. Blocked tasks are never started by it.
//!
//! Tasks are named by their exact content and phases by their exact name.
//! Where the reference behaviour is a trap, this does better: an empty name
//! is an error rather than "everything", `init` without a list changes
//! nothing, and `init` refuses duplicate task content and phase names.

mod op;
mod problem;
mod size;

pub use op::{AppendMode, Batch, CompletedTask, Op, OpKind, PhaseItems};
pub use problem::BatchProblem;
pub use size::check_op_size;

use crate::state::{Phase, TodoState};
use crate::status::Status;
use crate::time::Timestamp;
use crate::todo::Todo;

/// Applies `ops` in order to a copy of `state`; see the module docs. An
/// `append` tries each of its items ([`AppendMode::EachItem`]).
pub fn apply_ops(state: &TodoState, ops: &[Op], now: Timestamp) -> Batch {
    apply_ops_with(state, ops, now, AppendMode::EachItem)
}

/// [`apply_ops`] with `append` meeting an item it cannot add as `mode`
/// says.
pub fn apply_ops_with(state: &TodoState, ops: &[Op], now: Timestamp, mode: AppendMode) -> Batch {
    let mut work = state.clone();
    let mut errors = Vec::new();
    for op in ops {
        if let Err(error) = apply(&mut work, op, now, mode) {
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

fn apply(state: &mut TodoState, op: &Op, now: Timestamp, mode: AppendMode) -> Result<(), Vec<BatchProblem>> {
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
        OpKind::Append => append(state, op, now, mode),
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
        OpKind::Block => block(state, op, now),
        OpKind::Unblock => {
            for (p, t) in required_targets(state, op, BatchProblem::MissingUnblockTarget)? {
                let task = &mut state.phases[p].tasks[t];
                if task.status == Status::Blocked {
                    task.set_status(Status::Pending, now);
                }
            }
            Ok(())
        }
    }
}

/// Blocks the targets that still ask for work (or are blocked already, so
/// a second `block` can change the reason); the reason, on one line, is
/// set as given: none clears an earlier one.
fn block(state: &mut TodoState, op: &Op, now: Timestamp) -> Result<(), Vec<BatchProblem>> {
    let targets = required_targets(state, op, BatchProblem::MissingBlockTarget)?;
    let reason = op
        .reason
        .as_deref()
        .map(|r| r.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|r| !r.is_empty());
    for (p, t) in targets {
        let task = &mut state.phases[p].tasks[t];
        if task.status.is_open() || task.status == Status::Blocked {
            task.set_status(Status::Blocked, now);
            task.blocked_reason.clone_from(&reason);
        }
    }
    Ok(())
}

/// The targets of an op that must name a task or a phase: `missing` when
/// it names neither (an empty name counts as none).
fn required_targets(
    state: &TodoState,
    op: &Op,
    missing: BatchProblem,
) -> Result<Vec<(usize, usize)>, BatchProblem> {
    let absent = |name: &Option<String>| name.as_deref().is_none_or(str::is_empty);
    if absent(&op.task) && absent(&op.phase) {
        return Err(missing);
    }
    targets(state, op)
}

/// Builds the new list; every problem of it is reported (each repeated
/// name, each empty one), and on any the list stays as it was.
fn init(state: &mut TodoState, op: &Op, now: Timestamp) -> Result<(), Vec<BatchProblem>> {
    let list = op.list.as_ref().ok_or(BatchProblem::MissingList)?;
    let mut problems = Vec::new();
    let mut phases: Vec<Phase> = Vec::with_capacity(list.len());
    for entry in list {
        match named(Some(&entry.phase), BatchProblem::MissingPhase) {
            Err(problem) => problems.push(problem),
            Ok(name) if phases.iter().any(|p| p.name == name) => {
                problems.push(BatchProblem::DuplicatePhase(name.to_owned()));
            }
            Ok(_) => {}
        }
        let mut tasks = Vec::with_capacity(entry.items.len());
        for item in &entry.items {
            match named(Some(item), BatchProblem::MissingTask) {
                Err(problem) => problems.push(problem),
                Ok(content)
                    if phases
                        .iter()
                        .flat_map(|p| &p.tasks)
                        .chain(&tasks)
                        .any(|t: &Todo| t.content == content) =>
                {
                    problems.push(BatchProblem::DuplicateTask(content.to_owned()));
                }
                Ok(content) => tasks.push(Todo::new(content).created_at(now).status_changed_at(now)),
            }
        }
        phases.push(Phase::new(entry.phase.as_str()).tasks(tasks));
    }
    if !problems.is_empty() {
        return Err(problems);
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

fn append(state: &mut TodoState, op: &Op, now: Timestamp, mode: AppendMode) -> Result<(), Vec<BatchProblem>> {
    let phase = named(op.phase.as_deref(), BatchProblem::MissingAppendPhase)?;
    let items = op
        .items
        .as_deref()
        .filter(|i| !i.is_empty())
        .ok_or(BatchProblem::MissingAppendItems)?;
    let mut errors = Vec::new();
    let mut added = Vec::new();
    for item in items {
        let problem = match named(Some(item), BatchProblem::MissingTask) {
            Err(e) => e,
            Ok(content) if state.tasks().chain(&added).any(|t| t.content == content) => {
                BatchProblem::TaskExists(content.to_owned())
            }
            Ok(content) => {
                added.push(Todo::new(content).created_at(now).status_changed_at(now));
                continue;
            }
        };
        errors.push(problem);
        if mode == AppendMode::UpToFirstProblem {
            break;
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
mod tests;
