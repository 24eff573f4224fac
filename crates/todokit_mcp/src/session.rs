//! One MCP session over newline-delimited JSON-RPC, bounded both ways.
//!
//! Between the client and rmcp sit a reader and a writer:
//!
//! - the reader takes lines of at most [`MAX_MESSAGE_BYTES`], answers what
//!   the [gate](super::rmcp_gate) rejects, and passes the rest to rmcp, never
//!   more than [`MAX_IN_FLIGHT`] requests ahead of their replies, so a
//!   client that stops reading stops the server from reading too;
//! - the writer sends rmcp's replies and the reader's own, a whole line at
//!   a time, and settles each request it sees answered;
//! - at the end of input, every request already read is answered before
//!   rmcp's input is closed (rmcp drops requests still running when its
//!   input ends);
//! - once rmcp has answered the client's `initialize`, the reader answers
//!   plain `tools/call` requests (a name and arguments, no `_meta`) itself,
//!   with the reply rmcp would give: they are nearly every message of a
//!   session, and rmcp's reading and writing of a 50-item list cost more
//!   than the call. Everything else still goes to rmcp.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::ServiceExt;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Semaphore, mpsc};

use super::framing::{Frame, FrameReader};
use super::limits::{MAX_IN_FLIGHT, MAX_MESSAGE_BYTES};
use super::rmcp_gate::{
    INVALID_REQUEST, Verdict, classify, client_id, error_reply, is_initialize, is_listen, plain_tool_call,
    too_large,
};
use super::server::TodoMcpServer;

/// How long the end of input waits for the requests already read to be
/// answered; only a request rmcp never answers can take this long.
const DRAIN_LIMIT: Duration = Duration::from_secs(60);

/// Room in each in-process pipe to and from rmcp.
const PIPE_BYTES: usize = 1 << 16;

/// Serves `server` on standard input and output until the client closes its
/// end; see [`serve`].
pub async fn serve_stdio(server: TodoMcpServer) -> std::io::Result<()> {
    serve(server, super::stdio::input(), super::stdio::Output::new()).await
}

/// Serves `server` over newline-delimited JSON-RPC on `input` and `output`
/// until `input` ends and every request read from it has its reply; an
/// error when the client never completed the MCP handshake.
///
/// Text that is not JSON gets a parse error (`-32700`, `id: null`), a
/// message over [`MAX_MESSAGE_BYTES`] an invalid-request error, a known
/// method with unreadable params an invalid-params error (`-32602`) with the
/// request's id; the session goes on after each.
pub async fn serve<I, O>(server: TodoMcpServer, input: I, output: O) -> std::io::Result<()>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    serve_session(server, input, output, true).await.0
}

/// [`serve`], answering plain tool calls in the reader or not (the tests
/// compare the two), and how many it answered there.
async fn serve_session<I, O>(
    server: TodoMcpServer,
    input: I,
    output: O,
    plain_calls_here: bool,
) -> (std::io::Result<()>, usize)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let server = server.for_new_session();
    let (to_service, service_in) = tokio::io::duplex(PIPE_BYTES);
    let (service_out, from_service) = tokio::io::duplex(PIPE_BYTES);
    let (replies, pending) = mpsc::channel::<Vec<u8>>(MAX_IN_FLIGHT);
    let in_flight = Arc::new(InFlight::new());
    let lifecycle = Arc::new(Lifecycle(Mutex::new(if plain_calls_here {
        Opening::NotYet
    } else {
        Opening::Off
    })));
    let writer = tokio::spawn(write_replies(
        output,
        from_service,
        pending,
        in_flight.clone(),
        lifecycle.clone(),
    ));
    let reader = tokio::spawn(read_requests(
        input,
        server.clone(),
        to_service,
        replies,
        in_flight,
        lifecycle,
    ));
    let ending = server.clone();
    let served = server.serve((service_in, service_out)).await;
    let handshake = match served {
        Ok(running) => {
            let _ = running.waiting().await;
            Ok(())
        }
        Err(error) => Err(std::io::Error::other(error)),
    };
    ending.end_session();
    let answered_here = reader.await.unwrap_or(0);
    let _ = writer.await;
    (handshake, answered_here)
}

/// Requests passed to rmcp and not yet answered, by id.
///
/// A `subscriptions/listen` request is answered only when it ends, which
/// is when the client cancels it: it is kept apart, takes no room from
/// other requests, and the end of input does not wait for it (rmcp ends it
/// when its own input closes).
struct InFlight {
    permits: Semaphore,
    ids: Mutex<HashMap<String, usize>>,
    lasting: Mutex<HashSet<String>>,
}

