//! `hermes`: the Hermes agent's `todo`: called without `todos` it reads;
//! with them it replaces the list, or with `merge: true` updates items by
//! id and adds new ones at the end. Items sent twice under one id count
//! once (the last, in its place); ids and contents are trimmed, a blank one
//! becomes `?` or `(no description)`, a content past 4,000 characters is
//! cut with a marker and a list past 256 items keeps its head. Every call
//! answers with the whole list and its status counts as Python's
//! `json.dumps` writes them, and after a compaction the open items come
//! back in Hermes' own words.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::{CancellableStatus, WireEnum};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "hermes";
/// The id a replacing write gives an item sent with a blank one.
pub const NO_ID: &str = "?";
/// The content a write gives an item sent with a blank one.
pub const NO_DESCRIPTION: &str = "(no description)";
/// The first line of the list put back after a compaction.
pub const PRESERVED: &str = "[Your active task list was preserved across context compression]";
/// The most characters (Unicode scalar values, as Python counts) an item's
/// content keeps; a longer one is cut to end with [`TRUNCATED`].
pub const MAX_CONTENT_CHARS: usize = 4000;
/// What ends a content cut at [`MAX_CONTENT_CHARS`].
pub const TRUNCATED: &str = "… [truncated]";
/// The most items the list keeps; a write past it keeps the first ones.
pub const MAX_ITEMS: usize = 256;
/// The refusal of `todos` sent as text that is not JSON.
pub const UNPARSEABLE: &str = "todos must be a list of objects, got unparseable string";

/// The profile with its default rules.
pub fn profile() -> Profile {
    let mut rules = ListRules::with_default_limits(InProgressPolicy::Warn);
    rules.limits.max_items = MAX_ITEMS;
    // Room for MAX_CONTENT_CHARS of any width; longer contents are cut,
    // not refused.
    rules.limits.max_content_bytes = MAX_CONTENT_CHARS * 4;
    Profile::new(
        NAME,
        "Hermes agent's todo: read, replace or merge by id, the list and its counts back as JSON",
        rules,
    )
    .with_upstream(Upstream {
        agent: "Hermes Agent",
        pin: Pin::Package {
            registry: "pypi",
            name: "hermes-agent",
            version: "0.19.0",
            path: "tools/todo_tool.py",
            sha256: "bd0bac012aee38a60894781f4597dc29ee7bedb3448540249921f10d3bef327f",
        },
        ships_in: "the Hermes agent 0.19 (`todo`, its open items put back after context compression)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "0.19.0",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/hermes/system-prompt.md"))
    .with_example(
        HermesTodoTool::NAME,
        r#"{"todos":[{"id":"1","content":"Run the tests","status":"in_progress"},{"id":"2","content":"Fix what fails","status":"pending"}]}"#,
    )
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .with_compaction_text(preserved)
    .tool(HermesTodoTool)
}

/// One item as a call sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct HermesTodo {
    /// Its id, chosen by the model.
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: CancellableStatus,
}

/// A stored item as Hermes writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HermesTodoView<'a> {
    /// Its id (its 1-based position when another profile gave it none).
    pub id: std::borrow::Cow<'a, str>,
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: CancellableStatus,
}

/// The arguments of `todo`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct HermesInput {
    /// The items to write; leave it out to read the list.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub todos: Option<Vec<HermesTodo>>,
    /// `true` updates stored items by id and adds new ones; `false` (the
    /// default) replaces the whole list.
    #[serde(default)]
    pub merge: bool,
}

/// The `todo` tool: a read without `todos`, a write with them.
#[derive(Debug, Clone, Copy, Default)]
pub struct HermesTodoTool;

impl TypedTool for HermesTodoTool {
    type Input = HermesInput;
    const NAME: &'static str = "todo";
    const DESCRIPTION: &'static str = include_str!("../descriptions/hermes/todo.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: HermesInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        match input.todos {
            None => read_list::<Write>(answer(ctx.state), ctx.state),
            Some(_) => write_list::<Write>(Self::NAME, input, ctx),
        }
    }

    /// `todos` that is not a list is refused in Hermes' words: as text
    /// that is not JSON, or naming the Python type it holds.
    fn refusal(args: &serde_json::Value, problems: Vec<ArgumentError>) -> ToolError {
        use serde_json::Value;
        let python_type = |value: &Value| match value {
            Value::Bool(_) => "bool",
            Value::Number(n) if n.is_f64() => "float",
            Value::Number(_) => "int",
            Value::String(_) => "str",
            Value::Object(_) => "dict",
            Value::Array(_) | Value::Null => "",
        };
        let message = match args.get("todos") {
            Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
                Err(_) => Some(UNPARSEABLE.to_owned()),
                Ok(parsed) => Some(python_type(&parsed))
                    .filter(|t| !t.is_empty())
                    .map(|t| format!("todos must be a list, got {t}")),
            },
            Some(other) => Some(python_type(other))
                .filter(|t| !t.is_empty())
                .map(|t| format!("todos must be a list, got {t}")),
            None => None,
        };
        match message {
            Some(message) => ToolError::refused("todos", message),
            None => ToolError::Arguments(problems),
        }
    }
}

