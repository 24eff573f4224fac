//! `todokit_app`'s turn with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

use crate::test_support::snapshot_settings;
use pretty_assertions::assert_eq;
use todokit_app::*;
use todokit_domain::{Notice, NoticeKind, Status, Todo, TodoState};

fn policy(profile: &str) -> TurnPolicy {
    TurnPolicy::new(&crate::by_name(profile).expect("registered"))
}

fn strict(max: usize) -> TurnPolicy {
    let profile = crate::by_name("claude-code").expect("registered");
    let config = TurnConfig::for_profile(&profile)
        .end_of_turn(Enforcement::Strict)
        .max_end_of_turn_reminders(max);
    TurnPolicy::with_config(&profile, config)
}

fn list() -> TodoState {
    TodoState::flat(vec![
        Todo::new("Read").status(Status::Completed),
        Todo::new("Fix").status(Status::InProgress),
        Todo::new("Test"),
    ])
}

fn other_round() -> Vec<CallRecord> {
    vec![
        CallRecord::new("bash", false),
        CallRecord::new("read_file", false),
    ]
}

fn kinds(injections: &[Injection]) -> Vec<ReminderKind> {
    injections.iter().map(|i| i.kind).collect()
}

#[test]
fn the_nag_comes_at_exactly_the_threshold_and_not_before() {
    let mut fixture = policy("learn");
    let actual: Vec<Vec<ReminderKind>> = (0..4)
        .map(|_| kinds(&fixture.on_tool_results(&other_round(), &list())))
        .collect();
    let expected = vec![vec![], vec![], vec![ReminderKind::Nag], vec![]];
    assert_eq!(actual, expected);
}

#[test]
fn the_default_threshold_is_ten_and_the_nag_repeats_every_ten_rounds() {
    let mut fixture = policy("claude-code");
    let mut actual = Vec::new();
    for round in 1..=20 {
        if !fixture.on_tool_results(&other_round(), &list()).is_empty() {
            actual.push(round);
        }
    }
    let expected = vec![10, 20];
    assert_eq!(actual, expected);
}

#[test]
fn a_todo_call_resets_the_count() {
    let mut fixture = policy("learn");
    fixture.on_tool_results(&other_round(), &list());
    fixture.on_tool_results(&other_round(), &list());
    fixture.on_tool_results(&[CallRecord::new("todo", false)], &list());
    let actual: Vec<Vec<ReminderKind>> = (0..3)
        .map(|_| kinds(&fixture.on_tool_results(&other_round(), &list())))
        .collect();
    let expected = vec![vec![], vec![], vec![ReminderKind::Nag]];
    assert_eq!(actual, expected);
}

#[test]
fn no_nag_while_the_list_is_empty_unless_configured() {
    let profile = crate::by_name("learn").expect("registered");
    let mut quiet = TurnPolicy::new(&profile);
    let mut loud = TurnPolicy::with_config(&profile, TurnConfig::for_profile(&profile).nag_when_empty(true));
    let empty = TodoState::new();
    let count = |p: &mut TurnPolicy| {
        (0..3)
            .map(|_| p.on_tool_results(&other_round(), &empty).len())
            .sum::<usize>()
    };
    let actual = (count(&mut quiet), count(&mut loud));
    let expected = (0, 1);
    assert_eq!(actual, expected);
}

#[test]
fn a_failed_todo_call_brings_one_stale_reminder_next_turn() {
    let mut fixture = policy("pi");
    fixture.on_tool_results(&[CallRecord::new("todo_write", true)], &list());
    let actual = (
        kinds(&fixture.before_request(&[])),
        kinds(&fixture.before_request(&[])),
    );
    let expected = (vec![ReminderKind::StaleList], vec![]);
    assert_eq!(actual, expected);
}

