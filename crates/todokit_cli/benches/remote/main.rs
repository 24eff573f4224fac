//! `make bench`, the remote half: a load generator for `todokit serve`'s
//! MCP endpoint.
//!
//! Raw JSON-RPC over HTTP/1.1 keep-alive connections, protocol 2026-07-28
//! (no session; each request carries its protocol metadata and gets a plain
//! JSON answer), [`CLIENTS`] clients each on its own conversation, each
//! sending the W1 payload (`TodoWrite`, 50 items) as fast as its answers
//! come: [`WARM_UP`] of warm-up, then [`MEASURED`] measured.
//!
//! - Two `serve` processes on one PostgreSQL database, the clients spread
//!   over both (as a load balancer without affinity would), then one
//!   process on the JSON-file store.
//! - Printed: calls a second, p50 and p99 latency, the servers' CPU per
//!   call (user + system time of both processes from `/proc`, over the
//!   measured window), the generator's own CPU, and what was stored
//!   against what was acknowledged (the versions the store holds against
//!   the successful answers: nothing acknowledged may be missing).
//! - Idle: both processes with [`IDLE_SESSIONS`] sessions open (opened
//!   with `initialize` before 2026-07-28, then left alone), their CPU over
//!   [`IDLE_WINDOW`].
//! - Open loop ([`open_loop`]): [`OPEN_RATE`] calls a second for
//!   [`MEASURED`] on each store, latency from each request's due time
//!   (p50, p99, p99.9); on PostgreSQL also the highest of [`RATES`] held
//!   for [`edge_cost::STEP`] with p99 ≤ 100 ms.
//! - What `/metrics` costs the server per scrape, against its CPU a second
//!   at [`OPEN_RATE`]; and the edge's cost: one client's W1 calls over
//!   HTTP in a session of 2025-06-18 against the same over stdio MCP, on
//!   the same folder ([`edge_cost`]); and the same calls against todokit
//!   over HTTP made to the servers a host would write with the official
//!   MCP SDKs, Python's and TypeScript's ([`sdk_servers`]).
//!
//! The servers log as an operator runs them (a line per request, to a
//! sink here).
//!
//! Usage: `cargo bench -p todokit_cli --features postgres --bench remote --
//! DIR`, DIR holding the generated payloads, with
//! `TODOKIT_TEST_POSTGRES_URL` set (`make bench` does both).

// Shared with the other benchmarks; this one uses the payloads and the
// CPU clock only.
#[allow(dead_code)]
#[path = "../../../todokit/benches/calls/bench_support.rs"]
mod bench_support;
mod client;
mod edge_cost;
mod open_loop;
mod sdk_servers;

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bench_support::cpu_time;
use client::Connection;

/// The binary under test: this build's, or the one `TODOKIT_BENCH_BINARY`
/// names (an earlier build, to compare with in the same run of the same
/// generator).
fn binary() -> String {
    std::env::var("TODOKIT_BENCH_BINARY").unwrap_or_else(|_| env!("CARGO_BIN_EXE_todokit").to_owned())
}

/// Concurrent clients, each on its own conversation.
const CLIENTS: usize = 64;
/// Calls before the measured window (connections warm, caches full).
const WARM_UP: Duration = Duration::from_secs(5);
/// The measured window.
const MEASURED: Duration = Duration::from_secs(30);
/// Sessions held open for the idle figure.
const IDLE_SESSIONS: usize = 1000;
/// How long the idle servers are watched.
const IDLE_WINDOW: Duration = Duration::from_secs(10);
/// The open loop's fixed rate, calls a second.
const OPEN_RATE: f64 = 500.0;
/// The rates tried, in order, for the highest held with p99 ≤ 100 ms.
const RATES: [f64; 6] = [500.0, 750.0, 1000.0, 1250.0, 1500.0, 2000.0];

