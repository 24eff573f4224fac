"""Calls, rounds, modes, hand edits and errors."""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

import pytest

import todokit
from conftest import cli_json, todokit_cli

ONE = {"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}


def tasks(kit: todokit.Todokit, conversation: str) -> list[tuple[str, str]]:
    return [(t["content"], t["status"]) for p in kit.state(conversation)["phases"] for t in p["tasks"]]


def test_a_wrong_payload_is_a_tool_error_and_nothing_is_stored() -> None:
    with todokit.Todokit(memory=True) as kit:
        bad_payloads: list[todokit.Arguments] = ['{"todos": 5}', "{not json", b"\xff\xfe", "\ud800", {"todos": [{"content": ""}]}, [], "[" * 100_000]
        for bad in bad_payloads:
            result = kit.call("c", "TodoWrite", bad)
            assert result.is_error, bad
            assert "not applied" in result.content
        assert kit.state("c")["version"] == 0


def test_values_json_cannot_write_are_type_errors() -> None:
    circular: list[Any] = []
    circular.append(circular)
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    with todokit.Todokit(memory=True) as kit:
        for bad in [{"x": math.nan}, {"x": object()}, circular, deep]:
            with pytest.raises(TypeError):
                kit.call("c", "TodoWrite", bad)
        assert kit.state("c")["version"] == 0


def test_a_five_megabyte_text_is_refused_and_the_list_kept() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        huge = {"todos": [{"content": "x" * 5_000_000, "status": "pending", "activeForm": "x"}]}
        result = kit.call("c", "TodoWrite", huge)
        assert result.is_error
        assert len(result.content) < 2_000
        assert tasks(kit, "c") == [("Run the tests", "in_progress")]


def test_a_round_with_two_write_todos_is_refused_in_deepagents_words() -> None:
    todos = {"todos": [{"content": "a", "status": "pending"}]}
    with todokit.Todokit("deepagents", memory=True) as kit:
        results = kit.call_round("c", [("write_todos", todos), ("write_todos", todos)])
        assert [r.is_error for r in results] == [True, True]
        assert results[0].content.startswith("Error: The `write_todos` tool should never be called multiple times")
        assert kit.state("c")["version"] == 0


def test_a_store_failure_mid_round_gives_the_position_and_the_answers_before_it(tmp_path: Path) -> None:
    with todokit.Todokit(store_dir=tmp_path) as kit:
        kit.call("c", "TodoWrite", ONE)
        (stored,) = [path for path in tmp_path.iterdir() if path.suffix == ".json"]
        stored.write_text("{ this is not a list")
        # The unreadable call is answered in its place; the next one meets
        # the broken file.
        with pytest.raises(todokit.StoreError) as failed:
            kit.call_round("c", [("TodoWrite", b"\xff\xfe"), ("TodoWrite", ONE), ("TodoWrite", ONE)])
        error = failed.value
        assert error.index == 1
        assert [(r.is_error, "UTF-8" in r.content) for r in error.answered] == [(True, True)]
        with pytest.raises(todokit.StoreError) as alone:
            kit.call("c", "TodoWrite", ONE)
        assert (alone.value.index, alone.value.answered) == (None, [])


def test_plan_mode_refuses_codexs_update_plan_and_not_claude_codes_todowrite() -> None:
    plan = {"plan": [{"step": "Read", "status": "in_progress"}]}
    with todokit.Todokit("codex", memory=True) as codex, todokit.Todokit(memory=True) as claude:
        refused = codex.call("c", "update_plan", plan, mode="plan")
        accepted = claude.call("c", "TodoWrite", ONE, mode="plan")
        assert (refused.is_error, refused.content) == (
            True,
            "update_plan is a TODO/checklist tool and is not allowed in Plan mode",
        )
        assert codex.state("c")["version"] == 0
        assert not accepted.is_error
        with pytest.raises(ValueError):
            codex.call("c", "update_plan", plan, mode="planning")  # type: ignore[arg-type]


def test_errors_are_the_tree_under_todokit_error() -> None:
    with pytest.raises(todokit.UnknownProfileError) as profile:
        todokit.Todokit("nope", memory=True)
    assert isinstance(profile.value, ValueError) and "claude-code" in str(profile.value)
    kit = todokit.Todokit(memory=True)
    with pytest.raises(todokit.UnknownToolError) as tool:
        kit.call("c", "todo_write", ONE)
    assert isinstance(tool.value, LookupError)
    with pytest.raises(todokit.UnknownToolError):
        kit.call("c", "todo_write", b"\xff")
    with pytest.raises(todokit.EditError):
        kit.edit("c", {"action": "done", "name": "nothing"})
    with pytest.raises(todokit.EditError):
        kit.edit("c", {"action": "jump", "name": "x"})
    with pytest.raises(ValueError):
        todokit.Todokit(memory=True, store_dir="x")
    kit.close()
    assert kit.closed
    with pytest.raises(todokit.TodokitError, match="closed"):
        kit.state("c")


def test_hand_edits_tell_the_model_once() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        assert kit.edit("c", {"action": "append", "items": ["Fix it"]}) is not None
        assert kit.edit("c", {"action": "done", "name": "run the tests"}) is not None
        assert kit.edit("c", {"action": "done", "name": "run the tests"}) is None
        notices = kit.take_notices("c")
        assert [n.kind for n in notices] == ["user_edit"]
        assert "Fix it" in notices[0].text
        assert kit.take_notices("c") == []
        # Completing a task starts the next one, as a hand edit does anywhere.
        assert tasks(kit, "c") == [("Run the tests", "completed"), ("Fix it", "in_progress")]


def test_the_cli_and_python_share_one_store_both_ways(store: Path) -> None:
    with todokit.Todokit(store_dir=store) as kit:
        kit.call("c", "TodoWrite", ONE)
        assert cli_json(store, "show", "--format", "json") == kit.state("c")
        assert "[>] Running the tests" in todokit_cli(store, "show", "--format", "text")
        todokit_cli(store, "done", "run the tests")
        assert tasks(kit, "c") == [("Run the tests", "completed")]
        assert kit.conversations() == cli_json(store, "conversations", "--format", "json")


def test_eight_threads_writing_one_conversation_lose_nothing(store: Path) -> None:
    with todokit.Todokit("todo-update", store_dir=store) as kit:
        def work(n: int) -> None:
            for i in range(12):
                result = kit.call("c", "todo_update", {"add": [{"content": f"t{n}-{i}"}]})
                assert not result.is_error, result.content

        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        state = kit.state("c")
        assert state["version"] == 96
        assert len([t for p in state["phases"] for t in p["tasks"]]) == 96


def test_details_are_built_once_when_read() -> None:
    with todokit.Todokit(memory=True) as kit:
        result = kit.call("c", "TodoWrite", ONE)
        assert result.details is result.details
        assert result.details["current"][0]["content"] == "Run the tests"
        assert repr(result).startswith("ToolResult(is_error=False, content=")
