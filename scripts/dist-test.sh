#!/usr/bin/env bash
# `make dist-test`: the command-line archives `make dist` made, installed as
# a user installs them, where nothing of a Rust toolchain is reachable: each
# archive's checksum checked; each binary alone in an empty folder, run with
# an empty environment (`env -i`, so no PATH, HOME or cargo), and shown to
# be a static executable for its machine (readelf: no interpreter, no shared
# library needed). The x86_64 binary plays the demo and answers a call; the
# aarch64 one answers `--version` and a call under qemu-aarch64 (Debian's
# qemu-user).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/target/dist"
"$ROOT/scripts/ensure-packages.sh" qemu-aarch64=qemu-user readelf=binutils
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$ROOT/Cargo.toml" | head -1)
CALL='{"todos":[{"content":"Ship it","status":"in_progress","activeForm":"Shipping it"}]}'

check() {
  local target=$1 machine=$2 run=$3
  local name="todokit-$version-$target"
  (cd "$OUT" && sha256sum --quiet -c "$name.tar.gz.sha256")
  local unpack here store
  unpack=$(mktemp -d) here=$(mktemp -d) store=$(mktemp -d)
  tar -xzf "$OUT/$name.tar.gz" -C "$unpack"
  mv "$unpack/$name/todokit" "$here/"
  rm -rf "$unpack"
  readelf -h "$here/todokit" | grep -q "Machine:.*$machine" || { echo "dist-test: $name is not a $machine binary" >&2; exit 1; }
  if readelf -l "$here/todokit" | grep -q INTERP || readelf -d "$here/todokit" | grep -q NEEDED; then
    echo "dist-test: $name is not static" >&2; exit 1
  fi
  cd "$here"
  [ "$(ls -A)" = todokit ] || { echo "dist-test: the folder holds more than the binary" >&2; exit 1; }
  $run ./todokit --version | grep -qx "todokit $version" || { echo "dist-test: $name --version" >&2; exit 1; }
  $run ./todokit --store "$store" --conversation dist call TodoWrite "$CALL" | grep -q '"is_error": *false' \
    || { echo "dist-test: $name could not make a call" >&2; exit 1; }
  if [ "$target" = x86_64-unknown-linux-musl ]; then
    $run ./todokit --store "$store" demo >/dev/null || { echo "dist-test: $name demo" >&2; exit 1; }
  fi
  cd "$ROOT"
  rm -rf "$here" "$store"
  echo "dist-test: $name: static, $machine, runs with an empty environment"
}

check x86_64-unknown-linux-musl 'X86-64' 'env -i'
check aarch64-unknown-linux-musl 'AArch64' "env -i $(command -v qemu-aarch64)"