/// A `todokit serve` process, stopped on drop.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(store: &str) -> Server {
        let mut child = Command::new(binary())
            .args(["--store", store, "serve", "--bind", "127.0.0.1:0"])
            .env("TODOKIT_LOG_LEVEL", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("todokit serve starts");
        let mut out = std::io::BufReader::new(child.stdout.take().expect("piped"));
        let mut first = String::new();
        std::io::BufRead::read_line(&mut out, &mut first).expect("the first line");
        // The rest of standard output is read and dropped: a full pipe must
        // not stall the server.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let address = first
            .split("http://")
            .nth(1)
            .map(|rest| rest.trim().trim_end_matches('/').to_owned())
            .expect("the board's address");
        Server { child, address }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one run measured.
struct Run {
    calls: usize,
    failures: usize,
    latencies: Vec<Duration>,
    server_cpu: Duration,
    own_cpu: Duration,
    elapsed: Duration,
    /// Successful answers, warm-up included: each is a stored version.
    acknowledged: u64,
}

/// Runs the clients against `servers` (client `i` on `servers[i % n]`).
fn load(servers: &[Server], arguments: &str, tag: &str) -> Run {
    let stop = Arc::new(AtomicBool::new(false));
    let measuring = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    for i in 0..CLIENTS {
        let address = servers[i % servers.len()].address.clone();
        let body_args = arguments.to_owned();
        let conversation = format!("{tag}-{i}");
        let (stop, measuring) = (Arc::clone(&stop), Arc::clone(&measuring));
        workers.push(std::thread::spawn(move || {
            let mut connection = Connection::open(&address);
            let mut latencies = Vec::new();
            let (mut calls, mut failures, mut acknowledged) = (0usize, 0usize, 0u64);
            let mut id = 0u64;
            while !stop.load(Ordering::Relaxed) {
                id += 1;
                let started = Instant::now();
                let ok = connection.call(id, &conversation, &body_args);
                let took = started.elapsed();
                if ok {
                    acknowledged += 1;
                }
                if measuring.load(Ordering::Relaxed) {
                    calls += 1;
                    failures += usize::from(!ok);
                    latencies.push(took);
                }
            }
            (calls, failures, acknowledged, latencies)
        }));
    }
    std::thread::sleep(WARM_UP);
    let pids: Vec<String> = servers.iter().map(|s| s.pid().to_string()).collect();
    let cpu_before: Duration = pids.iter().map(|pid| cpu_time(pid)).sum();
    let own_before = cpu_time("self");
    let started = Instant::now();
    measuring.store(true, Ordering::Relaxed);
    std::thread::sleep(MEASURED);
    measuring.store(false, Ordering::Relaxed);
    let elapsed = started.elapsed();
    let cpu_after: Duration = pids.iter().map(|pid| cpu_time(pid)).sum();
    let own_after = cpu_time("self");
    stop.store(true, Ordering::Relaxed);
    let mut run = Run {
        calls: 0,
        failures: 0,
        latencies: Vec::new(),
        server_cpu: cpu_after.saturating_sub(cpu_before),
        own_cpu: own_after.saturating_sub(own_before),
        elapsed,
        acknowledged: 0,
    };
    for worker in workers {
        let (calls, failures, acknowledged, latencies) = worker.join().expect("a client");
        run.acknowledged += acknowledged;
        run.calls += calls;
        run.failures += failures;
        run.latencies.extend(latencies);
    }
    run
}

/// The versions stored in the clients' conversations, against the calls
/// acknowledged.
fn stored_against_acknowledged(store: &str, tag: &str, acknowledged: u64) -> (u64, u64) {
    let out = Command::new(binary())
        .args(["--store", store, "conversations", "--format", "json"])
        .output()
        .expect("todokit runs");
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let stored = listed
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| {
            c["id"]
                .as_str()
                .is_some_and(|id| id.starts_with(&format!("{tag}-")))
        })
        .filter_map(|c| c["version"].as_u64())
        .sum();
    (stored, acknowledged)
}

fn report(name: &str, run: &Run, stored: (u64, u64)) {
    let mut latencies = run.latencies.clone();
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    let per_second = run.calls as f64 / run.elapsed.as_secs_f64();
    let server_per_call = run.server_cpu.as_secs_f64() * 1e6 / run.calls.max(1) as f64;
    println!(
        "remote MCP, {name}: {per_second:.0} calls/s (goal ≥ 500), p50 {:.1} ms, p99 {:.1} ms (goal ≤ 100 ms), \
         server CPU {server_per_call:.0} µs/call (goal ≤ 300), generator CPU {:.0} µs/call; {} failed; \
         {}",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        run.own_cpu.as_secs_f64() * 1e6 / run.calls.max(1) as f64,
        run.failures,
        kept(stored),
    );
}

/// What was stored against what was acknowledged, in words.
fn kept((stored, acknowledged): (u64, u64)) -> String {
    let verdict = if stored >= acknowledged {
        "nothing lost"
    } else {
        "LOST UPDATES"
    };
    format!("stored {stored} versions for {acknowledged} acknowledged calls ({verdict})")
}

