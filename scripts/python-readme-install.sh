#!/usr/bin/env bash
# Runs the README's Python install command, exactly as written, in a fresh
# virtual environment under target/ (the versions it pulls held to
# constraints.txt through PIP_CONSTRAINT), then imports the package and its
# LangChain adapter there and makes one call.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV="$ROOT/target/python-fresh"
command=$(awk '/^## Using it from Python/ {inside = 1; next} inside && /^## / {exit}
  inside && /^```sh$/ {block = 1; next} block && /^```$/ {exit} block {print}' "$ROOT/README.md")
case "$command" in
  "pip install "*) ;;
  *) echo "python-readme-install: the README's command is not a pip install: $command" >&2; exit 1 ;;
esac
rm -rf "$VENV"
python3 -m venv "$VENV"
cd "$ROOT"
echo "python-readme-install: $command" >&2
PIP_CONSTRAINT="$ROOT/crates/todokit_python/constraints.txt" PIP_DISABLE_PIP_VERSION_CHECK=1 \
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
