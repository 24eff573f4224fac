#!/usr/bin/env bash
# Builds the npm package from the checkout (`npm ci && npm run build` in
# crates/todokit_node: napi-rs's CLI builds the addon in release, tsc the
# TypeScript layer), packs it, installs the tarball into a fresh project
# under target/node-package/project with `npm install --offline`, type-checks
# the tests there against the installed package, and runs them with node's
# own runner. Extra arguments go to `node --test`; with `bench ANCHOR_JSON`
# as the arguments, it runs the package's bench there instead.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PKG="$ROOT/crates/todokit_node"
OUT="$ROOT/target/node-package"
"$ROOT/scripts/ensure-packages.sh" node=nodejs npm=npm

cd "$PKG"
npm ci --no-audit --no-fund --loglevel=error
npm run build --silent
rm -rf "$OUT"
mkdir -p "$OUT/project"
npm pack --silent --pack-destination "$OUT" >/dev/null
tarball=$(ls "$OUT"/todokit-*.tgz)
# Packed as a user gets it: the addon inside, no per-platform packages.
listing=$(tar tzf "$tarball")
grep -q '^package/todokit\..*\.node$' <<<"$listing" || { echo "node-package: no addon in $tarball" >&2; exit 1; }

cd "$OUT/project"
cp "$PKG"/test/*.mjs "$PKG"/test/package.json "$PKG"/test/package-lock.json "$PKG"/test/tsconfig.json "$PKG"/bench/bench.mjs .
# The frameworks the tests compare with, from the lock file; then the
# package itself from the tarball, with no registry.
npm ci --no-audit --no-fund --loglevel=error
npm install --offline --no-save --no-audit --no-fund --loglevel=error "$tarball"
# The tests, type-checked against the installed package's types.
"$PKG/node_modules/.bin/tsc" -p tsconfig.json --typeRoots "$PKG/node_modules/@types" --types node
if [ "${1:-}" = bench ]; then
  exec node bench.mjs "$2"
fi
TODOKIT_README="$ROOT/README.md" node --test --test-reporter=spec "$@" ./*.test.mjs