fn main() {
    let w1 = bench_support::read_payload(&bench_support::payload_dir(), "w1_full_replace_50.json");
    let arguments = w1.trim().to_owned();
    // `-- DIR edge`: only the edge's cost and the SDK servers beside it
    // (a minute, where the whole run takes several).
    if std::env::args().skip(1).any(|arg| arg == "edge") {
        let scratch = tempfile::tempdir().expect("a temp dir");
        let folder = scratch.path().join("store");
        let folder = folder.to_str().unwrap_or_default().to_owned();
        edge_and_sdks(&Server::start(&folder), &folder, &arguments);
        return;
    }
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL")
        .expect("TODOKIT_TEST_POSTGRES_URL must name a database: run `make bench`");
    let tag = format!("load{}", std::process::id());

    let servers = [Server::start(&url), Server::start(&url)];
    let run = load(&servers, &arguments, &format!("{tag}pg"));
    report(
        "two processes on one PostgreSQL",
        &run,
        stored_against_acknowledged(&url, &format!("{tag}pg"), run.acknowledged),
    );

    let addresses: Vec<String> = servers.iter().map(|s| s.address.clone()).collect();
    let (open, open_cpu) = timed_open_loop(
        &servers,
        &addresses,
        &arguments,
        &format!("{tag}pgopen"),
        OPEN_RATE,
    );
    report_open(
        "two processes on one PostgreSQL",
        &open,
        open_cpu,
        stored_against_acknowledged(&url, &format!("{tag}pgopen"), open.acknowledged),
    );
    let mut held = None;
    for (step, rate) in RATES.iter().enumerate() {
        let run = open_loop::run(
            &addresses,
            &arguments,
            &format!("{tag}pgrate{step}"),
            *rate,
            edge_cost::STEP,
        );
        let p99 = run.at(0.99);
        println!(
            "remote MCP, open loop at {rate:.0} calls/s for {} s, two processes on one PostgreSQL: p50 {:.1} ms, \
             p99 {:.1} ms, {} failed",
            edge_cost::STEP.as_secs(),
            run.at(0.5).as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3,
            run.failures
        );
        if p99 > Duration::from_millis(100) || run.failures > 0 {
            break;
        }
        held = Some(*rate);
    }
    println!(
        "remote MCP, highest rate held with p99 ≤ 100 ms, two processes on one PostgreSQL: {} (goal ≥ 1000)",
        held.map_or_else(
            || format!("below {:.0} calls/s", RATES[0]),
            |rate| format!("{rate:.0} calls/s")
        )
    );
    // Each process is scraped once a second; its CPU a second under the
    // open loop is the two processes' together, halved.
    let per_process_second = open_cpu.as_secs_f64() / open.elapsed.as_secs_f64() / servers.len() as f64;
    match edge_cost::scrape_cost(&servers[0].address, servers[0].pid()) {
        Some(per_scrape) => println!(
            "remote MCP, /metrics: {per_scrape:.0} µs of server CPU a scrape; scraped every second at \
             {OPEN_RATE:.0} calls/s, {:.3} % more server CPU (goal ≤ 1 %)",
            per_scrape / 1e6 / per_process_second.max(f64::MIN_POSITIVE) * 100.0
        ),
        None => println!("remote MCP, /metrics: not served by this binary"),
    }

    // Idle: sessions open, nothing asked.
    for i in 0..IDLE_SESSIONS {
        let mut connection = Connection::open(&servers[i % 2].address);
        connection.initialize("2025-11-25");
    }
    let pids: Vec<String> = servers.iter().map(|s| s.pid().to_string()).collect();
    let before: Duration = pids.iter().map(|pid| cpu_time(pid)).sum();
    std::thread::sleep(IDLE_WINDOW);
    let after: Duration = pids.iter().map(|pid| cpu_time(pid)).sum();
    println!(
        "remote MCP, idle with {IDLE_SESSIONS} sessions open on two processes: {:.2} % of one core over {} s \
         (goal < 1 %)",
        after.saturating_sub(before).as_secs_f64() * 100.0 / IDLE_WINDOW.as_secs_f64(),
        IDLE_WINDOW.as_secs()
    );
    drop(servers);

    let scratch = tempfile::tempdir().expect("a temp dir");
    let folder = scratch.path().join("store");
    let folder = folder.to_str().unwrap_or_default().to_owned();
    let server = [Server::start(&folder)];
    let run = load(&server, &arguments, &format!("{tag}file"));
    report(
        "one process on the JSON-file store",
        &run,
        stored_against_acknowledged(&folder, &format!("{tag}file"), run.acknowledged),
    );
    let addresses = vec![server[0].address.clone()];
    let (open, open_cpu) = timed_open_loop(
        &server,
        &addresses,
        &arguments,
        &format!("{tag}fileopen"),
        OPEN_RATE,
    );
    report_open(
        "one process on the JSON-file store",
        &open,
        open_cpu,
        stored_against_acknowledged(&folder, &format!("{tag}fileopen"), open.acknowledged),
    );
    edge_and_sdks(&server[0], &folder, &arguments);
}

