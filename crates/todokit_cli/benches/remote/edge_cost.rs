//! What the HTTP edge costs beside the store: one client making W1 calls
//! one after the other, as today's clients do over HTTP (protocol
//! 2025-06-18, a session opened by `initialize`) and over stdio MCP
//! (`todokit mcp`), on the same folder store in the same run; each
//! server's own CPU per call, from `/proc`. And what a scrape of
//! `/metrics` costs the server.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::bench_support::cpu_time;
use crate::client::Connection;

/// Calls per side, after as many again to warm up.
pub const CALLS: usize = 2_000;

/// Scrapes timed for their cost.
pub const SCRAPES: usize = 200;

/// The server's CPU per call (µs) of [`CALLS`] sequential W1 calls over
/// HTTP in a session of protocol 2025-06-18 to `address` (the process
/// `pid`).
pub fn over_http(address: &str, pid: u32, arguments: &str) -> f64 {
    let mut connection = Connection::open(address);
    assert!(connection.initialize("2025-06-18"), "a session opens");
    let mut id = 0;
    let mut calls = |count: usize| {
        for _ in 0..count {
            id += 1;
            assert!(
                connection.call_in_session(id, "2025-06-18", "edge-http", arguments),
                "a call in the session is answered"
            );
        }
    };
    calls(CALLS);
    let before = cpu_time(&pid.to_string());
    calls(CALLS);
    let spent = cpu_time(&pid.to_string()).saturating_sub(before);
    spent.as_secs_f64() * 1e6 / CALLS as f64
}

/// The same over stdio: `todokit mcp` on `store`, its CPU per call (µs).
pub fn over_stdio(binary: &str, store: &str, arguments: &str) -> f64 {
    let mut child = Command::new(binary)
        .args(["--store", store, "--conversation", "edge-stdio", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("todokit mcp starts");
    let mut input = child.stdin.take().expect("piped");
    let mut output = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    let mut exchange = |message: &str, answered: bool, line: &mut String| {
        input.write_all(message.as_bytes()).expect("the server reads");
        input.write_all(b"\n").expect("the server reads");
        input.flush().expect("the server reads");
        if answered {
            line.clear();
            output.read_line(line).expect("the server answers");
        }
    };
    exchange(
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\
         \"capabilities\":{},\"clientInfo\":{\"name\":\"todokit-load\",\"version\":\"1\"}}}",
        true,
        &mut line,
    );
    exchange(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        false,
        &mut line,
    );
    let mut id = 0;
    let mut calls = |count: usize, line: &mut String| {
        for _ in 0..count {
            id += 1;
            let call = format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"TodoWrite\",\
                 \"arguments\":{arguments}}}}}"
            );
            exchange(&call, true, line);
            assert!(
                line.contains("\"isError\":false"),
                "a call over stdio is answered"
            );
        }
    };
    calls(CALLS, &mut line);
    let pid = child.id().to_string();
    let before = cpu_time(&pid);
    calls(CALLS, &mut line);
    let spent = cpu_time(&pid).saturating_sub(before);
    let _ = child.kill();
    let _ = child.wait();
    spent.as_secs_f64() * 1e6 / CALLS as f64
}

/// The server's CPU per scrape of `/metrics` (µs), [`SCRAPES`] of them;
/// `None` from a binary that does not serve it.
pub fn scrape_cost(address: &str, pid: u32) -> Option<f64> {
    let scrape = || {
        let mut stream = std::net::TcpStream::connect(address).ok()?;
        let request = format!("GET /metrics HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).ok()?;
        let mut answer = String::new();
        let _ = std::io::Read::read_to_string(&mut stream, &mut answer);
        answer.starts_with("HTTP/1.1 200").then_some(())
    };
    scrape()?;
    let before = cpu_time(&pid.to_string());
    for _ in 0..SCRAPES {
        scrape()?;
    }
    let spent = cpu_time(&pid.to_string()).saturating_sub(before);
    Some(spent.as_secs_f64() * 1e6 / SCRAPES as f64)
}

/// How long the rate search holds each rate.
pub const STEP: Duration = Duration::from_secs(10);
