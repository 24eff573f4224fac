"""The values the package hands a host: a profile and its tools, a call's
result, notices, the policy's injections and verdicts."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

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
