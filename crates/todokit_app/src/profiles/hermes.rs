//! `hermes`: the Hermes agent's `todo`: called without `todos` it reads;
//! with them it replaces the list, or with `merge: true` updates items by
//! id and adds new ones at the end. Ids and contents are trimmed, a blank
//! one becomes `?` or `(no description)`. Every call answers with the
//! whole list and its status counts as Python's `json.dumps` writes them,
//! and after a compaction the list comes back in Hermes' own words.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::python::python_json;
use crate::wire::{CancellableStatus, WireEnum};

use crate::prelude::*;

/// The profile's name.
pub const NAME: &str = "hermes";
/// The id a replacing write gives an item sent with a blank one.
pub const NO_ID: &str = "?";
/// The content a write gives an item sent with a blank one.
pub const NO_DESCRIPTION: &str = "(no description)";
/// The first line of the list put back after a compaction.
pub const PRESERVED: &str = "[Your task list was preserved across context compression]";

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Hermes agent's todo: read, replace or merge by id, the list and its counts back as JSON",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Hermes Agent",
        pin: Pin::Source {
            repository: "NousResearch/hermes-agent",
            path: "tools/todo_tool.py",
            commit: "544ac55e488d0a1654f8bdf0ae2335a29bc36cbe",
            date: None,
        },
        ships_in: "the Hermes agent (`todo`, its list put back after context compression)",
        checked: None,
    })
    .with_system_prompt(include_str!("../../descriptions/hermes/system-prompt.md"))
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
    #[schemars(transform = crate::schema::omissible)]
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
    const DESCRIPTION: &'static str = include_str!("../../descriptions/hermes/todo.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: HermesInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        match input.todos {
            None => read_list::<Write>(answer(ctx.state), ctx.state),
            Some(_) => write_list::<Write>(Self::NAME, input, ctx),
        }
    }
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
        let items = input.todos.take().unwrap_or_default();
        Ok(items
            .iter()
            .map(|item| {
                let mut todo = Todo::new(trimmed_or(&item.content, NO_DESCRIPTION)).status(item.status);
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
        let items = input.todos.take().unwrap_or_default();
        let mut merged: Vec<MergeItem> = Vec::with_capacity(items.len());
        for item in &items {
            let id = item.id.trim();
            if id.is_empty() {
                continue;
            }
            let known = ctx.state.tasks().any(|t| t.id.as_deref() == Some(id))
                || merged.iter().any(|m| m.id == id);
            let content = match item.content.trim() {
                "" if known => None,
                "" => Some(NO_DESCRIPTION.to_owned()),
                content => Some(content.to_owned()),
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
    let todos: Vec<HermesTodoView<'_>> = state.tasks().enumerate().map(|(i, t)| Write::item(t, i)).collect();
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
/// item as `- [x] id. content (status)`; nothing for an empty list.
fn preserved(state: &TodoState) -> Option<String> {
    if state.is_empty() {
        return None;
    }
    let mut out = String::from(PRESERVED);
    for (i, task) in state.tasks().enumerate() {
        let item = Write::item(task, i);
        let marker = match item.status {
            CancellableStatus::Completed => "[x]",
            CancellableStatus::InProgress => "[>]",
            CancellableStatus::Pending => "[ ]",
            CancellableStatus::Cancelled => "[~]",
        };
        out.push_str(&format!("\n- {marker} {}. {} ({})", item.id, item.content, item.status.as_str()));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::run_tool;
    use crate::turn::{Placement, ReminderKind, TurnPolicy};
    use pretty_assertions::assert_eq;

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

    // Golden facts from the Hermes agent: repository
    // NousResearch/hermes-agent at commit
    // 544ac55e488d0a1654f8bdf0ae2335a29bc36cbe, tools/todo_tool.py:
    // - `todos` left out (or null) reads; `merge` false replaces with every
    //   item validated (id and content stripped, blank ones `?` and `(no
    //   description)`); `merge` true updates the fields sent by id (a blank
    //   content leaves the stored one), skips items with a blank id and
    //   appends new ids validated.
    // - Every call returns `json.dumps({"todos": [...], "summary": {"total",
    //   "pending", "in_progress", "completed", "cancelled"}},
    //   ensure_ascii=False)`.
    // - `format_for_injection`: `[Your task list was preserved across
    //   context compression]` then `- {marker} {id}. {content} ({status})`
    //   with [x], [>], [ ], [~]; None for an empty list.
    #[test]
    fn every_call_answers_with_the_list_and_its_counts_as_python_dumps_them() {
        let outcome = call(&two(), r#"{"todos":[{"id":" 1 ","content":" Read é ","status":"completed"}]}"#);
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
        let outcome = call(&TodoState::new(), r#"{"todos":[{"id":"","content":" ","status":"cancelled"}]}"#);
        let actual = stored(&outcome);
        let expected = Some(vec![(NO_ID.to_owned(), NO_DESCRIPTION.to_owned(), Status::Abandoned)]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_compaction_puts_the_list_back_in_hermes_words() {
        let mut list = two();
        list.phases[0].tasks.push(Todo::new("Ship").status(Status::Abandoned));
        let policy = TurnPolicy::new(&profile());
        let actual = (
            policy.on_compaction(&list).map(|i| (i.placement, i.kind, i.text)),
            policy.on_compaction(&TodoState::new()),
        );
        let expected = (
            Some((
                Placement::BeforeRequest,
                ReminderKind::Compaction,
                "[Your task list was preserved across context compression]\n- [>] 1. Read (in_progress)\n\
                 - [ ] 2. Fix (pending)\n- [~] 3. Ship (cancelled)"
                    .to_owned(),
            )),
            None,
        );
        assert_eq!(actual, expected);
    }
}
