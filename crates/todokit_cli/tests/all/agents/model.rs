//! The scripted model the agents talk to: an HTTP server on loopback that
//! speaks the four wire formats the agents use (Anthropic Messages, OpenAI
//! Responses, OpenAI Chat Completions, Gemini `streamGenerateContent`),
//! each answered as Server-Sent Events.
//!
//! It keeps no state of its own: each answer is worked out from the
//! request, as a model's would be. A request that offers none of the
//! script's tools (a title, a routing question) gets a short text; one
//! that does gets the script's next call, counted by the results the
//! request already holds, then a closing text. Every request is kept, in
//! order, and written under `target/agents/` for a failing test to show.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

use super::wire::{self, Format, Reply};

/// What the scripted model does.
#[derive(Debug, Clone)]
pub struct Script {
    /// The calls it makes in turn: the tool's name as the agent shows it
    /// to the model, and the arguments.
    pub calls: Vec<(String, Value)>,
    /// The agent's loader of deferred tools (Claude Code's `ToolSearch`),
    /// when it offers todokit's tool only through it: the loader's name and
    /// the arguments that load todokit's tool.
    pub search: Option<(String, Value)>,
    /// What it says once every call has its result.
    pub closing: String,
}

/// One request the model received.
#[derive(Debug, Clone)]
pub struct Request {
    /// Its wire format.
    pub format: Format,
    /// Its body.
    pub body: Value,
    /// Whether it offered one of the script's tools (or the search).
    pub main: bool,
}

#[derive(Clone)]
struct Shared {
    script: Arc<Script>,
    requests: Arc<Mutex<Vec<Request>>>,
    log: PathBuf,
}

/// The running model.
pub struct Model {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
    _runtime: tokio::runtime::Runtime,
}

impl Model {
    /// Starts the model on a free port; requests are also written to `log`.
    pub fn start(script: Script, log: PathBuf) -> Self {
        let _ = std::fs::remove_dir_all(&log);
        std::fs::create_dir_all(&log).expect("the request log's folder");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            script: Arc::new(script),
            requests: requests.clone(),
            log,
        };
        let app = axum::Router::new()
            .route("/v1/messages", post(anthropic))
            .route("/v1/responses", post(responses))
            .route("/v1/chat/completions", post(chat))
            .route("/v1beta/models/{call}", post(gemini))
            .fallback(|uri: Uri| async move { (StatusCode::NOT_FOUND, format!("no route for {uri}")) })
            .with_state(shared);
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a port on loopback");
        let url = format!("http://{}", listener.local_addr().expect("its address"));
        runtime.spawn(async move { axum::serve(listener, app).await });
        Self {
            url,
            requests,
            _runtime: runtime,
        }
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("not poisoned").clone()
    }

    /// The requests that offered the script's tools, in order.
    pub fn main_requests(&self) -> Vec<Request> {
        self.requests().into_iter().filter(|r| r.main).collect()
    }
}

async fn anthropic(State(shared): State<Shared>, body: Bytes) -> Response {
    answer(&shared, Format::Anthropic, &body, None)
}

async fn responses(State(shared): State<Shared>, body: Bytes) -> Response {
    answer(&shared, Format::Responses, &body, None)
}

async fn chat(State(shared): State<Shared>, body: Bytes) -> Response {
    answer(&shared, Format::Chat, &body, None)
}

/// `MODEL:streamGenerateContent` (the turn) or `MODEL:generateContent`
/// (Gemini CLI's side questions, answered whole).
async fn gemini(
    State(shared): State<Shared>,
    UrlPath(call): UrlPath<String>,
    _headers: HeaderMap,
    body: Bytes,
) -> Response {
    let streamed = call.ends_with(":streamGenerateContent");
    answer(&shared, Format::Gemini, &body, Some(streamed))
}

fn answer(shared: &Shared, format: Format, body: &[u8], gemini_streamed: Option<bool>) -> Response {
    let Ok(body) = serde_json::from_slice::<Value>(body) else {
        return (StatusCode::BAD_REQUEST, "the body is not JSON").into_response();
    };
    let script = &shared.script;
    let offered = wire::offered_tools(format, &body);
    let results = wire::tool_results(format, &body);
    let offers = |name: &str| offered.iter().any(|o| o == name);
    let searchable = script.search.as_ref().is_some_and(|(name, _)| offers(name));
    let main = script.calls.iter().any(|(name, _)| offers(name)) || searchable;
    let reply = if !main {
        Reply::Text(side_answer(format, &body))
    } else {
        let done = results
            .iter()
            .filter(|(name, _)| script.calls.iter().any(|(call, _)| call == name))
            .count();
        match script.calls.get(done) {
            None => Reply::Text(script.closing.clone()),
            Some((name, args)) => {
                let searched = script
                    .search
                    .as_ref()
                    .is_some_and(|(search, _)| results.iter().any(|(n, _)| n == search));
                match &script.search {
                    Some((search, search_args)) if !offers(name) && searchable && !searched => {
                        Reply::Call(search.clone(), search_args.clone())
                    }
                    _ => Reply::Call(name.clone(), args.clone()),
                }
            }
        }
    };
    let mut requests = shared.requests.lock().expect("not poisoned");
    let index = requests.len();
    let file = shared.log.join(format!(
        "{index:03}-{}{}.json",
        format.name(),
        if main { "" } else { "-side" }
    ));
    let _ = std::fs::write(&file, serde_json::to_vec_pretty(&body).unwrap_or_default());
    requests.push(Request { format, body, main });
    drop(requests);
    wire::respond(format, &reply, index, gemini_streamed.unwrap_or(true))
}

/// What a request that is not the turn gets: a short text, or for Gemini
/// CLI's model router the JSON it asks for.
fn side_answer(format: Format, body: &Value) -> String {
    let asks_json = format == Format::Gemini
        && body
            .pointer("/generationConfig/responseMimeType")
            .and_then(Value::as_str)
            == Some("application/json");
    if asks_json {
        json!({"reasoning": "A plain task.", "model_choice": "flash"}).to_string()
    } else {
        "Planning the work".to_owned()
    }
}
