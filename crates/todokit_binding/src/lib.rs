//! What every language binding does the same way: the
//! profile as one JSON document, the host's mode by its word, a call whose
//! arguments arrive as bytes, a round of such calls, and a hand edit in the
//! board's shape. The Python and Node packages call these, so a value
//! crosses into either language the same, and neither copies the other.
//! Not published: it is the packages' own, and the facade a Rust host
//! embeds keeps none of it.

mod camel;
mod codes;
mod command;
mod feed;
#[cfg(test)]
mod host_types;
pub mod messages;
mod policy;

pub use camel::camel_case;
pub use codes::ErrorCode;
pub use command::run_command;
pub use feed::{Feed, FeedCloser, Polled};
pub use policy::{BoundPolicy, RoundEntry, enforcement, turn_end_document};

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use todokit::StoreLocation;
use todokit::app::schema::definitions;
use todokit::app::{ArgumentError, EditRequest, ROOT_FIELD, ToolError};
use todokit::app::{
    CallOptions, HostMode, RoundCall, SchemaTarget, ServiceError, TodoWriteService, ToolResult, UserAction,
};

/// What a kit's three store options name: a folder of JSON files, this
/// process's memory, or a PostgreSQL URL; `None` when none is given (the
/// command's default: `TODOKIT_STORE`, else the platform's data folder, so
/// `todokit watch` sees what the host writes). More than one is refused,
/// in the words of [`messages::one_store`] with the language's `names` for
/// the three.
pub fn store_location(
    dir: Option<PathBuf>,
    memory: bool,
    url: Option<String>,
    names: [&str; 3],
) -> Result<Option<StoreLocation>, String> {
    let mut given = [
        dir.map(StoreLocation::Folder),
        memory.then_some(StoreLocation::Memory),
        url.map(StoreLocation::Database),
    ]
    .into_iter()
    .flatten();
    let first = given.next();
    match given.next() {
        Some(_) => Err(messages::one_store(names)),
        None => Ok(first),
    }
}

/// Why a kit could not be opened, by the kind a binding maps to its own
/// error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// No profile has that name.
    #[error("{0}")]
    UnknownProfile(String),
    /// The store could not be set up (a URL that cannot be read, a
    /// runtime that would not start).
    #[error("{0}")]
    Store(String),
    /// Anything else about the set-up.
    #[error("{0}")]
    Setup(String),
}

/// An open kit: the service and, for PostgreSQL, the private runtime its
/// calls run on (one worker, whose threads never run the host's code).
/// Cheap to clone.
#[derive(Clone)]
pub struct Handle {
    /// The service a binding calls.
    pub service: TodoWriteService,
    runtime: Option<Arc<tokio::runtime::Runtime>>,
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("profile", &self.service.profile().name())
            .field("runtime", &self.runtime.is_some())
            .finish()
    }
}

/// Opens `profile` over the store at `location` (`None`: the default,
/// [`StoreLocation::or_default`]).
pub fn open(profile: &str, location: Option<StoreLocation>) -> Result<Handle, OpenError> {
    let builder = todokit::Todokit::builder()
        .profile(profile)
        .map_err(|e| OpenError::UnknownProfile(e.to_string()))?;
    let location = StoreLocation::or_default(location).map_err(|e| OpenError::Setup(e.to_string()))?;
    // A database's calls run on a private runtime of one worker: the
    // pool's connections and the change listener are all it runs.
    let runtime = match location.is_database() {
        true => Some(Arc::new(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("todokit-postgres")
                .enable_all()
                .build()
                .map_err(|e| OpenError::Store(format!("cannot start the PostgreSQL runtime: {e}")))?,
        )),
        false => None,
    };
    let service = builder.location(location).build().map_err(|e| match e {
        todokit::SetupError::Store(todokit::OpenError::Store(store)) => OpenError::Store(store.to_string()),
        other => OpenError::Setup(other.to_string()),
    })?;
    Ok(Handle { service, runtime })
}

impl Handle {
    /// Runs `future` to its end on this thread, or on the private runtime
    /// when the store needs one.
    pub fn block<F: Future>(&self, future: F) -> F::Output {
        match &self.runtime {
            Some(runtime) => runtime.block_on(future),
            None => futures_executor::block_on(future),
        }
    }

    /// Whether calls run on a private runtime (a database store): a call
    /// that blocks the host's thread would then wait on the network.
    pub fn on_runtime(&self) -> bool {
        self.runtime.is_some()
    }