/// `content` cut to [`MAX_CONTENT_CHARS`] characters, ending with
/// [`TRUNCATED`], as Hermes caps it.
fn capped(content: String) -> String {
    if content.chars().count() <= MAX_CONTENT_CHARS {
        return content;
    }
    let keep = MAX_CONTENT_CHARS - TRUNCATED.chars().count();
    let mut cut: String = content.chars().take(keep).collect();
    cut.push_str(TRUNCATED);
    cut
}

/// The items with every id sent more than once collapsed to its last
/// occurrence, in that occurrence's place (the key is the trimmed id, or
/// `?` when it is blank), as Hermes dedupes a write.
fn deduped(items: Vec<HermesTodo>) -> Vec<HermesTodo> {
    let key = |item: &HermesTodo| trimmed_or(&item.id, NO_ID);
    let mut last = std::collections::HashMap::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        last.insert(key(item), index);
    }
    items
        .into_iter()
        .enumerate()
        .filter(|(index, item)| last.get(&key(item)) == Some(index))
        .map(|(_, item)| item)
        .collect()
}

/// A write, replacing or merging.
#[derive(Debug, Clone, Copy, Default)]
pub struct Write;

/// `text` trimmed, or `blank` when nothing is left.
fn trimmed_or(text: &str, blank: &str) -> String {
    match text.trim() {
        "" => blank.to_owned(),
        text => text.to_owned(),
    }
}

impl ListWriter for Write {
    type Input = HermesInput;
    type Item<'a> = HermesTodoView<'a>;
    type Fields = ();

    fn todos(input: &mut HermesInput) -> Result<Vec<Todo>, ToolError> {
        let items = deduped(input.todos.take().unwrap_or_default());
        Ok(items
            .iter()
            .take(MAX_ITEMS)
            .map(|item| {
                let mut todo =
                    Todo::new(capped(trimmed_or(&item.content, NO_DESCRIPTION))).status(item.status);
                todo.id = Some(trimmed_or(&item.id, NO_ID));
                todo
            })
            .collect())
    }

    /// A merge patches known ids (a blank content leaves the stored one)
    /// and adds the others at the end; items with a blank id are skipped.
    fn apply(input: &mut HermesInput, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
        if !input.merge {
            return replace_with::<Self>(Self::todos(input)?, ctx);
        }
        let items = deduped(input.todos.take().unwrap_or_default());
        let mut merged: Vec<MergeItem> = Vec::with_capacity(items.len());
        for item in &items {
            let id = item.id.trim();
            if id.is_empty() {
                continue;
            }
            let known =
                ctx.state.tasks().any(|t| t.id.as_deref() == Some(id)) || merged.iter().any(|m| m.id == id);
            let content = match item.content.trim() {
                "" if known => None,
                "" => Some(NO_DESCRIPTION.to_owned()),
                content => Some(capped(content.to_owned())),
            };
            let patch = TodoPatch {
                content,
                status: Some(item.status.into()),
                ..TodoPatch::default()
            };
            merged.push(MergeItem::new(id, patch));
        }
        Ok(merge_by_id(ctx.state, merged, ctx.rules, &Self::FIELDS, ctx.now)?)
    }

    fn item(todo: &Todo, position: usize) -> HermesTodoView<'_> {
        HermesTodoView {
            id: id_or_position(todo, position),
            content: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, HermesInput>) -> String {
        answer(op.after)
    }

