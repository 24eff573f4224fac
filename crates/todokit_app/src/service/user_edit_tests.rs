//! Tests of hand edits: names, words for every side effect, flat and
//! phased appends, and reminders that coalesce.

use super::*;
use pretty_assertions::assert_eq;

fn fixture() -> TodoState {
    TodoState::new().phases(vec![
        Phase::new("Build").tasks(vec![
            Todo::new("Scaffold the crate").status(Status::InProgress),
            Todo::new("Wire the store"),
            Todo::new("Wire the CLI"),
        ]),
        Phase::new("Ship").tasks(vec![Todo::new("Tag")]),
    ])
}

#[test]
fn names_match_ignoring_case_whole_first_then_in_part() {
    let state = fixture();
    let actual: Vec<Result<Target, String>> = ["wire the STORE", "scaffold", "ship", "tag"]
        .iter()
        .map(|n| resolve(&state, n).map_err(|e| e.to_string()))
        .collect();
    let expected = vec![
        Ok(Target::Todo("Wire the store".into())),
        Ok(Target::Todo("Scaffold the crate".into())),
        Ok(Target::Phase("Ship".into())),
        Ok(Target::Todo("Tag".into())),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn an_ambiguous_or_unknown_name_is_refused() {
    let state = fixture();
    let actual: Vec<String> = ["wire", "deploy"]
        .iter()
        .map(|n| {
            resolve(&state, n)
                .map(|_| String::new())
                .unwrap_or_else(|e| e.to_string())
        })
        .collect();
    let expected = vec![
        "\"wire\" is ambiguous: it matches \"Wire the store\", \"Wire the CLI\"; be more specific".to_owned(),
        "no task or phase matches \"deploy\"".to_owned(),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn done_on_a_phase_completes_all_of_it_and_the_next_task_starts() {
    let actual = edit(&fixture(), &UserAction::Done("build".into()), 5, true)
        .map(|(s, _)| s.tasks().map(|t| t.status).collect::<Vec<_>>())
        .map_err(|e| e.to_string());
    let expected = Ok(vec![
        Status::Completed,
        Status::Completed,
        Status::Completed,
        Status::InProgress,
    ]);
    assert_eq!(actual, expected);
}

#[test]
fn append_reuses_a_phase_matched_ignoring_case_and_refuses_duplicates() {
    let state = fixture();
    let added = edit(
        &state,
        &UserAction::Append {
            phase: Some("ship".into()),
            items: vec!["Publish".into()],
        },
        5,
        true,
    )
    .map(|(s, _)| s.phases.iter().map(|p| p.tasks.len()).collect::<Vec<_>>())
    .map_err(|e| e.to_string());
    let duplicate = edit(
        &state,
        &UserAction::Append {
            phase: Some("Ship".into()),
            items: vec!["Tag".into()],
        },
        5,
        true,
    )
    .map(|_| ())
    .map_err(|e| e.to_string());
    let actual = (added, duplicate);
    let expected = (
        Ok(vec![3, 2]),
        Err("the list already has a task called \"Tag\"".to_owned()),
    );
    assert_eq!(actual, expected);
}

#[test]
fn the_action_is_described_with_the_resolved_names() {
    let state = fixture();
    let actual: Vec<String> = [
        UserAction::Done("scaffold".into()),
        UserAction::Drop("SHIP".into()),
        UserAction::Rm("the CLI".into()),
        UserAction::Start("store".into()),
        UserAction::Append {
            phase: Some("docs".into()),
            items: vec!["Readme".into()],
        },
        UserAction::Replace(state.clone()),
    ]
    .iter()
    .map(|a| {
        edit(&state, a, 5, true)
            .map(|(_, d)| d)
            .unwrap_or_else(|e| e.to_string())
    })
    .collect();
    // Every side effect is said: completing the task in progress starts
    // the next; starting another puts the one in progress back.
    let expected = vec![
        "marked \"Scaffold the crate\" completed; started \"Wire the store\"".to_owned(),
        "abandoned \"Tag\"".to_owned(),
        "removed \"Wire the CLI\"".to_owned(),
        "put \"Scaffold the crate\" back to pending; started \"Wire the store\"".to_owned(),
        "added \"Readme\" to phase \"docs\"".to_owned(),
        "rewrote the list".to_owned(),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn start_needs_a_task() {
    let actual = edit(&fixture(), &UserAction::Start("Ship".into()), 5, true)
        .map(|_| ())
        .map_err(|e| e.to_string());
    let expected = Err("\"Ship\" is a phase; start needs a task".to_owned());
    assert_eq!(actual, expected);
}

/// A flat list, as the flat profiles keep it.
fn flat() -> TodoState {
    TodoState::new().phases(vec![Phase::new("").tasks(vec![
        Todo::new("Run tests").status(Status::InProgress),
        Todo::new("Deploy"),
    ])])
}

#[test]
fn a_flat_profile_appends_to_its_one_list_and_never_grows_a_phase() {
    let appended = edit(
        &flat(),
        &UserAction::Append {
            phase: None,
            items: vec!["Tag".into()],
        },
        5,
        false,
    )
    .map(|(s, words)| {
        (
            s.phases
                .iter()
                .map(|p| (p.name.clone(), p.tasks.len()))
                .collect::<Vec<_>>(),
            words,
        )
    })
    .map_err(|e| e.to_string());
    let from_empty = edit(
        &TodoState::new(),
        &UserAction::Append {
            phase: None,
            items: vec!["First".into()],
        },
        5,
        false,
    )
    .map(|(s, _)| s.phases.iter().map(|p| p.is_implicit()).collect::<Vec<_>>())
    .map_err(|e| e.to_string());
    let with_phase = edit(
        &flat(),
        &UserAction::Append {
            phase: Some("Later".into()),
            items: vec!["Tag".into()],
        },
        5,
        false,
    )
    .map(|_| ())
    .map_err(|e| e.to_string());
    let phased_without = edit(
        &fixture(),
        &UserAction::Append {
            phase: None,
            items: vec!["Tag".into()],
        },
        5,
        true,
    )
    .map(|_| ())
    .map_err(|e| e.to_string());
    let actual = (appended, from_empty, with_phase, phased_without);
    let expected = (
        Ok((vec![(String::new(), 3)], "added \"Tag\"".to_owned())),
        Ok(vec![true]),
        Err(
            "this profile keeps one flat list: append the items without a phase (its tools cannot show a \
             phase \"Later\")"
                .to_owned(),
        ),
        Err("this profile groups tasks into phases: name the phase to append to".to_owned()),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_import_says_which_task_the_one_in_progress_rule_held_back() {
    let requested = TodoState::new().phases(vec![Phase::new("").tasks(vec![
        Todo::new("Run tests").status(Status::Completed),
        Todo::new("Deploy").status(Status::InProgress),
        Todo::new("Announce").status(Status::InProgress),
    ])]);
    let actual = edit(&flat(), &UserAction::Replace(requested), 5, false)
        .map(|(_, words)| words)
        .map_err(|e| e.to_string());
    let expected = Ok(
        "rewrote the list: marked \"Run tests\" completed; started \"Deploy\"; added \"Announce\"; \
                       left \"Announce\" pending (one task in progress at a time)"
            .to_owned(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_flat_profile_refuses_an_imported_list_with_phases() {
    let actual = edit(&flat(), &UserAction::Replace(fixture()), 5, false)
        .map(|_| ())
        .map_err(|e| e.to_string());
    let expected = Err(
        "this profile keeps one flat list: its tools cannot show the phase \"Build\"; list the tasks without headings"
            .to_owned(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn the_user_gives_a_task_to_an_owner_and_takes_it_back_whatever_claims_say() {
    let claimed = TodoState::new().phases(vec![Phase::new("").tasks(vec![
        Todo::new("Run tests").id("1").owner("alice").status(Status::InProgress),
        Todo::new("Deploy").id("2"),
    ])]);
    let assign = |state: &TodoState, task: &str, owner: Option<&str>| {
        edit(
            state,
            &UserAction::Assign {
                task: task.into(),
                owner: owner.map(str::to_owned),
            },
            5,
            false,
        )
        .map(|(s, words)| (s.tasks().map(|t| t.owner.clone()).collect::<Vec<_>>(), words))
        .map_err(|e| e.to_string())
    };
    let actual = vec![
        assign(&claimed, "run tests", Some("bob")),
        assign(&claimed, "deploy", Some("  carol ")),
        assign(&claimed, "run", None),
        assign(&claimed, "deploy", Some("")),
    ];
    let expected = vec![
        Ok((
            vec![Some("bob".to_owned()), None],
            "gave \"Run tests\" to bob (it was alice's)".to_owned(),
        )),
        Ok((
            vec![Some("alice".to_owned()), Some("carol".to_owned())],
            "gave \"Deploy\" to carol".to_owned(),
        )),
        Ok((vec![None, None], "released \"Run tests\" from alice".to_owned())),
        Ok((
            vec![Some("alice".to_owned()), None],
            "released \"Deploy\"".to_owned(),
        )),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_rewrite_that_only_touches_notes_says_which() {
    let before = fixture();
    let first = before
        .tasks()
        .next()
        .map(|t| t.content.clone())
        .unwrap_or_default();
    let with_notes = |notes: &[&str]| {
        let mut state = before.clone();
        if let Some(task) = state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()).next() {
            task.notes = notes.iter().map(|n| (*n).to_owned()).collect();
        }
        state
    };
    let noted = with_notes(&["check the lock file"]);
    let cases = [
        (before.clone(), with_notes(&["check the lock file"])),
        (
            noted.clone(),
            with_notes(&["check the lock file", "then retry", "twice"]),
        ),
        (noted.clone(), with_notes(&["check the lockfile"])),
        (noted.clone(), with_notes(&[])),
    ];
    let actual: Vec<String> = cases
        .iter()
        .map(|(from, to)| {
            edit(from, &UserAction::Replace(to.clone()), 5, true)
                .map(|(_, d)| d)
                .unwrap_or_else(|e| e.to_string())
        })
        .collect();
    let expected = vec![
        format!("rewrote the list: added a note to \"{first}\""),
        format!("rewrote the list: added 2 notes to \"{first}\""),
        format!("rewrote the list: changed the notes of \"{first}\""),
        format!("rewrote the list: removed the notes of \"{first}\""),
    ];
    assert_eq!(actual, expected);
}
