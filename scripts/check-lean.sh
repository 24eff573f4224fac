#!/usr/bin/env bash
# Builds a fresh host crate that depends on `todokit` with
# `default-features = false`, as an embedder would, and checks what it pulls
# in: at most MAX_CRATES distinct crates in todokit's normal dependency tree,
# none of the binary's dependencies, and a call through the JSON-file store
# under `futures_executor::block_on` (no tokio runtime), and a live feed that
# sees another process's commit within a second.
set -euo pipefail

MAX_CRATES=60
FORBIDDEN="clap rmcp notify anstream axum anyhow tracing-subscriber"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HOST=$(mktemp -d /tmp/todokit-lean-host.XXXXXX)
trap 'rm -rf "$HOST"' EXIT

mkdir -p "$HOST/src"
cat > "$HOST/Cargo.toml" <<TOML
[package]
name = "lean-host"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
todokit = { path = "$ROOT/crates/todokit", default-features = false }
futures-executor = "0.3"

[workspace]

# As the documented hosts build (scripts/check-documented-hosts.sh), in the
# same target folder: what the two trees share is compiled once.
[profile.dev]
debug = false
TOML
cat > "$HOST/src/main.rs" <<'RS'
//! A host on the lean library: a call under `futures_executor::block_on`
//! (no tokio runtime), then a live feed that must see a commit made by
//! another process (this program again, run with `write`) within a second.
use std::pin::Pin;
use std::time::{Duration, Instant};
use todokit::Stream;

fn service(dir: &std::path::Path) -> todokit::TodoWriteService {
    todokit::Todokit::builder()
        .profile("claude-code")
        .expect("the profile exists")
        .store_dir(dir)
        .build()
        .expect("the service is wired")
}

fn call(dir: &std::path::Path, content: &str) {
    let args = format!(r#"{{"todos":[{{"content":"{content}","status":"in_progress","activeForm":"Doing it"}}]}}"#);
    let result = futures_executor::block_on(service(dir).call("lean", "TodoWrite", &args)).expect("the call runs");
    assert!(!result.is_error, "{}", result.content);
}

fn main() {
    let mut args = std::env::args().skip(1);
    if let (Some(mode), Some(dir)) = (args.next(), args.next()) {
        assert_eq!(mode, "write");
        call(std::path::Path::new(&dir), "from another process");
        return;
    }
    let dir = std::env::temp_dir().join(format!("todokit-lean-{}", std::process::id()));
    call(&dir, "Ship");
    let service = service(&dir);
    let mut feed = service.subscribe("lean");
    let mut next = || {
        futures_executor::block_on(std::future::poll_fn(|cx| Pin::new(&mut feed).poll_next(cx)))
            .expect("the feed never ends")
            .expect("the list can be read")
    };
    assert_eq!(next().version, 1);
    let status = std::process::Command::new(std::env::current_exe().expect("this program"))
        .arg("write")
        .arg(&dir)
        .status()
        .expect("the writer runs");
    assert!(status.success());
    let committed = Instant::now();
    let seen = next();
    let waited = committed.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(seen.version, 2);
    assert!(waited < Duration::from_secs(1), "the feed took {waited:?}");
    println!("check-lean: a call under block_on, and another process's commit seen by the feed after {waited:?}");
}
RS
# The workspace's lock pins the same versions CI tests with.
cp "$ROOT/Cargo.lock" "$HOST/Cargo.lock"
cd "$HOST"
CRATES=$(cargo tree -q -e normal -p todokit --prefix none | sed 's/ (\*)//; s/ (proc-macro)//' | awk '{print $1}' | sort -u)
COUNT=$(echo "$CRATES" | wc -l)
echo "check-lean: todokit with default-features = false pulls $COUNT distinct crates (at most $MAX_CRATES)"
for name in $FORBIDDEN; do
  if echo "$CRATES" | grep -qx "$name"; then
    echo "check-lean: $name is in the library's tree" >&2
    exit 1
  fi
done
[ "$COUNT" -le "$MAX_CRATES" ] || { echo "check-lean: too many crates:" $CRATES >&2; exit 1; }
CARGO_TARGET_DIR="$ROOT/target/hosts" cargo run -q
