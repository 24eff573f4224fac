"""A LangChain 1.x agent middleware that gives the model a todokit profile.

Install with the ``langchain`` extra. ``TodokitMiddleware(kit)`` replaces
``TodoListMiddleware()`` in ``create_agent(..., middleware=[...])``:

- the model gets the profile's tools and, appended to its system message,
  the profile's system prompt;
- a model turn's todo calls run together through
  :meth:`todokit.Todokit.call_round` (so ``deepagents`` refuses two
  ``write_todos`` in one turn in the original's words, storing nothing);
- the turn policy's reminders go into the model request only, never into
  the graph's messages;
- when the model stops with work open, ``end_of_turn="strict"`` sends it
  back with the reminder and ``"soft"`` leaves the warning in the state
  key ``todokit_warning``;
- the list is mirrored into the state key ``todos`` (``content`` and
  ``status`` per item), where ``TodoListMiddleware``'s interfaces read it.

The conversation is the run's ``thread_id`` (``config["configurable"]``),
else the ``conversation=`` given, else the middleware raises
:class:`todokit.TodokitError`. The turn (its counters, the reminders
waiting for the next request) is kept with the conversation by the Rust
turn driver, so a second process on the same store carries it on; the
middleware only translates LangChain's hooks. It is longer than the other
adapters for the ``todos`` mirror and the model request's messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, Literal

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ModelRequest,
    ModelResponse,
    OmitFromInput,
    hook_config,
)
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.config import get_config
from typing_extensions import NotRequired

from . import Injection, Todokit, TodokitError, ToolResult, TurnEnd, TurnPolicy

__all__ = ["TodokitMiddleware", "TodokitState"]


class TodokitState(AgentState[Any]):
    """The graph state the middleware adds: ``todos`` (the stored list,
    ``content`` and ``status`` per item) and ``todokit_warning`` (what
    ``end_of_turn="soft"`` tells the user when the model stopped with work
    open; ``None`` otherwise)."""

    todos: Annotated[NotRequired[list[dict[str, Any]]], OmitFromInput]
    todokit_warning: Annotated[NotRequired[str | None], OmitFromInput]


def mirror(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The stored list (:meth:`Todokit.state`) in ``TodoListMiddleware``'s
    shape: every item of every phase, ``content`` and ``status``."""
    return [
        {"content": task["content"], "status": task["status"]}
        for phase in state.get("phases", [])
        for task in phase.get("tasks", [])
    ]


