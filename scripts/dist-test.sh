#!/usr/bin/env bash
# `make dist-test`: what `make dist` put in target/dist/ for the machines
# DIST_MACHINES names (both when unset, as for `make dist`), installed and
# run as a user would, where nothing of a Rust toolchain or a C compiler is
# reachable: every command below that installs or runs an artifact runs
# with an empty environment (`env -i`), a fresh HOME, and a PATH holding
# only Python, node and npm (checked: no cargo, rustc, cc or gcc on it).
#
# - The command-line archives: each checksum checked; each binary alone in
#   an empty folder, shown to be a static executable for its machine
#   (readelf: no interpreter, no shared library needed). The x86_64 binary
#   plays the demo, makes a call and serves MCP over stdio; the aarch64 one
#   answers `--version` and a call under qemu-aarch64 (Debian's qemu-user).
#   Each macOS binary is checked as a Mac would load it: a Mach-O
#   executable for its machine and macOS, needing only the system's
#   libraries (scripts/macho-check.py).
# - The Python wheels: `auditwheel show` confirms each one's manylinux tag;
#   the x86_64 wheel installed into a fresh venv makes a call from Python,
#   its `todokit` command answers, and `uvx --from <wheel> todokit mcp`
#   serves (uv from PyPI); the aarch64 wheel's extension is an aarch64
#   object needing nothing beyond its tag (scripts/elf-check.py). The sdist
#   holds the workspace's sources it needs.
# - The npm packages: `todokit` and `todokit-linux-x64-gnu` installed from
#   their tarballs into a fresh project with no registry, a call, `npx
#   todokit --version`, `npx todokit mcp` serving; each platform package's
#   addon checked as an object for its machine within glibc 2.17.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/target/dist"
"$ROOT/scripts/ensure-packages.sh" readelf=binutils node=nodejs npm=npm
version=$("$ROOT/scripts/version.sh")
CALL='{"todos":[{"content":"Ship it","status":"in_progress","activeForm":"Shipping it"}]}'
PLAN='{"plan": [{"step": "Ship it", "status": "in_progress"}]}'
# auditwheel, pinned with the build tools.
source "$ROOT/scripts/dist-tools.sh"
dist_tools
UV_VERSION=$(sed -n 's/^uv==//p' "$ROOT/crates/todokit_python/constraints.txt")
WORK=$(mktemp -d /tmp/todokit-dist-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "dist-test: $*" >&2; exit 1; }
read -r -a MACHINES <<<"${DIST_MACHINES:-x86_64 aarch64}"
wants() { [[ " ${MACHINES[*]} " == *" $1 "* ]]; }
wants x86_64 || fail "DIST_MACHINES must name x86_64: the install checks run the x86_64 artifacts"
if wants aarch64; then "$ROOT/scripts/ensure-packages.sh" qemu-aarch64=qemu-user; fi