/// The edge's cost (one client's W1 calls over HTTP in a session against
/// the same over stdio, on `folder`, `server` serving it) and the same
/// calls made to the official SDKs' servers.
fn edge_and_sdks(server: &Server, folder: &str, arguments: &str) {
    let http = edge_cost::over_http(&server.address, server.pid(), arguments);
    let stdio = edge_cost::over_stdio(&binary(), folder, arguments);
    println!(
        "remote MCP, the edge: one client's W1 calls on the JSON-file store, server CPU per call over HTTP \
         (2025-06-18, a session) {http:.0} µs against stdio MCP {stdio:.0} µs: x{:.2} (goal ≤ x2)",
        http / stdio.max(f64::MIN_POSITIVE)
    );
    // The SDK servers keep the list in memory: todokit too, for them.
    let memory = Server::start("memory:");
    let ours = edge_cost::over_http(&memory.address, memory.pid(), arguments);
    let stdio_memory = edge_cost::over_stdio(&binary(), "memory:", arguments);
    println!(
        "remote MCP, the edge on the memory store: server CPU per call over HTTP {ours:.0} µs against stdio MCP \
         {stdio_memory:.0} µs: x{:.2} (goal ≤ x2)",
        ours / stdio_memory.max(f64::MIN_POSITIVE)
    );
    let (python, typescript) = sdk_servers::per_call(arguments);
    let against = |name: &str, theirs: Option<f64>| match theirs {
        Some(theirs) => println!(
            "remote MCP, against the official SDKs: the same calls over HTTP, each server keeping the list in \
             memory, server CPU per call: {name} {theirs:.0} µs against todokit's {ours:.0} µs: x{:.2} (goal \
             ≥ x3)",
            theirs / ours.max(f64::MIN_POSITIVE)
        ),
        None => println!("remote MCP, against the official SDKs: {name} did not run"),
    };
    against("Python MCPServer under uvicorn", python);
    against("TypeScript McpServer on Express", typescript);
}

/// [`open_loop::run`] at `rate` for [`MEASURED`] against `servers`, with
/// their CPU over the run.
fn timed_open_loop(
    servers: &[Server],
    addresses: &[String],
    arguments: &str,
    tag: &str,
    rate: f64,
) -> (open_loop::OpenRun, Duration) {
    let pids: Vec<String> = servers.iter().map(|s| s.pid().to_string()).collect();
    let before: Duration = pids.iter().map(|pid| cpu_time(pid)).sum();
    let run = open_loop::run(addresses, arguments, tag, rate, MEASURED);
    let after: Duration = pids.iter().map(|pid| cpu_time(pid)).sum();
    (run, after.saturating_sub(before))
}

fn report_open(name: &str, run: &open_loop::OpenRun, server_cpu: Duration, stored: (u64, u64)) {
    println!(
        "remote MCP, open loop at {OPEN_RATE:.0} calls/s for {} s, {name}: {:.0} calls/s done, p50 {:.1} ms, \
         p99 {:.1} ms (goal ≤ 50 ms), p99.9 {:.1} ms (goal ≤ 200 ms), server CPU {:.0} µs/call; {} failed; {}",
        MEASURED.as_secs(),
        run.due as f64 / run.elapsed.as_secs_f64(),
        run.at(0.5).as_secs_f64() * 1e3,
        run.at(0.99).as_secs_f64() * 1e3,
        run.at(0.999).as_secs_f64() * 1e3,
        server_cpu.as_secs_f64() * 1e6 / run.due.max(1) as f64,
        run.failures,
        kept(stored),
    );
}