    /// Enters the private runtime (if any) for as long as the guard lives:
    /// a feed polled by hand registers with it.
    pub fn enter(&self) -> Option<tokio::runtime::EnterGuard<'_>> {
        self.runtime.as_ref().map(|runtime| runtime.enter())
    }

    /// A live feed of `conversation` ([`TodoWriteService::subscribe`]),
    /// its store's watch registered with the private runtime.
    pub fn subscribe(&self, conversation: &str) -> todokit::app::Subscription {
        let _entered = self.enter();
        self.service.subscribe(conversation)
    }
}

/// A finished call as a binding hands it over: the text the model reads,
/// whether it is an error, and the details as JSON text (parsed only when
/// a host reads them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What the model reads.
    pub content: String,
    /// Whether the call was refused (nothing was stored).
    pub is_error: bool,
    /// The details as JSON text.
    pub details: String,
}

impl From<ToolResult> for Answer {
    fn from(result: ToolResult) -> Self {
        Self {
            details: result.details.as_raw().get().to_owned(),
            content: result.content,
            is_error: result.is_error,
        }
    }
}

/// The profile of `service` as one document: name, summary, system prompt,
/// tools (description, metadata, commands), upstream and example call.
pub fn profile_document(service: &TodoWriteService) -> Value {
    let profile = service.profile();
    let tools: Vec<Value> = profile
        .tools()
        .map(|tool| {
            let commands: serde_json::Map<String, Value> = tool
                .commands()
                .into_iter()
                .map(|(word, facts)| (word.to_owned(), json!(facts)))
                .collect();
            json!({
                "name": tool.name(),
                "description": tool.description(),
                "metadata": tool.metadata(),
                "commands": commands,
            })
        })
        .collect();
    json!({
        "name": profile.name(),
        "summary": profile.summary(),
        "system_prompt": profile.system_prompt(),
        "tools": tools,
        "upstream": profile.upstream(),
        "example": profile.example().map(|e| json!({"tool": e.tool, "arguments": e.arguments})),
    })
}

/// The profile's tool definitions for the target a word names (`todokit
/// schema --target`), or what the words are.
pub fn definitions_for(service: &TodoWriteService, target: &str) -> Result<Value, String> {
    let target: SchemaTarget = target.parse()?;
    Ok(definitions(service.profile(), target))
}

/// The call options of the host mode a word names, or what the words are.
pub fn call_options(word: &str) -> Result<CallOptions, String> {
    let mode = HostMode::from_word(word).ok_or_else(|| {
        format!(
            "mode must be one of {}; got {word:?}",
            HostMode::ALL.map(|m| m.as_str()).join(", ")
        )
    })?;
    Ok(CallOptions::default().mode(mode))
}

/// How long a conversation must have been left unchanged for `prune` to
/// take it, from a host's number of seconds; the words when it is not a
/// finite number above zero.
pub fn idle_for(seconds: f64) -> Result<std::time::Duration, String> {
    std::time::Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|idle| !idle.is_zero())
        .ok_or_else(|| format!("prune needs an idle time of more than zero seconds; got {seconds}"))
}

/// A prune's ids, sorted; when some conversation could not be forgotten,
/// the first one's error instead (the others named went all the same, and
/// a prune run again tries the ones that failed).
pub fn pruned_ids(pruned: todokit::Pruned) -> Result<Vec<String>, ServiceError> {
    match pruned.failed.into_iter().next() {
        Some((_, error)) => Err(ServiceError::Store(error)),
        None => Ok(pruned.forgotten),
    }
}

/// The arguments as text, or the answer in their place: `Some` tool error
/// when they are not UTF-8, `None` when the profile has no such tool (the
/// service then answers that).
fn utf8_or_refusal(
    service: &TodoWriteService,
    tool: &str,
    arguments: Vec<u8>,
) -> Result<String, Option<ToolResult>> {
    let error = match String::from_utf8(arguments) {
        Ok(text) => return Ok(text),
        Err(error) => error,
    };
    let found = service.profile().find(tool).ok_or(None)?;
    let refusal = ArgumentError::Field {
        field: ROOT_FIELD.to_owned(),
        message: format!(
            "the arguments are not valid UTF-8: the byte at offset {} does not start a character",
            error.utf8_error().valid_up_to()
        ),
    };
    Err(Some(ToolError::from(refusal).into_result(found.name())))
}

/// One call whose arguments arrive as bytes: bytes that are not UTF-8 are
/// the model's error, answered as the tool's refusal.
pub async fn call_bytes(
    service: &TodoWriteService,
    conversation: &str,
    tool: &str,
    arguments: Vec<u8>,
    options: CallOptions,
) -> Result<Answer, ServiceError> {
    let arguments = match utf8_or_refusal(service, tool, arguments) {
        Ok(arguments) => arguments,
        Err(Some(refused)) => return Ok(refused.into()),
        // The service's own answer to a tool the profile lacks.
        Err(None) => "{}".to_owned(),
    };
    service
        .call_with(conversation, tool, &arguments, options)
        .await
        .map(Answer::from)
}

