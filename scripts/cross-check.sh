#!/usr/bin/env bash
# `make cross-check`: the workspace type-checked (`cargo check`, every
# feature, libraries and binaries) for the platforms this machine cannot
# run, so that a break there shows here before a release's native runners
# find it: aarch64-apple-darwin (macOS on Apple Silicon) and
# x86_64-pc-windows-gnu (Windows). Build scripts that compile C (ring,
# under rustls) get Zig as their C compiler through cargo-zigbuild
# (scripts/dist-tools.sh).
#
# For Windows two packages are left out, and said so:
# - todokit_node: napi-rs's build script links a GNU Windows target
#   against the libnode.dll of a Windows Node install; napi-rs builds
#   Windows addons with MSVC, on Windows.
# - todokit_python: its live feed wakes asyncio through a pipe's file
#   descriptor (`loop.add_reader`), which Windows' event loop does not
#   offer; that part of the package is not written for Windows yet.
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
echo "cross-check: x86_64-pc-windows-gnu, leaving out todokit_node and todokit_python (see scripts/cross-check.sh)" >&2
cargo-zigbuild check --quiet --workspace --locked --all-features --target x86_64-pc-windows-gnu \
  --exclude todokit_node --exclude todokit_python
echo "cross-check: both type-check" >&2
