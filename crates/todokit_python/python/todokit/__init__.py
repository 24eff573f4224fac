"""todokit: every agent's todo-list tool, in process.

A :class:`Todokit` is one profile (the tools one agent's model was trained
on) over one store: the command's own folder by default, so a list written
here is what ``todokit show`` and ``todokit watch`` see. Values are the
JSON the Rust library writes: the same fields, with the same names, as the
command's ``--format json``.

>>> import todokit
>>> with todokit.Todokit("claude-code", memory=True) as kit:
...     result = kit.call("c", "TodoWrite", {"todos": [
...         {"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]})
...     kit.state("c")["version"]
1
"""

from __future__ import annotations

import asyncio
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Literal, Mapping, Sequence, TypeVar, Union

from . import _todokit
from ._errors import (
    EditError,
    StoreError,
    TodokitError,
    UncertainCommitError,
    UnknownProfileError,
    UnknownToolError,
    translate,
)

__all__ = [
    "Arguments",
    "EditError",
    "Injection",
    "Mode",
    "Notice",
    "Profile",
    "Restored",
    "StoreError",
    "Target",
    "Tool",
    "Todokit",
    "TurnEnd",
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


_T = TypeVar("_T")

#: The threads the async twins run their calls on. Python's own threads:
#: a call's result is handed to the event loop by asyncio, never settled
#: from one of the store's native threads (which would crash the
#: interpreter at exit), and idle ones never keep the interpreter alive.
_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="todokit")


async def _off_loop(work: Callable[[], _T]) -> _T:
    return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, work)


def profiles() -> list[str]:
    """The names of every profile, in registration order."""
    return _todokit.profiles()


@dataclass(frozen=True)
class Tool:
    """One tool of a profile: its name, description and host-facing facts
    (``read_only``, ``destructive``, ``exclusive``, ``refused_in`` …)."""

    name: str
    description: str
    metadata: dict[str, Any]
    commands: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    """A profile: its name, the words to add to the system prompt, its tools
    and the upstream version it reproduces."""

    name: str
    summary: str
    system_prompt: str
    tools: tuple[Tool, ...]
    upstream: dict[str, Any] | None
    #: A call the model could make: ``{"tool": ..., "arguments": <JSON text>}``.
    example: dict[str, str] | None = None


class ToolResult:
    """What a call gives the model: ``content`` (the text it reads),
    ``is_error`` (a refusal; nothing was stored), and ``details`` (the lists
    before and after, in the profile's shape; parsed when first read)."""

    __slots__ = ("content", "is_error", "_details_text", "_details")

    content: str
    is_error: bool

    def __init__(self, content: str, is_error: bool, details_text: str) -> None:
        self.content = content
        self.is_error = is_error
        self._details_text = details_text
        self._details: Any = None

    @property
    def details(self) -> Any:
        """The details as Python data (parsed once, on first read)."""
        if self._details is None:
            self._details = json.loads(self._details_text)
        return self._details

    def __repr__(self) -> str:
        return f"ToolResult(is_error={self.is_error!r}, content={self.content!r})"


@dataclass(frozen=True)
class Notice:
    """Something the model should be told on its next turn (a hand edit):
    ``kind``, when (``at``, ms since the epoch), the ``text`` to show it and,
    for a hand edit, the user's ``action`` in words."""

    kind: str
    at: int
    text: str
    action: str | None = None


@dataclass(frozen=True)
class Injection:
    """Text for the model and where it goes: ``placement`` is
    ``"after_tool_results"`` (append it to the message carrying the tool
    results) or ``"before_request"`` (a message of its own before the next
    request); ``kind`` says why (``nag``, ``stale_list``, ``user_edit``,
    ``end_of_turn``, ``compaction``, ``context``)."""

    placement: str
    kind: str
    text: str


@dataclass(frozen=True)
class TurnEnd:
    """What to do when the model wants to end its turn: ``"end"``,
    ``"warn"`` (end, and show the user ``text``) or ``"continue"`` (send
    ``injection`` and keep looping)."""

    action: Literal["end", "warn", "continue"]
    text: str | None = None
    injection: Injection | None = None


@dataclass(frozen=True)
class Restored:
    """A conversation rebuilt from a transcript: the ``state`` stored (as
    :meth:`Todokit.state` gives it) and the policy's ``counters`` as the
    transcript left them (give them to :meth:`Todokit.turn_policy`)."""

    state: dict[str, Any]
    counters: dict[str, Any]


def _injections(text: str) -> list[Injection]:
    return [Injection(i["placement"], i["kind"], i["text"]) for i in json.loads(text)]


