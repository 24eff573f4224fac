//! `learn`: the teaching agent's `todo` tool: a flat list of at most 20
//! `{id, text, status}` items replaced on every call, at most one in
//! progress, rendered as `[ ] #id: text` lines with a completed count.
//!
//! Models that forget it get nagged sooner here: after 3 tool rounds
//! without a `todo` call instead of the usual 10.

use std::borrow::Cow;
use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use todokit_app::prelude::TriStatus;
use todokit_domain::checklist::{Bullet, Mark, MarkerTable, Spacing};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "learn";
/// Most items in one list.
pub const MAX_ITEMS: usize = 20;
/// Tool rounds without a `todo` call before the host nags.
pub const NAG_AFTER_ROUNDS: usize = 3;
/// The refusal of a list over [`MAX_ITEMS`], worded as the original.
pub const TOO_MANY: &str = "Max 20 todos allowed";
/// The refusal for a second item in progress, worded as the original.
pub const ONE_IN_PROGRESS: &str = "Only one task can be in_progress at a time";

const FIELDS: FieldNames = FieldNames {
    list: "items",
    content: "text",
    active_form: "activeForm",
    id: "id",
    status: "status",
    ..FieldNames::DEFAULT
};

/// The rules `todo` lists are held to by default.
pub fn rules() -> ListRules {
    ListRules::default()
        .limits(Limits::DEFAULT.max_items(MAX_ITEMS))
        // Checked by the tool itself, with the original's wording.
        .in_progress(InProgressPolicy::Warn)
}

/// learn-claude-code's lines: `[ ]`, `[>]` in progress, `[x]`, no bullet;
/// blocked shows as pending and abandoned as done.
pub const MARKERS: MarkerTable = MarkerTable {
    written: [
        Mark::plain(' '),
        Mark::plain('>'),
        Mark::plain(' '),
        Mark::plain('x'),
        Mark::plain('x'),
    ],
    also_read: &[],
    bullet: Bullet::Optional,
    spacing: Spacing::Exact,
};

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "learn-claude-code's todo: up to 20 items, one in progress",
        rules(),
    )
    .with_upstream(Upstream {
        agent: "learn-claude-code",
        pin: Pin::Source {
            repository: "shareAI-lab/learn-claude-code",
            path: "agents/s03_todo_write.py",
            commit: "0f691a092cb7dfcb9b51db5e72d99866f6d8588d",
            date: None,
            read_through: None,
        },
        ships_in: "learn-claude-code's s03 teaching agent (`todo`)",
        checked: None,
    })
    .with_system_prompt(include_str!("../descriptions/learn/system-prompt.md"))
    .with_example("todo", r#"{"items":[{"id":"1","text":"Run the tests","status":"in_progress"},{"id":"2","text":"Fix what fails","status":"pending"}]}"#)
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .with_nag_after_rounds(NAG_AFTER_ROUNDS)
    .tool(ListTool(TodoTool))
}

/// One item of the list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoItem {
    /// An id for the item.
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// What to do.
    pub text: String,
    /// Where it stands.
    pub status: TriStatus,
}

/// The arguments of `todo`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoInput {
    /// The complete list. It replaces the stored one.
    pub items: Vec<TodoItem>,
}

todokit_app::prelude::writer_tool! {
    /// The `todo` tool.
    TodoTool = "todo",
    include_str!("../descriptions/learn/todo.md")
}

impl ListWriter for TodoTool {
    type Input = TodoInput;
    type Item<'a> = LearnItem<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TodoInput) -> Result<Vec<Todo>, ToolError> {
        let refuse = |message: String| -> ToolError { ToolError::refused(FIELDS.list, message) };
        if input.items.len() > MAX_ITEMS {
            return Err(refuse(TOO_MANY.to_owned()));
        }
        let mut todos = Vec::with_capacity(input.items.len());
        // The text and id move into the todo (the result is rendered from
        // the stored list, not from the input); text with spaces around it
        // is trimmed into a copy.
        for item in &mut input.items {
            let text = match item.text.trim() {
                "" => return Err(refuse(format!("Item {}: text required", item.id))),
                trimmed if trimmed.len() == item.text.len() => std::mem::take(&mut item.text),
                trimmed => trimmed.to_owned(),
            };
            todos.push(
                Todo::new(text)
                    .id(std::mem::take(&mut item.id))
                    .status(item.status),
            );
        }
        if todos.iter().filter(|t| t.status == Status::InProgress).count() > 1 {
            return Err(refuse(ONE_IN_PROGRESS.to_owned()));
        }
        Ok(todos)
    }

    fn item(todo: &Todo, position: usize) -> LearnItem<'_> {
        LearnItem {
            id: id_or_position(todo, position),
            text: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, TodoInput>) -> String {
        render(op.after)
    }

    fn fields(_op: &ToolOperation<'_, TodoInput>) {}

    /// An unknown status is refused in the original's words, naming the
    /// item by its id (its position when it has none) and the status as
    /// the original compares it, lowercased; other problems stay as found.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        let mut reworded = Vec::with_capacity(problems.len());
        for problem in problems {
            match invalid_status(args, problem.field()) {
                Some(message) => reworded.push(ArgumentError::Field {
                    field: FIELDS.list.to_owned(),
                    message,
                }),
                None => reworded.push(problem),
            }
        }
        ToolError::Arguments(reworded)
    }
}

