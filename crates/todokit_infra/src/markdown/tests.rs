//! Tests of the pi markdown: oh-my-pi's own files, the extension, errors,
//! and the round trip over any list.

use super::*;
use crate::test_support::snapshot_settings;
use pretty_assertions::assert_eq;
use proptest::prelude::*;
use todokit_domain::Status;

fn sample() -> TodoState {
    TodoState::new().phases(vec![
        Phase::new("Build").tasks(vec![
            Todo::new("Scaffold the crate").status(Status::Completed),
            Todo::new("Wire the store").status(Status::InProgress).notes(vec![
                "Behind a trait.".to_owned(),
                "Line one\n\nline three".to_owned(),
                String::new(),
            ]),
            Todo::new("  **Bold** - [x] not a marker  "),
        ]),
        Phase::new("#hashtag phase").tasks(vec![
            Todo::new("Ship \\ it\ttoday").status(Status::Abandoned),
            Todo::new("Wait for review").status(Status::Blocked),
            Todo::new("C:\\temp\\new"),
        ]),
    ])
}

#[test]
fn export_text() {
    snapshot_settings().bind(|| insta::assert_snapshot!("markdown__export", export(&sample())));
}

#[test]
fn the_sample_round_trips() {
    let fixture = sample();
    let actual = import(&export(&fixture), 0);
    let expected = Ok(fixture);
    assert_eq!(actual, expected);
}

// Golden facts from oh-my-pi: repository can1357/oh-my-pi at commit
// 0eee5a40197560045d9390533dfa98b2fdb45076 (read through the copy
// yorha2B0826/oh-my-pi, whose main line carries it),
// packages/coding-agent/src/tools/todo-write.ts, the `pi` profile's pin;
// these two functions are unchanged since the published 14.9.9. `phasesToMarkdown` writes
// `# name`, `- [m] content`, each note line as `  > line` and a bare `  >`
// between notes, a blank line between phases, and `# Todos` for an empty
// list; `markdownToPhases` joins consecutive `>` lines into one note, ends a
// note at a bare `>`, and takes backslashes as they are.
#[test]
fn a_file_oh_my_pi_wrote_reads_as_oh_my_pi_reads_it_and_writes_back_the_same() {
    let fixture = "# Build\n- [x] Scaffold C:\\temp\\new\n- [/] Wire the store\n  > First note, line one\n  \
                   > line two keeps \\n as written\n  >\n  > Second note\n- [ ] Test\n\n# Ship\n- [-] Publish\n";
    let imported = import(fixture, 0);
    let expected = TodoState::new().phases(vec![
        Phase::new("Build").tasks(vec![
            Todo::new("Scaffold C:\\temp\\new").status(Status::Completed),
            Todo::new("Wire the store").status(Status::InProgress).notes(vec![
                "First note, line one\nline two keeps \\n as written".to_owned(),
                "Second note".to_owned(),
            ]),
            Todo::new("Test"),
        ]),
        Phase::new("Ship").tasks(vec![Todo::new("Publish").status(Status::Abandoned)]),
    ]);
    let actual = (imported.clone(), imported.map(|s| export(&s)));
    assert_eq!(actual, (Ok(expected), Ok(fixture.to_owned())));
}

// Golden facts from oh-my-pi's `todo` (the npm package @oh-my-pi/pi-coding-agent 18.1.16, sha256
// cadfd9651a53537b3831ef925ec9b9eea4640d059f4cb9ec8fbb339eb864a49b,
// src/tools/todo.ts; first read in a copy of the repository at commit
// c13ef04b54fb89d4b794e96bf89fa0af74114294, equal but for one schema description): `phasesToMarkdown` writes a
// blocked task as `- [!] content`, followed by ` <!-- blocker: reason -->`
// when it has a reason; `markdownToPhases` takes that trailing comment of
// a `[!]` line as the reason and leaves one on any other line as text.
#[test]
fn a_blocked_task_keeps_its_reason_in_oh_my_pis_comment() {
    let fixture = "# Ship\n- [!] Publish <!-- blocker: waits for the release manager -->\n- [!] Announce\n\
                   - [/] Tweet <!-- blocker: not a blocker -->\n";
    let imported = import(fixture, 0).map(|mut state| {
        state
            .phases
            .iter_mut()
            .flat_map(|p| p.tasks.iter_mut())
            .for_each(|t| t.status_changed_at = None);
        state
    });
    let expected = TodoState::new().phases(vec![Phase::new("Ship").tasks(vec![
        Todo::new("Publish")
            .status(Status::Blocked)
            .blocked_reason("waits for the release manager"),
        Todo::new("Announce").status(Status::Blocked),
        Todo::new("Tweet <!-- blocker: not a blocker -->").status(Status::InProgress),
    ])]);
    let actual = (imported.clone(), imported.map(|s| export(&s)));
    assert_eq!(actual, (Ok(expected), Ok(fixture.to_owned())));
}

