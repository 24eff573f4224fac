#!/usr/bin/env bash
# Builds and packs the npm package with the README's own command (`npm ci
# && npm run build && npm pack` in crates/todokit_node: napi-rs's CLI
# builds the addon in release, tsc the TypeScript layer), installs the
# tarball with the README's install command in a bare project (the core
# without any framework) and in a fresh project under
# target/node-package/project with the frameworks the tests drive,
# type-checks the tests there against the installed package, and runs
# them with node's own runner. Extra arguments go to `node --test`; with `bench ANCHOR_JSON`
# as the arguments, it runs the package's bench there instead.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PKG="$ROOT/crates/todokit_node"
OUT="$ROOT/target/node-package"
"$ROOT/scripts/ensure-packages.sh" node=nodejs npm=npm

# The README's own commands, as written: its TypeScript section's `sh`
# block, whose first line builds and packs the package in its folder and
# whose second installs the tarball in a project.
readme_sh=$(awk '/^## Using it from TypeScript/{f=1} f&&/^```sh/{g=1;next} g&&/^```/{exit} g{print}' "$ROOT/README.md")
build_line=$(sed -n 1p <<<"$readme_sh")
install_line=$(sed -n 2p <<<"$readme_sh")
case "$build_line" in *"npm pack"*) ;; *) echo "node-package: the README's build line is not where it was: $build_line" >&2; exit 1 ;; esac
case "$install_line" in *"npm install --offline /path/to/todokit-"*) ;; *) echo "node-package: the README's install line is not where it was: $install_line" >&2; exit 1 ;; esac
rm -rf "$OUT" "$PKG"/todokit-*.tgz
mkdir -p "$OUT/project" "$OUT/bare"
(cd "$ROOT" && NPM_CONFIG_LOGLEVEL=error NPM_CONFIG_AUDIT=false NPM_CONFIG_FUND=false bash -euo pipefail -c "$build_line" >/dev/null)
mv "$PKG"/todokit-*.tgz "$OUT/"
tarball=$(ls "$OUT"/todokit-*.tgz)
# Packed as a user gets it: the addon inside, no per-platform packages.
listing=$(tar tzf "$tarball")
grep -q '^package/todokit\..*\.node$' <<<"$listing" || { echo "node-package: no addon in $tarball" >&2; exit 1; }

# The install line in a bare project: the core needs none of the
# frameworks; an adapter without its framework says which is missing.
(cd "$OUT/bare" && NPM_CONFIG_LOGLEVEL=error NPM_CONFIG_AUDIT=false NPM_CONFIG_FUND=false \
  bash -euo pipefail -c "${install_line//\/path\/to\/todokit-*.tgz/$tarball}")
(cd "$OUT/bare" && node --input-type=module -e "
import { Todokit, profiles } from 'todokit';
const kit = new Todokit({ profile: 'claude-code', memory: true });
const result = kit.callSync('c', 'TodoWrite', { todos: [] });
if (profiles().length < 30 || result.isError) { console.error('the bare install does not work'); process.exit(1); }
try { await import('todokit/ai'); console.error('todokit/ai loaded without ai'); process.exit(1); }
catch (error) { if (error.code !== 'ERR_MODULE_NOT_FOUND' || !/'ai'/.test(error.message)) throw error; }
")

# The package's `bin` is the command itself.
command_version=$(cd "$OUT/bare" && npx --no-install todokit --version)
[ "$command_version" = "todokit $(node -p "require('$PKG/package.json').version")" ] || {
  echo "node-package: the package's command says $command_version" >&2; exit 1; }

cd "$OUT/project"
cp "$PKG"/test/*.mjs "$PKG"/test/package.json "$PKG"/test/package-lock.json "$PKG"/test/tsconfig.json "$PKG"/bench/bench.mjs .
# The frameworks the tests drive, from the lock file (without optional
# packages: the Claude Agent SDK's Claude Code binary is not needed, its
# types and the MCP SDK are); then the package itself from the tarball,
# with no registry.
npm ci --omit=optional --no-audit --no-fund --loglevel=error
npm install --offline --no-save --no-audit --no-fund --loglevel=error "$tarball"
# The tests, type-checked against the installed package's types.
"$PKG/node_modules/.bin/tsc" -p tsconfig.json --typeRoots "$PKG/node_modules/@types" --types node
if [ "${1:-}" = bench ]; then
  exec node bench.mjs "$2"
fi
TODOKIT_TSC="$PKG/node_modules/.bin/tsc" TODOKIT_README="$ROOT/README.md" node --test --test-reporter=spec "$@" ./*.test.mjs
