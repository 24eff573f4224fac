#!/usr/bin/env bash
# `make wine` (part of `make dist-test`): todokit on Windows, run here under
# Wine (Debian's wine64, installed when missing). The command is
# cross-compiled for x86_64-pc-windows-gnu with Zig, as the Linux binaries
# are, and then, with an empty environment but Wine's own:
#
# - answers `--version`, plays the demo, makes a call and shows it back
#   from a store on the Windows side (C:\), and serves MCP over stdio
#   (scripts/mcp-stdio-check.py: initialize, tools/list, tools/call);
# - todokit_infra's unit tests, built for the same target, run there:
#   the file store's writes, conflicts, corrupt and foreign files, names,
#   crashes (a killed writer's temporary file), racing writers and
#   forgets, lock files removed while held, the durable rename at a path
#   past 260 characters, on Windows' file API as Wine gives it. The tests
#   Wine cannot run are listed below, each with why; nothing else is left
#   out.
#
# Wine before 9 lacks bcryptprimitives.dll, whose ProcessPrng Rust's
# standard library takes random bytes from: scripts/wine/bcryptprimitives.c
# stands in for it beside the programs. What Wine cannot show (NTFS's own
# flush and rename semantics, an antivirus holding a file) is the release
# workflow's, on GitHub's Windows runner.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
TARGET=x86_64-pc-windows-gnu
WINE=/usr/lib/wine/wine64
"$ROOT/scripts/ensure-packages.sh" "$WINE=wine64"
source "$ROOT/scripts/dist-tools.sh"
dist_tools "$TARGET"
version=$("$ROOT/scripts/version.sh")
WORK=$(mktemp -d /tmp/todokit-wine.XXXXXX)
# Wine's server outlives the programs a while, writing to the prefix: it
# is stopped, and waited for, before the work folder goes.
cleanup() {
  WINEPREFIX="$WORK/prefix" /usr/lib/wine/wineserver -k 2>/dev/null || true
  WINEPREFIX="$WORK/prefix" /usr/lib/wine/wineserver -w 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "wine: $*" >&2; exit 1; }

# The tests Wine cannot run, each with why; the release workflow runs them
# on Windows itself (the Windows job's "The store's tests on NTFS").
SKIP=(
  # Wine's CreateSymbolicLinkW says it made a link and makes nothing.
  store::json_file::tests::links_planted_in_the_store_never_change_a_file_outside_it
)

mkdir -p "$WORK/bin"
cargo zigbuild --quiet --release --locked --target "$TARGET" -p todokit_cli
cp "target/$TARGET/release/todokit.exe" "$WORK/bin/"
# In the release profile too, so the two builds share what they compile of
# the dependencies (CI builds that profile unoptimized).
tests=$(cargo zigbuild --quiet --release --locked --target "$TARGET" -p todokit_infra --lib --tests --message-format json \
  | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "todokit_infra":
        print(m["executable"])')
[ -n "$tests" ] || fail "todokit_infra's unit tests were not built"
cp "$tests" "$WORK/bin/infra-tests.exe"
# The tools' Python (first on PATH) carries Zig.
python3 -m ziglang cc -shared -target x86_64-windows-gnu -O2 -o "$WORK/bin/bcryptprimitives.dll" \
  scripts/wine/bcryptprimitives.c -ladvapi32

# Wine's environment only: its prefix (made on first use) in the work folder.
windows() {
  env -i HOME="$WORK/home" PATH=/usr/bin:/bin WINEPREFIX="$WORK/prefix" WINEDEBUG=-all LANG=C.UTF-8 "$WINE" "$@"
}
mkdir -p "$WORK/home"
cd "$WORK/bin"
windows ./todokit.exe --version | tr -d '\r' | grep -qx "todokit $version" || fail "--version"
windows ./todokit.exe --store 'C:\todokit' demo --delay-ms 0 >/dev/null || fail "demo"
CALL='{"todos":[{"content":"Ship it","status":"in_progress","activeForm":"Shipping it"}]}'
windows ./todokit.exe --store 'C:\todokit' --conversation wine call TodoWrite "$CALL" | grep -q '"is_error": *false' \
  || fail "a call"
windows ./todokit.exe --store 'C:\todokit' --conversation wine show | grep -q "Shipping it" || fail "show"
[ -f "$WORK/prefix/drive_c/todokit/c-wine.json" ] || fail "the call's file is not in C:\\todokit"
python3 "$ROOT/scripts/mcp-stdio-check.py" "wine: mcp" update_plan '{"plan": [{"step": "Ship it", "status": "in_progress"}]}' \
  -- env -i HOME="$WORK/home" PATH=/usr/bin:/bin WINEPREFIX="$WORK/prefix" WINEDEBUG=-all "$WINE" \
  ./todokit.exe --store 'C:\todokit' --profile codex mcp
echo "wine: todokit.exe answers --version, plays the demo, stores a call and serves MCP"
skips=()
for name in "${SKIP[@]}"; do skips+=(--skip "$name"); done
windows ./infra-tests.exe --test-threads 2 -q --exact "${skips[@]}" | tr -d "\r" | tail -n 3 || fail "todokit_infra's tests"
echo "wine: todokit_infra's unit tests pass on Windows' file API (${#SKIP[@]} listed above left out)"
