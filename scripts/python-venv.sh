#!/usr/bin/env bash
# Makes target/python-venv with the Python package's build and test tools
# and the frameworks its adapters are tested with, at the versions crates/todokit_python/constraints.txt pins. A Python
# without venv support (Debian's python3 without python3-venv) gets the
# distribution's packages first (checked by package, not by command).
set -euo pipefail
venv=${1:-target/python-venv}
constraints=crates/todokit_python/constraints.txt
if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    rm -rf "$venv"
    if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
    echo "python-venv: installing python3-venv and python3-dev" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv python3-dev >/dev/null
    python3 -m venv "$venv"
  fi
fi
stamp="$venv/.constraints"
if ! cmp -s "$constraints" "$stamp"; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -c "$constraints" \
    maturin pytest mypy langchain openai-agents pydantic-ai-slim mcp
  cp "$constraints" "$stamp"
fi
