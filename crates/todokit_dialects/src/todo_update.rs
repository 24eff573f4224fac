//! `todo-update`: `todo_read` and `todo_update`. The tool assigns ids; a
//! call adds, updates, removes and reorders items (in that order: remove →
//! update → add → reorder), is checked whole before anything applies, and
//! is idempotent: the same call twice leaves the same list.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use todokit_domain::{Applied, NewTodo, TodoPatch, Transition, Updates, apply_updates};

use todokit_app::prelude::WirePriority;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "todo-update";

todokit_app::prelude::status_words! {
    /// The statuses of `todo_update`.
    pub enum UpdateStatus {
        /// Not started.
        Pending = "pending" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Finished.
        Done = "done" => Completed,
    }
    aliases { "completed" => Done, "complete" => Done, "finished" => Done }
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "todo_read and todo_update: id'd items changed by add/update/remove/reorder",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "generic read/update tools",
        pin: Pin::DesignNote {
            title: "Todo Tool Reference",
            date: Some("2025-11-18"),
        },
        ships_in: "hosts that want one reader and one batched updater, not an agent's own tool",
        checked: None,
    })
    .with_system_prompt(include_str!("../descriptions/todo-update/system-prompt.md"))
    .with_example(
        "todo_update",
        r#"{"add":[{"content":"Run the tests","priority":"high"},{"content":"Fix what fails"}]}"#,
    )
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(TodoRead)
    .tool(TodoUpdate)
}

/// One item as both tools show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TodoView {
    /// Its id, given by the tool.
    pub id: String,
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: UpdateStatus,
    /// How urgent it is.
    pub priority: WirePriority,
}

/// A new item.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct AddItem {
    /// What to do: one short, actionable task.
    pub content: String,
    /// How urgent it is; `medium` when left out.
    #[serde(default)]
    pub priority: Option<WirePriority>,
}

/// A change to an existing item; fields left out stay as they are.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdateItem {
    /// The item's id.
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// Its new status.
    #[serde(default)]
    pub status: Option<UpdateStatus>,
    /// Its new priority.
    #[serde(default)]
    pub priority: Option<WirePriority>,
    /// Its new content.
    #[serde(default)]
    pub content: Option<String>,
}

/// The arguments of `todo_update`; every field is optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
pub struct TodoUpdateInput {
    /// Items to append; content already on the list is not added twice.
    #[serde(default)]
    pub add: Option<Vec<AddItem>>,
    /// Changes to existing items, by id.
    #[serde(default)]
    pub update: Option<Vec<UpdateItem>>,
    /// Ids of items to delete; ids already gone are skipped.
    #[serde(default)]
    #[schemars(extend("x-id" = true))]
    pub remove: Option<Vec<String>>,
    /// Every current id exactly once, in the new order. Items added in the
    /// same call may be left out; they then keep their place at the end.
    #[serde(default)]
    #[schemars(extend("x-id" = true))]
    pub reorder: Option<Vec<String>>,
}

/// The `todo_read` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoRead;

impl TypedTool for TodoRead {
    type Input = NoArguments;
    const NAME: &'static str = "todo_read";
    const DESCRIPTION: &'static str = include_str!("../descriptions/todo-update/todo_read.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, _input: NoArguments, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let todos = views(ctx.state);
        let content = serde_json::to_string(&todos).unwrap_or_default();
        let details = Details::of(&ReadDetails { current: &todos });
        Ok(Outcome::read(ToolResult::ok(content, details)))
    }
}

/// The `todo_update` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoUpdate;

impl TypedTool for TodoUpdate {
    type Input = TodoUpdateInput;
    const NAME: &'static str = "todo_update";
    const DESCRIPTION: &'static str = include_str!("../descriptions/todo-update/todo_update.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: TodoUpdateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let (state, applied) = apply_updates(ctx.state, input.updates(), &ctx.rules.limits, ctx.now)?;
        let transitions = todokit_domain::diff(
            &ctx.state.tasks().collect::<Vec<_>>(),
            &state.tasks().collect::<Vec<_>>(),
        );
        let op =
            ToolOperation::new(Self::NAME, &input, ctx.state, &state, &transitions).with_fields(&applied);
        let current = views(op.after);
        let content = serde_json::to_string(&Response {
            applied: op.fields,
            todos: &current,
        })
        .unwrap_or_default();
        let details = Details::of(&UpdateDetails {
            previous: views(op.before),
            current: &current,
            transitions: op.transitions,
            applied: op.fields,
        });
        let result = ToolResult::ok(content, details);
        if state == *ctx.state {
            return Ok(Outcome::read(result));
        }
        Ok(Outcome::commit(state, result))
    }
}

