#!/usr/bin/env bash
# `make check`: the contributor's quick test. Formatting, clippy, and every
# Rust test that needs nothing from outside the workspace: no PostgreSQL,
# tmux, Chromium or node, no package manager and no sudo (it runs on macOS
# too). What it leaves out is printed with the reason; `make test` (what
# CI runs) starts those services and runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}

# Modules of the crates' integration test binaries (`tests/all/`) that need
# a service throughout, and why: package:module.
declare -A WHOLE=(
  [todokit_cli:acp]="node (the official ACP SDK)"
  [todokit_cli:agents]="the agents' own CLIs from npm (make agent-clis)"
  [todokit_cli:board_browser]="Chromium"
  [todokit_cli:mcp_resources]="node (the official MCP SDK)"
  [todokit_cli:serve_mcp]="node (the official MCP SDK)"
  [todokit_cli:serve_scale]="PostgreSQL over TLS and node"
  [todokit_cli:serve_tenants]="node (the official MCP SDK)"
  [todokit_cli:subtasks]="tmux and Chromium"
  [todokit_cli:watch]="tmux"
  [todokit:postgres_builder]="PostgreSQL"
)
# Single tests (or every test under a module path) that need one, and why.
declare -A SOME=(
  [store::postgres::]="PostgreSQL (todokit_infra's PostgresStore)"
  [http::session_table::]="PostgreSQL (todokit_mcp's sessions table)"
  [call_then_show_across_processes_on_postgres]="PostgreSQL"
  [tasks_in_several_processes_lose_no_update_on_postgres]="PostgreSQL"
  [turn_hooks_in_another_process_never_bring_a_forgotten_list_back_on_postgres]="PostgreSQL"
  [forget_and_prune_remove_conversations_whole_from_a_database]="PostgreSQL"
  # Not a service: it waits out the server's fixed 30 s body deadline,
  # half of what the rest of the tests take together.
  [a_drip_fed_body_is_cut_off_after_its_deadline]="30 s of waiting (the server's body deadline)"
  [the_databases_listing_is_right_after_killed_writers_and_hand_edits]="PostgreSQL"
  [sixty_streams_on_postgres_add_at_most_eight_threads]="PostgreSQL"
  [the_fleet_recipe_starts_two_servers_on_one_database]="PostgreSQL over TLS"
)

echo "make check: leaves out (make test runs these):"
for target in $(printf '%s\n' "${!WHOLE[@]}" | sort); do
  echo "  tests/all/${target#*:}.rs of ${target%%:*}: needs ${WHOLE[$target]}"
done
for name in $(printf '%s\n' "${!SOME[@]}" | sort); do
  echo "  $name: needs ${SOME[$name]}"
done
echo "  the Python and npm packages' own tests: need a venv and node (make python-test, make node-test)"

$CARGO fmt --all -- --check
# Clippy's lints as the tests' build compiles our crates: one pass over
# the dependencies, not two (scripts/linted-cargo.sh says how and what
# differs from `cargo clippy`; `make clippy` runs that).
./scripts/lint-build.sh

skips=()
for name in "${!SOME[@]}"; do
  skips+=(--skip "$name")
done
# The unit tests (the two packages have none in Rust: their Python and
# JavaScript tests exercise them), from the build lint-build.sh made: the
# same packages, so the same features.
./scripts/linted-cargo.sh test --workspace --all-features --locked --lib --bins -- "${skips[@]}"
# Each crate's one integration test binary, without the modules left out
# above. A separate run: a module's name as a filter would also match unit
# tests under a module of that name (the CLI's own `watch::`).
targets=()
while read -r name; do
  targets+=(--test "$name")
done < <($CARGO metadata --no-deps --format-version 1 --locked | python3 -c '
import json, sys
names = {target["name"] for package in json.load(sys.stdin)["packages"]
         for target in package["targets"] if "test" in target["kind"]}
print("\n".join(sorted(names)))')
modules=()
for target in "${!WHOLE[@]}"; do
  modules+=(--skip "${target#*:}::")
done
# Four at a time, not one per core: these tests mostly wait on the
# processes they start (18 s of CPU in 55 s on two cores).
./scripts/linted-cargo.sh test --workspace --all-features --locked "${targets[@]}" -- \
  --test-threads=4 "${skips[@]}" "${modules[@]}"
./scripts/linted-cargo.sh test --workspace --all-features --locked --doc
echo "make check: passed"
