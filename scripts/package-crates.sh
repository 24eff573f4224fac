#!/usr/bin/env bash
# `make crates`: every publishable crate (a workspace member without
# `publish = false`) packed as crates.io would receive it, and each built
# from its packed sources (cargo's verification, with the workspace's
# crates served from a local registry of the packed ones), into
# target/dist/crates. What `cargo publish --workspace` in the release
# workflow uploads.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
crates=()
for manifest in crates/*/Cargo.toml; do
  grep -qx 'publish = false' "$manifest" && continue
  crates+=(-p "$(sed -n 's/^name = "\(.*\)"$/\1/p' "$manifest" | head -1)")
done
[ ${#crates[@]} -gt 0 ] || { echo "package-crates: no publishable crate found" >&2; exit 1; }
names=()
for (( i = 1; i < ${#crates[@]}; i += 2 )); do names+=("${crates[$i]}"); done
echo "package-crates: ${names[*]}" >&2
version=$("$ROOT/scripts/version.sh")
# Cargo unpacks each crate of its local registry of packed crates into
# $CARGO_HOME/registry/src/<source>/<name>-<version> and unpacks it again
# only when that folder is missing: packing the same version again from
# changed sources (a second run in the same checkout, or a checkout at the
# same path) would verify each crate against the first run's sources of
# the others. Those folders go first; crates.io's own are left alone. The
# verification builds get a target folder of their own, emptied first: in
# a shared one a crate of a registry counts as built for good once built
# (cargo takes a registry's sources to never change), so the first run's
# builds of our crates would be used again.
for name in "${names[@]}"; do
  for unpacked in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$name-$version"; do
    case "$unpacked" in */index.crates.io-*) continue ;; esac
    if [ -d "$unpacked" ]; then rm -rf "$unpacked"; fi
  done
done
VERIFY=target/crates-verify
rm -rf "$VERIFY"
# --allow-dirty: like the archives `make dist` builds, what is checked out
# (a release builds from its tag, where nothing is uncommitted).
cargo package --quiet --locked --allow-dirty --target-dir "$VERIFY" "${crates[@]}"
mkdir -p target/dist/crates
for name in "${names[@]}"; do
  cp "$VERIFY/package/$name-$version.crate" target/dist/crates/
done
ls -l target/dist/crates >&2
