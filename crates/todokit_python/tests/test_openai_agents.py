"""`todokit.openai_agents` in the OpenAI Agents SDK's own runner, driven by
the SDK's `agents.testing.ScriptedModel` (openai-agents 0.24.0 from PyPI,
as constraints.txt pins). No network: tracing is off."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, FunctionTool, RunConfig, Runner
from agents.testing import ScriptedModel, assistant_message, function_call

import todokit
from todokit.openai_agents import function_tools, model_input_filter

from conftest import cli_json

PLAN = {"todos": [{"content": "Read the code", "status": "in_progress", "activeForm": "Reading the code"}, {"content": "Fix the bug", "status": "pending", "activeForm": "Fixing the bug"}]}
DONE = {"todos": [{"content": "Read the code", "status": "completed", "activeForm": "Reading the code"}, {"content": "Fix the bug", "status": "completed", "activeForm": "Fixing the bug"}]}


def outputs(model: ScriptedModel) -> list[str]:
    """The tool outputs the model was sent, in order (each once)."""
    seen: dict[str, str] = {}
    for call in model.calls:
        for item in call.input:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                seen.setdefault(item["call_id"], str(item["output"]))
    return list(seen.values())


def config(flt: Any) -> RunConfig:
    return RunConfig(call_model_input_filter=flt, tracing_disabled=True)


def test_tools_answer_in_the_profiles_words_and_store_what_the_cli_shows(store: Path) -> None:
    model = ScriptedModel(
        [
            [function_call("TodoWrite", json.dumps(PLAN), call_id="c1")],
            [function_call("TodoWrite", '{"todos": "nope"}', call_id="c2")],
            [function_call("TodoWrite", json.dumps(DONE), call_id="c3")],
            [assistant_message("Fixed.")],
        ]
    )
    with todokit.Todokit("claude-code", store_dir=store) as kit:
        tools = function_tools(kit, "c")
        assert all(isinstance(t, FunctionTool) for t in tools)
        function = tools[0]
        assert isinstance(function, FunctionTool)
        assert (len(tools), function.name, function.strict_json_schema) == (1, "TodoWrite", True)
        assert function.params_json_schema == kit.definitions("openai-strict")[0]["function"]["parameters"]
        agent = Agent(name="worker", instructions="Be brief.", model=model, tools=tools)
        result = Runner.run_sync(agent, "Fix the bug", run_config=config(model_input_filter(kit, "c", kit.turn_policy("c"))))
        assert result.final_output == "Fixed."
        with todokit.Todokit("claude-code", memory=True) as reference:
            expected = [
                reference.call("r", "TodoWrite", PLAN).content,
                reference.call("r", "TodoWrite", '{"todos": "nope"}').content,
                reference.call("r", "TodoWrite", DONE).content,
            ]
        assert outputs(model) == expected
        assert model.calls[0].system_instructions == "Be brief.\n\n" + kit.profile.system_prompt
        assert cli_json(store, "show", "--format", "json") == kit.state("c")


def test_strict_end_of_turn_runs_again_with_the_reminder_in_the_request_only() -> None:
    model = ScriptedModel(
        [
            [function_call("TodoWrite", json.dumps(PLAN), call_id="c1")],
            [assistant_message("Stopping.")],
            [function_call("TodoWrite", json.dumps(DONE), call_id="c2")],
            [assistant_message("Done now.")],
        ]
    )

    async def main() -> tuple[str, str, list[Any]]:
        with todokit.Todokit("claude-code", memory=True) as kit:
            flt = model_input_filter(kit, "s", kit.turn_policy("s", end_of_turn="strict"))
            agent = Agent(name="worker", model=model, tools=function_tools(kit, "s"))
            result = await Runner.run(agent, "Go", run_config=config(flt.acall))
            first = str(result.final_output)
            while (end := await flt.aturn_end()).action == "continue":
                result = await Runner.run(agent, result.to_input_list(), run_config=config(flt.acall))
            assert end.action == "end"
            return first, str(result.final_output), result.to_input_list()

    first, last, transcript = asyncio.run(main())
    assert (first, last) == ("Stopping.", "Done now.")
    # The third request carried the reminder; the run's items do not.
    reminder = model.calls[2].input[-1]
    assert reminder["role"] == "user" and "Go" != reminder["content"]
    assert all(item.get("content") != reminder["content"] for item in transcript if isinstance(item, dict))


def test_a_conversation_from_the_run_context_and_a_mismatch_refused() -> None:
    model = ScriptedModel([[function_call("TodoWrite", json.dumps(PLAN), call_id="c1")], [assistant_message("ok")]])
    with todokit.Todokit("claude-code", memory=True) as kit:
        by_context = lambda context: context["thread"]  # noqa: E731
        agent = Agent(name="worker", model=model, tools=function_tools(kit, by_context))
        flt = model_input_filter(kit, by_context, kit.turn_policy("t-1"))
        Runner.run_sync(agent, "Go", context={"thread": "t-1"}, run_config=config(flt))
        assert kit.state("t-1")["version"] == 1
        other = ScriptedModel([[assistant_message("ok")]])
        with pytest.raises(todokit.TodokitError, match="one filter per conversation"):
            Runner.run_sync(
                Agent(name="worker", model=other, tools=function_tools(kit, by_context)),
                "Go",
                context={"thread": "t-2"},
                run_config=config(flt),
            )
