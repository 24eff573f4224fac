//! Real parts for the board's tests: the `todokit serve` process, a small
//! HTTP/1.1 client over a TCP socket (plain requests and Server-Sent
//! Events), and a WebDriver client for Debian's chromium (through
//! chromedriver, plain HTTP and JSON). The `todokit` command itself is
//! [`crate::support::cli`]'s.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::cli::todokit;

/// One todo for `write_todos`.
pub fn todo(content: &str, status: &str) -> Value {
    json!({"content": content, "status": status, "activeForm": content})
}

/// A running `todokit serve`, killed on drop.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// The one-time sign-in code, when started with a token.
    pub login_code: Option<String>,
}

impl Server {
    /// Starts the board on a free loopback port with `extra` arguments.
    pub fn start(store: &Path, extra: &[&str]) -> Server {
        let mut child = todokit(store)
            .args(["serve", "--bind", "127.0.0.1:0"])
            // A line per request would bury the tests' own output.
            .env("TODOKIT_LOG_LEVEL", "warn")
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("todokit serve starts");
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        let address = first
            .split("http://")
            .nth(1)
            .map(|rest| rest.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| panic!("unexpected first line: {first:?}"));
        let login_code = match extra.contains(&"--token") {
            true => lines.next().and_then(Result::ok).and_then(|line| {
                line.split("code=")
                    .nth(1)
                    .map(|rest| rest.split_whitespace().next().unwrap_or("").to_owned())
            }),
            false => None,
        };
        Server {
            child,
            address,
            login_code,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGHUP (read the token file again): whether it was sent.
    pub fn hang_up(&self) -> bool {
        std::process::Command::new("kill")
            .args(["-HUP", &self.pid().to_string()])
            .status()
            .is_ok_and(|status| status.success())
    }

    /// Sends the server `signal` (`TERM`, `INT`) and waits for it to end:
    /// whether it exited by itself with status 0.
    pub fn stop_with(&mut self, signal: &str) -> bool {
        let sent = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .is_ok_and(|status| status.success());
        sent && self.child.wait().is_ok_and(|status| status.success())
    }

    /// `http://ADDRESS` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The cookie a `Set-Cookie` answer sets, as a `Cookie` header value.
pub fn cookie_of(reply: &Reply) -> String {
    reply
        .header("set-cookie")
        .and_then(|set| set.split(';').next())
        .unwrap_or_default()
        .to_owned()
}

/// A response: status, headers (lower-case names) and body.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// One HTTP/1.1 request to `address` with `Connection: close` (and
/// `Host: address` unless `headers` name another).
pub fn request(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Reply {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    // A `Host` among `headers` replaces the one naming `address`.
    let named = headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("host"));
    let mut text = match named {
        true => format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n"),
        false => format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n"),
    };
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        text.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    text.push_str(body.unwrap_or(""));
    stream.write_all(text.as_bytes()).expect("the request is sent");
    // Read the head, then exactly Content-Length bytes: some servers keep
    // the connection open despite `Connection: close`.
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => head.push_str(&line),
        }
    }
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(n, _)| n.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok());
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            let _ = reader.read_exact(&mut body);
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    parse(&format!("{head}\r\n{}", String::from_utf8_lossy(&body)))
}

fn parse(raw: &str) -> Reply {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// The headers an MCP client sends with every message.
pub const MCP_HEADERS: [(&str, &str); 2] = [
    ("Content-Type", "application/json"),
    ("Accept", "application/json, text/event-stream"),
];

/// A JSON-RPC POST to `/mcp` of `address` with `headers` beside
/// [`MCP_HEADERS`].
pub fn mcp_post(address: &str, headers: &[(&str, &str)], body: &Value) -> Reply {
    let mut all = MCP_HEADERS.to_vec();
    all.extend_from_slice(headers);
    request(address, "POST", "/mcp", &all, Some(&body.to_string()))
}

/// The message a reply carries: its JSON body, or the first event with an
/// id of its event stream.
pub fn mcp_message(reply: &Reply) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(&reply.body) {
        return value;
    }
    reply
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .find_map(|data| {
            serde_json::from_str::<Value>(data)
                .ok()
                .filter(|m| m.get("id").is_some())
        })
        .unwrap_or(Value::Null)
}

/// An `initialize` of protocol 2025-11-25 (a session opens), with `headers`.
pub fn mcp_initialize(address: &str, headers: &[(&str, &str)]) -> Reply {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
    mcp_post(address, headers, &init)
}

/// A token file in `dir` naming two tenants, `acme` (token `t-acme`) and
/// `initech` (`t-initech`), with a comment and a blank line as an operator
/// writes them.
pub fn tenant_tokens(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("tokens");
    std::fs::write(&path, "# tenants\nt-acme acme\n\nt-initech initech\n").expect("token file");
    path
}