class TurnPolicy:
    """One conversation's reminders and end-of-turn check, as the Rust
    ``TurnPolicy``: call its hooks at the points of the host's agent loop.
    The hooks that need the list read it from the kit's store; they have
    async twins (``abefore_request`` …)."""

    def __init__(self, native: _todokit.Policy) -> None:
        self._policy = native

    def on_user_prompt(self) -> None:
        """The user sent a new prompt: the end-of-turn budget starts over."""
        _native(self._policy.on_user_prompt)

    def on_tool_results(self, round: Sequence[tuple[str, bool]]) -> list[Injection]:
        """A round of tool calls ran, ``(tool, is_error)`` each: the nag when due."""
        return _injections(_native(self._policy.on_tool_results, [(t, bool(e)) for t, e in round]))

    def before_request(self) -> list[Injection]:
        """Before the next request: the stale-list reminder and the user's
        hand edits (taken from the store, so each is told once)."""
        return _injections(_native(self._policy.before_request))

    def context(self) -> list[Injection]:
        """What the profile restates before every request (Goose's todo)."""
        return _injections(_native(self._policy.context))

    def on_compaction(self) -> list[Injection]:
        """After the host compacted the conversation: the list to put back."""
        return _injections(_native(self._policy.on_compaction))

    def on_turn_end(self) -> TurnEnd:
        """The model wants to end its turn with the list as stored."""
        raw = json.loads(_native(self._policy.on_turn_end))
        injection = raw["injection"]
        return TurnEnd(
            raw["action"],
            raw["text"],
            None if injection is None else Injection(injection["placement"], injection["kind"], injection["text"]),
        )

    @property
    def counters(self) -> dict[str, Any]:
        """The policy's memory, to keep with the conversation and give back
        as ``counters=`` to :meth:`Todokit.turn_policy`."""
        result: dict[str, Any] = json.loads(_native(lambda: self._policy.counters))
        return result

    async def aon_tool_results(self, round: Sequence[tuple[str, bool]]) -> list[Injection]:
        """:meth:`on_tool_results`, awaited."""
        return await _off_loop(partial(self.on_tool_results, round))

    async def abefore_request(self) -> list[Injection]:
        """:meth:`before_request`, awaited."""
        return await _off_loop(self.before_request)

    async def acontext(self) -> list[Injection]:
        """:meth:`context`, awaited."""
        return await _off_loop(self.context)

    async def aon_compaction(self) -> list[Injection]:
        """:meth:`on_compaction`, awaited."""
        return await _off_loop(self.on_compaction)

    async def aon_turn_end(self) -> TurnEnd:
        """:meth:`on_turn_end`, awaited."""
        return await _off_loop(self.on_turn_end)


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


def _native(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except _todokit.NativeError as error:
        raise translate(error) from None


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
        self._kit: _todokit.Kit = _native(
            _todokit.Kit,
            profile,
            None if store_dir is None else os.fspath(store_dir),
            memory,
            database_url,
        )
        info = json.loads(_native(self._kit.profile_json))
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
        result: list[dict[str, Any]] = json.loads(_native(self._kit.definitions, target))
        return result

    def call(self, conversation: str, tool: str, arguments: Arguments, *, mode: Mode = "default") -> ToolResult:
        """Runs one call of ``tool`` with the model's ``arguments``. A payload
        the model got wrong is a result with ``is_error``, never an
        exception; an unknown tool is :class:`UnknownToolError`."""
        payload = _argument_bytes(arguments)
        content, is_error, details = _native(self._kit.call, conversation, tool, payload, mode)
        return ToolResult(content, is_error, details)

    def call_round(
        self, conversation: str, calls: Sequence[tuple[str, Arguments]], *, mode: Mode = "default"
    ) -> list[ToolResult]:
        """Runs the todo calls of one model turn, in order (a profile that
        allows a tool once per turn refuses every call of a turn holding
        several, as deepagents does)."""
        payloads = [(tool, _argument_bytes(arguments)) for tool, arguments in calls]
        answers = _native(self._kit.call_round, conversation, payloads, mode)
        return [ToolResult(content, is_error, details) for content, is_error, details in answers]

    def state(self, conversation: str) -> dict[str, Any]:
        """The stored list: exactly ``todokit show --format json``."""
        result: dict[str, Any] = json.loads(_native(self._kit.state, conversation))
        return result

    def conversations(self) -> list[dict[str, Any]]:
        """The store's conversations, most recently changed first: exactly
        ``todokit conversations --format json``."""
        result: list[dict[str, Any]] = json.loads(_native(self._kit.conversations))
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
        result: str | None = _native(self._kit.edit, conversation, text)
        return result

    def take_notices(self, conversation: str) -> list[Notice]:
        """The notices waiting for the model (hand edits), cleared as taken."""
        raw = json.loads(_native(self._kit.take_notices, conversation))
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
        state, counters = _native(self._kit.restore, conversation, text)
        return Restored(json.loads(state), json.loads(counters))

    async def arestore(self, conversation: str, messages: Sequence[Mapping[str, Any]]) -> Restored:
        """:meth:`restore`, awaited."""
        return await _off_loop(partial(self.restore, conversation, messages))

    def turn_policy(
        self,
        conversation: str,
        *,
        end_of_turn: Literal["off", "soft", "strict"] = "soft",
        nag_after_rounds: int | None = None,
        counters: Mapping[str, Any] | None = None,
    ) -> TurnPolicy:
        """The turn policy of ``conversation`` on this kit: ``end_of_turn``
        ``"soft"`` warns the user when the model stops with work open,
        ``"strict"`` sends it back (a few times at most), ``"off"`` does
        neither; ``nag_after_rounds`` overrides the profile's; ``counters``
        (a policy's :attr:`TurnPolicy.counters`) picks up where it left off."""
        counters_text = None if counters is None else json.dumps(dict(counters))
        native = _native(self._kit.turn_policy, conversation, end_of_turn, nag_after_rounds, counters_text)
        return TurnPolicy(native)

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

    async def astate(self, conversation: str) -> dict[str, Any]:
        """:meth:`state`, awaited."""
        return await _off_loop(partial(self.state, conversation))

    async def aconversations(self) -> list[dict[str, Any]]:
        """:meth:`conversations`, awaited."""
        return await _off_loop(self.conversations)

    async def aedit(self, conversation: str, action: Mapping[str, Any]) -> str | None:
        """:meth:`edit`, awaited."""
        return await _off_loop(partial(self.edit, conversation, action))

    async def atake_notices(self, conversation: str) -> list[Notice]:
        """:meth:`take_notices`, awaited."""
        return await _off_loop(partial(self.take_notices, conversation))

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
