#!/usr/bin/env bash
# The release workflow's install test of one platform's packages, on that
# platform's own runner (macOS, Windows), as a user installs them: no Rust
# toolchain is used, only Python and node.
#
#   release-install-check.sh WHEEL NPM_TODOKIT_TGZ NPM_PLATFORM_TGZ
#
# - The wheel, in a fresh venv: one call, a live feed followed with
#   `async for` on the interpreter's default event loop (Windows' is the
#   Proactor loop, which cannot watch a pipe), and `uvx --from WHEEL todokit
#   mcp` answering initialize, tools/list and a tools/call.
# - The npm package with the platform's addon, in a fresh project: one
#   call, and `npx todokit mcp` answering the same.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
# A path as the system's own programs take it: on Windows (Git's bash) a
# /c/... path is C:\..., which Python and node read in arguments and the
# environment alike.
native() { if command -v cygpath >/dev/null; then cygpath -w "$1"; else printf '%s\n' "$1"; fi; }
ROOT=$(native "$(cd "$(dirname "$0")/.." && pwd)")
wheel=$(native "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")")
todokit_tgz=$(native "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
platform_tgz=$(native "$(cd "$(dirname "$3")" && pwd)/$(basename "$3")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
HERE=$(native "$WORK")
# Windows starts npm's commands through their .cmd files.
npx=npx
[ "${OS:-}" = Windows_NT ] && npx=npx.cmd
CALL='{"todos":[{"content":"Ship it","status":"in_progress","activeForm":"Shipping it"}]}'

python -m venv "$WORK/venv"
# A venv's programs are in Scripts on Windows, bin elsewhere.
venv_bin="$WORK/venv/bin"
[ -d "$venv_bin" ] || venv_bin="$WORK/venv/Scripts"
"$venv_bin/python" -m pip install --quiet --disable-pip-version-check "$wheel" uv
"$venv_bin/python" - "$HERE/store" <<'PY'
import asyncio, sys, todokit

async def main() -> list[int]:
    with todokit.Todokit("claude-code", store_dir=sys.argv[1]) as kit:
        seen: list[int] = []

        async def follow() -> None:
            async for state in kit.subscribe("c"):
                seen.append(state["version"])
                if state["version"] == 1:
                    return

        task = asyncio.ensure_future(follow())
        await asyncio.sleep(0.2)
        result = await kit.acall("c", "TodoWrite", {"todos": [{"content": "Ship it", "status": "in_progress", "activeForm": "Shipping it"}]})
        assert not result.is_error, result.content
        await asyncio.wait_for(task, timeout=20)
        return seen

seen = asyncio.run(main())
assert seen[0] == 0 and seen[-1] == 1, seen
print(f"release-install-check: the wheel called, and its live feed followed on {type(asyncio.new_event_loop()).__name__}")
PY
TODOKIT_STORE="$HERE/uvx-store" "$venv_bin/python" "$ROOT/scripts/mcp-stdio-check.py" "release-install-check: uvx todokit mcp" \
  TodoWrite "$CALL" -- "$(native "$venv_bin/uvx")" --from "$wheel" todokit --profile claude-code --conversation release mcp

project="$WORK/npm-project"
mkdir -p "$project"
cd "$project"
echo '{ "name": "release-install-check", "private": true, "type": "module" }' > package.json
npm install --offline --no-audit --no-fund --loglevel=error "$todokit_tgz" "$platform_tgz"
node --input-type=module -e "
import { Todokit } from 'todokit';
const result = new Todokit({ profile: 'claude-code', memory: true }).callSync('c', 'TodoWrite', $CALL);
if (result.isError) { console.error(result.content); process.exit(1); }
console.log('release-install-check: the npm package called from node');
"
TODOKIT_STORE="$HERE/npx-store" "$venv_bin/python" "$ROOT/scripts/mcp-stdio-check.py" "release-install-check: npx todokit mcp" \
  TodoWrite "$CALL" -- "$npx" --no-install todokit --profile claude-code --conversation release mcp
echo "release-install-check: the wheel and the npm package install and run"
