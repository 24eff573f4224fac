#!/usr/bin/env bash
# `make dist`: builds into target/dist/ what a release publishes for x86_64
# and aarch64 Linux, and the command-line tool for macOS on both (the
# crates come from scripts/package-crates.sh), for
# the machines DIST_MACHINES names (both when unset; CI's .ci/run builds
# x86_64 alone, the release workflow both):
#
# - the command-line tool, a static musl binary per machine, packed as
#   todokit-<version>-<target>.tar.gz with a .sha256 beside it (sha256sum's
#   format, so `sha256sum -c` checks it), and the same for macOS on that
#   machine (`<machine>-apple-darwin`);
# - python/: the Python package, an abi3 wheel per machine tagged
#   manylinux2014 (glibc 2.17), and its sdist;
# - npm/: the npm package as napi-rs publishes it: `todokit` itself (the
#   typed layer and the loader, with an optional dependency on each
#   platform's package) and one package per platform holding its addon,
#   `todokit-linux-x64-gnu` and `todokit-linux-arm64-gnu` (glibc 2.17).
#
# Everything is cross-compiled the same way, the x86_64 builds included
# (so that what they need of the C library is the oldest the tags claim,
# not this machine's): rustup's standard library for the target, and Zig
# as the C compiler and linker (ring, under rustls, builds C and
# assembly), through cargo-zigbuild for the binary and maturin's `--zig`
# for the wheels; each addon is built in the environment its machine's
# wheel was (below). The tools come from PyPI at pinned versions into
# target/dist-tools (scripts/dist-tools.sh; docs/dependencies.md says
# why).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/target/dist"
read -r -a MACHINES <<<"${DIST_MACHINES:-x86_64 aarch64}"
[ ${#MACHINES[@]} -gt 0 ] || { echo "dist: DIST_MACHINES names no machine" >&2; exit 1; }
for machine in "${MACHINES[@]}"; do
  case "$machine" in
    x86_64 | aarch64) ;;
    *) echo "dist: DIST_MACHINES: $machine is not a machine a release builds for (x86_64, aarch64)" >&2; exit 1 ;;
  esac
done
version=$("$ROOT/scripts/version.sh")

source "$ROOT/scripts/dist-tools.sh"
targets=()
for machine in "${MACHINES[@]}"; do targets+=("$machine-unknown-linux-musl" "$machine-unknown-linux-gnu" "$machine-apple-darwin"); done
dist_tools "${targets[@]}"
"$ROOT/scripts/ensure-packages.sh" node=nodejs npm=npm
mkdir -p "$OUT"
rm -rf "$OUT/python" "$OUT/npm"
mkdir -p "$OUT/python" "$OUT/npm"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# Reproducible archives: sorted names, one owner, the commit's time.
stamp=$(git log -1 --format=%ct 2>/dev/null || echo 0)