#[test]
fn a_blocked_task_whose_text_or_reason_oh_my_pi_cannot_say_round_trips() {
    let fixture = TodoState::new().phases(vec![Phase::new("Ship").tasks(vec![
        Todo::new("Looks <!-- blocker: like one -->").status(Status::Blocked),
        Todo::new("Two lines").status(Status::Blocked).blocked_reason("first\nsecond -->"),
        Todo::new("Empty reason").status(Status::Blocked).blocked_reason(""),
    ])]);
    let text = export(&fixture);
    let actual = (text.clone(), import(&text, 0));
    let expected = (
        "# Ship\n+ [!] Looks \\u{3c}!-- blocker: like one -->\n+ [!] Two lines <!-- blocker: first\\nsecond --> -->\n\
         + [!] Empty reason <!-- blocker:  -->\n"
            .to_owned(),
        Ok(fixture),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_empty_list_is_todos_and_a_flat_list_has_no_heading() {
    let flat = TodoState::flat(vec![
        Todo::new("a").status(Status::InProgress),
        Todo::new("b").status(Status::Completed),
    ]);
    let lone_todos = TodoState::new().phases(vec![Phase::new(DEFAULT_PHASE)]);
    let actual = [
        (
            export(&TodoState::new()),
            import("# Todos\n", 0).is_ok_and(|s| s == TodoState::new()),
        ),
        (export(&flat), import(&export(&flat), 0).is_ok_and(|s| s == flat)),
        (
            export(&lone_todos),
            import(&export(&lone_todos), 0).is_ok_and(|s| s == lone_todos),
        ),
    ];
    let expected = [
        ("# Todos\n".to_owned(), true),
        ("- [/] a\n- [x] b\n".to_owned(), true),
        ("## Todos\n".to_owned(), true),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn import_accepts_the_other_markers_orphans_and_loose_notes() {
    let fixture = "- [>] first\n> loose note\n\n## Later\n* [~] dropped\n+ [X] done\n-[] bare\n";
    let actual = import(fixture, 0);
    let expected = Ok(TodoState::new().phases(vec![
        Phase::new(DEFAULT_PHASE).tasks(vec![
            Todo::new("first")
                .status(Status::InProgress)
                .notes(vec!["loose note".to_owned()]),
        ]),
        Phase::new("Later").tasks(vec![
            Todo::new("dropped").status(Status::Abandoned),
            Todo::new("done").status(Status::Completed),
            Todo::new("bare"),
        ]),
    ]));
    assert_eq!(actual, expected);
}

#[test]
fn import_normalizes_to_one_task_in_progress() {
    let fixture = "# A\n- [/] a\n- [/] b\n- [ ] c\n";
    let actual = import(fixture, 7).map(|s| s.tasks().map(|t| t.status).collect::<Vec<_>>());
    let expected = Ok(vec![Status::InProgress, Status::Pending, Status::Pending]);
    assert_eq!(actual, expected);
}

#[test]
fn every_malformed_line_kind_is_reported_with_its_line() {
    let cases = [
        ("# A\n- [ ] a\nstray text\n", 3),
        ("# A\n- [?] a\n", 2),
        ("# A\n- [ ]\n", 2),
        ("# A\n- [x\n", 2),
        ("  > orphan note\n", 1),
        ("# A\n- [ ] a\n- [ ] a\n", 3),
        ("# A\n# A\n", 2),
        ("# A\n+ [ ] bad \\q escape\n", 2),
        ("# A\n+ [ ] trailing \\\n", 2),
        ("# A\n+ [ ] \\u{zz}\n", 2),
        ("#\n", 1),
        ("####### seven\n", 1),
    ];
    let actual: Vec<Result<TodoState, ImportError>> = cases.iter().map(|(text, _)| import(text, 0)).collect();
    let lines: Vec<Option<usize>> = actual.iter().map(|r| r.as_ref().err().map(|e| e.line)).collect();
    let expected: Vec<Option<usize>> = cases.iter().map(|(_, line)| Some(*line)).collect();
    assert_eq!(lines, expected);
    let messages: Vec<String> = actual
        .into_iter()
        .filter_map(|r| r.err())
        .map(|e| e.to_string())
        .collect();
    snapshot_settings().bind(|| insta::assert_snapshot!("markdown__import_errors", messages.join("\n")));
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,20}",
        prop::collection::vec(
            prop_oneof![
                Just("#".to_owned()),
                Just("- [x] ".to_owned()),
                Just("\n".to_owned()),
                Just("\n\n".to_owned()),
                Just("  ".to_owned()),
                Just("\\".to_owned()),
                Just("> ".to_owned()),
                Just(">".to_owned()),
                Just("\u{a0}".to_owned()),
                Just("\r\n".to_owned()),
                Just("é🦀".to_owned()),
                "[a-z]{1,5}",
            ],
            0..8
        )
        .prop_map(|parts| parts.concat()),
    ]
}

fn status() -> impl Strategy<Value = Status> {
    prop::sample::select(Status::ALL.to_vec())
}

/// Any list the format claims to carry: unique phase names (the first may
/// be the unnamed phase of a flat list), unique non-blank task texts, any
/// notes; normalized, as every stored `pi` list is.
fn state() -> impl Strategy<Value = TodoState> {
    (
        any::<bool>(),
        prop::collection::vec(
            (
                text(),
                prop::collection::vec(
                    (
                        text(),
                        status(),
                        prop::collection::vec(text(), 0..3),
                        prop::option::of(text()),
                    ),
                    0..4,
                ),
            ),
            0..4,
        ),
    )
        .prop_map(|(unnamed_first, phases)| {
            let mut state = TodoState::new();
            for (i, (name, tasks)) in phases.into_iter().enumerate() {
                let name = match (i, unnamed_first) {
                    (0, true) => Phase::IMPLICIT.to_owned(),
                    _ => format!("{name}{i}"),
                };
                let mut phase = Phase::new(name);
                for (j, (content, status, notes, reason)) in tasks.into_iter().enumerate() {
                    let mut task = Todo::new(format!("{content}#{i}.{j}"))
                        .status(status)
                        .notes(notes);
                    // Only a blocked task keeps a reason.
                    task.blocked_reason = reason.filter(|_| status == Status::Blocked);
                    phase.tasks.push(task);
                }
                state.phases.push(phase);
            }
            normalize_in_progress(&mut state, 0);
            // Times are not part of the text; a task normalization started
            // was not blocked.
            for task in state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
                task.status_changed_at = None;
            }
            state
        })
}

/// A task as oh-my-pi holds it: content, status marker, notes, and the
/// blocker note of a blocked one (notes are from `todo_write`, blockers
/// from `todo`; the reader reads both).
type OmpTask = (String, char, Vec<String>, String);
/// A phase as oh-my-pi holds it: name and tasks.
type OmpPhase = (String, Vec<OmpTask>);

/// oh-my-pi's `phasesToMarkdown`, for the property below.
fn oh_my_pi_export(phases: &[OmpPhase]) -> String {
    if phases.is_empty() {
        return "# Todos\n".to_owned();
    }
    let mut out: Vec<String> = Vec::new();
    for (i, (name, tasks)) in phases.iter().enumerate() {
        if i > 0 {
            out.push(String::new());
        }
        out.push(format!("# {name}"));
        for (content, marker, notes, blocker) in tasks {
            // `phasesToMarkdown`: a blocked task's note rides in a trailing
            // comment when it has one.
            match (*marker, blocker.is_empty()) {
                ('!', false) => out.push(format!("- [{marker}] {content} <!-- blocker: {blocker} -->")),
                _ => out.push(format!("- [{marker}] {content}")),
            }
            for (j, note) in notes.iter().enumerate() {
                if j > 0 {
                    out.push("  >".to_owned());
                }
                for line in note.split('\n') {
                    out.push(if line.is_empty() {
                        "  >".to_owned()
                    } else {
                        format!("  > {line}")
                    });
                }
            }
        }
    }
    format!("{}\n", out.join("\n"))
}

/// What oh-my-pi's `markdownToPhases` reads from `oh_my_pi_export` of the
/// same phases (for texts with no line break in names and contents): names
/// and contents trimmed, each note split at its blank lines with trailing
/// blank lines dropped.
fn oh_my_pi_reading(phases: &[OmpPhase]) -> TodoState {
    let mut state = TodoState::new();
    for (name, tasks) in phases {
        let mut phase = Phase::new(name.trim());
        for (content, marker, notes, blocker) in tasks {
            let status = PI.status_of(*marker).unwrap_or_default();
            let notes: Vec<String> = notes
                .iter()
                .flat_map(|note| note.split("\n\n").map(str::to_owned).collect::<Vec<_>>())
                .flat_map(|part| {
                    let lines: Vec<&str> = part.split('\n').collect();
                    let mut groups = vec![Vec::new()];
                    for line in lines {
                        match line.is_empty() {
                            true => groups.push(Vec::new()),
                            false => groups.last_mut().into_iter().for_each(|g| g.push(line)),
                        }
                    }
                    groups
                        .into_iter()
                        .filter(|g| !g.is_empty())
                        .map(|g| g.join("\n"))
                        .collect::<Vec<_>>()
                })
                .collect();
            let mut task = Todo::new(content.trim()).status(status).notes(notes);
            task.blocked_reason =
                Some(blocker.trim().to_owned()).filter(|_| *marker == '!' && !blocker.is_empty());
            phase.tasks.push(task);
        }
        state.phases.push(phase);
    }
    normalize_in_progress(&mut state, 0);
    for task in state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
        task.status_changed_at = None;
    }
    state
}

