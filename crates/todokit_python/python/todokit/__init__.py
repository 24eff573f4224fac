"""todokit: every agent's todo-list tool, in process.

A :class:`Todokit` is one profile (the tools one agent's model was trained
on) over one store: the command's own folder by default, so a list written
here is what ``todokit show`` and ``todokit watch`` see. Values are built
by the native module as Python objects with the fields, and the names, of
the command's ``--format json`` (typed as :class:`State`,
:class:`ConversationSummary` …).

>>> import todokit
>>> with todokit.Todokit("claude-code", memory=True) as kit:
...     result = kit.call("c", "TodoWrite", {"todos": [
...         {"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]})
...     kit.state("c")["version"]
1
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from functools import partial
from typing import Any, Literal, Mapping, Sequence, Union

from . import _todokit
from ._call import _off_loop
from ._errors import (
    EditError,
    StoreError,
    TodokitError,
    UncertainCommitError,
    UnknownProfileError,
    UnknownToolError,
)
from ._policy import RoundCall, TurnPolicy
from ._subscription import Subscription
from ._types import (
    ConversationSummary,
    Injection,
    Notice,
    Phase,
    Profile,
    Restored,
    State,
    Status,
    StatusCounts,
    Task,
    Tool,
    TurnEnd,
)
from ._todokit import ToolResult

__all__ = [
    "Arguments",
    "ConversationSummary",
    "EditError",
    "Injection",
    "Mode",
    "Notice",
    "Phase",
    "Profile",
    "Restored",
    "State",
    "Status",
    "StatusCounts",
    "StoreError",
    "Subscription",
    "Task",
    "Target",
    "Tool",
    "Todokit",
    "TurnEnd",
    "RoundCall",
    "TurnPolicy",
    "TodokitError",
    "ToolResult",
    "UncertainCommitError",
    "UnknownProfileError",
    "UnknownToolError",
    "__version__",
    "profiles",
]

__version__: str = _todokit.VERSION

#: The host's mode: in ``"plan"`` a tool whose original refuses every call
#: there (Codex's ``update_plan``) answers that refusal.
Mode = Literal["default", "plan"]

#: The model's arguments: its JSON text as it came (``str``, or ``bytes``
#: that must be UTF-8), or any value ``json.dumps`` writes.
Arguments = Union[str, bytes, bytearray, memoryview, Mapping[str, Any], Sequence[Any], int, float, bool, None]

#: The targets :meth:`Todokit.definitions` takes, as ``todokit schema --target``.
Target = Literal["json-schema", "openai", "openai-strict", "anthropic", "mcp"]


def profiles() -> list[str]:
    """The names of every profile, in registration order."""
    return _todokit.profiles()


def _argument_bytes(arguments: Arguments) -> bytes:
    if isinstance(arguments, str):
        # A lone surrogate is not UTF-8: it reaches the tool as bytes that
        # are not, and is refused there as the model's error.
        return arguments.encode("utf-8", "surrogatepass")
    if isinstance(arguments, (bytes, bytearray, memoryview)):
        return bytes(arguments)
    try:
        return json.dumps(arguments, allow_nan=False).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError) as error:
        raise TypeError(f"the arguments cannot be written as JSON: {error}") from error


class Todokit:
    """One profile over one store.

    ``store_dir`` is a folder of JSON files, ``memory=True`` keeps lists in
    this process only, ``database_url`` is a PostgreSQL URL; with none of
    them the store is the command's default folder (``TODOKIT_STORE``, else
    the platform's data folder), shared with ``todokit watch``.

    Close it (or use it as a context manager) when done. Create it after
    ``fork()``: one made in another process raises :class:`TodokitError`.
    """

    def __init__(
        self,
        profile: str = "claude-code",
        *,
        store_dir: str | os.PathLike[str] | None = None,
        memory: bool = False,
        database_url: str | None = None,
    ) -> None:
        self._kit: _todokit.Kit = _todokit.Kit(
            profile,
            None if store_dir is None else os.fspath(store_dir),
            memory,
            database_url,
        )
        info = self._kit.profile()
        self._profile = Profile(
            name=info["name"],
            summary=info["summary"],
            system_prompt=info["system_prompt"],
            tools=tuple(Tool(t["name"], t["description"], t["metadata"], t["commands"]) for t in info["tools"]),
            upstream=info["upstream"],
            example=info["example"],
        )

    @property
    def profile(self) -> Profile:
        """The profile this kit speaks."""
        return self._profile

    def definitions(self, target: Target = "json-schema") -> list[dict[str, Any]]:
        """The profile's tool definitions in ``target``'s shape: exactly what
        ``todokit schema --target`` prints."""
        result: list[dict[str, Any]] = self._kit.definitions(target)
        return result

    def call(self, conversation: str, tool: str, arguments: Arguments, *, mode: Mode = "default") -> ToolResult:
        """Runs one call of ``tool`` with the model's ``arguments``. A payload
        the model got wrong is a result with ``is_error``, never an
        exception; an unknown tool is :class:`UnknownToolError`."""
        payload = _argument_bytes(arguments)
        return self._kit.call(conversation, tool, payload, mode)

    def call_round(
        self, conversation: str, calls: Sequence[tuple[str, Arguments]], *, mode: Mode = "default"
    ) -> list[ToolResult]:
        """Runs the todo calls of one model turn, in order (a profile that
        allows a tool once per turn refuses every call of a turn holding
        several, as deepagents does)."""
        payloads = [(tool, _argument_bytes(arguments)) for tool, arguments in calls]
        return self._kit.call_round(conversation, payloads, mode)

    def state(self, conversation: str) -> State:
        """The stored list: exactly ``todokit show --format json``."""
        result: State = self._kit.state(conversation)
        return result

    def conversations(self) -> list[ConversationSummary]:
        """The store's conversations, most recently changed first: exactly
        ``todokit conversations --format json``."""
        result: list[ConversationSummary] = self._kit.conversations()
        return result

    def forget(self, conversation: str) -> bool:
        """Removes ``conversation`` for good, as ``todokit forget`` does: its
        list and what the agent loop kept beside it. Whether anything was
        stored. A writer racing it is either removed whole or kept whole."""
        result: bool = self._kit.forget(conversation)
        return result

    def prune(self, idle: timedelta | float, *, prefix: str = "", dry_run: bool = False) -> list[str]:
        """Removes every conversation whose id starts with ``prefix`` and that
        has not changed for ``idle`` (a :class:`~datetime.timedelta`, or
        seconds), as ``todokit prune`` does; with ``dry_run``, only names
        them. The ids, sorted. One written while it runs is kept."""
        seconds = idle.total_seconds() if isinstance(idle, timedelta) else idle
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"idle must be a timedelta or a number of seconds, not {type(idle).__name__}")
        result: list[str] = self._kit.prune(float(seconds), prefix, dry_run)
        return result

    def edit(self, conversation: str, action: Mapping[str, Any]) -> str | None:
        """A hand edit, as a user makes it from a terminal or the board:
        ``{"action": "append"|"start"|"done"|"drop"|"rm"|"claim"|"release",
        "name": ..., "items": [...], "phase": ..., "owner": ...}``. Returns
        what it did, or ``None`` when the list was already so; the model is
        told on its next turn. A refused edit is :class:`EditError`."""
        try:
            text = json.dumps(dict(action), allow_nan=False)
        except (TypeError, ValueError) as error:
            raise EditError(f"the edit cannot be written as JSON: {error}") from error
        result: str | None = self._kit.edit(conversation, text)
        return result

    def take_notices(self, conversation: str) -> list[Notice]:
        """The notices waiting for the model (hand edits), cleared as taken."""
        raw = self._kit.take_notices(conversation)
        return [Notice(n["kind"], n["at"], n["text"], n.get("action")) for n in raw]

    def restore(self, conversation: str, messages: Sequence[Mapping[str, Any]]) -> Restored:
        """Rebuilds ``conversation`` from the host's own transcript (OpenAI
        chat messages with ``tool_calls``, or Anthropic messages with
        ``tool_use`` blocks) by replaying its todo calls, and stores the
        list in place of what the store held."""
        try:
            text = json.dumps(list(messages), allow_nan=False)
        except (ValueError, RecursionError) as error:
            raise TypeError(f"the messages cannot be written as JSON: {error}") from error
        state, counters = self._kit.restore(conversation, text)
        return Restored(state, counters)

    def subscribe(self, conversation: str) -> Subscription:
        """A live feed of ``conversation``'s list (see :class:`Subscription`)."""
        return Subscription(self._kit.subscribe(conversation))

    async def arestore(self, conversation: str, messages: Sequence[Mapping[str, Any]]) -> Restored:
        """:meth:`restore`, awaited."""
        return await _off_loop(partial(self.restore, conversation, messages))

    def turn_policy(
        self,
        conversation: str,
        *,
        end_of_turn: Literal["off", "soft", "strict"] | None = None,
        nag_after_rounds: int | None = None,
        counters: Mapping[str, Any] | None = None,
    ) -> TurnPolicy:
        """The turn of ``conversation`` on this kit, driven by the Rust turn
        driver: what it remembers (counters, reminders waiting for the next
        request, how strict the end of a turn is) is stored with the
        conversation, so another kit on the same store carries on the same
        turn. ``end_of_turn`` ``"soft"`` warns the user when the model stops
        with work open, ``"strict"`` sends it back (a few times at most),
        ``"off"`` does neither; given, it is stored with the conversation,
        else the conversation keeps what was stored (``"soft"`` at first).
        ``nag_after_rounds`` overrides the profile's; ``counters`` (a
        policy's :meth:`TurnPolicy.counters`) replaces what the
        conversation holds. Nothing is stored until the first hook runs."""
        counters_text = None if counters is None else json.dumps(dict(counters))
        native = self._kit.turn_policy(conversation, end_of_turn, nag_after_rounds, counters_text)
        return TurnPolicy(native, conversation)

    async def acall(
        self, conversation: str, tool: str, arguments: Arguments, *, mode: Mode = "default"
    ) -> ToolResult:
        """:meth:`call`, awaited (the call runs on a worker thread, the GIL
        released; the event loop keeps running)."""
        return await _off_loop(partial(self.call, conversation, tool, arguments, mode=mode))

    async def acall_round(
        self, conversation: str, calls: Sequence[tuple[str, Arguments]], *, mode: Mode = "default"
    ) -> list[ToolResult]:
        """:meth:`call_round`, awaited."""
        return await _off_loop(partial(self.call_round, conversation, calls, mode=mode))

    async def astate(self, conversation: str) -> State:
        """:meth:`state`, awaited."""
        return await _off_loop(partial(self.state, conversation))

    async def aconversations(self) -> list[ConversationSummary]:
        """:meth:`conversations`, awaited."""
        return await _off_loop(self.conversations)

    async def aedit(self, conversation: str, action: Mapping[str, Any]) -> str | None:
        """:meth:`edit`, awaited."""
        return await _off_loop(partial(self.edit, conversation, action))

    async def atake_notices(self, conversation: str) -> list[Notice]:
        """:meth:`take_notices`, awaited."""
        return await _off_loop(partial(self.take_notices, conversation))

    async def aforget(self, conversation: str) -> bool:
        """:meth:`forget`, awaited."""
        return await _off_loop(partial(self.forget, conversation))

    async def aprune(self, idle: timedelta | float, *, prefix: str = "", dry_run: bool = False) -> list[str]:
        """:meth:`prune`, awaited."""
        return await _off_loop(partial(self.prune, idle, prefix=prefix, dry_run=dry_run))

    def close(self) -> None:
        """Lets go of the store; later calls raise :class:`TodokitError`."""
        self._kit.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._kit.closed

    def __enter__(self) -> Todokit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Todokit(profile={self._profile.name!r}, closed={self.closed!r})"
