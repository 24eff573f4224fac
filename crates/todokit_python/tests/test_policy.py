"""The turn policy through the package: reminders and the end-of-turn check."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import todokit

ONE = {"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}


def test_the_nag_comes_after_the_rounds_and_counters_carry_over() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        policy = kit.turn_policy("c", nag_after_rounds=2)
        assert policy.on_tool_results([("TodoWrite", False)]) == []
        assert policy.on_tool_results([("Bash", False)]) == []
        (nag,) = policy.on_tool_results([("Read", False)])
        assert (nag.placement, nag.kind) == ("after_tool_results", "nag")
        assert nag.text.startswith("<system-reminder>")
        resumed = kit.turn_policy("c", nag_after_rounds=2, counters=policy.counters)
        assert resumed.counters == policy.counters == {**policy.counters, "rounds_since_todo": 2}


def test_a_failed_call_and_a_hand_edit_are_told_before_the_next_request_once() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        policy = kit.turn_policy("c")
        policy.on_tool_results([("TodoWrite", True)])
        kit.edit("c", {"action": "append", "items": ["Fix it"]})
        kinds = [i.kind for i in policy.before_request()]
        assert kinds == ["stale_list", "user_edit"]
        assert policy.before_request() == []


def test_the_end_of_turn_check_in_each_mode() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        soft = kit.turn_policy("c").on_turn_end()
        strict = kit.turn_policy("c", end_of_turn="strict").on_turn_end()
        off = kit.turn_policy("c", end_of_turn="off").on_turn_end()
        assert soft.action == "warn" and soft.text is not None and "Run the tests" in soft.text
        assert strict.action == "continue" and strict.injection is not None
        assert strict.injection.kind == "end_of_turn"
        assert off == todokit.TurnEnd("end")
        with pytest.raises(ValueError):
            kit.turn_policy("c", end_of_turn="loud")  # type: ignore[arg-type]
        kit.call("c", "TodoWrite", {"todos": []})
        assert kit.turn_policy("c", end_of_turn="strict").on_turn_end().action == "end"


def test_compaction_and_context_in_the_profiles_words() -> None:
    with todokit.Todokit("hermes", memory=True) as hermes, todokit.Todokit("goose", memory=True) as goose:
        hermes.call("c", "todo", {"todos": [{"id": "1", "content": "Read", "status": "pending"}]})
        (put_back,) = hermes.turn_policy("c").on_compaction()
        assert put_back.text.startswith("[Your active task list was preserved across context compression]")
        goose.call("c", "todo_write", {"content": "- [ ] Read"})
        (context,) = goose.turn_policy("c").context()
        assert context.text == "Current tasks and notes:\n- [ ] Read\n"
        assert hermes.turn_policy("c").context() == []


def test_the_async_hooks_answer_as_the_sync_ones() -> None:
    async def main() -> None:
        with todokit.Todokit(memory=True) as kit:
            kit.call("c", "TodoWrite", ONE)
            policy = kit.turn_policy("c")
            assert await policy.abefore_request() == []
            assert await policy.aon_tool_results([("Bash", False)]) == []
            assert (await policy.aon_turn_end()).action == "warn"
            assert await policy.acontext() == []
            assert len(await policy.aon_compaction()) == 1

    asyncio.run(main())


def test_a_transcript_restores_the_list_and_the_counters() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Fix the build"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "1", "type": "function", "function": {"name": "TodoWrite", "arguments": '{"todos": [{"content": "Read", "status": "in_progress", "activeForm": "Reading"}]}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "1", "content": "ok"},
        {"role": "assistant", "tool_calls": [{"id": "2", "type": "function", "function": {"name": "Bash", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "2", "content": "done"},
    ]
    with todokit.Todokit(memory=True) as kit:
        restored = kit.restore("c", messages)
        assert restored.state == kit.state("c")
        assert [t["content"] for p in restored.state["phases"] for t in p["tasks"]] == ["Read"]
        assert restored.counters["rounds_since_todo"] == 1
        assert asyncio.run(kit.arestore("d", messages)).counters == restored.counters
        with pytest.raises(TypeError):
            kit.restore("c", [{"x": float("nan")}])