impl TodoUpdateInput {
    /// The changes in the domain's terms.
    fn updates(&self) -> Updates {
        Updates {
            remove: self.remove.clone().unwrap_or_default(),
            update: self
                .update
                .iter()
                .flatten()
                .map(|item| {
                    let patch = TodoPatch {
                        content: item.content.clone(),
                        status: item.status.map(Status::from),
                        priority: item.priority.map(Priority::from),
                        ..TodoPatch::default()
                    };
                    (item.id.clone(), patch)
                })
                .collect(),
            add: self
                .add
                .iter()
                .flatten()
                .map(|item| {
                    NewTodo::new(item.content.clone())
                        .priority(Priority::from(item.priority.unwrap_or(WirePriority::Medium)))
                })
                .collect(),
            reorder: self.reorder.clone(),
        }
    }
}

/// The text the model reads: what was done, then the list.
#[derive(Serialize)]
struct Response<'a> {
    #[serde(flatten)]
    applied: &'a Applied,
    todos: &'a [TodoView],
}

#[derive(Serialize)]
struct ReadDetails<'a> {
    current: &'a [TodoView],
}

#[derive(Serialize)]
struct UpdateDetails<'a> {
    previous: Vec<TodoView>,
    current: &'a [TodoView],
    transitions: &'a [Transition],
    applied: &'a Applied,
}

