//! Finished tasks leaving the list: after a delay (auto-clear) or when a
//! stored conversation is resumed.

use crate::state::TodoState;
use crate::time::Timestamp;

/// `state` without the finished (completed or abandoned) tasks whose status
/// changed at least `delay_ms` before `now`; a negative delay clears
/// nothing, zero clears every finished task. A phase emptied this way goes
/// too. A task reopened before its delay ran out has a newer status change
/// and stays.
pub fn auto_clear(state: &TodoState, now: Timestamp, delay_ms: i64) -> TodoState {
    let Ok(delay) = u64::try_from(delay_ms) else {
        return state.clone();
    };
    remove_finished(state, |changed| changed.saturating_add(delay) <= now)
}

/// Whether [`auto_clear`] would remove anything from `state` at `now`: a
/// finished task whose delay has passed. When not, `auto_clear` returns
/// the list as it is, so a caller can skip the copy.
pub fn auto_clear_due(state: &TodoState, now: Timestamp, delay_ms: i64) -> bool {
    let Ok(delay) = u64::try_from(delay_ms) else {
        return false;
    };
    state.tasks().any(|t| {
        t.status.is_finished()
            && t.status_changed_at
                .or(t.created_at)
                .unwrap_or(0)
                .saturating_add(delay)
                <= now
    })
}

/// When [`auto_clear`] with `delay_ms` will next remove something from
/// `state`: the moment its earliest finished task is due (maybe already
/// past); `None` when no task is finished or the delay is negative. A viewer
/// that shows the cleared list looks again then, and needs no timer before.
pub fn next_auto_clear(state: &TodoState, delay_ms: i64) -> Option<Timestamp> {
    let delay = u64::try_from(delay_ms).ok()?;
    state
        .tasks()
        .filter(|t| t.status.is_finished())
        .map(|t| {
            t.status_changed_at
                .or(t.created_at)
                .unwrap_or(0)
                .saturating_add(delay)
        })
        .min()
}

/// `state` without any finished task, and without the phases that emptied.
pub fn drop_finished(state: &TodoState) -> TodoState {
    remove_finished(state, |_| true)
}

fn remove_finished(state: &TodoState, due: impl Fn(Timestamp) -> bool) -> TodoState {
    let mut out = state.clone();
    out.phases.retain_mut(|phase| {
        let before = phase.tasks.len();
        phase
            .tasks
            .retain(|t| !(t.status.is_finished() && due(t.status_changed_at.or(t.created_at).unwrap_or(0))));
        !(phase.tasks.is_empty() && before > 0)
    });
    // An open subtask of a finished task that left stays, at the top.
    out.drop_broken_parents();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Phase;
    use crate::status::Status;
    use crate::todo::Todo;
    use pretty_assertions::assert_eq;

    fn fixture() -> TodoState {
        TodoState::new().phases(vec![
            Phase::new("Done").tasks(vec![
                Todo::new("a")
                    .status(Status::Completed)
                    .status_changed_at(1_000u64),
            ]),
            Phase::new("Mixed").tasks(vec![
                Todo::new("b")
                    .status(Status::Abandoned)
                    .status_changed_at(5_000u64),
                Todo::new("c")
                    .status(Status::InProgress)
                    .status_changed_at(1_000u64),
            ]),
            Phase::new("Empty"),
        ])
    }

    fn contents(state: &TodoState) -> Vec<(String, Vec<String>)> {
        state
            .phases
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.tasks.iter().map(|t| t.content.clone()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn only_tasks_past_their_delay_leave_and_their_emptied_phase_with_them() {
        let actual = contents(&auto_clear(&fixture(), 61_000, 60_000));
        let expected = vec![
            ("Mixed".to_owned(), vec!["b".to_owned(), "c".to_owned()]),
            ("Empty".to_owned(), vec![]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_next_clearing_is_when_the_earliest_finished_task_is_due() {
        let only_open = TodoState::flat(vec![Todo::new("c").status(Status::InProgress)]);
        let actual = (
            next_auto_clear(&fixture(), 60_000),
            next_auto_clear(&fixture(), -1),
            next_auto_clear(&only_open, 0),
        );
        assert_eq!(actual, (Some(61_000), None, None));
    }

    #[test]
    fn zero_clears_at_once_and_negative_never() {
        let actual = (
            contents(&auto_clear(&fixture(), 5_000, 0)),
            auto_clear(&fixture(), u64::MAX, -1),
        );
        let expected = (
            vec![
                ("Mixed".to_owned(), vec!["c".to_owned()]),
                ("Empty".to_owned(), vec![]),
            ],
            fixture(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_task_reopened_before_its_delay_stays() {
        let mut state = fixture();
        state.phases[0].tasks[0].status = Status::InProgress;
        state.phases[0].tasks[0].status_changed_at = Some(30_000);
        let actual = contents(&auto_clear(&state, 64_000, 60_000));
        let expected = vec![
            ("Done".to_owned(), vec!["a".to_owned()]),
            ("Mixed".to_owned(), vec!["b".to_owned(), "c".to_owned()]),
            ("Empty".to_owned(), vec![]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn resume_drops_every_finished_task() {
        let actual = contents(&drop_finished(&fixture()));
        let expected = vec![
            ("Mixed".to_owned(), vec!["c".to_owned()]),
            ("Empty".to_owned(), vec![]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn something_is_due_exactly_when_auto_clear_would_change_the_list() {
        let fixture = fixture();
        let moments = [0, 60_999, 61_000, 64_999, 65_000, 1_000_000];
        let actual: Vec<(bool, bool)> = [60_000, 0, -1]
            .into_iter()
            .flat_map(|delay| {
                let fixture = &fixture;
                moments.into_iter().map(move |now| {
                    (
                        auto_clear_due(fixture, now, delay),
                        auto_clear(fixture, now, delay) != *fixture,
                    )
                })
            })
            .collect();
        let expected: Vec<(bool, bool)> = actual.iter().map(|(_, changed)| (*changed, *changed)).collect();
        assert_eq!(actual, expected);
        assert!(actual.iter().any(|(due, _)| *due) && actual.iter().any(|(due, _)| !*due));
    }
}
