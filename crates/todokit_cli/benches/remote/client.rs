//! The load generator's client: HTTP/1.1 over one kept-alive TCP
//! connection, requests written as text and answers read without a JSON
//! parser (the generator's own work stays small next to the server's).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// One client connection, reopened after a failure.
pub struct Connection {
    address: String,
    reader: Option<BufReader<TcpStream>>,
    /// The `Mcp-Session-Id` of the last answer that carried one.
    last_session: Option<String>,
    /// The session [`Connection::initialize`] opened.
    session: Option<String>,
}

impl Connection {
    /// A connection to `address` (opened on first use).
    pub fn open(address: &str) -> Connection {
        Connection {
            address: address.to_owned(),
            reader: None,
            last_session: None,
            session: None,
        }
    }

    fn stream(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.reader.is_none() {
            let stream = TcpStream::connect(&self.address)?;
            stream.set_nodelay(true)?;
            stream.set_read_timeout(Some(Duration::from_secs(30)))?;
            self.reader = Some(BufReader::new(stream));
        }
        self.reader
            .as_mut()
            .ok_or_else(|| std::io::Error::other("no connection"))
    }

    /// One `tools/call` of `TodoWrite` with `arguments` (JSON text) on
    /// `conversation`, protocol 2026-07-28: whether it was answered with a
    /// result that is not an error.
    pub fn call(&mut self, id: u64, conversation: &str, arguments: &str) -> bool {
        let body = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"TodoWrite\",\
             \"arguments\":{arguments},\"_meta\":{{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\
             \"io.modelcontextprotocol/clientCapabilities\":{{}},\
             \"io.modelcontextprotocol/clientInfo\":{{\"name\":\"todokit-load\",\"version\":\"1\"}}}}}}}}"
        );
        let headers = format!(
            "Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: TodoWrite\r\n\
             Todokit-Conversation: {conversation}\r\n"
        );
        self.succeeded(&headers, &body)
    }

    /// One `tools/call` of `TodoWrite` in the session [`Self::initialize`]
    /// opened, protocol `version` (the conversation named by header): as
    /// [`Self::call`].
    pub fn call_in_session(&mut self, id: u64, version: &str, conversation: &str, arguments: &str) -> bool {
        let body = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"TodoWrite\",\
             \"arguments\":{arguments}}}}}"
        );
        let session = self.session.clone().unwrap_or_default();
        let headers = format!(
            "Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: {version}\r\nTodokit-Conversation: {conversation}\r\n"
        );
        self.succeeded(&headers, &body)
    }

    /// Opens a session the way a client before 2026-07-28 does
    /// (`initialize`, then `notifications/initialized`).
    pub fn initialize(&mut self, version: &str) -> bool {
        let init = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":\
             \"{version}\",\"capabilities\":{{}},\"clientInfo\":{{\"name\":\"todokit-load\",\"version\":\"1\"}}}}}}"
        );
        let Ok((200, _)) = self.exchange("", &init) else {
            return false;
        };
        let session = self.last_session.take().unwrap_or_default();
        let headers = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: {version}\r\n");
        let done = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
        let opened = matches!(self.exchange(&headers, done), Ok((202, _)));
        self.session = Some(session);
        opened
    }
}

impl Connection {
    /// Whether `body` sent with `headers` was answered with a tool result
    /// that is not an error (a connection that failed is opened again for
    /// the next call).
    fn succeeded(&mut self, headers: &str, body: &str) -> bool {
        match self.exchange(headers, body) {
            Ok((200, answer)) => answer.contains("\"isError\":false"),
            Ok(_) => false,
            Err(_) => {
                self.reader = None;
                false
            }
        }
    }

    /// POSTs `body` to `/mcp` with `headers` (lines ending in CRLF) and
    /// reads the answer: its status and body.
    fn exchange(&mut self, headers: &str, body: &str) -> std::io::Result<(u16, String)> {
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        );
        let reader = self.stream()?;
        reader.get_mut().write_all(request.as_bytes())?;
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other("no status line"))?;
        let (mut length, mut chunked, mut session, mut close) = (None, false, None, false);
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("closed in the head"));
            }
            let trimmed = line.trim_end();
            if trimmed.is_empty() {
                break;
            }
            let (name, value) = trimmed.split_once(':').unwrap_or((trimmed, ""));
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse::<usize>().ok(),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "mcp-session-id" => session = Some(value.to_owned()),
                "connection" => close = value.eq_ignore_ascii_case("close"),
                _ => {}
            }
        }
        let mut answer = Vec::new();
        if chunked {
            loop {
                line.clear();
                reader.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim(), 16).map_err(std::io::Error::other)?;
                let mut chunk = vec![0; size + 2];
                reader.read_exact(&mut chunk)?;
                if size == 0 {
                    break;
                }
                answer.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(length) = length {
            answer.resize(length, 0);
            reader.read_exact(&mut answer)?;
        }
        if close {
            self.reader = None;
        }
        if session.is_some() {
            self.last_session = session;
        }
        Ok((status, String::from_utf8_lossy(&answer).into_owned()))
    }
}
