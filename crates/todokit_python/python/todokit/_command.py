"""The ``todokit`` command the package installs.

It is the command line tool itself (``todokit mcp``, ``todokit watch``,
``todokit serve`` ...), linked into the native module and run in this
process, so installing the package gives the command with nothing else to
download: ``uvx todokit mcp --profile codex`` or ``pipx run todokit demo``.
``python -m todokit`` runs it too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ._todokit import run_command

#: Tells ``todokit setup`` which program started the command: this process
#: is the interpreter, so the command cannot find itself.
LAUNCHER_VARIABLE = "TODOKIT_LAUNCHER"


def main() -> None:
    """Runs the command on this process's arguments and exits with its status."""
    launcher = _console_script()
    if launcher is not None:
        os.environ.setdefault(LAUNCHER_VARIABLE, launcher)
    sys.exit(run_command(sys.argv[1:]))


def _console_script() -> str | None:
    """The ``todokit`` script that started this process: ``sys.argv[0]``,
    or beside the interpreter for ``python -m todokit``."""
    started = Path(sys.argv[0])
    if started.stem == "todokit" and started.is_file():
        return os.path.abspath(started)
    beside = Path(sys.executable).parent / ("todokit.exe" if os.name == "nt" else "todokit")
    return str(beside) if beside.is_file() else None
