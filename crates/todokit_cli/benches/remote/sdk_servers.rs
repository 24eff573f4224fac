//! What a host would run instead of todokit's server: a todo server
//! written with the official MCP SDKs (`sdk/server.py`: Python's
//! `MCPServer` under uvicorn; `sdk/server.mjs`: TypeScript's `McpServer`
//! on Express), each keeping the list in memory. The same client makes the
//! same W1 calls in a session of 2025-06-18 ([`edge_cost::over_http`]), so
//! the servers' CPU per call compares with todokit's in one run.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::edge_cost;

/// An SDK server, stopped on drop.
struct SdkServer {
    child: Child,
    address: String,
}

impl Drop for SdkServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}

/// `program` running `script` on a free port, once it says it listens;
/// `None` when it cannot start (its runtime or packages are missing).
fn start(program: &str, script: &str, node_path: Option<&str>) -> Option<SdkServer> {
    let port = free_port();
    let mut command = Command::new(program);
    command
        .arg(script)
        .arg(port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(path) = node_path {
        command.env("NODE_PATH", path);
    }
    let mut child = command.spawn().ok()?;
    let mut out = BufReader::new(child.stdout.take()?);
    let mut line = String::new();
    while out.read_line(&mut line).ok()? > 0 {
        if line.trim() == "listening" {
            std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
            return Some(SdkServer {
                child,
                address: format!("127.0.0.1:{port}"),
            });
        }
        line.clear();
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// The SDK servers' CPU per call (µs), Python's then TypeScript's; `None`
/// for one that could not run here (said on standard error).
pub fn per_call(arguments: &str) -> (Option<f64>, Option<f64>) {
    let here = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/remote/sdk");
    let measure = |name: &str, server: Option<SdkServer>| match server {
        Some(server) => Some(edge_cost::over_http(
            &server.address,
            server.child.id(),
            arguments,
        )),
        None => {
            eprintln!("remote MCP: the {name} SDK server did not start; run `make bench`, which installs it");
            None
        }
    };
    let python = std::env::var("TODOKIT_BENCH_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let python_server = start(&python, &format!("{here}/server.py"), None);
    let py = measure("Python", python_server);
    // The packages `make bench` installed (NODE_PATH does not serve ES
    // modules, so the script runs from a copy beside them).
    let typescript = std::env::var("TODOKIT_BENCH_SDK").ok().and_then(|folder| {
        let script = format!("{folder}/server.mjs");
        std::fs::copy(format!("{here}/server.mjs"), &script).ok()?;
        start("node", &script, None)
    });
    let ts = measure("TypeScript", typescript);
    (py, ts)
}