/// The items as both tools show them; todos without an id yet show the id
/// `todo_update` will give them.
fn views(state: &TodoState) -> Vec<TodoView> {
    let mut state = state.clone();
    state.ensure_ids();
    state
        .tasks()
        .map(|t| TodoView {
            id: t.id.clone().unwrap_or_default(),
            content: t.content.clone(),
            status: t.status.into(),
            priority: t.priority.unwrap_or(Priority::Medium).into(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use todokit_domain::Todo;

    fn ids(state: &TodoState) -> Vec<String> {
        state.tasks().filter_map(|t| t.id.clone()).collect()
    }

    use crate::test_support::{problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn call(tool: &str, state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), tool, state, args)
    }

    /// Applies `args` with `todo_update`, returning the state afterwards.
    fn update(state: &TodoState, args: &str) -> TodoState {
        let outcome = call(TodoUpdate::NAME, state, args);
        assert!(!outcome.result.is_error, "{}", outcome.result.content);
        outcome.commit.unwrap_or_else(|| state.clone())
    }

    fn summary(state: &TodoState) -> Vec<(String, String, Status, Option<Priority>)> {
        state
            .tasks()
            .map(|t| {
                (
                    t.id.clone().unwrap_or_default(),
                    t.content.clone(),
                    t.status,
                    t.priority,
                )
            })
            .collect()
    }

    fn three() -> TodoState {
        update(
            &TodoState::new(),
            r#"{"add":[{"content":"a","priority":"high"},{"content":"b"},{"content":"c","priority":"low"}]}"#,
        )
    }

    // Golden facts from the todo_read/todo_update reference (seed 002, "Todo
    // Tool Reference", its "Request Structure" section): `todo_update` takes `add` (`content`,
    // `priority` low/medium/high), `update` (`id`, `status`
    // pending/in_progress/done, optional `priority` and `content`), `remove`
    // and `reorder` (every id once), applied remove -> update -> add ->
    // reorder; `todo_read` takes no arguments.
    #[test]
    fn the_request_structure_is_seed_002s() {
        let schema = todokit_app::schema::canonical::<TodoUpdateInput>();
        let props = &schema["properties"];
        let actual = (
            props.as_object().map(|p| p.keys().cloned().collect::<Vec<_>>()),
            props["update"]["items"]["properties"]["status"]["enum"].clone(),
            props["add"]["items"]["properties"]["priority"]["enum"].clone(),
            todokit_app::schema::canonical::<NoArguments>()["properties"]
                .as_object()
                .map_or(0, |p| p.len()),
        );
        let expected = (
            Some(vec![
                "add".to_owned(),
                "update".to_owned(),
                "remove".to_owned(),
                "reorder".to_owned(),
            ]),
            // Optional fields also admit `null` (left out).
            json!(["pending", "in_progress", "done", null]),
            json!(["high", "medium", "low", null]),
            0,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn add_assigns_ids_and_defaults_priority_to_medium() {
        let actual = summary(&three());
        let expected = vec![
            (
                "1".to_owned(),
                "a".to_owned(),
                Status::Pending,
                Some(Priority::High),
            ),
            (
                "2".to_owned(),
                "b".to_owned(),
                Status::Pending,
                Some(Priority::Medium),
            ),
            (
                "3".to_owned(),
                "c".to_owned(),
                Status::Pending,
                Some(Priority::Low),
            ),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn remove_runs_before_add_in_one_call() {
        let fixture = three();
        let actual = summary(&update(&fixture, r#"{"add":[{"content":"d"}],"remove":["2"]}"#));
        let expected = vec![
            (
                "1".to_owned(),
                "a".to_owned(),
                Status::Pending,
                Some(Priority::High),
            ),
            (
                "3".to_owned(),
                "c".to_owned(),
                Status::Pending,
                Some(Priority::Low),
            ),
            (
                "4".to_owned(),
                "d".to_owned(),
                Status::Pending,
                Some(Priority::Medium),
            ),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn update_changes_only_the_fields_given_with_done_stored_as_completed() {
        let fixture = three();
        let actual = summary(&update(
            &fixture,
            r#"{"update":[{"id":"1","status":"done"},{"id":"2","content":"B","priority":"low"}]}"#,
        ));
        let expected = vec![
            (
                "1".to_owned(),
                "a".to_owned(),
                Status::Completed,
                Some(Priority::High),
            ),
            (
                "2".to_owned(),
                "B".to_owned(),
                Status::Pending,
                Some(Priority::Low),
            ),
            (
                "3".to_owned(),
                "c".to_owned(),
                Status::Pending,
                Some(Priority::Low),
            ),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_status_is_accepted() {
        let fixture = three();
        let actual: Vec<Status> = ["pending", "in_progress", "done", "completed"]
            .iter()
            .map(|s| {
                let state = update(
                    &fixture,
                    &format!(r#"{{"update":[{{"id":"1","status":"{s}"}}]}}"#),
                );
                state.find("1").map(|t| t.status).unwrap_or_default()
            })
            .collect();
        let expected = vec![
            Status::Pending,
            Status::InProgress,
            Status::Completed,
            Status::Completed,
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn reorder_sets_the_order_and_new_items_may_be_left_out() {
        let fixture = three();
        let actual = (
            ids(&update(&fixture, r#"{"reorder":["3","1","2"]}"#)),
            ids(&update(
                &fixture,
                r#"{"add":[{"content":"d"}],"reorder":["2","3","1"]}"#,
            )),
        );
        let expected = (
            vec!["3".to_owned(), "1".to_owned(), "2".to_owned()],
            vec!["2".to_owned(), "3".to_owned(), "1".to_owned(), "4".to_owned()],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_reorder_that_is_not_a_permutation_is_refused_and_nothing_applies() {
        let fixture = three();
        let outcome = call(
            TodoUpdate::NAME,
            &fixture,
            r#"{"remove":["1"],"add":[{"content":"d"}],"reorder":["3","3","9"]}"#,
        );
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (
            vec![
                "reorder: must list every current id exactly once (missing 2; unknown 9; repeated 3)"
                    .to_owned(),
            ],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_id_in_update_is_refused_and_nothing_applies() {
        let fixture = three();
        let outcome = call(
            TodoUpdate::NAME,
            &fixture,
            r#"{"remove":["1"],"update":[{"id":"7","status":"done"}]}"#,
        );
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (vec!["update[0].id: no task has id \"7\"".to_owned()], None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_same_call_twice_leaves_the_same_list() {
        let fixture = three();
        let args = r#"{"remove":["3"],"update":[{"id":"1","status":"in_progress"}],"add":[{"content":"d","priority":"high"}]}"#;
        let once = update(&fixture, args);
        let second = call(TodoUpdate::NAME, &once, args);
        let actual = (second.commit, second.result.details.value()["applied"].clone());
        let expected = (
            None,
            json!({"already_gone": ["3"], "updated": ["1"], "already_present": ["d"]}),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn removed_ids_are_never_handed_out_again() {
        let fixture = update(&three(), r#"{"remove":["3"]}"#);
        let actual = ids(&update(&fixture, r#"{"add":[{"content":"e"}]}"#));
        let expected = vec!["1".to_owned(), "2".to_owned(), "4".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn read_shows_ids_for_tasks_written_elsewhere_and_update_honours_them() {
        let fixture = TodoState::flat(vec![Todo::new("from claude-code"), Todo::new("another")]);
        let read = call(TodoRead::NAME, &fixture, "{}");
        let state = update(&fixture, r#"{"update":[{"id":"2","status":"done"}]}"#);
        let actual = (
            read.result.details.value()["current"][1]["id"].clone(),
            state.find("2").map(|t| t.status),
        );
        let expected = (json!("2"), Some(Status::Completed));
        assert_eq!(actual, expected);
    }

    #[test]
    fn numeric_ids_are_accepted() {
        let fixture = three();
        let actual = ids(&update(
            &fixture,
            r#"{"remove":[1],"update":[{"id":2,"status":"done"}]}"#,
        ));
        let expected = vec!["2".to_owned(), "3".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let fixture = three();
        let cases = [
            ("read", TodoRead::NAME, "{}"),
            (
                "update",
                TodoUpdate::NAME,
                r#"{"remove":["3","9"],"update":[{"id":"1","status":"in_progress"}],"add":[{"content":"d","priority":"high"},{"content":"a"}],"reorder":["2","1"]}"#,
            ),
            (
                "refused",
                TodoUpdate::NAME,
                r#"{"update":[{"id":"8"}],"add":[{"content":" "}],"reorder":["1"]}"#,
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, tool, args) in cases {
                let result = call(tool, &fixture, args).result;
                insta::assert_snapshot!(format!("result__todo-update__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__todo-update__{name}"), result.details.value());
            }
        });
    }
}
