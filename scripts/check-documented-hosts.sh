#!/usr/bin/env bash
# Builds the hosts the documentation describes, outside the workspace, from
# exactly the dependency lines it shows, so a line the docs forget fails
# here instead of in a reader's first build:
#
# - README.md's quick start: a crate whose [dependencies] are what its
#   `cargo add todokit tokio -F ...` line adds (todokit from this checkout);
#   its Rust recipe is the program, built and run on a store of its own,
#   then the recipe's `todokit watch --latest` line (the command `unit`
#   built) must show what it wrote.
# - README.md: a crate whose [dependencies] are the README's first toml
#   block; its first Rust example after the quick start is the program,
#   built and run.
# - docs/embedding.md: a crate whose [dependencies] are that page's first
#   toml block; each Rust block is one program (the lines rustdoc hides,
#   `# ...`, are part of it, as in the doc test; a block without `fn main`
#   is wrapped in one, as rustdoc does), built, and run unless marked
#   `no_run`. The doc tests' `cfg(feature = "rig")` and `cfg(feature =
#   "acp")` become the host's own features `rig` and `acp`, which turn on
#   todokit's (the lines the page shows for sections 9 and 10).
# - docs/your-own-dialect.md: a crate whose [dependencies] are that page's
#   toml block; its one Rust block (the own-dialect example) is the
#   program, built and run.
#
# `path = "crates/todokit"` in the docs is read from the repository root.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/todokit-documented-hosts.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

python3 - "$ROOT" "$WORK" <<'PY'
import pathlib, re, sys

root, work = map(pathlib.Path, sys.argv[1:])

def blocks(text):
    """(info string, body) of every fenced block, in order."""
    return [(m.group(1).strip(), m.group(2))
            for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.S | re.M)]

def dependencies(found, source):
    tomls = [body for info, body in found if info == "toml"]
    if not tomls:
        sys.exit(f"check-documented-hosts: {source} shows no toml block of dependencies")
    lines = [l for l in tomls[0].splitlines() if l.strip() != "[dependencies]"]
    return "\n".join(lines).replace('path = "crates/', f'path = "{root}/crates/')

def program(body):
    """A doc block as the program rustdoc compiles: hidden lines shown."""
    code = "\n".join(re.sub(r"^(\s*)# ?", r"\1", l) if re.match(r"^\s*#( |$)", l) else l
                     for l in body.splitlines())
    return code if "fn main" in code else "fn main() {\n" + code + "\n}\n"

def host(name, deps, programs):
    crate = work / name
    (crate / "src/bin").mkdir(parents=True)
    manifest = (
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f"[dependencies]\n{deps}\n\n"
        '[features]\nrig = ["todokit/rig"]\nacp = ["todokit/acp"]\n\n'
        "[workspace]\n\n"
        # The cheapest build that runs the programs: no debug info and
        # (cargo's default) unoptimized dependencies. The programs are small
        # and run once; compiling is the whole cost of this check. The lean
        # host (scripts/check-lean.sh) builds with the same profile into the
        # same target folder, so what the trees share is compiled once.
        "[profile.dev]\ndebug = false\n"
    )
    (crate / "Cargo.toml").write_text(manifest)
    (crate / "Cargo.lock").write_text((root / "Cargo.lock").read_text())
    runs = []
    for index, (info, body) in enumerate(programs, 1):
        (crate / f"src/bin/block{index}.rs").write_text(program(body))
        if "no_run" not in info and "compile_fail" not in info:
            runs.append(f"block{index}")
    (crate / "runs").write_text("\n".join(runs) + "\n")

readme_text = (root / "README.md").read_text()
head, quick = readme_text.split("## Quick start by host", 1)
quick, rest = quick.split("\n## ", 1)
added = re.search(r"`cargo add todokit tokio -F ([\w/,-]+)`", quick)
if not added:
    sys.exit("check-documented-hosts: the quick start's `cargo add todokit tokio -F ...` line is gone")
tokio_features = ", ".join(f'"{f.split("/", 1)[1]}"' for f in added.group(1).split(","))
host("quickstart-host",
     f'todokit = {{ path = "{root}/crates/todokit" }}\ntokio = {{ version = "1", features = [{tokio_features}] }}',
     [(info.replace("no_run", ""), body) for info, body in blocks(quick) if info.startswith("rust")])
(work / "quickstart-host" / "watch").write_text(
    [body for info, body in blocks(quick) if info == "sh" and "watch --latest" in body][-1])
readme = blocks(head + "## " + rest)
host("readme-host", dependencies(readme, "README.md"),
     [(info.replace("no_run", ""), body) for info, body in readme if info.startswith("rust")][:1])
embedding = blocks((root / "docs/embedding.md").read_text())
host("embedding-host", dependencies(embedding, "docs/embedding.md"),
     [(info, body) for info, body in embedding if info.startswith("rust")])
dialect = blocks((root / "docs/your-own-dialect.md").read_text())
host("own-dialect-host", dependencies(dialect, "docs/your-own-dialect.md"),
     [(info, body) for info, body in dialect if info.startswith("rust")])
PY

# The recipes write to the default store: here, one of their own.
export TODOKIT_STORE="$WORK/default-store"
for crate in quickstart-host readme-host embedding-host own-dialect-host; do
  cd "$WORK/$crate"
  CARGO_TARGET_DIR="$ROOT/target/hosts" cargo build -q --bins --features rig,acp
  while read -r bin; do
    [ -n "$bin" ] || continue
    (cd "$WORK" && "$ROOT/target/hosts/debug/$bin" >/dev/null) || {
      echo "check-documented-hosts: $crate's $bin failed" >&2
      exit 1
    }
  done < runs
  echo "check-documented-hosts: $crate builds from the documented lines and its examples run"
done

# The Rust recipe's second terminal, as written, with the command first on
# PATH; `watch` prints a line per change when piped, and runs until stopped.
[ -x "$ROOT/target/debug/todokit" ] || (cd "$ROOT" && cargo build -q -p todokit_cli)
watch=$(cat "$WORK/quickstart-host/watch")
first=$(cd "$WORK" && PATH="$ROOT/target/debug:$PATH" timeout 10 bash -c "$watch" | head -n 1 || true)
[ "$first" = "my-project: version 1 by claude-code: 0/1 completed; in progress: Shipping it" ] || {
  echo "check-documented-hosts: the quick start's watch line showed: $first" >&2
  exit 1
}
echo "check-documented-hosts: the quick start's Rust recipe wrote what its watch line shows"
