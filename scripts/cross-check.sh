#!/usr/bin/env bash
# `make cross-check`: the workspace type-checked (`cargo check`, every
# feature, libraries and binaries) for the platforms this machine cannot
# run, so that a break there shows here before a release's native runners
# find it: aarch64-apple-darwin (macOS on Apple Silicon) and
# x86_64-pc-windows-gnu (Windows). Build scripts that compile C (ring,
# under rustls) get Zig as their C compiler through cargo-zigbuild
# (scripts/dist-tools.sh).
#
# For Windows one package is left out, and said so: todokit_node, whose
# napi-rs build script links a GNU Windows target against the libnode.dll
# of a Windows Node install; napi-rs builds Windows addons with MSVC, on
# Windows (the release workflow's Windows job builds and tests it there).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source "$ROOT/scripts/dist-tools.sh"
dist_tools aarch64-apple-darwin x86_64-pc-windows-gnu
# As clippy's run is: a warning fails (a dead-code warning is how a
# platform's missing caller shows). With --target, these flags reach the
# target's crates only, not build scripts.
export RUSTFLAGS="${RUSTFLAGS:-} -D warnings"

echo "cross-check: aarch64-apple-darwin, the whole workspace" >&2
cargo-zigbuild check --quiet --workspace --locked --all-features --target aarch64-apple-darwin
echo "cross-check: x86_64-pc-windows-gnu, leaving out todokit_node (see scripts/cross-check.sh)" >&2
cargo-zigbuild check --quiet --workspace --locked --all-features --target x86_64-pc-windows-gnu \
  --exclude todokit_node
echo "cross-check: both type-check" >&2
