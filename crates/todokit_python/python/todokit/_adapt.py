"""What the framework adapters share: reading a conversation id from a
run's context."""

from __future__ import annotations

from typing import Any, Callable, Union

#: A conversation id, or how to read it from a run's context.
Conversation = Union[str, Callable[[Any], str]]


def resolve(conversation: Conversation, context: Any) -> str:
    """The conversation id: `conversation` itself, or what it returns for
    the run's `context`."""
    if isinstance(conversation, str):
        return conversation
    resolved = conversation(context)
    if not isinstance(resolved, str):
        raise TypeError(f"the conversation function must return a str, not {type(resolved).__name__}")
    return resolved
