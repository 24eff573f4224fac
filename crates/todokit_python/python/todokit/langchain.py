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
:class:`todokit.TodokitError`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
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

#: How many conversations' policies one middleware keeps in memory (the
#: least recently used goes first; its counters start over if it returns).
MAX_CONVERSATIONS = 4096


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


class _Conversation:
    """One conversation's policy and the reminders waiting for its next
    model request."""

    def __init__(self, policy: TurnPolicy) -> None:
        self.policy = policy
        self.pending: list[Injection] = []


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
        self._conversations: OrderedDict[str, _Conversation] = OrderedDict()
        self._lock = threading.Lock()
        self.tools: Sequence[BaseTool] = [self._tool(d) for d in kit.definitions("json-schema")]

    @property
    def name(self) -> str:
        return f"TodokitMiddleware[{self.kit.profile.name}]"

    # -- the conversation and its policy ---------------------------------

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

    def _state_of(self, conversation: str) -> _Conversation:
        with self._lock:
            found = self._conversations.get(conversation)
            if found is not None:
                self._conversations.move_to_end(conversation)
                return found
        policy = self.kit.turn_policy(
            conversation, end_of_turn=self.end_of_turn, nag_after_rounds=self.nag_after_rounds
        )
        with self._lock:
            found = self._conversations.setdefault(conversation, _Conversation(policy))
            while len(self._conversations) > MAX_CONVERSATIONS:
                self._conversations.popitem(last=False)
            return found

    # -- the tools ---------------------------------------------------------

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

    # -- the hooks -----------------------------------------------------------

    def before_agent(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        """A new user prompt: the end-of-turn budget starts over, and the
        stored list is mirrored (a thread picks up what the store holds)."""
        conversation = self._conversation_id()
        self._state_of(conversation).policy.on_user_prompt()
        return {"todos": mirror(self.kit.state(conversation)), "todokit_warning": None}

    async def abefore_agent(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        conversation = self._conversation_id()
        self._state_of(conversation).policy.on_user_prompt()
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

    def _take(self, conversation: str) -> tuple[_Conversation, list[Injection]]:
        held = self._state_of(conversation)
        with self._lock:
            pending, held.pending = held.pending, []
        return held, pending

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any] | AIMessage:
        """Adds the system prompt and the reminders due to the request."""
        held, injections = self._take(self._conversation_id())
        injections += held.policy.before_request() + held.policy.context()
        return handler(self._request(request, injections))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any] | AIMessage:
        held, injections = self._take(self._conversation_id())
        injections += await held.policy.abefore_request() + await held.policy.acontext()
        return await handler(self._request(request, injections))

    def _turn(self, state: TodokitState) -> tuple[AIMessage, list[Any], str, _Conversation] | None:
        """The model's last message, its calls of this profile's tools, the
        conversation and its policy; `None` when the last message is not
        the model's."""
        last, ours = self._last_turn(state)
        if last is None:
            return None
        conversation = self._conversation_id()
        return last, ours, conversation, self._state_of(conversation)

    @hook_config(can_jump_to=["model"])
    def after_model(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        """Runs the turn's todo calls as one round, or checks the end of a
        turn that made no call."""
        turn = self._turn(state)
        if turn is None:
            return None
        last, ours, conversation, held = turn
        if not last.tool_calls:
            return self._turn_end(held, held.policy.on_turn_end())
        if not ours:
            return self._round(held, last, [], [], None)
        results = self.kit.call_round(conversation, [(call["name"], call["args"]) for call in ours])
        return self._round(held, last, ours, results, self.kit.state(conversation))

    @hook_config(can_jump_to=["model"])
    async def aafter_model(self, state: TodokitState, runtime: Any) -> dict[str, Any] | None:
        turn = self._turn(state)
        if turn is None:
            return None
        last, ours, conversation, held = turn
        if not last.tool_calls:
            return self._turn_end(held, await held.policy.aon_turn_end())
        if not ours:
            return self._round(held, last, [], [], None)
        results = await self.kit.acall_round(conversation, [(call["name"], call["args"]) for call in ours])
        return self._round(held, last, ours, results, await self.kit.astate(conversation))

    def _last_turn(self, state: TodokitState) -> tuple[AIMessage | None, list[Any]]:
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        if not isinstance(last, AIMessage):
            return None, []
        return last, [call for call in last.tool_calls if call["name"] in self._names]

    def _round(
        self,
        held: _Conversation,
        last: AIMessage,
        ours: list[Any],
        results: list[ToolResult],
        stored: dict[str, Any] | None,
    ) -> dict[str, Any] | None:
        answered = {call["id"]: result.is_error for call, result in zip(ours, results)}
        injections = held.policy.on_tool_results(
            [(call["name"], answered.get(call["id"], False)) for call in last.tool_calls]
        )
        with self._lock:
            held.pending.extend(injections)
        if not ours:
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
        update: dict[str, Any] = {"messages": messages}
        if stored is not None:
            update["todos"] = mirror(stored)
        return update

    def _turn_end(self, held: _Conversation, end: TurnEnd) -> dict[str, Any] | None:
        if end.action == "continue" and end.injection is not None:
            with self._lock:
                held.pending.append(end.injection)
            return {"jump_to": "model", "todokit_warning": None}
        if end.action == "warn":
            return {"todokit_warning": end.text}
        return {"todokit_warning": None}
