//! `todokit demo`: a scripted agent session replayed through the real
//! service and store, printing the list after every call.

use std::time::Duration;

use anstream::adapter::strip_str;
use anstyle::Style;
use anyhow::Result;
use serde_json::json;
use todokit::{Format, TodoWriteService, end_of_turn_reminder, render};

use crate::commands::output::print_line;

/// The profile the script speaks.
pub const PROFILE: &str = "claude-code";

/// The conversation the demo writes to unless one is named.
pub const CONVERSATION: &str = "demo";

/// What the scripted model does at one step.
enum Action {
    /// Sends `TodoWrite` with these items: (content, active form, status).
    Write(&'static [(&'static str, &'static str, &'static str)]),
    /// Sends `TodoWrite` with this raw argument text.
    Raw(&'static str),
    /// Tries to end its turn: the host runs the end-of-turn check.
    EndTurn,
}

const READ: (&str, &str) = ("Read the report command", "Reading the report command");
const FLAG: (&str, &str) = ("Add the --json flag", "Adding the --json flag");
const TESTS: (&str, &str) = ("Test the JSON output", "Testing the JSON output");
const DOCS: (&str, &str) = ("Document the flag in the README", "Documenting the flag");

macro_rules! item {
    ($task:expr, $status:literal) => {
        ($task.0, $task.1, $status)
    };
}

const SCRIPT: &[(&str, Action)] = &[
    (
        "The user asks for a --json flag on `report`; the model plans four steps and starts the first",
        Action::Write(&[
            item!(READ, "in_progress"),
            item!(FLAG, "pending"),
            item!(TESTS, "pending"),
            item!(DOCS, "pending"),
        ]),
    ),
    (
        "It has read the code: first step completed, the flag is next",
        Action::Write(&[
            item!(READ, "completed"),
            item!(FLAG, "in_progress"),
            item!(TESTS, "pending"),
            item!(DOCS, "pending"),
        ]),
    ),
    (
        "It slips and spells a status \"done\": the call is refused and the list stays as it was",
        Action::Raw(
            r#"{"todos":[{"content":"Read the report command","status":"completed","activeForm":"Reading the report command"},{"content":"Add the --json flag","status":"done","activeForm":"Adding the --json flag"}]}"#,
        ),
    ),
    (
        "It retries with the right spelling and moves on to the tests",
        Action::Write(&[
            item!(READ, "completed"),
            item!(FLAG, "completed"),
            item!(TESTS, "in_progress"),
            item!(DOCS, "pending"),
        ]),
    ),
    ("It tries to end its turn with work still open", Action::EndTurn),
    (
        "Reminded, it keeps going: tests pass, the docs are underway",
        Action::Write(&[
            item!(READ, "completed"),
            item!(FLAG, "completed"),
            item!(TESTS, "completed"),
            item!(DOCS, "in_progress"),
        ]),
    ),
    (
        "Everything is completed, so the stored list is cleared for the next piece of work",
        Action::Write(&[
            item!(READ, "completed"),
            item!(FLAG, "completed"),
            item!(TESTS, "completed"),
            item!(DOCS, "completed"),
        ]),
    ),
    ("It ends its turn; nothing is open any more", Action::EndTurn),
];

/// Plays the script against `service` (a `claude-code` service).
pub async fn run(
    service: &TodoWriteService,
    conversation: &str,
    terminal: Format,
    delay: Duration,
) -> Result<()> {
    let color = matches!(terminal, Format::Ansi { color: true, .. });
    let paint = |style: Style, text: &str| {
        if color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    };
    let bold = Style::new().bold();
    let dim = Style::new().dimmed();
    print_line(&paint(
        bold,
        &format!(
            "todokit demo: a scripted session with the claude-code profile, conversation {conversation:?}"
        ),
    ))?;
    for (number, (narration, action)) in SCRIPT.iter().enumerate() {
        print_line("")?;
        print_line(&paint(
            bold,
            &format!("Step {}/{}: {narration}", number + 1, SCRIPT.len()),
        ))?;
        let args = match action {
            Action::Write(items) => {
                let todos: Vec<_> = items
                    .iter()
                    .map(|(content, active, status)| json!({"content": content, "status": status, "activeForm": active}))
                    .collect();
                json!({ "todos": todos }).to_string()
            }
            Action::Raw(text) => (*text).to_owned(),
            Action::EndTurn => {
                let state = service.state(conversation).await?;
                match end_of_turn_reminder(&state) {
                    Some(reminder) => {
                        print_line(&paint(
                            dim,
                            "  end-of-turn check: open items, so the host sends the model:",
                        ))?;
                        print_line(&indent(&reminder, "  | "))?;
                    }
                    None => print_line(&paint(dim, "  end-of-turn check: nothing open, the turn may end"))?,
                }
                pause(delay).await;
                continue;
            }
        };
        let result = service.call(conversation, "TodoWrite", &args).await?;
        if result.is_error {
            print_line(&paint(dim, "  TodoWrite -> error, shown to the model as:"))?;
            print_line(&indent(&result.content, "  | "))?;
        } else {
            let in_progress = result.details.value()["in_progress_count"].as_u64().unwrap_or(0);
            let wiped = result.details.value()["wiped_on_all_completed"]
                .as_bool()
                .unwrap_or(false);
            let note = if wiped { ", list cleared" } else { "" };
            print_line(&paint(
                dim,
                &format!("  TodoWrite -> ok, {in_progress} in progress{note}"),
            ))?;
        }
        let state = service.state(conversation).await?;
        let view = render(&state, terminal);
        print_line(&indent(&view, "    "))?;
        pause(delay).await;
    }
    // The last list shown is empty: say why, and where a live one is seen.
    print_line("")?;
    print_line(&format!(
        "The list is empty because {PROFILE} clears a list sent with every item completed, as Claude Code does."
    ))?;
    print_line(&format!(
        "To watch one move while an agent works, run `todokit watch --latest` in a terminal beside it \
         (`todokit --conversation {conversation:?} show` shows this one)."
    ))?;
    Ok(())
}

fn indent(text: &str, prefix: &str) -> String {
    text.lines()
        .map(|line| {
            // Keep blank lines free of trailing spaces.
            if strip_str(line).to_string().trim().is_empty() {
                String::new()
            } else {
                format!("{prefix}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

async fn pause(delay: Duration) {
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
}