impl InFlight {
    fn new() -> Self {
        Self {
            permits: Semaphore::new(MAX_IN_FLIGHT),
            ids: Mutex::new(HashMap::new()),
            lasting: Mutex::new(HashSet::new()),
        }
    }

    /// Counts the lasting request `id` (a listen) as in flight.
    fn admit_lasting(&self, id: &Value) {
        let mut lasting = self.lasting.lock().unwrap_or_else(PoisonError::into_inner);
        lasting.insert(id.to_string());
    }

    /// Waits for room, then counts the request `id` as in flight.
    async fn admit(&self, id: &Value) {
        if let Ok(permit) = self.permits.acquire().await {
            permit.forget();
        }
        let mut ids = self.ids.lock().unwrap_or_else(PoisonError::into_inner);
        *ids.entry(id.to_string()).or_default() += 1;
    }

    /// The ids of the lasting requests still open.
    fn lasting_ids(&self) -> Vec<Value> {
        let lasting = self.lasting.lock().unwrap_or_else(PoisonError::into_inner);
        lasting
            .iter()
            .filter_map(|key| serde_json::from_str(key).ok())
            .collect()
    }

    /// Whether a request with `id` is waiting for its reply.
    fn holds(&self, id: &Value) -> bool {
        let key = id.to_string();
        let lasting = self.lasting.lock().unwrap_or_else(PoisonError::into_inner);
        let ids = self.ids.lock().unwrap_or_else(PoisonError::into_inner);
        lasting.contains(&key) || ids.contains_key(&key)
    }

    /// The request `id` was answered (or cancelled): frees its room.
    fn settle(&self, id: &Value) {
        let key = id.to_string();
        if self
            .lasting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&key)
        {
            return;
        }
        let mut ids = self.ids.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = ids.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                ids.remove(&key);
            }
            self.permits.add_permits(1);
        }
    }

    /// Resolves once every admitted request is settled.
    async fn drained(&self) {
        let all = u32::try_from(MAX_IN_FLIGHT).unwrap_or(u32::MAX);
        let _ = self.permits.acquire_many(all).await;
    }
}

/// How far the session's opening has got, as the reader and writer see
/// it: plain tool calls are answered by the reader only once rmcp has
/// answered the one `initialize` request, with the version it settled.
struct Lifecycle(Mutex<Opening>);

enum Opening {
    /// No `initialize` passed on yet.
    NotYet,
    /// The `initialize` request with this id is with rmcp.
    Asked(Value),
    /// rmcp accepted it, at a protocol version before 2026-07-28.
    Open,
    /// A second `initialize` (after which rmcp changes the shape of its
    /// results), one rmcp refused, or a session at 2026-07-28 or later
    /// (whose results rmcp shapes differently, and which this server does
    /// not offer yet): rmcp answers everything.
    Off,
}

impl Lifecycle {
    fn opening(&self) -> std::sync::MutexGuard<'_, Opening> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// True once plain tool calls may be answered directly.
    fn open(&self) -> bool {
        matches!(*self.opening(), Opening::Open)
    }

    /// The reader passed on an `initialize` request with `id`.
    fn asked(&self, id: &Value) {
        let mut opening = self.opening();
        *opening = match *opening {
            Opening::NotYet => Opening::Asked(id.clone()),
            _ => Opening::Off,
        };
    }

    /// rmcp wrote `line`, the response to the request `id`.
    fn answered(&self, id: &Value, line: &str) {
        /// The part of an `initialize` response that matters here.
        #[derive(Deserialize)]
        struct Response {
            result: Option<Settled>,
        }
        #[derive(Deserialize)]
        struct Settled {
            #[serde(rename = "protocolVersion")]
            protocol_version: String,
        }
        let mut opening = self.opening();
        if !matches!(&*opening, Opening::Asked(asked) if asked == id) {
            return;
        }
        *opening = match serde_json::from_str::<Response>(line) {
            // As rmcp compares them: ISO dates order as text.
            Ok(Response {
                result: Some(Settled { protocol_version }),
            }) if protocol_version.as_str() < rmcp::model::ProtocolVersion::V_2026_07_28.as_str() => {
                Opening::Open
            }
            _ => Opening::Off,
        };
    }
}