class TodokitMiddleware(AgentMiddleware[TodokitState, Any, Any]):
    """The profile of ``kit`` as a LangChain agent middleware (see the
    module's documentation)."""

    state_schema = TodokitState

    def __init__(
        self,
        kit: Todokit,
        *,
        conversation: str | None = None,
        end_of_turn: Literal["off", "soft", "strict"] = "soft",
        nag_after_rounds: int | None = None,
    ) -> None:
        super().__init__()
        if end_of_turn not in ("off", "soft", "strict"):
            raise ValueError(f"end_of_turn must be one of off, soft, strict; got {end_of_turn!r}")
        self.kit = kit
        self.conversation = conversation
        self.end_of_turn = end_of_turn
        self.nag_after_rounds = nag_after_rounds
        self._names = {tool.name for tool in kit.profile.tools}
        self.tools: Sequence[BaseTool] = [self._tool(d) for d in kit.definitions("json-schema")]

    @property
    def name(self) -> str:
        return f"TodokitMiddleware[{self.kit.profile.name}]"

    def _conversation_id(self) -> str:
        try:
            configurable = get_config().get("configurable") or {}
        except RuntimeError:
            configurable = {}
        thread = configurable.get("thread_id")
        if thread is not None:
            return str(thread)
        if self.conversation is not None:
            return self.conversation
        raise TodokitError(
            "TodokitMiddleware needs a conversation: run the agent with "
            'config={"configurable": {"thread_id": ...}} or give conversation='
        )

    def _policy(self, conversation: str) -> TurnPolicy:
        return self.kit.turn_policy(
            conversation, end_of_turn=self.end_of_turn, nag_after_rounds=self.nag_after_rounds
        )

    def _tool(self, definition: dict[str, Any]) -> BaseTool:
        name: str = definition["name"]

        def answer(result: ToolResult) -> str:
            if result.is_error:
                raise ToolException(result.content)
            return result.content

        # Reached only when the tools node runs a call this middleware did
        # not answer in `after_model` (another middleware's jump, say).
        def run(**arguments: Any) -> str:
            return answer(self.kit.call(self._conversation_id(), name, arguments))

        async def arun(**arguments: Any) -> str:
            return answer(await self.kit.acall(self._conversation_id(), name, arguments))

        return StructuredTool.from_function(
            func=run,
            coroutine=arun,
            name=name,
            description=definition["description"],
            args_schema=definition["schema"],
            infer_schema=False,
            handle_tool_error=True,
        )

    def before_agent(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        """A new user prompt: the end-of-turn budget starts over, and the
        stored list is mirrored (a thread picks up what the store holds)."""
        conversation = self._conversation_id()
        self._policy(conversation).on_user_prompt()
        return {"todos": mirror(self.kit.state(conversation)), "todokit_warning": None}

    async def abefore_agent(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        conversation = self._conversation_id()
        await self._policy(conversation).aon_user_prompt()
        return {"todos": mirror(await self.kit.astate(conversation)), "todokit_warning": None}

    def _request(self, request: ModelRequest[Any], injections: list[Injection]) -> ModelRequest[Any]:
        prompt = self.kit.profile.system_prompt
        if request.system_message is not None:
            blocks: list[Any] = [
                *request.system_message.content_blocks,
                {"type": "text", "text": f"\n\n{prompt}"},
            ]
        else:
            blocks = [{"type": "text", "text": prompt}]
        messages: list[AnyMessage] = list(request.messages)
        for injection in injections:
            last = messages[-1] if messages else None
            if (
                injection.placement == "after_tool_results"
                and isinstance(last, ToolMessage)
                and isinstance(last.content, str)
            ):
                messages[-1] = last.model_copy(update={"content": f"{last.content}\n\n{injection.text}"})
            else:
                messages.append(HumanMessage(content=injection.text))
        return request.override(system_message=SystemMessage(content=blocks), messages=messages)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any] | AIMessage:
        """Adds the system prompt and the reminders due to the request."""
        injections = self._policy(self._conversation_id()).before_request()
        return handler(self._request(request, injections))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any] | AIMessage:
        injections = await self._policy(self._conversation_id()).abefore_request()
        return await handler(self._request(request, injections))

    def _last_turn(self, state: TodokitState) -> tuple[AIMessage | None, list[Any]]:
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        if not isinstance(last, AIMessage):
            return None, []
        return last, [call for call in last.tool_calls if call["name"] in self._names]

    @hook_config(can_jump_to=["model"])
    def after_model(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        """Runs the turn's todo calls as one round, or checks the end of a
        turn that made no call."""
        last, ours = self._last_turn(state)
        if last is None:
            return None
        conversation = self._conversation_id()
        policy = self._policy(conversation)
        if not last.tool_calls:
            return _turn_end(policy.on_turn_end(carry=True))
        results = self.kit.call_round(conversation, [(c["name"], c["args"]) for c in ours]) if ours else []
        policy.on_tool_results(_round(last, ours, results))
        return _answers(ours, results, self.kit.state(conversation) if ours else None)

    @hook_config(can_jump_to=["model"])
    async def aafter_model(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        last, ours = self._last_turn(state)
        if last is None:
            return None
        conversation = self._conversation_id()
        policy = self._policy(conversation)
        if not last.tool_calls:
            return _turn_end(await policy.aon_turn_end(carry=True))
        results = await self.kit.acall_round(conversation, [(c["name"], c["args"]) for c in ours]) if ours else []
        await policy.aon_tool_results(_round(last, ours, results))
        return _answers(ours, results, await self.kit.astate(conversation) if ours else None)


def _round(last: AIMessage, ours: list[Any], results: list[ToolResult]) -> list[Any]:
    """Every call of the model's turn for the policy, with whether it failed
    (no ids: `after_model` sees each turn once)."""
    failed = {call["id"]: result.is_error for call, result in zip(ours, results)}
    return [(call["name"], failed.get(call["id"], False)) for call in last.tool_calls]


def _answers(ours: list[Any], results: list[ToolResult], stored: dict[str, Any] | None) -> dict[str, Any] | None:
    if not ours or stored is None:
        return None
    messages = [
        ToolMessage(
            content=result.content,
            tool_call_id=call["id"],
            name=call["name"],
            status="error" if result.is_error else "success",
        )
        for call, result in zip(ours, results)
    ]
    return {"messages": messages, "todos": mirror(stored)}


def _turn_end(end: TurnEnd) -> dict[str, Any]:
    # A reminder to go on waits in the turn for the next model request.
    if end.action == "continue" and end.injection is not None:
        return {"jump_to": "model", "todokit_warning": None}
    if end.action == "warn":
        return {"todokit_warning": end.text}
    return {"todokit_warning": None}
