#!/usr/bin/env bash
# Compiles every target of every workspace crate with clippy's lints as
# errors (scripts/linted-cargo.sh): what `cargo clippy --workspace
# --all-targets --all-features -- -D warnings` checks, in the build the
# tests then run from (`scripts/linted-cargo.sh test --workspace
# --all-features`, the same packages so the same features). The two
# packages' native modules have their tests off (a test binary of a
# Python extension does not link everywhere); they are built as the
# libraries they are.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/linted-cargo.sh build --workspace --all-targets --all-features --locked
