"""`TurnPolicy`: one conversation's reminders and end-of-turn check."""

from __future__ import annotations

import json
from functools import partial
from typing import Any, Sequence

from . import _todokit
from ._call import _native, _off_loop
from ._types import Injection, TurnEnd, _injections

class TurnPolicy:
    """One conversation's reminders and end-of-turn check, as the Rust
    ``TurnPolicy``: call its hooks at the points of the host's agent loop.
    The hooks that need the list read it from the kit's store; they have
    async twins (``abefore_request`` …)."""

    def __init__(self, native: _todokit.Policy, conversation: str) -> None:
        self._policy = native
        #: The conversation the policy follows.
        self.conversation = conversation

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
