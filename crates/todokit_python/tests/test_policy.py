"""The turn policy through the package: reminders and the end-of-turn check."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import todokit

ONE = {"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}


def test_the_nag_waits_for_the_next_request_and_counters_carry_over() -> None:
    with todokit.Todokit(memory=True) as kit:
        kit.call("c", "TodoWrite", ONE)
        policy = kit.turn_policy("c", nag_after_rounds=2)
        policy.on_tool_results([("TodoWrite", False)])
        policy.on_tool_results([("Bash", False)])
        policy.on_tool_results([("Read", False)])
        (nag,) = policy.before_request()
        assert (nag.placement, nag.kind) == ("after_tool_results", "nag")
        assert nag.text.startswith("<system-reminder>")
        assert policy.before_request() == []
        assert policy.counters() == {**policy.counters(), "rounds_since_todo": 2}
        moved = kit.turn_policy("d", counters=policy.counters())
        assert moved.counters() == policy.counters()


def test_a_turn_is_carried_on_by_a_second_kit_on_the_same_store(store: Path) -> None:
    """What one kit's turn remembers (counters, a queued nag, how strict the
    end of the turn is) is stored with the conversation: a second kit on the
    same folder (a restarted process) carries on where the first stopped."""
    with todokit.Todokit(store_dir=store) as first:
        first.call("c", "TodoWrite", ONE)
        policy = first.turn_policy("c", end_of_turn="strict", nag_after_rounds=2)
        policy.on_user_prompt()
        policy.on_tool_results([("Bash", False, "call-1")])
        policy.on_tool_results([("Read", False, "call-2")])
        counters = policy.counters()
    with todokit.Todokit(store_dir=store) as second:
        resumed = second.turn_policy("c", nag_after_rounds=2)
        assert resumed.counters() == counters == {**counters, "rounds_since_todo": 2}
        # The round told already is not counted again.
        resumed.on_tool_results([("Read", False, "call-2")])
        assert resumed.counters()["rounds_since_todo"] == 2
        assert [i.kind for i in resumed.before_request()] == ["nag"]
        # Stored strict by the first kit: the second sends the model back.
        end = resumed.on_turn_end(carry=True)
        assert end.action == "continue" and end.injection is not None
        assert resumed.counters()["end_of_turn_reminders"] == 1
    with todokit.Todokit(store_dir=store) as third:
        assert [i.kind for i in third.turn_policy("c").before_request()] == ["end_of_turn"]


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
        # Handed to the host, the reminder does not wait for the next request.
        assert kit.turn_policy("c").before_request() == []
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
        (context,) = goose.turn_policy("c").before_request()
        assert context.text == "Current tasks and notes:\n- [ ] Read\n"
        assert hermes.turn_policy("c").before_request() == []


def test_the_async_hooks_answer_as_the_sync_ones() -> None:
    async def main() -> None:
        with todokit.Todokit(memory=True) as kit:
            kit.call("c", "TodoWrite", ONE)
            policy = kit.turn_policy("c", nag_after_rounds=1)
            await policy.aon_user_prompt()
            assert await policy.abefore_request() == []
            await policy.aon_tool_results([("Bash", False)])
            assert [i.kind for i in await policy.abefore_request([("Read", False)])] == ["nag", "nag"]
            assert (await policy.aon_turn_end()).action == "warn"
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
