"""The Python examples of docs/bindings.md, run as written with each
framework's scripted model (and a scripted model function for the host
loop)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from agents.testing import ScriptedModel, assistant_message, function_call
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import todokit

PLAN = {"todos": [{"content": "Read the code", "status": "in_progress", "activeForm": "Reading the code"}]}
DONE = {"todos": [{"content": "Read the code", "status": "completed", "activeForm": "Reading the code"}]}


def examples() -> dict[str, Any]:
    text = (Path(__file__).resolve().parents[3] / "docs" / "bindings.md").read_text(encoding="utf-8")
    found: dict[str, Any] = {}
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    for block in blocks:
        # Each block in a namespace of its own, as each is its own file.
        namespace: dict[str, Any] = {}
        exec(compile(block, "docs/bindings.md", "exec"), namespace)
        found.update({name: value for name, value in namespace.items() if name in ("run", "build", "run_turn")})
    return found


def test_the_host_loop_runs_a_turn_and_sends_a_strict_model_back() -> None:
    replies: list[dict[str, Any]] = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "1", "type": "function", "function": {"name": "TodoWrite", "arguments": json.dumps(PLAN)}},
            {"id": "2", "type": "function", "function": {"name": "read_file", "arguments": "{}"}},
        ]},
        {"role": "assistant", "content": "Stopping."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "3", "type": "function", "function": {"name": "TodoWrite", "arguments": json.dumps(DONE)}},
        ]},
        {"role": "assistant", "content": "Done."},
    ]
    offered: list[int] = []

    def model(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        offered.append(len(tools))
        return replies.pop(0)

    run_turn = examples()["run_turn"]
    with todokit.Todokit("claude-code", memory=True) as kit:
        policy = kit.turn_policy("loop", end_of_turn="strict")
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Read the code."}]
        end = run_turn(kit, policy, "loop", messages, model)
        assert end.action == "end"
        assert replies == [] and offered == [1, 1, 1, 1]
        assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool", "assistant", "user", "assistant", "tool", "assistant"]
        assert messages[2]["content"] == todokit.Todokit("claude-code", memory=True).call("x", "TodoWrite", PLAN).content
        assert kit.state("loop")["version"] == 2


def test_the_openai_agents_example_runs_until_the_list_is_done() -> None:
    model = ScriptedModel(
        [
            [function_call("TodoWrite", json.dumps(PLAN), call_id="c1")],
            [assistant_message("Stopping.")],
            [function_call("TodoWrite", json.dumps(DONE), call_id="c2")],
            [assistant_message("Done.")],
        ]
    )
    run = examples()["run"]
    with todokit.Todokit("claude-code", memory=True) as kit:
        result = asyncio.run(run(kit, "agents", model, "Read the code."))
        assert result.final_output == "Done."
        assert len(model.calls) == 4


def test_the_pydantic_ai_example_builds_an_agent_that_stores_the_list() -> None:
    responses = [
        ModelResponse(parts=[ToolCallPart("TodoWrite", json.dumps(PLAN), tool_call_id="p1")]),
        ModelResponse(parts=[TextPart("ok")]),
    ]

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return responses.pop(0)

    build = examples()["build"]
    with todokit.Todokit("claude-code", memory=True) as kit:
        agent = build(kit, "pyd", FunctionModel(script))
        assert agent.run_sync("Go").output == "ok"
        assert kit.state("pyd")["version"] == 1
