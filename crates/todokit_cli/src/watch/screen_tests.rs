//! Tests of the watch screen: it fits any pane, keeps the task in progress
//! in view, wraps between words, and shows each profile's own fields.

use super::*;
use pretty_assertions::assert_eq;
use todokit::{Phase, Priority};

fn spec(width: usize, height: usize) -> ScreenSpec {
    ScreenSpec {
        width,
        height,
        conversation: "release".to_owned(),
        profile: "claude-code".to_owned(),
        store: "/home/me/.local/share/todokit".to_owned(),
        ids: false,
        glyphs: Glyphs::Unicode,
        color: false,
    }
}

/// 40 tasks: 10 completed, one in progress, 29 pending, with sentences
/// long enough to wrap in a narrow pane.
fn forty() -> TodoState {
    let mut tasks: Vec<Todo> = (1..=10)
        .map(|n| Todo::new(format!("Finished step {n}")).status(Status::Completed))
        .collect();
    tasks.push(
        Todo::new("Write the explanation of the parser change")
            .active_form("Writing the explanation of the parser change for reviewers")
            .status(Status::InProgress),
    );
    tasks.extend((12..=40).map(|n| Todo::new(format!("Pending step {n} with a description that goes on"))));
    TodoState::new().phases(vec![Phase::new("").tasks(tasks)])
}

fn snapshot(name: &str, rows: &[String]) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, rows.join("\n")));
}

/// What the done-when asks of a screen: its size, header first, progress
/// line, the task in progress in view.
fn shape(rows: &[String], spec: &ScreenSpec) -> (bool, bool, bool, bool, bool) {
    (
        rows.len() <= spec.height,
        rows.iter().all(|r| width(r) <= spec.width),
        rows.first().is_some_and(|r| r.starts_with("todokit watch")),
        rows.iter().any(|r| r.starts_with("Progress: 10/40 completed")),
        rows.iter().any(|r| r.contains("~ Writing the explanation")),
    )
}

#[test]
fn forty_tasks_in_a_100_by_30_pane_keep_header_progress_and_the_task_in_progress() {
    let fixture = spec(100, 30);
    let rows = screen(&Ok(forty()), &fixture);
    snapshot("watch__screen_100x30", &rows);
    let actual = (shape(&rows, &fixture), rows.len());
    let expected = ((true, true, true, true, true), 30);
    assert_eq!(actual, expected);
}

#[test]
fn the_same_list_in_a_100_by_20_pane_is_drawn_the_same_way() {
    let fixture = spec(100, 20);
    let rows = screen(&Ok(forty()), &fixture);
    snapshot("watch__screen_100x20", &rows);
    let actual = (shape(&rows, &fixture), rows.len());
    let expected = ((true, true, true, true, true), 20);
    assert_eq!(actual, expected);
}

