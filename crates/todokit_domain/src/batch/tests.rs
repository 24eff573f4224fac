//! The batch engine, op by op.

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
        vec![vec![BatchProblem::DuplicateTask("a".to_owned())]],
        vec![vec![BatchProblem::DuplicatePhase("X".to_owned())]],
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
fn append_up_to_the_first_problem_adds_the_items_before_it_only() {
    let fixture = two_phases();
    let op =
        Op::new(OpKind::Append)
            .phase("Docs")
            .items(vec!["d".to_owned(), "a".to_owned(), "e".to_owned()]);
    let batch = apply_ops_with(&fixture, &[op], NOW, AppendMode::UpToFirstProblem);
    let actual = (
        batch
            .state
            .phases
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.tasks.iter().map(|t| t.content.clone()).collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>(),
        batch.errors,
    );
    let expected = (
        vec![
            ("Build".to_owned(), vec!["a".to_owned(), "b".to_owned()]),
            ("Ship".to_owned(), vec!["c".to_owned()]),
            ("Docs".to_owned(), vec!["d".to_owned()]),
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

#[test]
fn init_reports_every_repeated_name_and_keeps_the_old_list() {
    let fixture = two_phases();
    let actual = run(
        &fixture,
        &[init_op(&[("X", &["a", "b", "a"]), ("X", &["b", "c"])])],
    );
    let expected = (
        statuses(&fixture),
        vec![vec![
            BatchProblem::DuplicateTask("a".to_owned()),
            BatchProblem::DuplicatePhase("X".to_owned()),
            BatchProblem::DuplicateTask("b".to_owned()),
        ]],
    );
    assert_eq!(actual, expected);
}

fn blocked(state: &TodoState) -> Vec<(String, Status, Option<String>)> {
    state
        .tasks()
        .map(|t| (t.content.clone(), t.status, t.blocked_reason.clone()))
        .collect()
}

#[test]
fn block_keeps_finished_tasks_and_writes_the_reason_on_one_line() {
    let fixture = apply_ops(&two_phases(), &[Op::new(OpKind::Done).task("b")], NOW).state;
    let batch = apply_ops(
        &fixture,
        &[Op::new(OpKind::Block)
            .phase("Build")
            .reason("  waits for\n the   review ")],
        NOW,
    );
    let actual = (blocked(&batch.state), batch.errors);
    let expected = (
        vec![
            (
                "a".to_owned(),
                Status::Blocked,
                Some("waits for the review".to_owned()),
            ),
            ("b".to_owned(), Status::Completed, None),
            // Nothing else was in progress: the next open task starts.
            ("c".to_owned(), Status::InProgress, None),
        ],
        vec![],
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_second_block_replaces_or_clears_the_reason_and_unblock_forgets_it() {
    let fixture = apply_ops(
        &two_phases(),
        &[Op::new(OpKind::Block).task("a").reason("CI")],
        NOW,
    )
    .state;
    let actual = [
        Op::new(OpKind::Block).task("a").reason("review"),
        Op::new(OpKind::Block).task("a").reason(" "),
        Op::new(OpKind::Unblock).task("a"),
    ]
    .into_iter()
    .map(|op| {
        apply_ops(&fixture, &[op], NOW)
            .state
            .tasks()
            .next()
            .map(|t| (t.status, t.blocked_reason.clone()))
    })
    .collect::<Vec<_>>();
    let expected = vec![
        Some((Status::Blocked, Some("review".to_owned()))),
        Some((Status::Blocked, None)),
        Some((Status::Pending, None)),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn unblock_leaves_tasks_that_are_not_blocked_alone() {
    let fixture = apply_ops(&two_phases(), &[Op::new(OpKind::Block).task("b")], NOW).state;
    let actual = run(&fixture, &[Op::new(OpKind::Unblock).phase("Build")]);
    let expected = (
        vec![
            ("a".to_owned(), Status::InProgress),
            ("b".to_owned(), Status::Pending),
            ("c".to_owned(), Status::Pending),
        ],
        vec![],
    );
    assert_eq!(actual, expected);
}

#[test]
fn block_and_unblock_need_a_task_or_a_phase() {
    let fixture = two_phases();
    let actual: Vec<Run> = [
        Op::new(OpKind::Block),
        Op::new(OpKind::Block).task(""),
        Op::new(OpKind::Unblock),
    ]
    .into_iter()
    .map(|op| run(&fixture, &[op]))
    .collect();
    let expected = vec![
        (statuses(&fixture), vec![vec![BatchProblem::MissingBlockTarget]]),
        (statuses(&fixture), vec![vec![BatchProblem::MissingBlockTarget]]),
        (statuses(&fixture), vec![vec![BatchProblem::MissingUnblockTarget]]),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn normalization_never_starts_a_blocked_task() {
    let fixture = apply_ops(&two_phases(), &[Op::new(OpKind::Block).phase("Build")], NOW).state;
    let actual = run(&fixture, &[Op::new(OpKind::Block).task("c")]).0;
    let expected = vec![
        ("a".to_owned(), Status::Blocked),
        ("b".to_owned(), Status::Blocked),
        ("c".to_owned(), Status::Blocked),
    ];
    assert_eq!(actual, expected);
}
