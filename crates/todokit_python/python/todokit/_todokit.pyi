"""The native module (built from crates/todokit_python); use ``todokit``."""

from os import PathLike
from typing import Any, final

__all__ = [
    "EditError",
    "Feed",
    "Kit",
    "Policy",
    "StoreError",
    "TodokitError",
    "ToolResult",
    "UncertainCommitError",
    "UnknownProfileError",
    "UnknownToolError",
    "VERSION",
    "profiles",
    "run_command",
]

VERSION: str

class TodokitError(Exception):
    """Every error todokit raises (a model's bad arguments are not errors:
    they come back as a ``ToolResult`` with ``is_error``)."""

class UnknownProfileError(TodokitError, ValueError):
    """No profile has that name; ``todokit.profiles()`` lists them."""

class UnknownToolError(TodokitError, LookupError):
    """The profile has no tool of that name."""

class StoreError(TodokitError, OSError):
    """The store could not be read or written; nothing was stored by the
    call that failed. When the failure ended a round, ``index`` is the
    position of that call and ``answered`` the results before it."""

    index: int | None
    answered: list[ToolResult]

class UncertainCommitError(StoreError):
    """A write whose outcome cannot be known: read the list back first."""

class EditError(TodokitError, ValueError):
    """A hand edit was refused; the list is unchanged."""

def profiles() -> list[str]: ...
def run_command(args: list[str]) -> int: ...

@final
class Kit:
    def __new__(
        cls,
        profile: str,
        store_dir: str | PathLike[str] | None = None,
        memory: bool = False,
        database_url: str | None = None,
    ) -> Kit: ...
    def profile(self) -> dict[str, Any]: ...
    def definitions(self, target: str) -> list[dict[str, Any]]: ...
    def call(self, conversation: str, tool: str, arguments: bytes, mode_word: str = "default") -> ToolResult: ...
    def call_round(
        self, conversation: str, calls: list[tuple[str, bytes]], mode_word: str = "default"
    ) -> list[ToolResult]: ...
    def state(self, conversation: str) -> Any: ...
    def conversations(self) -> Any: ...
    def forget(self, conversation: str) -> bool: ...
    def prune(self, idle_seconds: float, prefix: str, dry_run: bool) -> list[str]: ...
    def edit(self, conversation: str, action_json: str) -> str | None: ...
    def take_notices(self, conversation: str) -> list[dict[str, Any]]: ...
    def turn_policy(
        self,
        conversation: str,
        end_of_turn: str | None = None,
        nag_after_rounds: int | None = None,
        counters: str | None = None,
    ) -> Policy: ...
    def restore(self, conversation: str, messages_json: str) -> tuple[Any, dict[str, Any]]: ...
    def subscribe(self, conversation: str) -> Feed: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...

@final
class Policy:
    def on_user_prompt(self) -> None: ...
    def on_tool_results(self, round: list[tuple[str, bool, str | None]]) -> None: ...
    def before_request(self, round: list[tuple[str, bool, str | None]] | None = None) -> list[dict[str, str]]: ...
    def on_compaction(self) -> list[dict[str, str]]: ...
    def on_turn_end(self, carry: bool) -> dict[str, Any]: ...
    def counters(self) -> dict[str, Any]: ...

@final
class ToolResult:
    """What a call gives the model: ``content`` (the text it reads),
    ``is_error`` (a refusal; nothing was stored), and ``details`` (the
    lists before and after, in the profile's shape; built when first
    read)."""

    @property
    def content(self) -> str: ...
    @property
    def is_error(self) -> bool: ...
    @property
    def details(self) -> Any: ...

@final
class Feed:
    def poll(self) -> Any: ...
    def wait(self, timeout: float) -> bool: ...
    def fileno(self) -> int | None: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
