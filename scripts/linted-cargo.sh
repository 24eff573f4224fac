#!/usr/bin/env bash
# Runs cargo with clippy's lints on every workspace crate it compiles, as
# errors: clippy's driver as cargo's workspace wrapper, which is how `cargo
# clippy` itself works (it runs `cargo check` with RUSTC_WORKSPACE_WRAPPER
# set to the driver and its arguments in CLIPPY_ARGS, joined by
# `__CLIPPY_HACKERY__`). Here it wraps the build the tests need, so the
# lints cost one pass over our own crates and none over the dependencies:
# `cargo clippy` checks every dependency a second time, 4 min 42 s of a
# cold `make check`'s 12 min 16 s on two cores.
#
# What differs from `cargo clippy` then `cargo test`: our crates' test code
# is compiled by clippy's driver, which runs with MIR optimizations off and
# without the null and alignment checks debug builds insert (clippy's
# MIR-based lints read unoptimized MIR). Our crates forbid unsafe code but
# for one call into libc, which dereferences no pointer of ours, so those
# checks had nothing to find; what the tests check does not change. Dependencies are compiled by rustc as in any
# build, so a plain `cargo test` afterwards compiles only our crates again.
set -euo pipefail
driver="$(rustc --print sysroot)/bin/clippy-driver"
[ -x "$driver" ] || { echo "linted-cargo: no clippy-driver in $(rustc --print sysroot)/bin (rustup component add clippy)" >&2; exit 1; }
export RUSTC_WORKSPACE_WRAPPER="$driver"
export CLIPPY_ARGS="-Dwarnings__CLIPPY_HACKERY__"
exec "${CARGO:-cargo}" "$@"
