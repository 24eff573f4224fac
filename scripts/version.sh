#!/usr/bin/env bash
# Prints the workspace's version (the one every artifact carries: the
# crates, the Python package, the npm packages), read from the root
# Cargo.toml's [workspace.package]. Used by the packaging scripts and the
# release workflow.
set -euo pipefail
manifest="$(cd "$(dirname "$0")/.." && pwd)/Cargo.toml"
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' "$manifest")
[ -n "$version" ] || { echo "version.sh: no version in [workspace.package] of $manifest" >&2; exit 1; }
echo "$version"
