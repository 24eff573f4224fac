#!/usr/bin/env bash
# `make dist`: builds into target/dist/ the command-line tool as a release
# publishes it, for x86_64 and aarch64 Linux: a static musl binary per
# target, packed as todokit-<version>-<target>.tar.gz with a .sha256 beside
# it (sha256sum's format, so `sha256sum -c` checks it).
#
# Both targets are cross-compiled the same way: rustup's musl standard
# library for the target, and Zig as the C compiler and linker (ring, under
# rustls, builds C and assembly), driven by cargo-zigbuild. Zig comes from
# PyPI's `ziglang` wheel and cargo-zigbuild from crates.io, both at pinned
# versions, into target/dist-tools (scripts/zig-tools.sh;
# docs/dependencies.md says why).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/target/dist"
TARGETS=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
[ -n "$version" ] || { echo "dist: no version in Cargo.toml" >&2; exit 1; }

# The tools: the targets' standard libraries, Zig, cargo-zigbuild.
source "$ROOT/scripts/zig-tools.sh"
zig_tools "${TARGETS[@]}"

mkdir -p "$OUT"
for target in "${TARGETS[@]}"; do
  cargo zigbuild --quiet --release --locked --target "$target" -p todokit_cli --features postgres
  stage=$(mktemp -d)
  name="todokit-$version-$target"
  mkdir "$stage/$name"
  cp "target/$target/release/todokit" README.md LICENSE-APACHE LICENSE-MIT "$stage/$name/"
  # Reproducible archives: sorted names, one owner, the commit's time.
  stamp=$(git log -1 --format=%ct 2>/dev/null || echo 0)
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -C "$stage" -czf "$OUT/$name.tar.gz" "$name"
  (cd "$OUT" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
  rm -rf "$stage"
  echo "dist: $OUT/$name.tar.gz ($(du -h "$OUT/$name.tar.gz" | cut -f1))"
done
