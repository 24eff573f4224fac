"""The ``todokit`` command the package installs.

It is the command line tool itself (``todokit mcp``, ``todokit watch``,
``todokit serve`` ...), linked into the native module and run in this
process, so installing the package gives the command with nothing else to
download: ``uvx todokit mcp --profile codex`` or ``pipx run todokit demo``.
``python -m todokit`` runs it too.
"""

from __future__ import annotations

import sys

from ._todokit import run_command


def main() -> None:
    """Runs the command on this process's arguments and exits with its status."""
    sys.exit(run_command(sys.argv[1:]))
