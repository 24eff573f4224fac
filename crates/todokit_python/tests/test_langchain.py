"""`todokit.langchain.TodokitMiddleware` in LangChain's own `create_agent`,
driven by LangChain's scripted chat model, against LangChain's own
`TodoListMiddleware` (langchain 1.5.2 from PyPI, as constraints.txt pins;
`langchain/agents/middleware/todo.py` in that wheel)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import TodoListMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import Field

import todokit
from todokit.langchain import TodokitMiddleware

from conftest import cli_json


class Scripted(GenericFakeChatModel):
    """LangChain's scripted model, keeping what each request held."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Scripted:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def call(name: str, args: dict[str, Any], id: str) -> dict[str, Any]:
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def todos(*items: tuple[str, str]) -> dict[str, Any]:
    return {"todos": [{"content": c, "status": s} for c, s in items]}


#: The scripted turns of the golden test: a plan, progress, two calls in
#: one turn (refused), an item with a field the schema lacks, an empty
#: list, then the answer.
TURNS: list[AIMessage] = [
    AIMessage("", tool_calls=[call("write_todos", todos(("Read the code", "in_progress"), ("Fix the bug", "pending")), "t1")]),
    AIMessage("", tool_calls=[call("write_todos", todos(("Read the code", "completed"), ("Fix the bug", "in_progress")), "t2")]),
    AIMessage(
        "",
        tool_calls=[
            call("write_todos", todos(("Fix the bug", "completed")), "t3"),
            call("write_todos", todos(("Fix the bug", "pending")), "t4"),
        ],
    ),
    AIMessage(
        "",
        tool_calls=[
            call(
                "write_todos",
                {"todos": [{"content": "Fix the bug", "status": "completed", "activeForm": "Fixing"}, {"content": 'Say "done"', "status": "in_progress"}]},
                "t5",
            )
        ],
    ),
    AIMessage("", tool_calls=[call("write_todos", {"todos": []}, "t6")]),
    AIMessage("All done."),
]


def tool_messages(result: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(m.tool_call_id, m.status, str(m.content)) for m in result["messages"] if isinstance(m, ToolMessage)]


def run(middleware: Any, thread: str) -> dict[str, Any]:
    agent = create_agent(Scripted(messages=iter(list(TURNS))), middleware=[middleware])
    result: dict[str, Any] = agent.invoke(
        {"messages": [HumanMessage("Fix the bug")]}, {"configurable": {"thread_id": thread}}
    )
    return result


def test_the_deepagents_profile_answers_as_langchains_todo_list_middleware_byte_for_byte() -> None:
    expected = tool_messages(run(TodoListMiddleware(), "golden"))
    with todokit.Todokit("deepagents", memory=True) as kit:
        actual = tool_messages(run(TodokitMiddleware(kit), "golden"))
    assert actual == expected
    # The refusal of two calls in one turn is among them, and the
    # answers name the lists.
    assert [status for _, status, _ in actual].count("error") == 2


def test_the_middleware_stores_mirrors_and_prompts_without_touching_the_graphs_messages(store: Path) -> None:
    model = Scripted(messages=iter(list(TURNS[:2]) + [AIMessage("Stopping here.")]))
    with todokit.Todokit("deepagents", store_dir=store) as kit:
        agent = create_agent(model, system_prompt="You are terse.", middleware=[TodokitMiddleware(kit)])
        result = agent.invoke({"messages": [HumanMessage("Fix the bug")]}, {"configurable": {"thread_id": "c"}})
        system = model.seen[0][0]
        assert system.text == "You are terse.\n\n" + kit.profile.system_prompt
        # The list is what the CLI shows, and the state key mirrors it.
        stored = cli_json(store, "show", "--format", "json", profile="deepagents")
        assert stored == kit.state("c")
        assert result["todos"] == [
            {"content": "Read the code", "status": "completed"},
            {"content": "Fix the bug", "status": "in_progress"},
        ]
        # Soft end of turn: the model stopped with work open; the user
        # is warned in state, and no reminder entered the messages.
        assert result["todokit_warning"]
        assert all(result["todokit_warning"] not in str(m.content) for m in result["messages"])


def test_strict_end_of_turn_sends_the_model_back_with_the_reminder_in_the_request_only() -> None:
    model = Scripted(
        messages=iter(
            [
                TURNS[0],
                AIMessage("I will stop."),
                AIMessage("", tool_calls=[call("write_todos", todos(("Read the code", "completed"), ("Fix the bug", "completed")), "t9")]),
                AIMessage("Finished."),
            ]
        )
    )
    with todokit.Todokit("deepagents", memory=True) as kit:
        agent = create_agent(model, middleware=[TodokitMiddleware(kit, end_of_turn="strict")])
        result = agent.invoke({"messages": [HumanMessage("Go")]}, {"configurable": {"thread_id": "s"}})
        reminder_requests = [
            seen for seen in model.seen if isinstance(seen[-1], HumanMessage) and seen[-1].content != "Go"
        ]
        assert len(reminder_requests) == 1
        reminder = str(reminder_requests[0][-1].content)
        assert all(reminder != str(m.content) for m in result["messages"])
        assert result["messages"][-1].content == "Finished."
        assert kit.state("s")["version"] == 2


def test_a_run_without_a_thread_or_conversation_is_refused_clearly() -> None:
    with todokit.Todokit("deepagents", memory=True) as kit:
        agent = create_agent(Scripted(messages=iter(list(TURNS))), middleware=[TodokitMiddleware(kit)])
        with pytest.raises(todokit.TodokitError, match="thread_id"):
            agent.invoke({"messages": [HumanMessage("Go")]})
        # With conversation= it runs.
        agent = create_agent(
            Scripted(messages=iter(list(TURNS))), middleware=[TodokitMiddleware(kit, conversation="fixed")]
        )
        agent.invoke({"messages": [HumanMessage("Go")]})
        assert kit.state("fixed")["version"] == 4


def test_other_profiles_bring_their_own_tools() -> None:
    with todokit.Todokit("claude-code", memory=True) as kit:
        middleware = TodokitMiddleware(kit)
        assert [t.name for t in middleware.tools] == ["TodoWrite"]
        model = Scripted(
            messages=iter(
                [
                    AIMessage("", tool_calls=[call("TodoWrite", {"todos": "not a list"}, "x1")]),
                    AIMessage("", tool_calls=[call("TodoWrite", {"todos": [{"content": "Ship", "status": "in_progress", "activeForm": "Shipping"}]}, "x2")]),
                    AIMessage("Shipped."),
                ]
            )
        )
        agent = create_agent(model, middleware=[middleware])
        result = agent.invoke({"messages": [HumanMessage("Ship")]}, {"configurable": {"thread_id": "cc"}})
        statuses = [(m.tool_call_id, m.status) for m in result["messages"] if isinstance(m, ToolMessage)]
        assert statuses == [("x1", "error"), ("x2", "success")]
        assert result["todos"] == [{"content": "Ship", "status": "in_progress"}]


def test_the_async_agent_answers_as_the_sync_one() -> None:
    async def main() -> list[tuple[str, str, str]]:
        with todokit.Todokit("deepagents", memory=True) as kit:
            agent = create_agent(Scripted(messages=iter(list(TURNS))), middleware=[TodokitMiddleware(kit)])
            result = await agent.ainvoke(
                {"messages": [HumanMessage("Fix the bug")]}, {"configurable": {"thread_id": f"a-{uuid.uuid4()}"}}
            )
            return tool_messages(result)

    assert asyncio.run(main()) == tool_messages(run(TodoListMiddleware(), "golden-async"))
