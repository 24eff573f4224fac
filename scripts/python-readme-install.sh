#!/usr/bin/env bash
# The README's Python install, as a user runs it: its Python section's
# command, exactly as written, in a fresh virtual environment under target/,
# with the wheel `make python-package` built (target/python-wheels) where
# the package index would serve it (pip's and uv's find-links settings;
# every other package from PyPI, held to constraints.txt). Then the package
# and its LangChain adapter make one call there, the package's own
# `todokit` command answers, and the MCP recipe's `uvx todokit` serves the
# profile's tools over stdio (uv from PyPI): initialize, tools/list and
# tools/call, answered by the command the wheel carries.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV="$ROOT/target/python-fresh"
WHEELS="$ROOT/target/python-wheels"
CONSTRAINTS="$ROOT/crates/todokit_python/constraints.txt"
ls "$WHEELS"/todokit-*.whl >/dev/null 2>&1 || { echo "python-readme-install: no wheel in $WHEELS (make python-package builds it)" >&2; exit 1; }
command=$(awk '/^## Using it from Python/ {inside = 1; next} inside && /^## / {exit}
  inside && /^```sh$/ {block = 1; next} block && /^```$/ {exit} block {print}' "$ROOT/README.md")
case "$command" in
  "pip install "*) ;;
  *) echo "python-readme-install: the README's command is not a pip install: $command" >&2; exit 1 ;;
esac
# The quick start names the same command.
grep -qF "(\`$command\`;" "$ROOT/README.md" || { echo "python-readme-install: the quick start does not say $command" >&2; exit 1; }
rm -rf "$VENV"
python3 -m venv "$VENV"
cd "$(mktemp -d)"
echo "python-readme-install: $command" >&2
PIP_FIND_LINKS="$WHEELS" PIP_CONSTRAINT="$CONSTRAINTS" PIP_DISABLE_PIP_VERSION_CHECK=1 \
  PATH="$VENV/bin:$PATH" bash -c "$command --quiet"
"$VENV/bin/python" - <<'PY'
import todokit
from todokit.langchain import TodokitMiddleware

with todokit.Todokit("deepagents", memory=True) as kit:
    result = kit.call("c", "write_todos", {"todos": [{"content": "a", "status": "pending"}]})
    assert not result.is_error, result.content
    assert [t.name for t in TodokitMiddleware(kit).tools] == ["write_todos"]
print("python-readme-install: installed, imported, called")
PY
version=$("$VENV/bin/todokit" --version)
[ "$version" = "todokit $("$VENV/bin/python" -c 'import todokit; print(todokit.__version__)')" ] || {
  echo "python-readme-install: the package's command says $version" >&2; exit 1; }
echo "python-readme-install: the package's own command: $version" >&2

# `uvx todokit --profile codex mcp`, as an MCP client's configuration runs
# it: uv makes its own environment from the wheel and starts the command.
PIP_CONSTRAINT="$CONSTRAINTS" "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check uv
store=$(mktemp -d)
UV_FIND_LINKS="$WHEELS" UV_CACHE_DIR="$ROOT/target/uv-cache" TODOKIT_STORE="$store" PATH="$VENV/bin:$PATH" \
  "$VENV/bin/python" "$ROOT/scripts/mcp-stdio-check.py" "python-readme-install: uvx todokit mcp" \
  update_plan '{"plan": [{"step": "Ship it", "status": "in_progress"}]}' -- \
  uvx todokit --profile codex --conversation my-project mcp
shown=$("$VENV/bin/todokit" --store "$store" --profile codex --conversation my-project show --format json)
grep -q '"Ship it"' <<<"$shown" || { echo "python-readme-install: the uvx server's call is not in the store: $shown" >&2; exit 1; }
