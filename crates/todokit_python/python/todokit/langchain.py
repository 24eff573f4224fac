"""A LangChain 1.x agent middleware with a todokit profile (the
``langchain`` extra): ``TodokitMiddleware(kit)`` takes the place of
``TodoListMiddleware()`` in ``create_agent(..., middleware=[...])``.

The model gets the profile's tools and its system prompt; a model turn's
todo calls run together as one round (``deepagents`` refuses two
``write_todos`` in its words); the turn's reminders go into the model
request only; at the end of a turn ``end_of_turn="strict"`` sends the model
back, ``"soft"`` leaves the warning in the state key ``todokit_warning``.
The conversation is the run's ``thread_id``, else ``conversation=``.

Longer than the other adapters by what LangChain's graph needs besides the
turn: the ``todos`` state key, which mirrors the stored list where
``TodoListMiddleware``'s readers look (``mirror``, ``_answers``), and the
reminders placed into the request's messages (``_request``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from functools import partial
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

from . import Injection, State, Todokit, TodokitError, ToolResult, TurnEnd, TurnPolicy
from ._call import _off_loop

__all__ = ["TodokitMiddleware", "TodokitState"]


class TodokitState(AgentState[Any]):
    """The state keys added: ``todos`` (the stored list, ``content`` and
    ``status`` per item) and ``todokit_warning`` (the soft end of turn's)."""

    todos: Annotated[NotRequired[list[dict[str, Any]]], OmitFromInput]
    todokit_warning: Annotated[NotRequired[str | None], OmitFromInput]


def mirror(state: State) -> list[dict[str, Any]]:
    """The stored list in ``TodoListMiddleware``'s shape."""
    return [{"content": t["content"], "status": t["status"]} for p in state["phases"] for t in p["tasks"]]


class TodokitMiddleware(AgentMiddleware[TodokitState, Any, Any]):
    """The profile of ``kit`` as a LangChain agent middleware (see the module)."""

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
        self.kit, self.conversation, self.end_of_turn, self.nag_after_rounds = kit, conversation, end_of_turn, nag_after_rounds
        self._names = {tool.name for tool in kit.profile.tools}
        self.tools: Sequence[BaseTool] = [self._tool(d) for d in kit.definitions("json-schema")]

    @property
    def name(self) -> str:
        return f"TodokitMiddleware[{self.kit.profile.name}]"

    def _conversation(self) -> str:
        try:
            thread = (get_config().get("configurable") or {}).get("thread_id")
        except RuntimeError:
            thread = None
        if thread is not None or self.conversation is not None:
            return str(thread) if thread is not None else str(self.conversation)
        raise TodokitError(
            "TodokitMiddleware needs a conversation: run the agent with "
            'config={"configurable": {"thread_id": ...}} or give conversation='
        )

    def _policy(self, conversation: str) -> TurnPolicy:
        return self.kit.turn_policy(conversation, end_of_turn=self.end_of_turn, nag_after_rounds=self.nag_after_rounds)

    def _tool(self, definition: dict[str, Any]) -> BaseTool:
        # Reached only when the tools node runs a call `after_model` did not
        # answer (another middleware's jump, say).
        name: str = definition["name"]

        def answer(result: ToolResult) -> str:
            if result.is_error:
                raise ToolException(result.content)
            return result.content

        async def arun(**arguments: Any) -> str:
            return answer(await self.kit.acall(self._conversation(), name, arguments))

        return StructuredTool.from_function(
            func=lambda **arguments: answer(self.kit.call(self._conversation(), name, arguments)),
            coroutine=arun, name=name, description=definition["description"],
            args_schema=definition["schema"], infer_schema=False, handle_tool_error=True,
        )  # fmt: skip

    # Each async hook reads the conversation on the event loop (LangGraph's
    # config lives in a context variable) and runs the sync one off it.
    def before_agent(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        """A new user prompt; the stored list is mirrored."""
        return self._start(self._conversation())

    async def abefore_agent(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        return await _off_loop(partial(self._start, self._conversation()))

    def _start(self, conversation: str) -> dict[str, Any]:
        self._policy(conversation).on_user_prompt()
        return {"todos": mirror(self.kit.state(conversation)), "todokit_warning": None}

    def _request(self, request: ModelRequest[Any], injections: list[Injection]) -> ModelRequest[Any]:
        prompt = self.kit.profile.system_prompt
        system = request.system_message
        blocks: list[Any] = [{"type": "text", "text": prompt}]
        if system is not None:
            blocks = [*system.content_blocks, {"type": "text", "text": f"\n\n{prompt}"}]
        messages: list[AnyMessage] = list(request.messages)
        for injection in injections:
            last = messages[-1] if messages else None
            if injection.placement == "after_tool_results" and isinstance(last, ToolMessage) and isinstance(last.content, str):
                messages[-1] = last.model_copy(update={"content": f"{last.content}\n\n{injection.text}"})
            else:
                messages.append(HumanMessage(content=injection.text))
        return request.override(system_message=SystemMessage(content=blocks), messages=messages)

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], ModelResponse[Any]]
    ) -> ModelResponse[Any] | AIMessage:
        """Adds the system prompt and the reminders due to the request."""
        return handler(self._request(request, self._policy(self._conversation()).before_request()))

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]]
    ) -> ModelResponse[Any] | AIMessage:
        return await handler(self._request(request, await self._policy(self._conversation()).abefore_request()))

    @hook_config(can_jump_to=["model"])
    def after_model(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        """Runs the turn's todo calls as one round, or checks the end of a
        turn that made no call."""
        return self._after(state, self._conversation())

    @hook_config(can_jump_to=["model"])
    async def aafter_model(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        return await _off_loop(partial(self._after, state, self._conversation()))

    def _after(self, state: TodokitState, conversation: str) -> dict[str, Any] | None:
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        if not isinstance(last, AIMessage):
            return None
        policy = self._policy(conversation)
        if not last.tool_calls:
            return _turn_end(policy.on_turn_end(carry=True))
        ours = [call for call in last.tool_calls if call["name"] in self._names]
        results = self.kit.call_round(conversation, [(c["name"], c["args"]) for c in ours]) if ours else []
        policy.on_tool_results(_round(last, ours, results))
        return _answers(ours, results, self.kit.state(conversation) if ours else None)


def _round(last: AIMessage, ours: list[Any], results: list[ToolResult]) -> list[Any]:
    # No ids: `after_model` sees each turn once.
    failed = {call["id"]: result.is_error for call, result in zip(ours, results)}
    return [(call["name"], failed.get(call["id"], False)) for call in last.tool_calls]


def _answers(ours: list[Any], results: list[ToolResult], stored: State | None) -> dict[str, Any] | None:
    if not ours or stored is None:
        return None
    status = {True: "error", False: "success"}
    messages = [
        ToolMessage(content=r.content, tool_call_id=c["id"], name=c["name"], status=status[r.is_error])
        for c, r in zip(ours, results)
    ]
    return {"messages": messages, "todos": mirror(stored)}


def _turn_end(end: TurnEnd) -> dict[str, Any]:
    # A reminder to go on waits in the turn for the next model request.
    if end.action == "continue" and end.injection is not None:
        return {"jump_to": "model", "todokit_warning": None}
    return {"todokit_warning": end.text if end.action == "warn" else None}
