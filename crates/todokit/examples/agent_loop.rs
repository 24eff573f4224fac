//! A complete host loop around todokit, with a scripted model instead of a
//! network call. The model plans a change, works through it, forgets to
//! update its list for a while (and is nagged), tries to stop with work
//! still open (and is reminded), then finishes.
//!
//! Run it with `cargo run -q -p todokit --example agent_loop`. The comments
//! marked HOST are the places a real agent loop calls todokit; see
//! `docs/embedding.md`.

use std::io::Write;

use anyhow::{Result, bail};
use serde_json::{Value, json};
use todokit::app::{CallRecord, Enforcement, Placement, TurnConfig, TurnEnd, TurnPolicy};
use todokit::{ManualClock, MemoryStore, TodoWriteService, Todokit};

/// What the scripted model answers with, one step per request.
enum Step {
    /// Call one tool with these arguments.
    Tool(&'static str, Value),
    /// Say this and try to end the turn.
    Say(&'static str),
}

fn todos(items: &[(&str, &str, &str)]) -> Value {
    let todos: Vec<Value> = items
        .iter()
        .map(|(content, active, status)| json!({"content": content, "activeForm": active, "status": status}))
        .collect();
    json!({ "todos": todos })
}

const READ: (&str, &str) = ("Read the report command", "Reading the report command");
const FLAG: (&str, &str) = ("Add the --json flag", "Adding the --json flag");
const TESTS: (&str, &str) = ("Test the JSON output", "Testing the JSON output");
const DOCS: (&str, &str) = ("Document the flag", "Documenting the flag");

fn plan(statuses: [&'static str; 4]) -> Value {
    let [a, b, c, d] = statuses;
    todos(&[
        (READ.0, READ.1, a),
        (FLAG.0, FLAG.1, b),
        (TESTS.0, TESTS.1, c),
        (DOCS.0, DOCS.1, d),
    ])
}

fn script() -> Vec<Step> {
    vec![
        Step::Tool(
            "TodoWrite",
            plan(["in_progress", "pending", "pending", "pending"]),
        ),
        Step::Tool("bash", json!({"command": "cat src/report.rs"})),
        Step::Tool(
            "TodoWrite",
            plan(["completed", "in_progress", "pending", "pending"]),
        ),
        Step::Tool("edit", json!({"path": "src/report.rs", "change": "add --json"})),
        Step::Tool("bash", json!({"command": "cargo build"})),
        Step::Tool("bash", json!({"command": "cargo test report"})),
        // Nagged after three rounds without a todo call, it catches up.
        Step::Tool(
            "TodoWrite",
            plan(["completed", "completed", "in_progress", "pending"]),
        ),
        Step::Tool(
            "edit",
            json!({"path": "tests/report.rs", "change": "test the JSON output"}),
        ),
        Step::Say("The --json flag is in and tested."),
        // Reminded that the list is not finished, it goes on.
        Step::Tool(
            "TodoWrite",
            plan(["completed", "completed", "completed", "in_progress"]),
        ),
        Step::Tool("edit", json!({"path": "README.md", "change": "document --json"})),
        Step::Tool(
            "TodoWrite",
            plan(["completed", "completed", "completed", "completed"]),
        ),
        Step::Say("Added `report --json`, with tests and a README section."),
    ]
}

/// Runs the session, writing the transcript to `out`.
async fn run(out: &mut dyn Write) -> Result<()> {
    // HOST: wire a service once (here in memory, with a clock we control).
    let service: TodoWriteService = Todokit::builder()
        .profile("claude-code")?
        .store(MemoryStore::new())
        .clock(ManualClock::new(1_700_000_000_000))
        .build()?;
    let conversation = "example";
    // HOST: one policy per conversation. Strict: an early stop is sent back
    // to the model. A short nag threshold so the example shows it.
    let config = TurnConfig::for_profile(service.profile())
        .end_of_turn(Enforcement::Strict)
        .nag_after_rounds(3);
    let mut policy = TurnPolicy::with_config(service.profile(), config);
    // HOST: the system prompt gets the profile's snippet; the tools list gets its tools.
    writeln!(out, "system> {}", first_line(service.profile().system_prompt()))?;
    let prompt = "Add a --json flag to `report`, with tests and docs.";
    writeln!(out, "user> {prompt}")?;
    policy.on_user_prompt();

    let mut steps = script().into_iter();
    loop {
        // HOST: before each request, pass on hand edits and stale-list reminders.
        for injection in policy.before_request(&service.take_notices(conversation).await?) {
            writeln!(out, "host> adds before the request:\n{}", indent(&injection.text))?;
        }
        let Some(step) = steps.next() else {
            bail!("the script ran out before the model finished");
        };
        match step {
            Step::Tool(tool, args) => {
                writeln!(out, "assistant> calls {tool} {}", summarize(tool, &args))?;
                let is_error = if service.profile().find(tool).is_some() {
                    // HOST: a todo tool call goes straight to the service.
                    let result = service.call_value(conversation, tool, &args).await?;
                    let details = result.details.value();
                    writeln!(
                        out,
                        "tool> is_error: {}, in_progress_count: {}, wiped_on_all_completed: {}",
                        result.is_error, details["in_progress_count"], details["wiped_on_all_completed"]
                    )?;
                    writeln!(out, "{}", indent(&as_sent(&args["todos"])))?;
                    result.is_error
                } else {
                    writeln!(out, "tool> (ok)")?;
                    false
                };
                // HOST: after the round's results, ask what to append to them.
                let list = service.view(conversation).await?;
                for injection in policy.on_tool_results(&[CallRecord::new(tool, is_error)], &list) {
                    debug_assert_eq!(injection.placement, Placement::AfterToolResults);
                    writeln!(
                        out,
                        "host> appends to the tool results:\n{}",
                        indent(&injection.text)
                    )?;
                }
            }
            Step::Say(text) => {
                writeln!(out, "assistant> {text}")?;
                // HOST: the model wants to stop; ask whether it may.
                match policy.on_turn_end(&service.view(conversation).await?) {
                    TurnEnd::End => {
                        writeln!(out, "host> the turn ends; nothing is open.")?;
                        break;
                    }
                    TurnEnd::EndWithWarning(warning) => {
                        writeln!(out, "host> the turn ends; warning the user: {warning}")?;
                        break;
                    }
                    TurnEnd::Continue(reminder) => {
                        writeln!(
                            out,
                            "host> work is still open; instead of ending, it sends:\n{}",
                            indent(&reminder.text)
                        )?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The list the model sent, as plain text.
fn as_sent(todos: &Value) -> String {
    let tasks = todos
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            let status: todokit::Status = serde_json::from_value(t["status"].clone()).unwrap_or_default();
            todokit::Todo::new(t["content"].as_str().unwrap_or_default())
                .active_form(t["activeForm"].as_str().unwrap_or_default())
                .status(status)
        })
        .collect();
    todokit::render(&todokit::TodoState::flat(tasks), todokit::Format::Text)
}

fn summarize(tool: &str, args: &Value) -> String {
    match tool {
        "TodoWrite" => {
            let items = args["todos"].as_array().map(Vec::len).unwrap_or(0);
            format!("({items} items)")
        }
        _ => args.to_string(),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

fn indent(text: &str) -> String {
    let pad = |l: &str| {
        if l.is_empty() {
            String::new()
        } else {
            format!("    {l}")
        }
    };
    text.lines().map(pad).collect::<Vec<_>>().join("\n")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let mut out = std::io::stdout().lock();
    run(&mut out).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_transcript() {
        let mut out = Vec::new();
        run(&mut out).await.expect("the session runs to its end");
        let transcript = String::from_utf8(out).expect("the transcript is text");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!("example__agent_loop_transcript", transcript));
        assert!(transcript.contains("appends to the tool results"), "one nag");
        assert!(transcript.contains("(Reminder 1/3)"), "one end-of-turn reminder");
        assert!(
            transcript.contains("Progress: 4/4 completed"),
            "every item completed"
        );
    }
}