/// The calls of one model turn, `(tool, argument bytes)` each, run as one
/// round. A call whose arguments are not UTF-8 keeps its place: it counts
/// in the round (a tool allowed once per round refuses it with the rest)
/// and is answered with that refusal, so every answer, and the `index` and
/// `answered` of [`ServiceError::RoundInterrupted`], are in the host's
/// positions.
pub async fn call_round_bytes(
    service: &TodoWriteService,
    conversation: &str,
    calls: Vec<(String, Vec<u8>)>,
    options: CallOptions,
) -> Result<Vec<Answer>, ServiceError> {
    let read: Vec<(String, Result<String, ToolResult>)> = calls
        .into_iter()
        .map(|(tool, arguments)| {
            let read = match utf8_or_refusal(service, &tool, arguments) {
                Ok(text) => Ok(text),
                Err(Some(refused)) => Err(refused),
                // The service's own answer to a tool the profile lacks.
                Err(None) => Ok("{}".to_owned()),
            };
            (tool, read)
        })
        .collect();
    let round: Vec<RoundCall<'_>> = read
        .iter()
        .map(|(tool, read)| match read {
            Ok(arguments) => RoundCall::new(tool, arguments),
            Err(refused) => RoundCall::answered(tool, refused),
        })
        .collect();
    let ran = service.call_round_with(conversation, &round, options).await?;
    Ok(ran.into_iter().map(Answer::from).collect())
}

/// What a round that ended on a failure had done, for the host: the
/// position of the call that failed and the answers of the calls before it
/// (their writes stand), both in the host's own positions (see
/// [`call_round_bytes`]); `None` for any other error.
pub fn round_interruption(error: &ServiceError) -> Option<(usize, Vec<Answer>)> {
    match error {
        ServiceError::RoundInterrupted { index, answered, .. } => {
            Some((*index, answered.iter().cloned().map(Answer::from).collect()))
        }
        _ => None,
    }
}

/// The user action a host's hand edit describes (the board's edit shape,
/// every action allowed), as the host's object reads.
pub fn user_action(edit: Value) -> Result<UserAction, String> {
    let request: EditRequest = serde_json::from_value(edit).map_err(|e| format!("the edit: {e}"))?;
    request.into_action(&EditRequest::ACTIONS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn service() -> TodoWriteService {
        todokit::Todokit::builder()
            .profile("deepagents")
            .unwrap()
            .memory_store()
            .build()
            .unwrap()
    }

    /// The answers of a round, as `(is_error, words)`: the once-per-round
    /// refusal, the UTF-8 refusal, or the call's own answer.
    fn round(service: &TodoWriteService, calls: Vec<(&str, Vec<u8>)>) -> Option<Vec<(bool, &'static str)>> {
        let calls = calls
            .into_iter()
            .map(|(tool, bytes)| (tool.to_owned(), bytes))
            .collect();
        let answers =
            futures_executor::block_on(call_round_bytes(service, "c", calls, CallOptions::default()));
        let words = |answer: &Answer| match answer.content.as_str() {
            text if text.contains("UTF-8") => "not UTF-8",
            text if text.contains("in parallel") || text.contains("more than once") => "once per round",
            _ => "ran",
        };
        answers
            .ok()
            .map(|answers| answers.iter().map(|a| (a.is_error, words(a))).collect())
    }

    #[test]
    fn bytes_that_are_not_utf8_keep_their_place_and_count_in_the_round() {
        let service = service();
        let good = br#"{"todos":[{"content":"a","status":"pending"}]}"#.to_vec();
        // deepagents allows `write_todos` once per round: two calls, one of
        // them unreadable, are two calls, and both are refused.
        let twice = round(
            &service,
            vec![("write_todos", vec![0xff, 0xfe]), ("write_todos", good.clone())],
        );
        let alone = round(&service, vec![("write_todos", vec![0xff, 0xfe])]);
        let fine = round(&service, vec![("write_todos", good)]);
        let actual = (
            twice,
            alone,
            fine,
            call_options("plan").is_ok(),
            call_options("nope").is_err(),
        );
        let expected = (
            Some(vec![(true, "once per round"), (true, "once per round")]),
            Some(vec![(true, "not UTF-8")]),
            Some(vec![(false, "ran")]),
            true,
            true,
        );
        assert_eq!(actual, expected);
    }
}
