"""Shared fixtures: the real `todokit` binary and a store folder."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

# The OpenAI Agents SDK exports traces over the network unless told not to;
# the tests make no network call.
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")


def binary() -> str:
    """The command built from this workspace (`make python-test` sets it)."""
    path = os.environ.get("TODOKIT_BIN", "")
    if not path or not Path(path).is_file():
        raise RuntimeError("TODOKIT_BIN must name the built todokit binary")
    return path


def todokit_cli(store: Path, *args: str, profile: str = "claude-code", conversation: str = "c") -> str:
    """Runs the binary on `store` and returns its standard output."""
    done = subprocess.run(
        [binary(), "--store", str(store), "--profile", profile, "--conversation", conversation, *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def cli_json(store: Path, *args: str, profile: str = "claude-code", conversation: str = "c") -> Any:
    """The binary's JSON output."""
    return json.loads(todokit_cli(store, *args, profile=profile, conversation=conversation))


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A fresh store folder."""
    folder = tmp_path / "store"
    folder.mkdir()
    return folder
