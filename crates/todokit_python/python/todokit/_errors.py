"""The exceptions todokit raises, and how a native error becomes one."""

from __future__ import annotations


class TodokitError(Exception):
    """Every error todokit raises (a model's bad arguments are not errors:
    they come back as a ``ToolResult`` with ``is_error``)."""


class UnknownProfileError(TodokitError, ValueError):
    """No profile has that name; ``todokit.profiles()`` lists them."""


class UnknownToolError(TodokitError, LookupError):
    """The profile has no tool of that name."""


class StoreError(TodokitError, OSError):
    """The store could not be read or written; nothing was stored."""


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
    """The exception of the tree for a native error ``(code, message)``."""
    code, message = (tuple(error.args) + ("", ""))[:2]
    return _BY_CODE.get(str(code), TodokitError)(str(message))
