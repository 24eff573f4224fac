//! `make bench`, the process half: what the `todokit` binary adds to a call.
//!
//! - One CLI call (`todokit call TodoWrite ARGS`) as a whole process, against
//!   starting `/bin/true`, on a store on tmpfs (`/dev/shm`) when there is one.
//! - An MCP `tools/call` over stdio to `todokit mcp`, paired call by call
//!   with the same call made in-process on the same JSON-file store (its
//!   file work on the calling thread as the server does it, and on tokio's
//!   blocking pool as a host on tokio gets it by default): the median of
//!   the differences is what the server adds. The client splices the
//!   request as text and checks the answer without parsing it, so its own
//!   JSON work is not counted as the server's.
//!
//! - How soon a client subscribed to a conversation resource hears of a
//!   commit by another writer (see `resources`).
//! - The board's overview at 100, 1,000 and 10,000 conversations (see
//!   `overview`).
//!
//! Usage: `cargo bench -p todokit_cli --bench process -- DIR`, DIR holding
//! the generated payloads (`make bench` does it).

#[path = "../../../todokit/benches/calls/bench_support.rs"]
mod bench_support;
mod overview;
mod resources;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use todokit::{JsonFileStore, SystemClock, TodoWriteService, profiles};

const BINARY: &str = env!("CARGO_BIN_EXE_todokit");

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Microseconds a run of `command` takes, start to exit, median of `runs`.
fn process_time(runs: usize, mut command: impl FnMut() -> Command) -> f64 {
    let samples = (0..runs)
        .map(|_| {
            let mut command = command();
            command.stdout(Stdio::null()).stderr(Stdio::null());
            let start = Instant::now();
            let status = command.status().expect("the process starts");
            assert!(status.success(), "{command:?} failed");
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(samples)
}

/// A folder on tmpfs when the machine has one, and whether it is.
fn scratch() -> (tempfile::TempDir, bool) {
    let shm = Path::new("/dev/shm");
    match tempfile::tempdir_in(shm) {
        Ok(dir) => (dir, true),
        Err(_) => (tempfile::tempdir().expect("a temp folder"), false),
    }
}

/// `todokit mcp` on stdio, past its handshake.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// The last answer, its buffer reused.
    answer: String,
}

impl Server {
    fn start(store: &Path) -> Self {
        let mut child = Command::new(BINARY)
            .arg("--store")
            .arg(store)
            .args(["--profile", "claude-code", "mcp"])
            .env_remove("TODOKIT_CONVERSATION")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("todokit mcp starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut server = Self {
            child,
            stdin,
            stdout,
            next_id: 1,
            answer: String::new(),
        };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
        server.send(&init);
        server.receive();
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    fn receive(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("the server answers");
        serde_json::from_str(&line).expect("an answer is JSON")
    }

    /// One `tools/call` round trip with `arguments` (JSON text); panics on
    /// an error result. The client's own work is kept small (the request is
    /// spliced as text, the answer is checked, not parsed), so the figure is
    /// what the server adds, not what a client spends on 30 KB of JSON.
    fn call(&mut self, arguments: &str) {
        let id = self.next_id;
        self.next_id += 1;
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"TodoWrite","arguments":{arguments}}}}}"#
        );
        self.stdin
            .write_all(request.as_bytes())
            .expect("the server reads");
        self.stdin.write_all(b"\n").expect("the server reads");
        self.stdin.flush().expect("the server reads");
        self.answer.clear();
        self.stdout
            .read_line(&mut self.answer)
            .expect("the server answers");
        let answered = self
            .answer
            .starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#));
        assert!(
            answered && self.answer.contains(r#""isError":false"#),
            "{}",
            self.answer
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn main() {
    let w1 = bench_support::read_payload(&bench_support::payload_dir(), "w1_full_replace_50.json");
    let (scratch, on_tmpfs) = scratch();
    let store = scratch.path().join("store");
    let place = if on_tmpfs { "tmpfs" } else { "disk (no /dev/shm)" };

    // One CLI call as a whole process.
    let cli = |args: &str| {
        let mut command = Command::new(BINARY);
        command
            .arg("--store")
            .arg(&store)
            .args(["--conversation", "cli", "call", "TodoWrite", args])
            .env_remove("TODOKIT_CONVERSATION");
        command
    };
    process_time(5, || cli(&w1));
    let cli_call = process_time(60, || cli(&w1));
    let true_call = process_time(60, || Command::new("true"));
    let version_call = process_time(60, || {
        let mut command = Command::new(BINARY);
        command.arg("--version");
        command
    });
    println!(
        "CLI: one `todokit call TodoWrite` (W1) as a process on {place}: {:.2} ms; `todokit --version`: {:.2} ms; \
         the call adds {:.2} ms to the binary's own start (goal ≤ 0.5 ms); starting `true`: {:.2} ms",
        cli_call / 1e3,
        version_call / 1e3,
        (cli_call - version_call) / 1e3,
        true_call / 1e3
    );

    // MCP round trip against the same call in-process, paired.
    let arguments = w1.trim();
    let mut server = Server::start(&store);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    // The same call in-process on the same store, two ways: the store's
    // file work on tokio's blocking pool (the default, what a host on tokio
    // gets), and on the calling thread, as `todokit mcp` runs it; the
    // server's overhead is measured against the second.
    let in_process = |store: JsonFileStore| {
        TodoWriteService::new(
            profiles::by_name("claude-code").expect("registered"),
            Arc::new(store),
            Arc::new(SystemClock),
        )
    };
    let on_pool = in_process(JsonFileStore::new(&store));
    let on_thread = in_process(JsonFileStore::new(&store).on_calling_thread());
    let direct = |service: &TodoWriteService| {
        let result = runtime
            .block_on(service.call("default", "TodoWrite", &w1))
            .expect("W1 runs");
        assert!(!result.is_error, "{}", result.content);
        // The server writes the details into its reply, so the call it is
        // compared with reads them too.
        std::hint::black_box(result.details.as_str());
    };
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_millis(300) {
        server.call(arguments);
        direct(&on_pool);
        direct(&on_thread);
    }
    let timed = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1e6
    };
    let (mut over_mcp, mut pooled, mut threaded, mut added, mut added_to_pooled) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..1_000 {
        let mcp = timed(&mut || server.call(arguments));
        let pool = timed(&mut || direct(&on_pool));
        let thread = timed(&mut || direct(&on_thread));
        over_mcp.push(mcp);
        pooled.push(pool);
        threaded.push(thread);
        added.push(mcp - thread);
        added_to_pooled.push(mcp - pool);
    }
    println!(
        "MCP: tools/call (W1) over stdio {:.0} µs; the same call in-process on the same JSON-file store on {place}: \
         {:.0} µs with its file work on the calling thread (as the server does it), {:.0} µs on tokio's blocking pool; \
         the server adds {:.0} µs to the first (goal ≤ 50 µs), {:.0} µs to the second (medians of 1000 paired differences)",
        median(over_mcp),
        median(threaded),
        median(pooled),
        median(added),
        median(added_to_pooled)
    );
    resources::report(&mut server, &on_thread, &runtime, place);
    drop(server);

    overview::report(&runtime);
}