#[test]
fn at_40_columns_no_word_is_split() {
    let fixture = spec(40, 30);
    let state = forty();
    let rows = screen(&Ok(state.clone()), &fixture);
    snapshot("watch__screen_40x30", &rows);
    // Every word of every row is a whole word of the list's text (or of the
    // screen's own words).
    let known: std::collections::HashSet<String> = state
        .tasks()
        .flat_map(|t| format!("{} {}", t.content, t.display_text()).split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .chain(
            "todokit watch · release claude-code /home/me/.local/share/todokit Progress: 10/40 completed ✓ ~ ○ … more"
                .split_whitespace()
                .map(str::to_owned),
        )
        .collect();
    let split: Vec<&str> = rows
        .iter()
        .skip(1) // the header is cut, not wrapped
        .flat_map(|r| r.split_whitespace())
        .filter(|w| !known.contains(*w) && w.parse::<usize>().is_err())
        .collect();
    let actual = (shape(&rows, &fixture), split);
    let expected = ((true, true, true, true, true), Vec::<&str>::new());
    assert_eq!(actual, expected);
}

#[test]
fn a_list_that_fits_is_shown_whole_with_nothing_collapsed() {
    let state = TodoState::new().phases(vec![Phase::new("Build").tasks(vec![
        Todo::new("Write the parser").status(Status::Completed),
        Todo::new("Wire the store").active_form("Wiring the store").status(Status::InProgress),
        Todo::new("Port to C").status(Status::Abandoned),
        Todo::new("Add tests"),
    ])]);
    let actual = screen(&Ok(state), &spec(60, 12));
    let expected = vec![
        "todokit watch · release · claude-code · /home/me/.local/sha…",
        "Progress: 1/4 completed, 1 abandoned",
        "",
        "Build",
        "  ✓ Write the parser",
        "  ~ Wiring the store",
        "  ✗ Port to C",
        "  ○ Add tests",
    ];
    assert_eq!(actual, expected);
}

#[test]
fn each_profile_shows_its_own_fields() {
    let tasks = TodoState::new().phases(vec![Phase::new("").tasks(vec![
        Todo::new("Run the tests").id("1").owner("alice").status(Status::InProgress),
        Todo::new("Fix what fails").id("2").blocked_by(vec!["1".to_owned()]),
    ])]);
    let pi = TodoState::new().phases(vec![Phase::new("Build").tasks(vec![
        Todo::new("Wire the store").status(Status::InProgress).notes(vec![
            "Use the lock file".to_owned(),
            "Ask about retries first".to_owned(),
        ]),
        Todo::new("Add tests").notes(vec!["not shown until started".to_owned()]),
    ])]);
    let opencode = TodoState::new().phases(vec![Phase::new("").tasks(vec![
        Todo::new("Patch the bug").priority(Priority::High).status(Status::InProgress),
        Todo::new("Tidy the docs").priority(Priority::Low),
    ])]);
    let codex = TodoState::new()
        .phases(vec![Phase::new("").tasks(vec![
            Todo::new("Read the code").status(Status::Completed),
            Todo::new("Patch the parser").status(Status::InProgress),
        ])])
        .explanation("The parser fix needs the lexer change first, so the order changed.");
    let claude_tasks = ScreenSpec {
        ids: true,
        profile: "claude-tasks".to_owned(),
        ..spec(50, 12)
    };
    let rows = [
        screen(&Ok(tasks), &claude_tasks),
        screen(&Ok(pi), &spec(50, 12)),
        screen(&Ok(opencode), &spec(50, 12)),
        screen(
            &Ok(codex),
            &ScreenSpec {
                profile: "codex".to_owned(),
                ..spec(50, 12)
            },
        ),
    ]
    .map(|rows| rows.join("\n"));
    snapshot("watch__screen_profile_fields", &[rows.join("\n----\n")]);
    let actual = (
        rows[0].contains("#1 Run the tests (alice)") && rows[0].contains("blocked by #1"),
        rows[1].contains("› Use the lock file") && !rows[1].contains("not shown"),
        rows[2].contains("[high] Patch the bug"),
        rows[3].contains("Progress: 1/2 completed\nThe parser fix needs the lexer change first,"),
    );
    assert_eq!(actual, (true, true, true, true));
}

#[test]
fn ascii_glyphs_draw_pure_ascii() {
    let fixture = ScreenSpec {
        glyphs: Glyphs::Ascii,
        ..spec(30, 12)
    };
    let rows = screen(&Ok(forty()), &fixture);
    let actual = (rows.iter().all(|r| r.is_ascii()), rows.join("\n"));
    assert_eq!(actual.0, true, "{}", actual.1);
}

#[test]
fn model_text_cannot_steer_the_terminal_even_in_colour() {
    let state = TodoState::new().phases(vec![Phase::new("\u{1b}]0;pwned\u{7}").tasks(vec![
            Todo::new("evil \u{1b}[2J\u{1b}[31m text")
                .status(Status::InProgress)
                .notes(vec!["\u{9b}31m".to_owned()]),
        ])]);
    let fixture = ScreenSpec {
        color: true,
        conversation: "c\u{1b}[H".to_owned(),
        ..spec(60, 12)
    };
    let rows = screen(&Ok(state), &fixture);
    // Only our own SGR sequences: ESC [ digits/semicolons m.
    let foreign: Vec<String> = rows
        .iter()
        .flat_map(|r| r.split('\u{1b}').skip(1).map(str::to_owned).collect::<Vec<_>>())
        .filter(|seq| {
            let Some(body) = seq.strip_prefix('[') else {
                return true;
            };
            let end = body.find('m').unwrap_or(body.len());
            end == body.len() || !body[..end].chars().all(|c| c.is_ascii_digit() || c == ';')
        })
        .collect();
    let controls = rows
        .iter()
        .any(|r| r.chars().any(|c| c.is_control() && c != '\u{1b}'));
    assert_eq!((foreign, controls), (Vec::<String>::new(), false));
}

#[test]
fn any_pane_size_and_any_error_fit_without_panicking() {
    let states = [
        Ok(forty()),
        Ok(TodoState::new()),
        Err("the store at /x cannot be read: denied".to_owned()),
    ];
    let mut misfits = Vec::new();
    for state in &states {
        for width in [0, 1, 2, 5, 13, 40] {
            for height in [0, 1, 2, 3, 4, 7] {
                let fixture = spec(width, height);
                let rows = screen(state, &fixture);
                if rows.len() > height || rows.iter().any(|r| width > 2 && self::width(r) > width) {
                    misfits.push((width, height, rows));
                }
            }
        }
    }
    assert_eq!(misfits, Vec::<(usize, usize, Vec<String>)>::new());
}

/// `row` without this view's colour sequences.
fn visible(row: &str) -> String {
    let mut out = String::new();
    let mut in_sequence = false;
    for c in row.chars() {
        match (in_sequence, c) {
            (false, '\u{1b}') => in_sequence = true,
            (true, c) if c != '[' && ('@'..='~').contains(&c) => in_sequence = false,
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

#[test]
fn phases_notes_and_blockers_never_overflow_a_narrow_pane_in_colour_or_not() {
    let tasks = vec![
        Todo::new("Draft the plan").status(Status::Completed),
        Todo::new("Write the parser")
            .id("7")
            .active_form("Writing the parser")
            .status(Status::InProgress)
            .notes(vec!["a note that runs on for a while".to_owned()]),
        Todo::new("Ship it")
            .id("9")
            .blocked_by(vec!["7".to_owned(), "8".to_owned()]),
    ];
    let state = TodoState::new().phases(vec![
        Phase::new("Design and build").tasks(tasks),
        Phase::new("Later").tasks(vec![Todo::new("Celebrate").id("8")]),
    ]);
    let mut misfits = Vec::new();
    for color in [false, true] {
        for width in 0..=12 {
            let fixture = ScreenSpec {
                color,
                ids: true,
                ..spec(width, 30)
            };
            let rows = screen(&Ok(state.clone()), &fixture);
            let widest = rows.iter().map(|r| self::width(&visible(r))).max().unwrap_or(0);
            if widest > width {
                misfits.push((color, width, widest));
            }
        }
    }
    // At six columns the tasks under a heading keep four columns of text.
    let six: Vec<String> = screen(&Ok(state), &spec(6, 30))
        .iter()
        .map(|r| visible(r))
        .collect();
    assert_eq!(misfits, Vec::<(bool, usize, usize)>::new());
    assert!(six.iter().any(|r| r == "~ Writ"), "{six:#?}");
}

#[test]
fn a_completed_blocker_no_longer_shows_as_blocking() {
    let state = TodoState::new().phases(vec![Phase::new("").tasks(vec![
        Todo::new("Design the schema").id("1").status(Status::Completed),
        Todo::new("Ship it")
            .id("2")
            .blocked_by(vec!["1".to_owned(), "3".to_owned()]),
        Todo::new("Write the migration").id("3"),
    ])]);
    let fixture = ScreenSpec {
        ids: true,
        ..spec(60, 30)
    };
    let actual: Vec<String> = screen(&Ok(state), &fixture)
        .iter()
        .map(|row| visible(row))
        .filter(|row| row.contains("blocked"))
        .collect();
    let expected = vec!["  blocked by #3".to_owned()];
    assert_eq!(actual, expected);
}

/// An epic with three subtasks (one finished, one with its own finished
/// subtask), a finished epic whose subtask is still open, and a loose task.
fn tree() -> TodoState {
    let task = |content: &str, id: &str, status: Status| Todo::new(content).id(id).status(status);
    TodoState::flat(vec![
        task("Ship the export", "e", Status::InProgress),
        task("Write the parser", "p", Status::Completed).parent("e"),
        task("Wire the flag", "f", Status::Pending).parent("e"),
        task("Add the option", "o", Status::Completed).parent("f"),
        task("Old epic", "x", Status::Completed),
        task("Left over", "l", Status::Pending).parent("x"),
        task("Tidy the docs", "d", Status::Pending),
    ])
}

#[test]
fn subtasks_sit_under_their_parent_and_a_finished_parent_stays_over_open_work() {
    let roomy = screen(&Ok(tree()), &spec(40, 30));
    // Too short for every task: finished ones collapse, but not a finished
    // task with open work under it.
    let short = screen(&Ok(tree()), &spec(40, 9));
    let tasks = |rows: &[String]| -> Vec<String> { rows.iter().skip(3).cloned().collect() };
    let lines = |texts: &[&str]| -> Vec<String> { texts.iter().map(|t| (*t).to_owned()).collect() };
    let actual = (tasks(&roomy), tasks(&short));
    let expected = (
        lines(&[
            "~ Ship the export",
            "  ✓ Write the parser",
            "  ○ Wire the flag",
            "    ✓ Add the option",
            "✓ Old epic",
            "  ○ Left over",
            "○ Tidy the docs",
        ]),
        lines(&[
            "~ Ship the export",
            "  ○ Wire the flag",
            "✓ Old epic",
            "  ○ Left over",
            "○ Tidy the docs",
            "✓ 2 completed",
        ]),
    );
    assert_eq!(actual, expected);
}
