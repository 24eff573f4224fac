"""The exceptions todokit raises. They are made by the native module, from
the one table the Rust errors are raised by (a Rust error's code picks
its class), and re-exported here:

- ``TodokitError``: every error todokit raises (a model's bad arguments
  are not errors: they come back as a ``ToolResult`` with ``is_error``);
- ``UnknownProfileError(TodokitError, ValueError)``;
- ``UnknownToolError(TodokitError, LookupError)``;
- ``StoreError(TodokitError, OSError)``, with ``index`` and ``answered``
  when the failure ended a round;
- ``UncertainCommitError(StoreError)``: a write whose outcome cannot be
  known;
- ``EditError(TodokitError, ValueError)``: a refused hand edit.
"""

from __future__ import annotations

from ._todokit import (
    EditError,
    StoreError,
    TodokitError,
    UncertainCommitError,
    UnknownProfileError,
    UnknownToolError,
)

__all__ = [
    "EditError",
    "StoreError",
    "TodokitError",
    "UncertainCommitError",
    "UnknownProfileError",
    "UnknownToolError",
]
