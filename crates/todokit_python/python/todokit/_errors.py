"""The exceptions todokit raises, and how a native error becomes one."""

from __future__ import annotations

from ._types import ToolResult


class TodokitError(Exception):
    """Every error todokit raises (a model's bad arguments are not errors:
    they come back as a ``ToolResult`` with ``is_error``)."""


class UnknownProfileError(TodokitError, ValueError):
    """No profile has that name; ``todokit.profiles()`` lists them."""


class UnknownToolError(TodokitError, LookupError):
    """The profile has no tool of that name."""


class StoreError(TodokitError, OSError):
    """The store could not be read or written; nothing was stored by the
    call that failed.

    When the failure ended a round (:meth:`Todokit.call_round`), ``index``
    is the position of that call in the calls given, and ``answered`` the
    results of the calls before it, in order: what they stored stays
    stored, and the calls after ``index`` did not run. Otherwise ``index``
    is ``None`` and ``answered`` empty."""

    index: int | None = None
    answered: list[ToolResult]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.answered = []


class UncertainCommitError(StoreError):
    """A write whose outcome cannot be known: read the list back before
    making it again (the command's exit status 4)."""


class EditError(TodokitError, ValueError):
    """A hand edit was refused (no such task, an ambiguous name, a bad
    action); the list is unchanged."""


_BY_CODE: dict[str, type[TodokitError]] = {
    "UNKNOWN_PROFILE": UnknownProfileError,
    "UNKNOWN_TOOL": UnknownToolError,
    "STORE": StoreError,
    "STORE_UNCERTAIN": UncertainCommitError,
    "EDIT": EditError,
    "USAGE": TodokitError,
}


def translate(error: Exception) -> TodokitError:
    """The exception of the tree for a native error ``(code, message)``,
    or ``(code, message, index, answered)`` for one that ended a round."""
    code, message = (tuple(error.args) + ("", ""))[:2]
    translated = _BY_CODE.get(str(code), TodokitError)(str(message))
    if isinstance(translated, StoreError) and len(error.args) == 4:
        index, answered = error.args[2], error.args[3]
        translated.index = int(index)
        translated.answered = [ToolResult(answer) for answer in answered]
    return translated