/// A session opened on `address` the way a client does before 2026-07-28
/// (`initialize`, then `notifications/initialized`), with `headers` (a
/// token): its id.
pub fn open_session(address: &str, headers: &[(&str, &str)]) -> String {
    let opened = mcp_initialize(address, headers);
    let session = opened.header("mcp-session-id").unwrap_or_default().to_owned();
    let mut with_session = headers.to_vec();
    with_session.push(("Mcp-Session-Id", &session));
    with_session.push(("Mcp-Protocol-Version", "2025-11-25"));
    mcp_post(
        address,
        &with_session,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    session
}

/// A Server-Sent Events stream being read.
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// Opens `path` as an event stream.
    pub fn open(address: &str, path: &str) -> Events {
        Self::open_with(address, path, &[])
    }

    /// Opens `path` as an event stream, sending `headers` too.
    pub fn open_with(address: &str, path: &str, headers: &[(&str, &str)]) -> Events {
        let mut stream = TcpStream::connect(address).expect("the server accepts");
        let mut request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).expect("the request is sent");
        stream.set_read_timeout(Some(Duration::from_millis(200))).ok();
        Events {
            reader: BufReader::new(stream),
        }
    }

    /// The data of the next event called `name` within `wait`, if one came.
    pub fn next(&mut self, name: &str, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        let mut event = String::new();
        let mut data = String::new();
        while Instant::now() < deadline {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(_) => continue,
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(value) = line.strip_prefix("event:") {
                event = value.trim().to_owned();
            } else if let Some(value) = line.strip_prefix("data:") {
                data.push_str(value.strip_prefix(' ').unwrap_or(value));
            } else if line.is_empty() && !data.is_empty() {
                if event == name {
                    return Some(data);
                }
                event.clear();
                data.clear();
            }
        }
        None
    }
}

impl Events {
    /// Whether the server ended the stream within `wait`: its last chunk
    /// (`0`) or the connection's end arrived.
    pub fn ended_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => return true,
                Ok(_) if line == "0\r\n" => return true,
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => return true,
                Err(_) => {}
            }
        }
        false
    }
}

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A headless Debian chromium driven through chromedriver; both quit on
/// drop.
pub struct Browser {
    driver: Child,
    address: String,
    session: String,
}

impl Browser {
    /// Starts chromedriver and a headless chromium `width` × `height`;
    /// `phone`: as a phone (touch, that width exactly, twice the pixels).
    pub fn start(width: u32, height: u32, phone: bool) -> Browser {
        Browser::start_with(width, height, phone, &[])
    }

    /// As [`Browser::start`], with chromium's command line extended by
    /// `extra` (say, `--host-resolver-rules=…` to map a name to loopback).
    pub fn start_with(width: u32, height: u32, phone: bool, extra: &[&str]) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (make test installs chromium-driver)");
        let address = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(&address).is_err() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = tempfile::tempdir().expect("temp dir").keep();
        let mut options = json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.display()),
            ]
        });
        if let Some(args) = options["args"].as_array_mut() {
            args.extend(extra.iter().map(|arg| json!(arg)));
        }
        if phone {
            options["mobileEmulation"] =
                json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": true}});
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
        }}});
        let reply = request(
            &address,
            "POST",
            "/session",
            &[("Content-Type", "application/json")],
            Some(&capabilities.to_string()),
        );
        let session = reply.json()["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {}", reply.body))
            .to_owned();
        Browser {
            driver,
            address,
            session,
        }
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.map(|b| b.to_string());
        let reply = request(
            &self.address,
            method,
            &path,
            &[("Content-Type", "application/json")],
            body.as_deref(),
        );
        reply.json()["value"].clone()
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub fn eval(&self, script: &str) -> Value {
        self.eval_with(script, &[])
    }

    /// Runs `script` with `args` (its `arguments`) and returns its value.
    pub fn eval_with(&self, script: &str, args: &[Value]) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Waits up to `wait` for `script` to return `true`.
    pub fn wait_for(&self, script: &str, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if self.eval(script) == Value::Bool(true) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.command("GET", "/screenshot", None);
        decode_base64(encoded.as_str().unwrap_or_default())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = request(&self.address, "DELETE", &path, &[], None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (what WebDriver returns screenshots in).
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut buffer, mut bits) = (0u32, 0);
    for six in text.bytes().filter_map(value) {
        buffer = (buffer << 6) | u32::from(six);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    out
}

/// `look()` asked every 100 ms until `done` accepts what it says (at most
/// 5 s): the last answer.
pub fn poll_until<T>(mut look: impl FnMut() -> T, done: impl Fn(&T) -> bool) -> T {
    let mut seen = look();
    for _ in 0..50 {
        if done(&seen) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        seen = look();
    }
    seen
}
