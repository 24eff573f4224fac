#!/usr/bin/env bash
# Builds a fresh host crate that depends on `todokit` with
# `default-features = false`, as an embedder would, and checks what it pulls
# in: at most MAX_CRATES distinct crates in todokit's normal dependency tree,
# none of the binary's dependencies, and a call through the JSON-file store
# under `futures_executor::block_on` (no tokio runtime).
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
TOML
cat > "$HOST/src/main.rs" <<'RS'
fn main() {
    let dir = std::env::temp_dir().join(format!("todokit-lean-{}", std::process::id()));
    let service = todokit::Todokit::builder()
        .profile("claude-code")
        .expect("the profile exists")
        .store_dir(&dir)
        .build()
        .expect("the service is wired");
    let args = r#"{"todos":[{"content":"Ship","status":"in_progress","activeForm":"Shipping"}]}"#;
    let result = futures_executor::block_on(service.call("lean", "TodoWrite", args)).expect("the call runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!result.is_error, "{}", result.content);
    println!("{}", result.content);
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
CARGO_TARGET_DIR="$ROOT/target/lean-host" cargo run -q
