# Sourced by scripts/dist.sh, scripts/dist-test.sh and scripts/cross-check.sh:
# the tools that build and inspect the release artifacts, installed into
# target/dist-tools when missing (docs/dependencies.md says why these):
# rustup's standard library for each target named, and from PyPI, at
# pinned versions, Zig (the `ziglang` wheel), cargo-zigbuild (its wheel
# carries the built binary: nothing to compile), maturin (the Python
# package's build tool, whose `--zig` uses the same Zig) and auditwheel
# (which reads the manylinux tag a wheel's objects allow). Puts the tools'
# venv first on PATH.
ZIG_VERSION=0.17.1
ZIGBUILD_VERSION=0.24.0
MATURIN_VERSION=1.16.0
AUDITWHEEL_VERSION=6.8.2
TOOLS="$ROOT/target/dist-tools"

dist_tools() {
  local installed target want have
  installed=$(rustup target list --installed)
  for target in "$@"; do
    grep -qx "$target" <<<"$installed" || rustup target add "$target" >&2
  done
  want="ziglang==$ZIG_VERSION cargo-zigbuild==$ZIGBUILD_VERSION maturin==$MATURIN_VERSION auditwheel==$AUDITWHEEL_VERSION"
  have=$(cat "$TOOLS/venv/.pins" 2>/dev/null || true)
  if [ "$have" != "$want" ] || ! "$TOOLS/venv/bin/python" -c 'import sys' 2>/dev/null; then
    rm -rf "$TOOLS/venv"
    python3 -m venv "$TOOLS/venv"
    # shellcheck disable=SC2086 # the pins are words
    "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check $want
    echo "$want" > "$TOOLS/venv/.pins"
  fi
  export PATH="$TOOLS/venv/bin:$PATH"
}
