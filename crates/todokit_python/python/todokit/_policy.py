"""`TurnPolicy`: one conversation's turn, driven by the Rust turn driver."""

from __future__ import annotations

from functools import partial
from typing import Any, Sequence, Tuple, Union

from . import _todokit
from ._call import _off_loop
from ._types import Injection, TurnEnd, _injections

#: One call of a round: ``(tool, is_error)``, or ``(tool, is_error, call_id)``
#: where the host has an id for it (a call handed over twice counts once).
RoundCall = Union[Tuple[str, bool], Tuple[str, bool, str]]


def _round(round: Sequence[RoundCall]) -> list[tuple[str, bool, str | None]]:
    out: list[tuple[str, bool, str | None]] = []
    for call in round:
        call_id = call[2] if len(call) > 2 else None
        out.append((call[0], bool(call[1]), None if call_id is None else str(call_id)))
    return out


class TurnPolicy:
    """One conversation's reminders and end-of-turn check, kept with the
    conversation in the store: call its hooks at the points of the host's
    agent loop. Every hook reads and writes the store; each has an async
    twin (``abefore_request`` …)."""

    def __init__(self, native: _todokit.Policy, conversation: str) -> None:
        self._policy = native
        #: The conversation the policy follows.
        self.conversation = conversation

    def on_user_prompt(self) -> None:
        """The user sent a new prompt: the end-of-turn budget starts over."""
        self._policy.on_user_prompt()

    def on_tool_results(self, round: Sequence[RoundCall]) -> None:
        """A round of tool calls ran: what it calls for (the nag when due)
        waits for :meth:`before_request`."""
        self._policy.on_tool_results(_round(round))

    def before_request(self, round: Sequence[RoundCall] | None = None) -> list[Injection]:
        """Before the next request: what waits (the nag, a reminder to go
        on), what ``round`` (the one just run, if not handed to
        :meth:`on_tool_results`) calls for, the stale-list reminder, the
        user's hand edits (each told once) and what the profile restates
        before every request (Goose's todo)."""
        given = None if round is None else _round(round)
        return _injections(self._policy.before_request(given))

    def on_compaction(self) -> list[Injection]:
        """After the host compacted the conversation: the list to put back."""
        return _injections(self._policy.on_compaction())

    def on_turn_end(self, *, carry: bool = False) -> TurnEnd:
        """The model wants to end its turn with the list as stored. With
        ``carry``, a ``"continue"``'s reminder waits for the next
        :meth:`before_request` (a loop that goes straight back to the
        model); without, the host delivers ``injection`` itself."""
        raw = self._policy.on_turn_end(carry)
        injection = raw["injection"]
        return TurnEnd(
            raw["action"],
            raw["text"],
            None if injection is None else Injection(injection["placement"], injection["kind"], injection["text"]),
        )

    def counters(self) -> dict[str, Any]:
        """The counters as the conversation holds them (``counters=`` of
        :meth:`Todokit.turn_policy` takes them back)."""
        result: dict[str, Any] = self._policy.counters()
        return result

    async def aon_user_prompt(self) -> None:
        """:meth:`on_user_prompt`, awaited."""
        await _off_loop(self.on_user_prompt)

    async def aon_tool_results(self, round: Sequence[RoundCall]) -> None:
        """:meth:`on_tool_results`, awaited."""
        await _off_loop(partial(self.on_tool_results, round))

    async def abefore_request(self, round: Sequence[RoundCall] | None = None) -> list[Injection]:
        """:meth:`before_request`, awaited."""
        return await _off_loop(partial(self.before_request, round))

    async def aon_compaction(self) -> list[Injection]:
        """:meth:`on_compaction`, awaited."""
        return await _off_loop(self.on_compaction)

    async def aon_turn_end(self, *, carry: bool = False) -> TurnEnd:
        """:meth:`on_turn_end`, awaited."""
        return await _off_loop(partial(self.on_turn_end, carry=carry))
