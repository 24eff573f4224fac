"""The values the package hands a host: a profile and its tools, a
stored list and the store's conversations, notices, the policy's
injections and verdicts (a call's ``ToolResult`` is the native module's
own class). The native module builds them as Python objects; the
dictionaries are typed here, key for key as the Rust types serialize (a
Rust test holds these declarations to those types)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict


#: A task's status, as stored.
Status = Literal["pending", "in_progress", "blocked", "completed", "abandoned"]


class _TaskRequired(TypedDict):
    content: str
    status: Status


class Task(_TaskRequired, total=False):
    """One task of a stored list (keys a list does not use are absent; a
    profile's own extra keys may be present too)."""

    id: str
    active_form: str
    priority: Literal["high", "medium", "low"]
    notes: list[str]
    description: str
    owner: str
    metadata: dict[str, Any]
    blocked_by: list[str]
    parent: str
    kind: str
    blocked_reason: str
    #: Milliseconds since the epoch.
    created_at: int
    #: Milliseconds since the epoch.
    status_changed_at: int


class Phase(TypedDict):
    """A named group of tasks (one unnamed phase for a flat list)."""

    name: str
    tasks: list[Task]


class StoredNotice(TypedDict, total=False):
    """A notice as a stored list holds it (see :class:`Notice`)."""

    kind: str
    at: int
    text: str
    action: str


class _StateRequired(TypedDict):
    version: int
    phases: list[Phase]


class State(_StateRequired, total=False):
    """A conversation's stored list: exactly ``todokit show --format json``."""

    next_id: int
    notices: list[StoredNotice]
    profile: str
    explanation: str
    document: str
    turn: dict[str, Any]


class StatusCounts(TypedDict):
    """How many tasks of a list stand at each status."""

    pending: int
    in_progress: int
    blocked: int
    completed: int
    abandoned: int


class ConversationSummary(TypedDict):
    """One conversation of the store: exactly an item of ``todokit
    conversations --format json``."""

    id: str
    #: Milliseconds since the epoch, ``None`` when the store cannot tell.
    changed_at: int | None
    version: int
    counts: StatusCounts
    in_progress: str | None
    profile: str | None
    problem: str | None

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

    state: State
    counters: dict[str, Any]


def _injections(raw: list[dict[str, str]]) -> list[Injection]:
    return [Injection(i["placement"], i["kind"], i["text"]) for i in raw]
