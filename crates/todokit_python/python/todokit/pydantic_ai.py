"""A todokit profile for PydanticAI (the ``pydantic-ai`` extra).

:func:`tools` gives the profile's tools (its exact JSON Schemas; a tool it
marks exclusive runs alone); a refusal reaches the model in the profile's
words as ``ToolFailed``, which uses up no retry. :class:`TodokitCapability`
adds the system prompt to the instructions and the turn's reminders to
each model request (never to the run's history); after a run, its
:meth:`TodokitCapability.turn_end` checks the end of the turn (sending the
model back is a new run whose prompt is the reminder).

``conversation`` is a string, a function of the run's ``RunContext``, or
``None`` for the run's own ``conversation_id``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Union

from pydantic_ai import RunContext, Tool
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ToolFailed
from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models import ModelRequestContext

from . import RoundCall, Todokit, TodokitError, TurnEnd, TurnPolicy
from ._adapt import resolve

__all__ = ["Conversation", "TodokitCapability", "tools"]

#: A conversation id, how to read it from the run's context, or ``None``
#: for ``RunContext.conversation_id``.
Conversation = Union[str, Callable[[RunContext[Any]], str], None]


def _resolve(conversation: Conversation, ctx: RunContext[Any]) -> str:
    if conversation is not None:
        return resolve(conversation, ctx)
    if ctx.conversation_id is None:
        raise TodokitError("this run has no conversation_id: give the todokit tools a conversation")
    return ctx.conversation_id


def tools(kit: Todokit, conversation: Conversation = None) -> list[Tool[Any]]:
    """The profile's tools as PydanticAI tools."""
    exclusive = {tool.name: bool(tool.metadata.get("exclusive")) for tool in kit.profile.tools}

    def tool(name: str, description: str, schema: dict[str, Any]) -> Tool[Any]:
        async def run(ctx: RunContext[Any], **arguments: Any) -> str:
            result = await kit.acall(_resolve(conversation, ctx), name, arguments)
            if result.is_error:
                raise ToolFailed(result.content)
            return result.content

        return Tool.from_schema(
            run, name=name, description=description, json_schema=schema, takes_ctx=True, sequential=exclusive[name]
        )

    return [tool(d["name"], d["description"], d["schema"]) for d in kit.definitions("json-schema")]


class TodokitCapability(AbstractCapability[Any]):
    """The profile's system prompt and ``policy``'s reminders on every model
    request of an agent's runs (see the module's documentation). What the
    turn remembers is stored with the conversation (the Rust turn driver)."""

    def __init__(self, kit: Todokit, policy: TurnPolicy) -> None:
        super().__init__()
        self.kit = kit
        self.policy = policy

    def get_instructions(self) -> str:
        return self.kit.profile.system_prompt

    def _round(self, messages: list[Any]) -> list[RoundCall] | None:
        """The tool calls of the last model response, each with whether it
        failed and its id (the driver counts a call it was told of once)."""
        last_response = next((m for m in reversed(messages) if isinstance(m, ModelResponse)), None)
        if last_response is None:
            return None
        failed = {
            part.tool_call_id
            for message in messages
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, ToolReturnPart) and part.outcome != "success"
        }
        calls: list[RoundCall] = [
            (part.tool_name, part.tool_call_id in failed, part.tool_call_id)
            for part in last_response.parts
            if isinstance(part, ToolCallPart)
        ]
        return calls or None

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        messages = list(request_context.messages)
        injections = await self.policy.abefore_request(self._round(messages))
        if not injections:
            return request_context
        reminders = [UserPromptPart(content=injection.text) for injection in injections]
        last = messages[-1] if messages else None
        if isinstance(last, ModelRequest):
            # A copy: the history keeps the message as it was.
            messages[-1] = dataclasses.replace(last, parts=[*last.parts, *reminders])
        else:
            messages.append(ModelRequest(parts=reminders))
        return dataclasses.replace(request_context, messages=messages)

    def turn_end(self) -> TurnEnd:
        """After a run: ``"continue"`` (send the model back: run again on
        ``result.all_messages()`` with ``end.injection.text`` as the
        prompt), ``"warn"`` (show the user ``end.text``) or ``"end"``."""
        return self.policy.on_turn_end()

    async def aturn_end(self) -> TurnEnd:
        """:meth:`turn_end`, awaited."""
        return await self.policy.aon_turn_end()
