"""A todokit profile for the OpenAI Agents SDK.

Install with the ``openai-agents`` extra.

- :func:`function_tools` gives the profile's tools as ``FunctionTool``\\ s with
  its strict schemas; each call receives the model's raw JSON text and
  answers in the profile's words (a refusal too: the model reads it as
  the tool's output, as it would from the original).
- :func:`model_input_filter` gives a ``RunConfig.call_model_input_filter``
  that appends the profile's system prompt to the instructions and adds
  the turn policy's reminders to each model request (the run's items
  never hold them); after a run, its :meth:`TodokitInputFilter.turn_end`
  is the end-of-turn check::

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
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Union

from agents import FunctionTool, Tool
from agents.run_config import CallModelData, ModelInputData
from agents.tool_context import ToolContext

from . import Injection, RoundCall, Todokit, TodokitError, TurnEnd, TurnPolicy

__all__ = ["Conversation", "TodokitInputFilter", "function_tools", "model_input_filter"]

#: A conversation id, or how to read it from the run's context object.
Conversation = Union[str, Callable[[Any], str]]

#: How many calls' outcomes a kit remembers for the filter (newest kept):
#: the tool runs in the run's process, just before the filter asks.
MAX_OUTCOMES = 4096


class _Outcomes:
    """Which of a kit's recent calls were refused, by call id: the filter
    tells the policy, whose stale-list reminder depends on it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_call: OrderedDict[str, bool] = OrderedDict()

    def record(self, call_id: str, is_error: bool) -> None:
        with self._lock:
            self._by_call[call_id] = is_error
            while len(self._by_call) > MAX_OUTCOMES:
                self._by_call.popitem(last=False)

    def get(self, call_id: str) -> bool:
        with self._lock:
            return self._by_call.get(call_id, False)


_OUTCOMES: weakref.WeakKeyDictionary[Todokit, _Outcomes] = weakref.WeakKeyDictionary()
_OUTCOMES_LOCK = threading.Lock()


def _outcomes(kit: Todokit) -> _Outcomes:
    with _OUTCOMES_LOCK:
        found = _OUTCOMES.get(kit)
        if found is None:
            found = _OUTCOMES[kit] = _Outcomes()
        return found


def _resolve(conversation: Conversation, context: Any) -> str:
    if isinstance(conversation, str):
        return conversation
    resolved = conversation(context)
    if not isinstance(resolved, str):
        raise TypeError(f"the conversation function must return a str, not {type(resolved).__name__}")
    return resolved


def function_tools(kit: Todokit, conversation: Conversation) -> list[Tool]:
    """The profile's tools as Agents SDK ``FunctionTool``\\ s, strict schemas."""
    outcomes = _outcomes(kit)
    tools: list[Tool] = []
    for definition in kit.definitions("openai-strict"):
        function = definition["function"]
        name: str = function["name"]

        async def invoke(context: ToolContext[Any], arguments: str, name: str = name) -> str:
            result = await kit.acall(_resolve(conversation, context.context), name, arguments)
            outcomes.record(context.tool_call_id, result.is_error)
            return result.content

        tools.append(
            FunctionTool(
                name=name,
                description=function["description"],
                params_json_schema=function["parameters"],
                on_invoke_tool=invoke,
                strict_json_schema=bool(function.get("strict", True)),
            )
        )
    return tools


class TodokitInputFilter:
    """A ``call_model_input_filter`` with the profile's system prompt and the
    policy's reminders; :meth:`turn_end` checks the end of a run. What the
    turn remembers is stored with the conversation (the Rust turn driver)."""

    def __init__(self, kit: Todokit, conversation: Conversation, policy: TurnPolicy) -> None:
        self.kit = kit
        self.conversation = conversation
        self.policy = policy
        self._outcomes = _outcomes(kit)

    def _round(self, data: CallModelData[Any]) -> list[RoundCall] | None:
        """The function calls of the model's last turn (those after the
        input's last message), with their ids: the driver counts a call
        it was told of once."""
        conversation = _resolve(self.conversation, data.context)
        if conversation != self.policy.conversation:
            raise TodokitError(
                f"this run's conversation is {conversation!r} but the filter's policy follows "
                f"{self.policy.conversation!r}: make one filter per conversation"
            )
        calls: list[RoundCall] = []
        for item in reversed(list(data.model_data.input)):
            kind = _field(item, "type")
            if kind == "function_call_output":
                continue
            if kind != "function_call":
                break
            call_id = str(_field(item, "call_id"))
            calls.append((str(_field(item, "name")), self._outcomes.get(call_id), call_id))
        calls.reverse()
        return calls or None

    def _apply(self, data: CallModelData[Any], injections: list[Injection]) -> ModelInputData:
        prompt = self.kit.profile.system_prompt
        instructions = data.model_data.instructions
        items = list(data.model_data.input)
        for injection in injections:
            items.append({"role": "user", "content": injection.text})
        return ModelInputData(
            input=items,
            instructions=prompt if not instructions else f"{instructions}\n\n{prompt}",
        )

    def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        return self._apply(data, self.policy.before_request(self._round(data)))

    async def acall(self, data: CallModelData[Any]) -> ModelInputData:
        """The filter, awaited (give ``flt.acall`` to keep the store's reads
        off the event loop)."""
        return self._apply(data, await self.policy.abefore_request(self._round(data)))

    def turn_end(self) -> TurnEnd:
        """After a run ended: ``"continue"`` (run again on
        ``result.to_input_list()``; the next request carries the reminder),
        ``"warn"`` (show the user ``text``) or ``"end"``."""
        return self.policy.on_turn_end(carry=True)

    async def aturn_end(self) -> TurnEnd:
        """:meth:`turn_end`, awaited."""
        return await self.policy.aon_turn_end(carry=True)

    def user_prompt(self) -> None:
        """The user sent a new prompt: the end-of-turn budget starts over."""
        self.policy.on_user_prompt()


def _field(item: Any, name: str) -> Any:
    if isinstance(item, dict):
        return item.get(name)
    return getattr(item, name, None)


def model_input_filter(kit: Todokit, conversation: Conversation, policy: TurnPolicy) -> TodokitInputFilter:
    """A ``RunConfig.call_model_input_filter`` for ``kit``'s profile and
    ``policy`` (see :class:`TodokitInputFilter`)."""
    return TodokitInputFilter(kit, conversation, policy)