#[test]
fn hand_edits_become_reminders_before_the_next_request() {
    let mut fixture = policy("pi");
    let notice = Notice {
        kind: NoticeKind::UserEdit,
        at: 1,
        text: "The user edited the list.".into(),
        action: None,
    };
    let actual = fixture.before_request(&[notice]);
    let expected = vec![Injection {
        placement: Placement::BeforeRequest,
        kind: ReminderKind::UserEdit,
        text: "<system-reminder>\nThe user edited the list.\n</system-reminder>".into(),
    }];
    assert_eq!(actual, expected);
}

#[test]
fn soft_warns_the_user_and_lets_the_turn_end() {
    let mut fixture = policy("claude-code");
    let actual = fixture.on_turn_end(&list());
    let expected =
        TurnEnd::EndWithWarning("The agent ended its turn with 2 open todo items: Fix, Test.".into());
    assert_eq!(actual, expected);
}

#[test]
fn off_says_nothing_and_nothing_open_ends_quietly() {
    let profile = crate::by_name("claude-code").expect("registered");
    let mut off = TurnPolicy::with_config(
        &profile,
        TurnConfig::for_profile(&profile).end_of_turn(Enforcement::Off),
    );
    let actual = (off.on_turn_end(&list()), strict(3).on_turn_end(&TodoState::new()));
    let expected = (TurnEnd::End, TurnEnd::End);
    assert_eq!(actual, expected);
}

#[test]
fn strict_continues_up_to_the_maximum_when_the_open_set_changes() {
    let mut fixture = strict(2);
    let mut lists = vec![list()];
    let mut second = list();
    second.phases[0].tasks[2].status = Status::InProgress;
    second.phases[0].tasks[1].status = Status::Completed;
    lists.push(second.clone());
    let mut third = second;
    third.phases[0].tasks.push(Todo::new("Docs"));
    lists.push(third);
    let actual: Vec<&str> = lists
        .iter()
        .map(|l| match fixture.on_turn_end(l) {
            TurnEnd::Continue(_) => "continue",
            TurnEnd::EndWithWarning(_) => "end, warned",
            TurnEnd::End => "end",
        })
        .collect();
    let expected = vec!["continue", "continue", "end, warned"];
    assert_eq!(actual, expected);
}

#[test]
fn strict_does_not_repeat_itself_for_an_unchanged_open_set() {
    let mut fixture = strict(3);
    let first = matches!(fixture.on_turn_end(&list()), TurnEnd::Continue(_));
    let second = matches!(fixture.on_turn_end(&list()), TurnEnd::EndWithWarning(_));
    let actual = (first, second, fixture.counters().end_of_turn_reminders);
    let expected = (true, true, 1);
    assert_eq!(actual, expected);
}

#[test]
fn a_new_user_prompt_resets_the_end_of_turn_budget() {
    let mut fixture = strict(1);
    fixture.on_turn_end(&list());
    let exhausted = matches!(fixture.on_turn_end(&list()), TurnEnd::EndWithWarning(_));
    fixture.on_user_prompt();
    let again = matches!(fixture.on_turn_end(&list()), TurnEnd::Continue(_));
    let actual = (exhausted, again);
    let expected = (true, true);
    assert_eq!(actual, expected);
}

#[test]
fn reminder_texts() {
    let mut nagging = policy("learn");
    let nag = (0..3)
        .flat_map(|_| nagging.on_tool_results(&other_round(), &list()))
        .collect::<Vec<_>>();
    let mut failing = policy("pi");
    failing.on_tool_results(&[CallRecord::new("todo_write", true)], &list());
    let stale = failing.before_request(&[]);
    let end = match strict(3).on_turn_end(&list()) {
        TurnEnd::Continue(injection) => injection.text,
        other => format!("{other:?}"),
    };
    snapshot_settings().bind(|| {
        insta::assert_snapshot!(
            "turn__nag",
            nag.iter().map(|i| i.text.as_str()).collect::<String>()
        );
        insta::assert_snapshot!(
            "turn__stale_list",
            stale.iter().map(|i| i.text.as_str()).collect::<String>()
        );
        insta::assert_snapshot!("turn__end_of_turn", end);
    });
}