/// Phases as oh-my-pi holds them: names and contents on one line (spaces
/// anywhere), unique once trimmed; notes of any printable text and line
/// breaks; its five statuses, a blocked task with a blocker note of words
/// and spaces or none.
fn oh_my_pi_phases() -> impl Strategy<Value = Vec<OmpPhase>> {
    let line = "[ -~é🦀]{0,12}";
    let note = prop::collection::vec(prop_oneof![line.prop_map(|s| s), Just("\n".to_owned())], 0..6)
        .prop_map(|parts| parts.concat());
    let task = (
        line,
        prop::sample::select(vec![' ', '/', 'x', '-', '!']),
        prop::collection::vec(note, 0..3),
        "[a-z ]{0,10}",
    );
    prop::collection::vec((line, prop::collection::vec(task, 0..4)), 0..4).prop_map(|phases| {
        phases
            .into_iter()
            .enumerate()
            .map(|(i, (name, tasks))| {
                let tasks = tasks
                    .into_iter()
                    .enumerate()
                    .map(|(j, (content, marker, notes, blocker))| {
                        (format!("{content} t{i}.{j}"), marker, notes, blocker)
                    })
                    .collect();
                (format!("{name} p{i}"), tasks)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn export_then_import_gives_back_the_same_list(fixture in state()) {
        let actual = import(&export(&fixture), 0);
        prop_assert_eq!(actual, Ok(fixture));
    }

    #[test]
    fn a_file_oh_my_pi_writes_imports_as_oh_my_pi_reads_it(phases in oh_my_pi_phases()) {
        let text = oh_my_pi_export(&phases);
        // Times are not part of the text.
        let actual = import(&text, 0).map(|mut state| {
            state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()).for_each(|t| t.status_changed_at = None);
            state
        });
        prop_assert_eq!(actual, Ok(oh_my_pi_reading(&phases)));
    }
}

#[test]
fn a_repeat_at_the_end_of_a_long_file_is_found_by_one_look_up_per_line() {
    let mut text: String = (0..100_000).map(|i| format!("- [ ] task {i}\n")).collect();
    text.push_str("- [ ] task 0\n");
    let actual = import(&text, 0).map(|state| state.tasks().count());
    let expected = Err(ImportError {
        line: 100_001,
        message: "task \"task 0\" appears twice; task texts must be unique".to_owned(),
    });
    assert_eq!(actual, expected);
}