async fn read_requests<I: AsyncRead + Unpin>(
    input: I,
    server: TodoMcpServer,
    mut to_service: tokio::io::DuplexStream,
    replies: mpsc::Sender<Vec<u8>>,
    in_flight: Arc<InFlight>,
    lifecycle: Arc<Lifecycle>,
) -> usize {
    let mut answered_here = 0;
    let mut frames = FrameReader::new(BufReader::new(input), MAX_MESSAGE_BYTES);
    loop {
        let frame = match frames.next().await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(error) => {
                eprintln!("todokit mcp: reading standard input failed: {error}");
                break;
            }
        };
        let line = match frame {
            Frame::Line(line) => line,
            Frame::TooLarge { bytes, id } => {
                let _ = replies.send(line_of(&too_large(id, bytes))).await;
                continue;
            }
        };
        if line.trim_ascii().is_empty() {
            continue;
        }
        if lifecycle.open()
            && let Some(call) = plain_tool_call(&line)
        {
            let reply = server.answer_plain_call(&call).await;
            let _ = replies.send(reply).await;
            answered_here += 1;
            continue;
        }
        match classify(&line) {
            Verdict::Forward {
                request,
                cancels,
                message,
            } => {
                if let Some(id) = &request {
                    // rmcp keeps one request per id: a second one while the
                    // first waits would never be answered.
                    if in_flight.holds(id) {
                        let _ = replies.send(line_of(&id_in_use(id))).await;
                        continue;
                    }
                    if is_initialize(&line) {
                        lifecycle.asked(id);
                    }
                    if is_listen(&line) {
                        // Read before rmcp acknowledges the listen: what
                        // changes after this is announced.
                        server.read_listen_start(id, &line).await;
                        in_flight.admit_lasting(id);
                    } else {
                        in_flight.admit(id).await;
                    }
                }
                if let Some(id) = &cancels {
                    in_flight.settle(id);
                }
                let sent = to_service.write_all(message.as_deref().unwrap_or(&line)).await;
                if sent.and(to_service.write_all(b"\n").await).is_err() {
                    break;
                }
            }
            Verdict::Reply(reply) => {
                let _ = replies.send(line_of(&reply)).await;
            }
            Verdict::Drop(reason) => eprintln!("todokit mcp: ignored {reason}"),
        }
    }
    // Every request read gets its answer before rmcp sees the end of input.
    if tokio::time::timeout(DRAIN_LIMIT, in_flight.drained())
        .await
        .is_err()
    {
        eprintln!("todokit mcp: gave up waiting for replies after {DRAIN_LIMIT:?}");
    }
    // A listen lasts until it is cancelled, and a client that closed its
    // input cannot cancel it any more: it is cancelled for the client, so
    // rmcp does not wait for it before it stops.
    for id in in_flight.lasting_ids() {
        let cancel = serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": { "requestId": id, "reason": "the client closed its input" },
        });
        if to_service.write_all(&line_of(&cancel)).await.is_err() {
            break;
        }
    }
    drop(to_service);
    answered_here
}

/// The answer to a request whose id an unanswered request still uses.
fn id_in_use(id: &Value) -> Value {
    let id = client_id(id);
    error_reply(
        Some(id.clone()),
        INVALID_REQUEST,
        format!(
            "Invalid request: id {id} belongs to a request still being answered; give each request its own id"
        ),
    )
}

fn line_of(reply: &Value) -> Vec<u8> {
    let mut line = reply.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// The part of an outgoing message that tells whether it answers a request.
#[derive(Deserialize)]
struct Outgoing {
    id: Option<Value>,
    method: Option<IgnoredAny>,
}

async fn write_replies<O: AsyncWrite + Unpin>(
    mut output: O,
    from_service: tokio::io::DuplexStream,
    mut pending: mpsc::Receiver<Vec<u8>>,
    in_flight: Arc<InFlight>,
    lifecycle: Arc<Lifecycle>,
) {
    let mut lines = BufReader::new(from_service).lines();
    let mut service_open = true;
    let mut replies_open = true;
    let mut output_open = true;
    while service_open || replies_open {
        let line = tokio::select! {
            line = lines.next_line(), if service_open => match line {
                Ok(Some(line)) => {
                    let mut line = line;
                    if let Ok(Outgoing { id: Some(id), method: None }) = serde_json::from_str(&line) {
                        lifecycle.answered(&id, &line);
                        in_flight.settle(&id);
                        // A wide integer id went through rmcp as a string:
                        // the client gets its number back.
                        let sent = client_id(&id);
                        if sent != id
                            && let Ok(mut reply) = serde_json::from_str::<Value>(&line)
                        {
                            reply["id"] = sent;
                            line = reply.to_string();
                        }
                    }
                    let mut bytes = line.into_bytes();
                    bytes.push(b'\n');
                    bytes
                }
                _ => {
                    // rmcp is gone: nothing in flight will be answered now.
                    service_open = false;
                    in_flight.permits.close();
                    continue;
                }
            },
            reply = pending.recv(), if replies_open => match reply {
                Some(reply) => reply,
                None => { replies_open = false; continue; }
            },
        };
        // A client that went away still has its requests settled, so the
        // reader never waits on replies nobody will write.
        if output_open && (output.write_all(&line).await.is_err() || output.flush().await.is_err()) {
            output_open = false;
        }
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