    fn fields(_op: &ToolOperation<'_, HermesInput>) {}
}

/// What every call answers, key for key as Hermes builds it.
#[derive(Serialize)]
struct Answer<'a> {
    todos: Vec<HermesTodoView<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Summary {
    total: usize,
    pending: usize,
    in_progress: usize,
    completed: usize,
    cancelled: usize,
}

/// The list and its counts, as `json.dumps(..., ensure_ascii=False)`.
fn answer(state: &TodoState) -> String {
    let todos: Vec<HermesTodoView<'_>> = state
        .tasks()
        .enumerate()
        .map(|(i, t)| Write::item(t, i))
        .collect();
    let count = |wanted: CancellableStatus| todos.iter().filter(|t| t.status == wanted).count();
    let summary = Summary {
        total: todos.len(),
        pending: count(CancellableStatus::Pending),
        in_progress: count(CancellableStatus::InProgress),
        completed: count(CancellableStatus::Completed),
        cancelled: count(CancellableStatus::Cancelled),
    };
    python_json(&Answer { todos, summary })
}

/// Hermes' block for a compacted conversation: [`PRESERVED`], then each
/// pending or in-progress item as `- [ ] id. content (status)` (finished
/// ones would have the model do them again); nothing when none is open.
fn preserved(state: &TodoState) -> Option<String> {
    let open: Vec<HermesTodoView<'_>> = state
        .tasks()
        .enumerate()
        .map(|(i, task)| Write::item(task, i))
        .filter(|item| {
            matches!(
                item.status,
                CancellableStatus::Pending | CancellableStatus::InProgress
            )
        })
        .collect();
    if open.is_empty() {
        return None;
    }
    let mut out = String::from(PRESERVED);
    for item in open {
        let marker = match item.status {
            CancellableStatus::Completed => "[x]",
            CancellableStatus::InProgress => "[>]",
            CancellableStatus::Pending => "[ ]",
            CancellableStatus::Cancelled => "[~]",
        };
        out.push_str(&format!(
            "\n- {marker} {}. {} ({})",
            item.id,
            item.content,
            item.status.as_str()
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::run_tool;
    use pretty_assertions::assert_eq;
    use todokit_app::turn::{Placement, ReminderKind, TurnPolicy};

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), HermesTodoTool::NAME, state, args)
    }

    fn stored(outcome: &Outcome) -> Option<Vec<(String, String, Status)>> {
        outcome.commit.as_ref().map(|s| {
            s.tasks()
                .map(|t| (t.id.clone().unwrap_or_default(), t.content.clone(), t.status))
                .collect()
        })
    }

    fn two() -> TodoState {
        let mut first = Todo::new("Read").status(Status::InProgress);
        first.id = Some("1".to_owned());
        let mut second = Todo::new("Fix");
        second.id = Some("2".to_owned());
        TodoState::flat(vec![first, second])
    }

    // Golden facts from the Hermes agent: the PyPI package hermes-agent
    // 0.19.0 (by Nous Research; sha256
    // bd0bac012aee38a60894781f4597dc29ee7bedb3448540249921f10d3bef327f),
    // tools/todo_tool.py:
    // - `todos` left out (or null) reads; `merge` false replaces with every
    //   item validated (id and content stripped, blank ones `?` and `(no
    //   description)`); `merge` true updates the fields sent by id (a blank
    //   content leaves the stored one), skips items with a blank id and
    //   appends new ids validated.
    // - Every call returns `json.dumps({"todos": [...], "summary": {"total",
    //   "pending", "in_progress", "completed", "cancelled"}},
    //   ensure_ascii=False)`.
    // - `format_for_injection`: `[Your active task list was preserved
    //   across context compression]` then, for each pending or in-progress
    //   item only, `- {marker} {id}. {content} ({status})` with [>] and
    //   [ ]; None when no item is open.
    // - `_dedupe_by_id` keeps an id's last occurrence in its place (a blank
    //   id counts as `?`); `_cap_content` cuts a content past
    //   `MAX_TODO_CONTENT_CHARS = 4000` to 4000 characters ending with
    //   `… [truncated]`; a list past `MAX_TODO_ITEMS = 256` keeps its head.
    // - `todos` sent as a string that is not JSON: `todos must be a list of
    //   objects, got unparseable string`; any other non-list: `todos must
    //   be a list, got {type(todos).__name__}`.
    #[test]
    fn every_call_answers_with_the_list_and_its_counts_as_python_dumps_them() {
        let outcome = call(
            &two(),
            r#"{"todos":[{"id":" 1 ","content":" Read é ","status":"completed"}]}"#,
        );
        let actual = (outcome.result.content.clone(), stored(&outcome));
        let expected = (
            r#"{"todos": [{"id": "1", "content": "Read é", "status": "completed"}], "summary": {"total": 1, "pending": 0, "in_progress": 0, "completed": 1, "cancelled": 0}}"#
                .to_owned(),
            Some(vec![("1".to_owned(), "Read é".to_owned(), Status::Completed)]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn no_todos_reads_and_stores_nothing() {
        let outcome = call(&two(), "{}");
        let actual = (outcome.commit.is_some(), outcome.result.content);
        let expected = (
            false,
            r#"{"todos": [{"id": "1", "content": "Read", "status": "in_progress"}, {"id": "2", "content": "Fix", "status": "pending"}], "summary": {"total": 2, "pending": 1, "in_progress": 1, "completed": 0, "cancelled": 0}}"#
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_merge_updates_by_id_keeps_a_blank_content_skips_a_blank_id_and_appends_new_ids() {
        let outcome = call(
            &two(),
            r#"{"merge":true,"todos":[{"id":"2","content":"  ","status":"in_progress"},{"id":"1","content":"Read it","status":"completed"},{"id":" ","content":"x","status":"pending"},{"id":"3","content":"","status":"pending"}]}"#,
        );
        let actual = stored(&outcome);
        let expected = Some(vec![
            ("1".to_owned(), "Read it".to_owned(), Status::Completed),
            ("2".to_owned(), "Fix".to_owned(), Status::InProgress),
            ("3".to_owned(), NO_DESCRIPTION.to_owned(), Status::Pending),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_replacing_write_names_blank_items_as_hermes_does() {
        let outcome = call(
            &TodoState::new(),
            r#"{"todos":[{"id":"","content":" ","status":"cancelled"}]}"#,
        );
        let actual = stored(&outcome);
        let expected = Some(vec![(
            NO_ID.to_owned(),
            NO_DESCRIPTION.to_owned(),
            Status::Abandoned,
        )]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_compaction_puts_the_list_back_in_hermes_words() {
        let mut list = two();
        list.phases[0]
            .tasks
            .push(Todo::new("Ship").status(Status::Abandoned));
        let policy = TurnPolicy::new(&profile());
        let actual = (
            policy.on_compaction(&list).map(|i| (i.placement, i.kind, i.text)),
            policy.on_compaction(&TodoState::new()),
        );
        let expected = (
            Some((
                Placement::BeforeRequest,
                ReminderKind::Compaction,
                "[Your active task list was preserved across context compression]\n- [>] 1. Read (in_progress)\n\
                 - [ ] 2. Fix (pending)"
                    .to_owned(),
            )),
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_list_with_nothing_open_is_not_put_back_after_a_compaction() {
        let done = TodoState::flat(vec![
            Todo::new("Read").status(Status::Completed),
            Todo::new("Ship").status(Status::Abandoned),
        ]);
        let actual = TurnPolicy::new(&profile()).on_compaction(&done);
        assert_eq!(actual, None);
    }

    #[test]
    fn an_id_sent_twice_counts_once_in_its_last_place_and_long_contents_are_cut() {
        let long = "é".repeat(MAX_CONTENT_CHARS + 1);
        let args = serde_json::json!({"todos": [
            {"id": "1", "content": "first", "status": "pending"},
            {"id": "2", "content": long, "status": "pending"},
            {"id": "1", "content": "again", "status": "in_progress"},
        ]});
        let outcome = call(&TodoState::new(), &args.to_string());
        let cut = format!(
            "{}{TRUNCATED}",
            "é".repeat(MAX_CONTENT_CHARS - TRUNCATED.chars().count())
        );
        let actual = stored(&outcome);
        let expected = Some(vec![
            ("2".to_owned(), cut, Status::Pending),
            ("1".to_owned(), "again".to_owned(), Status::InProgress),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_list_past_256_items_keeps_its_head() {
        let items: Vec<serde_json::Value> = (0..300)
            .map(
                |i| serde_json::json!({"id": i.to_string(), "content": format!("t{i}"), "status": "pending"}),
            )
            .collect();
        let outcome = call(
            &TodoState::new(),
            &serde_json::json!({"todos": items}).to_string(),
        );
        let actual = outcome
            .commit
            .map(|s| (s.tasks().count(), s.tasks().last().map(|t| t.content.clone())));
        let expected = Some((MAX_ITEMS, Some("t255".to_owned())));
        assert_eq!(actual, expected);
    }

    #[test]
    fn todos_that_are_not_a_list_are_refused_in_hermes_words() {
        let cases = [
            r#"{"todos":"not json"}"#,
            r#"{"todos":"5"}"#,
            r#"{"todos":{"id":"1"}}"#,
            r#"{"todos":true}"#,
        ];
        let actual: Vec<(bool, Vec<String>)> = cases
            .iter()
            .map(|args| {
                let outcome = call(&two(), args);
                (
                    outcome.commit.is_some(),
                    crate::test_support::problem_messages(&outcome),
                )
            })
            .collect();
        let expected = vec![
            (false, vec![format!("todos: {UNPARSEABLE}")]),
            (false, vec!["todos: todos must be a list, got int".to_owned()]),
            (false, vec!["todos: todos must be a list, got dict".to_owned()]),
            (false, vec!["todos: todos must be a list, got bool".to_owned()]),
        ];
        assert_eq!(actual, expected);
    }
}