for machine in "${MACHINES[@]}"; do
  target="$machine-unknown-linux-musl"
  cargo zigbuild --quiet --release --locked --target "$target" -p todokit_cli --features postgres
  name="todokit-$version-$target"
  mkdir "$stage/$name"
  cp "target/$target/release/todokit" README.md LICENSE-APACHE LICENSE-MIT "$stage/$name/"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -C "$stage" -czf "$OUT/$name.tar.gz" "$name"
  (cd "$OUT" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
  rm -rf "${stage:?}/$name"
  echo "dist: $OUT/$name.tar.gz ($(du -h "$OUT/$name.tar.gz" | cut -f1))"
done

# macOS: the command-line tool for each machine's Macs, built the same way
# (Zig links it, with no Apple SDK, so nothing may link one of Apple's
# frameworks and the binary needs only libSystem and libiconv; see notify
# and ureq in the manifests), for the oldest macOS Rust supports on that
# machine. Without the PostgreSQL store: tokio-postgres asks the system
# for the user's name through whoami, which links the SystemConfiguration
# framework (`cargo install todokit_cli --features postgres` on a Mac has
# it). MACOSX_DEPLOYMENT_TARGET is the minimum the binary states: without
# it Zig states its own newest (15.0).
declare -A MIN_MACOS=([x86_64]=10.12 [aarch64]=11.0)
for machine in "${MACHINES[@]}"; do
  target="$machine-apple-darwin"
  MACOSX_DEPLOYMENT_TARGET=${MIN_MACOS[$machine]} \
    cargo zigbuild --quiet --release --locked --target "$target" -p todokit_cli
  name="todokit-$version-$target"
  mkdir "$stage/$name"
  cp "target/$target/release/todokit" README.md LICENSE-APACHE LICENSE-MIT "$stage/$name/"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -C "$stage" -czf "$OUT/$name.tar.gz" "$name"
  (cd "$OUT" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
  rm -rf "${stage:?}/$name"
  echo "dist: $OUT/$name.tar.gz ($(du -h "$OUT/$name.tar.gz" | cut -f1))"
done

# The Python package: a wheel per machine, built against glibc 2.17 and
# tagged so (maturin checks the tag it claims), and the sdist. The
# environment maturin gives cargo for each is kept (scripts/maturin-cargo)
# for that machine's addon.
for machine in "${MACHINES[@]}"; do
  PATH="$ROOT/scripts/maturin-cargo:$PATH" TODOKIT_CARGO_ENV="$stage/cargo-env-$machine" \
    maturin build --quiet --release --locked --zig --compatibility manylinux2014 \
    --target "$machine-unknown-linux-gnu" --manifest-path crates/todokit_python/Cargo.toml --out "$OUT/python"
  [ -s "$stage/cargo-env-$machine" ] || { echo "dist: maturin's build environment for $machine was not recorded" >&2; exit 1; }
done
maturin sdist --manifest-path crates/todokit_python/Cargo.toml --out "$OUT/python"
echo "dist: $(cd "$OUT/python" && ls | tr '\n' ' ')"

# The npm package: its build tools from its lock file, an addon per
# machine (napi-rs's CLI, glibc 2.17), its typed layer, then the packages
# packed from a staging folder, so nothing of this is left among the
# package's sources.
#
# Each addon is built in the environment maturin gave cargo for the same
# machine's wheel: cargo keeps the target's linker in every compiled
# unit's fingerprint, and maturin's Zig wrappers live in a folder named
# after the program that wrote them (maturin), while `napi build
# --cross-compile` would run cargo-zigbuild, whose wrappers live
# elsewhere; with two linker paths, the addon compiled all of its
# dependencies again (about 6 minutes a machine here), with one it
# compiles only what is its own. The wrappers are the same Zig with the
# same glibc 2.17 target either way. Left out: the Python interpreter's
# settings for pyo3, which the addon does not build.
PKG="$ROOT/crates/todokit_node"
(cd "$PKG" && npm ci --no-audit --no-fund --loglevel=error)
mkdir "$stage/addons"
for machine in "${MACHINES[@]}"; do
  mapfile -d '' recorded < "$stage/cargo-env-$machine"
  settings=()
  for setting in "${recorded[@]}"; do
    case "$setting" in
      PATH=* | _=* | PYO3_* | PYTHON_SYS_EXECUTABLE=* | TODOKIT_CARGO_ENV=*) ;;
      *) settings+=("$setting") ;;
    esac
  done
  (cd "$PKG" && env "${settings[@]}" npx --no-install napi build --platform --release \
    --target "$machine-unknown-linux-gnu" --js native.cjs --dts native.d.cts >/dev/null)
  mv "$PKG"/todokit.linux-*-gnu.node "$stage/addons/"
done
(cd "$PKG" && npx --no-install tsc -p tsconfig.json)
node "$ROOT/scripts/npm-layout.mjs" "$PKG" "$stage/addons" "$stage/packages"
for package in "$stage"/packages/*; do
  (cd "$package" && npm pack --silent --pack-destination "$OUT/npm" >/dev/null)
done
echo "dist: $(cd "$OUT/npm" && ls | tr '\n' ' ')"
