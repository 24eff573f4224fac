//! A client script of `tests/clients` (built on an official SDK) run by
//! node, spoken to in JSON lines: commands to its standard input, its
//! messages read from its standard output as they come.
//!
//! Needs node and the clients' packages (`make node-clients`). Each test
//! binary uses what it needs of this module.

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long a client's message may take: a commit by another process is
/// seen by the store's folder watch within a fraction of this.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// The tests' node clients and their installed packages.
pub fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

/// One running client script.
pub struct NodeClient {
    child: Child,
    commands: ChildStdin,
    said: Receiver<(Instant, Value)>,
    /// Messages read but not yet asked for, oldest first.
    unread: VecDeque<(Instant, Value)>,
}

impl NodeClient {
    /// Runs `node SCRIPT ARGS...` in the clients' folder with `envs`; the
    /// SDK `package` (under `node_modules`) must be installed.
    pub fn start<A: AsRef<OsStr>>(script: &str, package: &str, args: &[A], envs: &[(&str, &Path)]) -> Self {
        let sdk = clients_dir().join("node_modules").join(package);
        assert!(
            sdk.is_dir(),
            "{package} is not installed: run `make node-clients`"
        );
        let mut command = Command::new("node");
        command
            .current_dir(clients_dir())
            .arg(script)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (key, value) in envs {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("node runs");
        let commands = child.stdin.take().expect("piped");
        let out = child.stdout.take().expect("piped");
        let (tell, said) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let message = serde_json::from_str(&line).unwrap_or_else(|_| json!({ "error": line }));
                if tell.send((Instant::now(), message)).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            commands,
            said,
            unread: VecDeque::new(),
        }
    }

    /// Sends one command line.
    pub fn send(&mut self, command: Value) {
        writeln!(self.commands, "{command}").expect("the client reads its commands");
    }

    /// The first message `wanted` accepts, earlier ones kept for later
    /// asks (a notification may come before the answer to the command that
    /// caused it); fails on an `error` from the client or after
    /// [`PATIENCE`].
    pub fn next_where(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        self.next_timed(what, wanted).1
    }

    /// [`Self::next_where`], with the moment the message was read.
    pub fn next_timed(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> (Instant, Value) {
        match self.next_within(what, PATIENCE, wanted) {
            Some(found) => found,
            None => panic!("no {what} within {PATIENCE:?}"),
        }
    }

    /// The first message `wanted` accepts within `patience` (earlier ones
    /// kept for later asks), with the moment it was read; `None` when none
    /// came. Fails on an `error` from the client.
    pub fn next_within(
        &mut self,
        what: &str,
        patience: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> Option<(Instant, Value)> {
        if let Some(at) = self.unread.iter().position(|(_, message)| wanted(message)) {
            return self.unread.remove(at);
        }
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.said.recv_timeout(left) {
                Ok((_, message)) if message.get("error").is_some() => panic!("the client failed: {message}"),
                Ok((at, message)) if wanted(&message) => return Some((at, message)),
                Ok(other) => self.unread.push_back(other),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => panic!("the client exited before {what}"),
            }
        }
    }

    /// Every message read so far and not asked for, after waiting `quiet`
    /// for more.
    pub fn unasked_after(&mut self, quiet: Duration) -> Vec<Value> {
        let deadline = Instant::now() + quiet;
        while let Ok(message) = self
            .said
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.unread.push_back(message);
        }
        self.unread.drain(..).map(|(_, message)| message).collect()
    }
}

/// The official MCP client package the remote tests drive.
pub const MCP_CLIENT_PACKAGE: &str = "@modelcontextprotocol/client";

/// The official MCP client (`mcp_client.mjs`) connected to `url` with
/// `headers` (a JSON object) in protocol `era` (`legacy` or `stateless`).
pub fn connect_mcp(url: &str, headers: &Value, era: &str) -> NodeClient {
    let args = [url.to_owned(), headers.to_string(), era.to_owned()];
    let mut client = NodeClient::start("mcp_client.mjs", MCP_CLIENT_PACKAGE, &args, &[]);
    client.next_where("the connection", |m| m.get("connected").is_some());
    client
}

/// The client's answer to `command`: its `key`, or a panic naming the
/// failure.
pub fn ask(client: &mut NodeClient, command: Value, key: &str) -> Value {
    client.send(command.clone());
    let answer = client.next_where(key, |m| m.get(key).is_some() || m.get("failed").is_some());
    match answer.get(key) {
        Some(value) => value.clone(),
        None => panic!("{command} failed: {answer}"),
    }
}

impl Drop for NodeClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