# The PATH an installing user has here: the system's commands without any
# compiler, linker or Rust tool, and Python (the interpreter itself, not a
# shim: pyenv's python3 is a bash script), node and npm.
SANDBOX="$WORK/bin"
mkdir -p "$SANDBOX"
for command in /usr/bin/* /bin/*; do
  name=$(basename "$command")
  case "$name" in
    cc | c++ | c89* | c99* | cpp* | gcc* | g++* | clang* | ld | ld.* | as | cargo* | rustc* | rustup* | rustdoc* | zig* | tcc | *-gcc* | *-g++* | *-ld | *-ld.* | *-as | *-cpp*) continue ;;
  esac
  [ -e "$SANDBOX/$name" ] || ln -s "$command" "$SANDBOX/$name"
done
PYTHON=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
ln -sf "$PYTHON" "$SANDBOX/python3"
for tool in node npm npx; do
  ln -sf "$(readlink -f "$(command -v "$tool")")" "$SANDBOX/$tool"
done
isolated() {
  local path=$1
  shift
  env -i HOME="$WORK/home" PATH="$path" LANG=C.UTF-8 "$@"
}
mkdir -p "$WORK/home"
for forbidden in cargo rustc cc gcc clang ld zig; do
  if isolated "$SANDBOX" sh -c "command -v $forbidden" >/dev/null; then
    fail "$forbidden is reachable from the install checks' PATH"
  fi
done

# --- The command-line archives ---------------------------------------------
archive() {
  local target=$1 machine=$2 run=$3
  local name="todokit-$version-$target"
  (cd "$OUT" && sha256sum --quiet -c "$name.tar.gz.sha256")
  local unpack="$WORK/unpack-$target" here="$WORK/alone-$target" store="$WORK/store-$target"
  mkdir -p "$unpack" "$here" "$store"
  tar -xzf "$OUT/$name.tar.gz" -C "$unpack"
  mv "$unpack/$name/todokit" "$here/"
  readelf -h "$here/todokit" | grep -q "Machine:.*$machine" || fail "$name is not a $machine binary"
  if readelf -l "$here/todokit" | grep -q INTERP || readelf -d "$here/todokit" | grep -q NEEDED; then
    fail "$name is not static"
  fi
  cd "$here"
  [ "$(ls -A)" = todokit ] || fail "the folder holds more than the binary"
  $run ./todokit --version | grep -qx "todokit $version" || fail "$name --version"
  $run ./todokit --store "$store" --conversation dist call TodoWrite "$CALL" | grep -q '"is_error": *false' \
    || fail "$name could not make a call"
  if [ "$target" = x86_64-unknown-linux-musl ]; then
    $run ./todokit --store "$store" demo >/dev/null || fail "$name demo"
    $run "$PYTHON" "$ROOT/scripts/mcp-stdio-check.py" "dist-test: $name mcp" \
      update_plan "$PLAN" -- ./todokit --store "$store" --profile codex mcp
  fi
  cd "$ROOT"
  echo "dist-test: $name: static, $machine, runs with an empty environment"
}
archive x86_64-unknown-linux-musl 'X86-64' 'env -i'
if wants aarch64; then
  archive aarch64-unknown-linux-musl 'AArch64' "env -i $(command -v qemu-aarch64)"
fi

# macOS cannot run here: each archive's binary is checked as a Mac would
# load it (scripts/macho-check.py): a Mach-O executable for its machine,
# needing only the system's libraries, for the macOS its build states.
declare -A MIN_MACOS=([x86_64]=10.12 [aarch64]=11.0)
for machine in "${MACHINES[@]}"; do
  name="todokit-$version-$machine-apple-darwin"
  (cd "$OUT" && sha256sum --quiet -c "$name.tar.gz.sha256")
  mkdir -p "$WORK/unpack-$name"
  tar -xzf "$OUT/$name.tar.gz" -C "$WORK/unpack-$name"
  python3 "$ROOT/scripts/macho-check.py" "$WORK/unpack-$name/$name/todokit" "$machine" "${MIN_MACOS[$machine]}" \
    || fail "$name is not a macOS $machine binary loading only system libraries"
done

# --- The Python wheels and sdist -------------------------------------------
# auditwheel reads what a wheel's objects need and names the platform tags
# that allows.
for machine in "${MACHINES[@]}"; do
  wheel=$(ls "$OUT"/python/todokit-"$version"-cp310-abi3-manylinux*_"$machine".whl 2>/dev/null | head -1)
  [ -n "$wheel" ] || fail "no manylinux $machine wheel in $OUT/python"
  shown=$("$TOOLS/venv/bin/auditwheel" show "$wheel" 2>&1)
  grep -q "manylinux_2_17_$machine" <<<"$shown" || fail "auditwheel does not find $wheel within manylinux_2_17_$machine: $shown"
  python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2], [n for n in z.namelist() if n.endswith(".so")])' \
    "$wheel" "$WORK/wheel-$machine"
  python3 "$ROOT/scripts/elf-check.py" "$WORK"/wheel-"$machine"/todokit/_todokit*.so "$machine" 2.17
  echo "dist-test: $(basename "$wheel"): auditwheel confirms manylinux_2_17_$machine"
done
sdist="$OUT/python/todokit-$version.tar.gz"
# (Listings are read whole before grep: with pipefail, `grep -q` ending a
# pipe early would fail the pipe.)
listing=$(tar -tzf "$sdist")
grep -qx "todokit-$version/crates/todokit_cli/src/lib.rs" <<<"$listing" || fail "the sdist lacks the command's sources"

wheel=$(ls "$OUT"/python/todokit-"$version"-cp310-abi3-manylinux*_x86_64.whl | head -1)
venv="$WORK/venv"
isolated "$SANDBOX" python3 -m venv "$venv"
started=$(date +%s%N)
isolated "$venv/bin:$SANDBOX" pip install --quiet --disable-pip-version-check --no-index "$wheel"
echo "dist-test: figure: the x86_64 wheel installed into a fresh venv in $(( ($(date +%s%N) - started) / 1000000 )) ms ($(du -sm "$venv"/lib/python3*/site-packages/todokit | cut -f1) MB installed)"
isolated "$venv/bin:$SANDBOX" python - <<'PY'
import todokit

