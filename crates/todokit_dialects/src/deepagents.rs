//! `deepagents`: LangChain's `write_todos` (its `TodoListMiddleware`, which
//! deepagents builds on): the whole list of `{content, status}` items on
//! every call, several items may be in progress, the answer is the list as
//! Python writes it, and a model turn holding more than one `write_todos`
//! call has every one of them refused (through
//! [`todokit_app::TodoWriteService::call_round`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "deepagents";

/// The answer to every `write_todos` call of a turn that holds more than
/// one, word for word as the middleware gives it.
pub const PARALLEL_CALLS: &str = "Error: The `write_todos` tool should never be called multiple times in \
                                  parallel. Please call it only once per model invocation to update the todo \
                                  list.";

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "LangChain/deepagents write_todos: the whole list, the answer in Python's words, once per turn",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "LangChain (deepagents)",
        pin: Pin::Package {
            registry: "pypi",
            name: "langchain",
            version: "1.5.2",
            path: "langchain/agents/middleware/todo.py",
            sha256: "e6c2df67337cae4f13b93460e586084ad8c7c7cfd540d27e2572a96308747a7c",
        },
        ships_in: "langchain 1.x (`TodoListMiddleware`; 1.5.2 at this pin) and deepagents, where it is opt-in since \
                   0.7.0",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.5.2",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/deepagents/system-prompt.md"))
    .with_example(
        "write_todos",
        r#"{"todos":[{"content":"Run the tests","status":"in_progress"},{"content":"Fix what fails","status":"pending"}]}"#,
    )
    .with_once_per_round("write_todos", PARALLEL_CALLS)
    .tool(ListTool(WriteTodos))
}

/// One item of the list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct DeepTodo {
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: TriStatus,
}

/// A stored item as the middleware keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DeepTodoView<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
}

todokit_app::prelude::writer_tool! {
    /// The `write_todos` tool.
    WriteTodos = "write_todos",
    include_str!("../descriptions/deepagents/write_todos.md")
}

impl ListWriter for WriteTodos {
    type Input = WholeList<DeepTodo>;
    type Item<'a> = DeepTodoView<'a>;
    type Fields = ();

    fn todos(input: &mut WholeList<DeepTodo>) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter_mut()
            .map(|t| Todo::new(std::mem::take(&mut t.content)).status(t.status))
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> DeepTodoView<'_> {
        DeepTodoView {
            content: &todo.content,
            status: todo.status.into(),
        }
    }

    /// `Updated todo list to ` and the list as Python's `repr` writes it.
    fn text(op: &ToolOperation<'_, WholeList<DeepTodo>>) -> String {
        let mut out = String::from("Updated todo list to [");
        for (i, task) in op.after.tasks().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str("{'content': ");
            python_repr(&mut out, &task.content);
            out.push_str(", 'status': ");
            python_repr(&mut out, TriStatus::from(task.status).as_str());
            out.push('}');
        }
        out.push(']');
        out
    }

    fn fields(_op: &ToolOperation<'_, WholeList<DeepTodo>>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, block_on, memory_service, snapshot_settings};
    use pretty_assertions::assert_eq;
    use todokit_app::RoundCall;

    fn case() -> ProfileCase {
        ProfileCase::new(profile())
    }

    const TWO_STARTED: &str = r#"{"todos":[{"content":"Search the docs","status":"in_progress"},{"content":"Search the code","status":"in_progress"},{"content":"Write the answer","status":"pending"}]}"#;

    // Golden facts from LangChain: the PyPI package langchain 1.5.2 (sha256
    // e6c2df67337cae4f13b93460e586084ad8c7c7cfd540d27e2572a96308747a7c),
    // langchain/agents/middleware/todo.py, unchanged in these facts since
    // langchain-ai/langchain's libs/langchain_v1/langchain/agents/middleware/todo.py
    // at commit b386449ef93d1475938a7ccc1df95dd3b6b50cfd (langchain 1.2.3): items are
    // `{content, status}` with pending, in_progress, completed; the tool
    // answers f"Updated todo list to {todos}" (the list's Python repr); its
    // description allows several tasks in progress; `after_model` answers
    // every `write_todos` call of a model turn holding more than one with
    // "Error: The `write_todos` tool should never be called multiple times in
    // parallel. Please call it only once per model invocation to update the
    // todo list." (status error) and none of them runs.
    #[test]
    fn the_answer_is_the_lists_python_repr_and_several_may_be_in_progress() {
        let outcome = case().call("write_todos", TWO_STARTED);
        let stored = ProfileCase::stored(&outcome).map(|s| s.len());
        let actual = (outcome.result.is_error, outcome.result.content, stored);
        let expected = (
            false,
            "Updated todo list to [{'content': 'Search the docs', 'status': 'in_progress'}, \
             {'content': 'Search the code', 'status': 'in_progress'}, \
             {'content': 'Write the answer', 'status': 'pending'}]"
                .to_owned(),
            Some(3),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_calls_in_one_round_are_both_refused_in_the_originals_words_and_nothing_is_stored() {
        let service = memory_service(NAME);
        let one = r#"{"todos":[{"content":"a","status":"pending"}]}"#;
        let results = block_on(service.call_round(
            "c",
            &[
                RoundCall::new("write_todos", TWO_STARTED),
                RoundCall::new("write_todos", one),
            ],
        ))
        .unwrap_or_default();
        let stored = block_on(service.state("c")).map(|s| s.tasks().count()).ok();
        snapshot_settings().bind(|| {
            let details = results.first().map(|r| r.details.value().clone());
            insta::assert_json_snapshot!("details__deepagents__parallel_calls", details);
        });
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
                (
                    true,
                    "Error: The `write_todos` tool should never be called multiple times in parallel. Please \
                     call it only once per model invocation to update the todo list."
                        .to_owned(),
                ),
            ],
            Some(0),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn one_call_in_a_round_runs_and_an_unknown_tool_stops_the_round_before_anything_runs() {
        let service = memory_service(NAME);
        let ran = block_on(service.call_round("c", &[RoundCall::new("write_todos", TWO_STARTED)]))
            .map(|results| results.iter().map(|r| r.is_error).collect::<Vec<_>>());
        let unknown = block_on(service.call_round(
            "d",
            &[
                RoundCall::new("write_todos", TWO_STARTED),
                RoundCall::new("read_todos", "{}"),
            ],
        ))
        .is_err();
        let stored = (
            block_on(service.state("c")).map(|s| s.tasks().count()).ok(),
            block_on(service.state("d")).map(|s| s.tasks().count()).ok(),
        );
        let actual = (ran.ok(), unknown, stored);
        let expected = (Some(vec![false]), true, (Some(3), Some(0)));
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let case = case();
        let cases = [
            ("empty", r#"{"todos":[]}"#),
            ("two_in_progress", TWO_STARTED),
            ("refused", r#"{"todos":[{"content":"a","status":"blocked"}]}"#),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = case.call("write_todos", args).result;
                insta::assert_snapshot!(format!("result__deepagents__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__deepagents__{name}"), result.details.value());
            }
        });
    }
}
