"""`todokit.pydantic_ai` in PydanticAI's own agent, driven by its
`FunctionModel` (pydantic-ai-slim 2.68.0 from PyPI, as constraints.txt
pins). No network, no key."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

import todokit
from todokit.pydantic_ai import TodokitCapability, tools

from conftest import cli_json

PLAN = {"todos": [{"content": "Read the code", "status": "in_progress", "activeForm": "Reading the code"}]}
DONE = {"todos": [{"content": "Read the code", "status": "completed", "activeForm": "Reading the code"}]}
BAD = {"todos": "not a list"}


class Script:
    """A FunctionModel's function playing scripted responses, keeping what
    each request held."""

    def __init__(self, *responses: ModelResponse) -> None:
        self.responses = list(responses)
        self.requests: list[tuple[list[ModelMessage], str | None]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests.append((list(messages), info.instructions))
        return self.responses.pop(0)


CALL_IDS = itertools.count()


def calls(*pairs: tuple[str, Any]) -> ModelResponse:
    return ModelResponse(
        parts=[ToolCallPart(tool, json.dumps(args), tool_call_id=f"call-{next(CALL_IDS)}") for tool, args in pairs]
    )


def returns(messages: list[ModelMessage]) -> list[tuple[str, str]]:
    return [
        (part.outcome, str(part.content))
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def test_answers_and_refusals_in_the_profiles_words_without_using_up_retries(store: Path) -> None:
    # Three refusals in a row with the default of one retry: a refusal
    # reported as ToolFailed must not count against it.
    script = Script(
        calls(("TodoWrite", PLAN)),
        calls(("TodoWrite", BAD)),
        calls(("TodoWrite", BAD)),
        calls(("TodoWrite", BAD)),
        calls(("TodoWrite", DONE)),
        ModelResponse(parts=[TextPart("Done.")]),
    )
    with todokit.Todokit("claude-code", store_dir=store) as kit:
        agent = Agent(FunctionModel(script), tools=tools(kit, "c"), instructions="Be brief.")
        result = agent.run_sync("Read the code")
        assert result.output == "Done."
        with todokit.Todokit("claude-code", memory=True) as reference:
            expected = [
                ("success" if not r.is_error else "failed", r.content)
                for r in (reference.call("r", "TodoWrite", args) for args in (PLAN, BAD, BAD, BAD, DONE))
            ]
        assert returns(result.all_messages()) == expected
        assert cli_json(store, "show", "--format", "json") == kit.state("c")


def test_the_capability_prompts_and_reminds_in_the_request_only() -> None:
    def look() -> str:
        """Looks around."""
        return "nothing here"

    script = Script(
        calls(("TodoWrite", PLAN)),
        calls(("look", {})),
        calls(("look", {})),
        calls(("look", {})),
        ModelResponse(parts=[TextPart("Stopping.")]),
    )
    with todokit.Todokit("claude-code", memory=True) as kit:
        capability = TodokitCapability(kit, kit.turn_policy("n", nag_after_rounds=2, end_of_turn="strict"))
        agent = Agent(FunctionModel(script), tools=[*tools(kit, "n"), look], capabilities=[capability])
        result = agent.run_sync("Go")
        assert script.requests[0][1] is not None and kit.profile.system_prompt.strip() in script.requests[0][1]
        sent = [
            str(part.content)
            for messages, _ in script.requests
            for message in messages[-1:]
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, UserPromptPart) and part.content != "Go"
        ]
        assert sent, "the nag reached no request"
        history = [
            str(part.content)
            for message in result.all_messages()
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, UserPromptPart)
        ]
        assert history == ["Go"]
        end = capability.turn_end()
        assert end.action == "continue" and end.injection is not None


def test_the_runs_own_conversation_id_is_the_default() -> None:
    script = Script(calls(("TodoWrite", PLAN)), ModelResponse(parts=[TextPart("ok")]))
    with todokit.Todokit("claude-code", memory=True) as kit:
        agent = Agent(FunctionModel(script), tools=tools(kit))
        result = agent.run_sync("Go", conversation_id="run-42")
        assert result.output == "ok"
        assert kit.state("run-42")["version"] == 1


def test_an_exclusive_tool_runs_alone() -> None:
    with todokit.Todokit("claude-code", memory=True) as kit:
        made = {tool.name: tool for tool in tools(kit, "c")}
        exclusive = {tool.name for tool in kit.profile.tools if tool.metadata.get("exclusive")}
        assert {name for name, tool in made.items() if tool.sequential} == exclusive