with todokit.Todokit("claude-code", memory=True) as kit:
    result = kit.call("c", "TodoWrite", {"todos": [{"content": "Ship it", "status": "in_progress", "activeForm": "Shipping it"}]})
    assert not result.is_error, result.content
print("dist-test: the x86_64 wheel installed where no Rust is, and called from Python")
PY
[ "$(isolated "$venv/bin:$SANDBOX" todokit --version)" = "todokit $version" ] || fail "the wheel's command"
isolated "$venv/bin:$SANDBOX" pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
isolated "$venv/bin:$SANDBOX" TODOKIT_STORE="$WORK/uvx-store" UV_PYTHON_DOWNLOADS=never \
  python "$ROOT/scripts/mcp-stdio-check.py" "dist-test: uvx --from the wheel" update_plan "$PLAN" -- \
  uvx --from "$wheel" todokit --profile codex --conversation dist mcp

# --- The npm packages ------------------------------------------------------
for machine in x64:x86_64 arm64:aarch64; do
  wants "${machine##*:}" || continue
  tarball="$OUT/npm/todokit-linux-${machine%%:*}-gnu-$version.tgz"
  [ -f "$tarball" ] || fail "no $tarball"
  mkdir -p "$WORK/npm-${machine%%:*}"
  tar -xzf "$tarball" -C "$WORK/npm-${machine%%:*}"
  python3 "$ROOT/scripts/elf-check.py" "$WORK/npm-${machine%%:*}/package/todokit.linux-${machine%%:*}-gnu.node" "${machine##*:}" 2.17
done
listing=$(tar -tzf "$OUT/npm/todokit-$version.tgz")
if grep -q '\.node$' <<<"$listing"; then fail "the todokit npm package carries an addon itself"; fi
project="$WORK/npm-project"
mkdir -p "$project"
echo '{ "name": "dist-test", "private": true, "type": "module" }' > "$project/package.json"
started=$(date +%s%N)
(cd "$project" && isolated "$SANDBOX" npm install --offline --no-audit --no-fund --loglevel=error \
  "$OUT/npm/todokit-$version.tgz" "$OUT/npm/todokit-linux-x64-gnu-$version.tgz")
echo "dist-test: figure: the npm packages installed from their tarballs in $(( ($(date +%s%N) - started) / 1000000 )) ms ($(du -sm "$project/node_modules" | cut -f1) MB installed)"
(cd "$project" && isolated "$SANDBOX" node --input-type=module -e "
import { Todokit } from 'todokit';
const kit = new Todokit({ profile: 'claude-code', memory: true });
const result = kit.callSync('c', 'TodoWrite', $CALL);
if (result.isError) { console.error(result.content); process.exit(1); }
console.log('dist-test: the npm packages installed from their tarballs, and called from node');
")
[ "$(cd "$project" && isolated "$SANDBOX" npx --no-install todokit --version)" = "todokit $version" ] || fail "the npm package's command"
(cd "$project" && isolated "$SANDBOX" TODOKIT_STORE="$WORK/npx-store" \
  python3 "$ROOT/scripts/mcp-stdio-check.py" "dist-test: npx todokit mcp" TodoWrite "$CALL" -- \
  npx --no-install todokit --profile claude-code --conversation dist mcp)
echo "dist-test: figure: artifact sizes:"
(cd "$OUT" && find . -name '*.tar.gz' -o -name '*.whl' -o -name '*.tgz' -o -name '*.crate' | sort | xargs du -h | sed 's/^/  /')
echo "dist-test: every artifact installs and runs"