/// `Item <id>: invalid status '<status>'` when `field` is the status of an
/// item of `args` holding a string the schema does not allow.
fn invalid_status(args: &Value, field: &str) -> Option<String> {
    let position: usize = field
        .strip_prefix("items[")?
        .strip_suffix("].status")?
        .parse()
        .ok()?;
    let item = args.get(FIELDS.list)?.get(position)?;
    let status = item.get(FIELDS.status)?.as_str()?.to_lowercase();
    let id = match item.get(FIELDS.id) {
        Some(Value::String(id)) => id.clone(),
        Some(id @ Value::Number(_)) => id.to_string(),
        _ => (position + 1).to_string(),
    };
    Some(format!("Item {}: invalid status '{}'", clip(&id), clip(&status)))
}

/// One stored item as `todo` writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LearnItem<'a> {
    /// Its id (its 1-based position when it has none).
    pub id: Cow<'a, str>,
    /// What to do.
    pub text: &'a str,
    /// Where it stands.
    pub status: TriStatus,
}

/// `[x] #1: text` lines, a blank line, then `(done/total completed)`.
fn render(state: &TodoState) -> String {
    if state.is_empty() {
        return "No todos.".to_owned();
    }
    // One buffer for every line: this text is written on every call.
    let mut out = String::with_capacity(64 * state.tasks().count() + 32);
    for (i, t) in state.tasks().enumerate() {
        let id = id_or_position(t, i);
        MARKERS.write_into(&mut out, t.status, &["#", &id, ": ", &t.content]);
        out.push('\n');
    }
    let counts = state.counts();
    // Writing into a `String` cannot fail.
    let _ = write!(out, "\n({}/{} completed)", counts.completed, counts.total());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::test_support::{problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), TodoTool::NAME, state, args)
    }

    fn list(n: usize) -> String {
        let items: Vec<_> = (0..n)
            .map(|i| json!({"id": (i + 1).to_string(), "text": format!("Step {i}"), "status": "pending"}))
            .collect();
        json!({ "items": items }).to_string()
    }

    #[test]
    fn twenty_items_pass_and_twenty_one_fail() {
        let fixture = [list(MAX_ITEMS), list(MAX_ITEMS + 1)];
        let actual: Vec<Vec<String>> = fixture
            .iter()
            .map(|a| problem_messages(&call(&TodoState::new(), a)))
            .collect();
        let expected = vec![vec![], vec!["items: Max 20 todos allowed".to_owned()]];
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_in_progress_are_refused_with_the_original_wording() {
        let fixture = r#"{"items":[{"id":"1","text":"a","status":"in_progress"},{"id":"2","text":"b","status":"in_progress"}]}"#;
        let outcome = call(&TodoState::new(), fixture);
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (vec![format!("items: {ONE_IN_PROGRESS}")], None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn text_is_required_and_trimmed() {
        let fixture = [
            r#"{"items":[{"id":"7","text":"   ","status":"pending"}]}"#,
            r#"{"items":[{"id":"1","text":"  a  ","status":"pending"}]}"#,
        ];
        let actual: Vec<(Vec<String>, Option<String>)> = fixture
            .iter()
            .map(|a| {
                let outcome = call(&TodoState::new(), a);
                let text = outcome
                    .commit
                    .as_ref()
                    .and_then(|s| s.tasks().next().map(|t| t.content.clone()));
                (problem_messages(&outcome), text)
            })
            .collect();
        let expected = vec![
            (vec!["items: Item 7: text required".to_owned()], None),
            (vec![], Some("a".to_owned())),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn status_is_lower_cased_as_the_original_does() {
        let fixture = r#"{"items":[{"id":"1","text":"a","status":"COMPLETED"},{"id":"2","text":"b","status":"In_Progress"}]}"#;
        let actual = call(&TodoState::new(), fixture).commit.map(|s| {
            s.tasks()
                .map(|t| (t.id.clone().unwrap_or_default(), t.status))
                .collect::<Vec<_>>()
        });
        let expected = Some(vec![
            ("1".to_owned(), Status::Completed),
            ("2".to_owned(), Status::InProgress),
        ]);
        assert_eq!(actual, expected);
    }

    // Golden facts from shareAI-lab/learn-claude-code, agents/s03_todo_write.py
    // at commit 0f691a092cb7dfcb9b51db5e72d99866f6d8588d: the `todo` schema
    // requires `id`, `text` and `status`; `TodoManager.update` refuses with
    // "Max 20 todos allowed", "Item <id>: text required" and "Only one task
    // can be in_progress at a time"; `render` writes `[ ]`/`[>]`/`[x] #id:
    // text` lines, then a blank line and `(done/total completed)`.
    #[test]
    fn the_schema_requires_every_field_and_the_render_is_the_originals() {
        let schema = todokit_app::schema::canonical::<TodoInput>();
        let fixture = r#"{"items":[{"id":"1","text":"Read","status":"completed"},{"id":"2","text":"Fix","status":"in_progress"},{"id":"3","text":"Test","status":"pending"}]}"#;
        let actual = (
            schema["properties"]["items"]["items"]["required"].clone(),
            call(&TodoState::new(), fixture).result.content,
        );
        let expected = (
            json!(["id", "text", "status"]),
            "[x] #1: Read\n[>] #2: Fix\n[ ] #3: Test\n\n(1/3 completed)".to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_missing_id_or_status_is_refused() {
        let fixture = r#"{"items":[{"text":"a"}]}"#;
        let actual = problem_messages(&call(&TodoState::new(), fixture));
        let expected = vec![
            "items[0]: missing `id`".to_owned(),
            "items[0]: missing `status`".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    // Golden facts, same file and commit: `TodoManager.update` lowercases
    // the status, then refuses one outside pending/in_progress/completed
    // with "Item <id>: invalid status '<status>'", the id being the item's
    // or, when it has none, its 1-based position.
    #[test]
    fn an_unknown_status_is_refused_in_the_originals_words() {
        let fixtures = [
            r#"{"items":[{"id":"1","text":"a","status":"pending"},{"id":"b7","text":"b","status":"Doing"}]}"#,
            r#"{"items":[{"text":"a","status":"paused"}]}"#,
        ];
        let actual: Vec<Vec<String>> = fixtures
            .iter()
            .map(|f| problem_messages(&call(&TodoState::new(), f)))
            .collect();
        let expected = vec![
            vec!["items: Item b7: invalid status 'doing'".to_owned()],
            vec![
                "items[0]: missing `id`".to_owned(),
                "items: Item 1: invalid status 'paused'".to_owned(),
            ],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_profile_nags_after_three_rounds() {
        let actual = profile().nag_after_rounds();
        let expected = 3;
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let cases = [
            ("empty", r#"{"items":[]}"#),
            (
                "mixed",
                r#"{"items":[{"id":"1","text":"Read the file","status":"completed"},{"id":"2","text":"Add type hints","status":"in_progress"},{"id":"3","text":"Add a main guard","status":"pending"}]}"#,
            ),
            (
                "refused",
                r#"{"items":[{"id":"1","text":"a","status":"in_progress"},{"id":"2","text":"","status":"in_progress"}]}"#,
            ),
            (
                "two_in_progress",
                r#"{"items":[{"id":"1","text":"a","status":"in_progress"},{"id":"2","text":"b","status":"in_progress"}]}"#,
            ),
            ("missing_fields", r#"{"items":[{"text":"a"}]}"#),
            (
                "unknown_status",
                r#"{"items":[{"id":"1","text":"a","status":"blocked"}]}"#,
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = call(&TodoState::new(), args).result;
                insta::assert_snapshot!(format!("result__learn__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__learn__{name}"), result.details.value());
            }
        });
    }
}
