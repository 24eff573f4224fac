# Sourced by scripts/dist.sh and scripts/cross-check.sh: the cross-building
# tools, installed into target/dist-tools when missing (docs/dependencies.md
# says why these): rustup's standard library for each target named, Zig
# from PyPI's `ziglang` wheel and cargo-zigbuild from crates.io, at pinned
# versions. Puts Zig's venv and cargo-zigbuild first on PATH.
ZIG_VERSION=0.17.1
ZIGBUILD_VERSION=0.24.1
TOOLS="$ROOT/target/dist-tools"

zig_tools() {
  local installed target
  installed=$(rustup target list --installed)
  for target in "$@"; do
    grep -qx "$target" <<<"$installed" || rustup target add "$target" >&2
  done
  if ! "$TOOLS/venv/bin/python" -m ziglang version 2>/dev/null | grep -qx "$ZIG_VERSION"; then
    python3 -m venv "$TOOLS/venv"
    "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check "ziglang==$ZIG_VERSION"
  fi
  if ! "$TOOLS/bin/cargo-zigbuild" --version 2>/dev/null | grep -q " $ZIGBUILD_VERSION\$"; then
    cargo install --quiet --locked --root "$TOOLS" "cargo-zigbuild@$ZIGBUILD_VERSION"
  fi
  export PATH="$TOOLS/venv/bin:$TOOLS/bin:$PATH"
}
