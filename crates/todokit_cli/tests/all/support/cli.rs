//! Helpers for the end-to-end tests of the `todokit` binary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

pub fn todokit(store: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_todokit"));
    cmd.arg("--store").arg(store);
    for var in [
        "TODOKIT_STORE",
        "TODOKIT_CONVERSATION",
        "TODOKIT_PROFILE",
        "TODOKIT_GLYPHS",
        "CLICOLOR_FORCE",
        "TODOKIT_SERVE_TOKEN",
        "TODOKIT_LOG_LEVEL",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Commits `todos` to `conversation` with a `TodoWrite` call made by
/// another `todokit` process, as a model's host would.
pub fn write_todos(store: &Path, conversation: &str, todos: &Value) {
    let args = json!({ "todos": todos }).to_string();
    let out = run(todokit(store).args(["--conversation", conversation, "call", "TodoWrite", &args]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A `claude-code` service in this process on `store`: a folder, or a
/// `postgres://` URL in builds with the postgres feature (reached before
/// this returns); for a test whose processes race on one store.
pub async fn claude_code_on(store: &str) -> todokit::TodoWriteService {
    let service = todokit::Todokit::builder()
        .profile("claude-code")
        .expect("registered")
        .location(todokit::StoreLocation::parse(store))
        .build()
        .expect("wired");
    service.store().ready().await.expect("the store is reachable");
    service
}

/// A runtime and a service on the folder store `store`, for a test that
/// reads or writes the store in-process beside the binary.
pub fn in_process(store: &Path) -> (tokio::runtime::Runtime, todokit::TodoWriteService) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let service = todokit::Todokit::builder()
        .store_dir(store)
        .build()
        .expect("the store opens");
    (runtime, service)
}

pub fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().expect("the binary runs")
}

pub fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input).expect("the binary reads its input");
    drop(stdin);
    child.wait_with_output().expect("the binary finishes")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn json_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(output)))
}

/// Every file under `dir` with its bytes, to prove nothing changed.
pub fn snapshot_dir(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                files.extend(snapshot_dir(&path));
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                files.push((path, bytes));
            }
        }
    }
    files.sort();
    files
}

/// insta settings that write to the workspace's `snapshots/`.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots"));
    settings.set_omit_expression(true);
    settings
}

/// A kibibyte figure from a `/proc/<pid>/status` line such as `VmHWM`.
pub fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The `todos` values of the shapes that once took a hundred times their
/// size as a tree (millions of tiny values: nested arrays, a flat array,
/// an object of keys), each about 3.8 MB, so a message holding one stays
/// just under the 4 MiB message cap.
pub fn tiny_value_floods() -> [String; 3] {
    let budget = 3_800_000usize;
    [
        format!("[{}0]", "[[[[0]]]],".repeat(budget / 10)),
        format!("[{}0]", "0,".repeat(budget / 2)),
        format!(
            "{{{}\"end\":0}}",
            (0..budget / 14)
                .map(|i| format!("\"k{i:09}\":0,"))
                .collect::<String>()
        ),
    ]
}

/// How much (KiB) a process may grow above where it rested while refusing
/// messages of at most `largest` bytes: 8 times that, or 64 MiB.
pub fn memory_bound_kib(largest: usize) -> u64 {
    ((8 * largest) as u64 / 1024).max(64 * 1024)
}

/// Runs `sql` with the server's own `psql` (the one `make test` started).
pub fn psql(url: &str, sql: &str) -> bool {
    let bin = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed")
        .filter_map(Result::ok)
        .map(|e| e.path().join("bin/psql"))
        .filter(|p| p.exists())
        .max()
        .expect("psql is installed");
    Command::new(bin)
        .args([url, "-v", "ON_ERROR_STOP=1", "-c", sql])
        .output()
        .expect("psql runs")
        .status
        .success()
}

/// Makes the folder store's file at `path` look unchanged for two days.
pub fn two_days_back(path: &Path) {
    let file = std::fs::File::options()
        .write(true)
        .open(path)
        .expect("the file is there");
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 86_400);
    file.set_modified(then).expect("time set");
}

/// Makes the database's row of conversation `id` look unchanged for two
/// days.
pub fn two_days_back_in(url: &str, id: &str) {
    let sql = format!(
        "UPDATE todokit_conversations SET updated_at = now() - interval '2 days' WHERE conversation = '{id}'"
    );
    assert!(psql(url, &sql), "aged");
}
