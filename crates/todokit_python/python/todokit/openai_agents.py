"""A todokit profile for the OpenAI Agents SDK (the ``openai-agents`` extra).

:func:`function_tools` gives the profile's tools (strict schemas; the
model's raw JSON text in, the profile's words out, a refusal too).
:func:`model_input_filter` appends the system prompt to the instructions
and the turn's reminders to each model request (never to the run's items);
its :meth:`TodokitInputFilter.turn_end` checks the end of a run::

      flt = model_input_filter(kit, "c", kit.turn_policy("c", end_of_turn="strict"))
      config = RunConfig(call_model_input_filter=flt)
      result = await Runner.run(agent, prompt, run_config=config)
      while (end := await flt.aturn_end()).action == "continue":
          result = await Runner.run(agent, result.to_input_list(), run_config=config)

``conversation`` is a string, or a function of the run's context object
(what ``Runner.run(context=...)`` was given) that returns one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from agents import FunctionTool, Tool
from agents.run_config import CallModelData, ModelInputData
from agents.tool_context import ToolContext

from . import Injection, RoundCall, Todokit, TodokitError, TurnEnd, TurnPolicy
from ._adapt import Conversation, resolve

__all__ = ["Conversation", "TodokitInputFilter", "function_tools", "model_input_filter"]

#: How many calls' outcomes are remembered for the filter (newest kept): a
#: tool runs in the run's process just before the filter asks.
MAX_OUTCOMES = 4096
_OUTCOMES: OrderedDict[str, bool] = OrderedDict()
_OUTCOMES_LOCK = threading.Lock()


def function_tools(kit: Todokit, conversation: Conversation) -> list[Tool]:
    """The profile's tools as Agents SDK ``FunctionTool``\\ s, strict schemas."""

    def tool(function: dict[str, Any]) -> Tool:
        async def invoke(context: ToolContext[Any], arguments: str) -> str:
            result = await kit.acall(resolve(conversation, context.context), function["name"], arguments)
            with _OUTCOMES_LOCK:
                _OUTCOMES[context.tool_call_id] = result.is_error
                while len(_OUTCOMES) > MAX_OUTCOMES:
                    _OUTCOMES.popitem(last=False)
            return result.content

        return FunctionTool(
            name=function["name"],
            description=function["description"],
            params_json_schema=function["parameters"],
            on_invoke_tool=invoke,
            strict_json_schema=bool(function.get("strict", True)),
        )

    return [tool(definition["function"]) for definition in kit.definitions("openai-strict")]


class TodokitInputFilter:
    """A ``call_model_input_filter`` with the profile's system prompt and the
    turn's reminders; :meth:`turn_end` checks the end of a run."""

    def __init__(self, kit: Todokit, conversation: Conversation, policy: TurnPolicy) -> None:
        self.kit = kit
        self.conversation = conversation
        self.policy = policy

    def _round(self, data: CallModelData[Any]) -> list[RoundCall] | None:
        """The function calls after the input's last message, with their ids
        (the turn counts a call it was told of once)."""
        conversation = resolve(self.conversation, data.context)
        if conversation != self.policy.conversation:
            raise TodokitError(
                f"this run's conversation is {conversation!r} but the filter's policy follows "
                f"{self.policy.conversation!r}: make one filter per conversation"
            )
        calls: list[RoundCall] = []
        for item in reversed(list(data.model_data.input)):
            kind = _field(item, "type")
            if kind != "function_call_output" and kind != "function_call":
                break
            if kind == "function_call":
                call_id = str(_field(item, "call_id"))
                calls.insert(0, (str(_field(item, "name")), _OUTCOMES.get(call_id, False), call_id))
        return calls or None

    def _apply(self, data: CallModelData[Any], injections: list[Injection]) -> ModelInputData:
        prompt, instructions = self.kit.profile.system_prompt, data.model_data.instructions
        items: list[Any] = [*data.model_data.input, *({"role": "user", "content": i.text} for i in injections)]
        return ModelInputData(
            input=items,
            instructions=prompt if not instructions else f"{instructions}\n\n{prompt}",
        )

    def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        return self._apply(data, self.policy.before_request(self._round(data)))

    async def acall(self, data: CallModelData[Any]) -> ModelInputData:
        """The filter, awaited (give ``flt.acall`` to keep the store off the
        event loop)."""
        return self._apply(data, await self.policy.abefore_request(self._round(data)))

    def turn_end(self) -> TurnEnd:
        """After a run: ``"continue"`` (run again on ``result.to_input_list()``;
        the next request carries the reminder), ``"warn"`` (show the user
        ``text``) or ``"end"``."""
        return self.policy.on_turn_end(carry=True)

    async def aturn_end(self) -> TurnEnd:
        """:meth:`turn_end`, awaited."""
        return await self.policy.aon_turn_end(carry=True)

    def user_prompt(self) -> None:
        """The user sent a new prompt: the end-of-turn budget starts over."""
        self.policy.on_user_prompt()


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def model_input_filter(kit: Todokit, conversation: Conversation, policy: TurnPolicy) -> TodokitInputFilter:
    """A ``RunConfig.call_model_input_filter`` for ``kit``'s profile and
    ``policy`` (see :class:`TodokitInputFilter`)."""
    return TodokitInputFilter(kit, conversation, policy)
