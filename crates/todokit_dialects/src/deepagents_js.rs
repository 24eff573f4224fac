//! `deepagents-js`: LangChain.js's `write_todos` (its `todoListMiddleware`):
//! the whole list of `{content, status}` items on every call, several
//! items may be in progress, the answer is the list as JavaScript's
//! `JSON.stringify` writes it, and a model turn holding more than one
//! `write_todos` call has every one of them refused (through
//! [`todokit_app::TodoWriteService::call_round`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "deepagents-js";

/// The answer to every `write_todos` call of a turn that holds more than
/// one, word for word as `todoListMiddleware`'s `afterModel` gives it.
pub const PARALLEL_CALLS: &str = "Error: The `write_todos` tool should never be called multiple times in parallel. \
                                  Please call it only once per model invocation to update the todo list.";

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "LangChain.js write_todos: the whole list, the answer as JSON.stringify writes it, once per turn",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "LangChain.js",
        pin: Pin::Package {
            registry: "npm",
            name: "langchain",
            version: "1.5.14",
            path: "dist/agents/middleware/todoListMiddleware.js",
            sha256: "c7f9dc00801bcea626fcbcf698995d64e4fe16938c4eddfbb743d5b4077a0029",
        },
        ships_in: "langchain on npm (`todoListMiddleware`, for `createAgent`; 1.5.14 at this pin) and deepagents.js",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.5.14",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/deepagents-js/system-prompt.md"))
    .with_example(
        "write_todos",
        r#"{"todos":[{"content":"Read the failing test","status":"in_progress"},{"content":"Fix the parser","status":"pending"}]}"#,
    )
    // The schema LangChain.js sends closes both objects, but zod's object
    // schemas strip, not refuse, the keys they lack: extra keys are left out.
    .with_leniency(Leniency::STANDARD.unknown_keys(true))
    .with_once_per_round("write_todos", PARALLEL_CALLS)
    .tool(ListTool(WriteTodos))
}

/// The arguments of `write_todos`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// zod's JSON Schema of an object closes it, as @langchain/core sends it.
#[schemars(extend("additionalProperties" = false))]
pub struct JsTodos {
    /// The complete, updated list. It replaces the stored one.
    pub todos: Vec<JsTodo>,
}

/// One item of the list (keys the schema lacks are dropped, as zod's
/// object schema drops them).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct JsTodo {
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: TriStatus,
}

/// A stored item as the middleware keeps it, in its key order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JsTodoView<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
}

todokit_app::prelude::writer_tool! {
    /// The `write_todos` tool.
    WriteTodos = "write_todos",
    include_str!("../descriptions/deepagents-js/write_todos.md")
}

impl ListWriter for WriteTodos {
    type Input = JsTodos;
    type Item<'a> = JsTodoView<'a>;
    type Fields = ();

    fn todos(input: &mut JsTodos) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter_mut()
            .map(|t| Todo::new(std::mem::take(&mut t.content)).status(t.status))
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> JsTodoView<'_> {
        JsTodoView {
            content: &todo.content,
            status: todo.status.into(),
        }
    }

    /// `Updated todo list to ` and the list as `JSON.stringify` writes it:
    /// compact, keys in the schema's order, the same escapes as JSON text
    /// (a Rust string holds no lone surrogate, the one case they differ).
    fn text(op: &ToolOperation<'_, JsTodos>) -> String {
        let items: Vec<JsTodoView<'_>> = op.after.tasks().map(|task| Self::item(task, 0)).collect();
        let mut out = String::from("Updated todo list to ");
        // Writing plain structs of strings to a String cannot fail.
        out.push_str(&serde_json::to_string(&items).unwrap_or_default());
        out
    }

    fn fields(_op: &ToolOperation<'_, JsTodos>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, block_on, memory_service};
    use pretty_assertions::assert_eq;
    use todokit_app::RoundCall;

    fn case() -> ProfileCase {
        ProfileCase::new(profile())
    }

    // Golden facts from LangChain.js: the npm package langchain 1.5.14
    // (tarball sha256
    // c7f9dc00801bcea626fcbcf698995d64e4fe16938c4eddfbb743d5b4077a0029),
    // dist/agents/middleware/todoListMiddleware.js: items are zod objects
    // `{content, status}` with pending, in_progress, completed (other keys
    // dropped); the tool answers `Updated todo list to ${JSON.stringify(todos)}`;
    // `afterModel` answers every `write_todos` call of a model turn holding
    // more than one with "Error: The `write_todos` tool should never be
    // called multiple times in parallel. Please call it only once per model
    // invocation to update the todo list." (status error), and none runs.
    // crates/todokit_node/test/deepagents_js.test.mjs runs that package's
    // own tool and `afterModel` beside this profile and compares them.
    #[test]
    fn the_answer_is_the_list_as_json_stringify_writes_it() {
        let args = r#"{"todos":[{"content":"Quote \"this\" \\ and ünïcode\n","status":"in_progress","activeForm":"x"},{"content":"Tab\there","status":"pending"}]}"#;
        let outcome = case().call("write_todos", args);
        let actual = (outcome.result.is_error, outcome.result.content);
        let expected = (
            false,
            r#"Updated todo list to [{"content":"Quote \"this\" \\ and ünïcode\n","status":"in_progress"},{"content":"Tab\there","status":"pending"}]"#
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }

    // The schema closes both objects, as @langchain/core sends zod's JSON
    // Schema, yet zod strips the keys it lacks: the call is taken.
    #[test]
    fn keys_the_closed_schema_lacks_are_left_out_not_refused() {
        let args = r#"{"todos":[{"content":"a","status":"pending","priority":"high"}],"merge":true}"#;
        let outcome = case().call("write_todos", args);
        let actual = (outcome.result.is_error, outcome.result.content);
        let expected = (
            false,
            r#"Updated todo list to [{"content":"a","status":"pending"}]"#.to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_calls_in_one_round_are_both_refused_and_nothing_is_stored() {
        let service = memory_service(NAME);
        let one = r#"{"todos":[{"content":"a","status":"pending"}]}"#;
        let results = block_on(service.call_round(
            "c",
            &[
                RoundCall::new("write_todos", one),
                RoundCall::new("write_todos", one),
            ],
        ))
        .unwrap_or_default();
        let stored = block_on(service.state("c")).map(|s| s.tasks().count()).ok();
        let actual = (
            results
                .iter()
                .map(|r| (r.is_error, r.content.clone()))
                .collect::<Vec<_>>(),
            stored,
        );
        let expected = (
            vec![
                (true, PARALLEL_CALLS.to_owned()),
                (true, PARALLEL_CALLS.to_owned()),
            ],
            Some(0),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_list_is_stored_and_answered_as_an_empty_array() {
        let outcome = case().call("write_todos", r#"{"todos":[]}"#);
        assert_eq!(outcome.result.content, "Updated todo list to []");
    }
}
