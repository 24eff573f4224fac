//! An Agent Client Protocol agent whose list shows in the editor's plan
//! panel (Zed's, or any ACP client's), live.
//!
//! Its turns are scripted instead of coming from a model: each prompt runs
//! the next `TodoWrite` call of a small job through todokit and answers
//! with the tool's result. What a real host adds is the part marked
//! "todokit": one [`PlanFeed`] per session, spawned on the connection, sends
//! every commit to the conversation, whoever made it (this agent, a
//! `todokit done` typed in a terminal, another machine on a shared
//! database), as a `session/update`; and before each prompt's answer, the
//! feed's [`PlanCatchUp`] sends the update for the prompt's own commits,
//! so the editor's plan has moved by the time the turn ends.
//!
//! ```text
//! cargo build -p todokit --features acp-plan-operations --example acp_agent
//! ```
//!
//! Then point an ACP client at `target/debug/examples/acp_agent` (in Zed:
//! an `agent_servers` entry). Lists go to the default store
//! (`TODOKIT_STORE`, else the platform's data folder); each session is the
//! conversation of the same id, so `todokit --conversation <session> show`
//! shows it too.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use agent_client_protocol::v1::schema::{
    AgentCapabilities, ContentBlock, ContentChunk, InitializeRequest, InitializeResponse, NewSessionRequest,
    NewSessionResponse, PromptRequest, PromptResponse, SessionId, SessionNotification, SessionUpdate,
    StopReason, TextContent,
};
use agent_client_protocol::v1::{ConnectionTo, Responder};
use agent_client_protocol::{Agent, Client, Stdio};
use todokit::TodoWriteService;
use todokit::acp::{PlanCatchUp, PlanFeed};

/// The scripted job: one `TodoWrite` call per prompt.
const SCRIPT: [&str; 4] = [
    r#"{"todos":[{"content":"Read the failing test","status":"in_progress","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"pending","activeForm":"Fixing the parser"},{"content":"Run the suite","status":"pending","activeForm":"Running the suite"}]}"#,
    r#"{"todos":[{"content":"Read the failing test","status":"completed","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"in_progress","activeForm":"Fixing the parser"},{"content":"Run the suite","status":"pending","activeForm":"Running the suite"}]}"#,
    r#"{"todos":[{"content":"Read the failing test","status":"completed","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"completed","activeForm":"Fixing the parser"},{"content":"Run the suite","status":"in_progress","activeForm":"Running the suite"}]}"#,
    r#"{"todos":[{"content":"Read the failing test","status":"completed","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"completed","activeForm":"Fixing the parser"},{"content":"Run the suite","status":"completed","activeForm":"Running the suite"}]}"#,
];

/// What the agent keeps between requests.
struct State {
    service: TodoWriteService,
    /// Whether the client declared ACP's unstable plan operations.
    plan_operations: AtomicBool,
    /// How far each session is through the script, and the catch-up of
    /// its plan feed.
    steps: Mutex<HashMap<SessionId, (usize, PlanCatchUp)>>,
    sessions: AtomicU64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let state = Arc::new(State {
        service: todokit::Todokit::builder().build()?,
        plan_operations: AtomicBool::new(false),
        steps: Mutex::new(HashMap::new()),
        sessions: AtomicU64::new(0),
    });
    let (on_initialize, on_new_session, on_prompt) = (state.clone(), state.clone(), state);
    Agent
        .v1()
        .name("todokit-example")
        .on_receive_request(
            async move |request: InitializeRequest, responder: Responder<InitializeResponse>, _| {
                on_initialize
                    .plan_operations
                    .store(declares_plan_operations(&request), Ordering::SeqCst);
                responder.respond(
                    InitializeResponse::new(request.protocol_version)
                        .agent_capabilities(AgentCapabilities::new()),
                )
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |_: NewSessionRequest,
                        responder: Responder<NewSessionResponse>,
                        connection: ConnectionTo<Client>| {
                let number = on_new_session.sessions.fetch_add(1, Ordering::SeqCst);
                let id = format!("acp-{}-{number}", std::process::id());
                // todokit: the session's plan follows its conversation.
                let feed = PlanFeed::new(&on_new_session.service, &id, id.clone());
                #[cfg(feature = "acp-plan-operations")]
                let feed = if on_new_session.plan_operations.load(Ordering::SeqCst) {
                    feed.with_plan_id(format!("todo-{id}"))
                } else {
                    feed
                };
                let catch_up = feed.catch_up();
                connection.spawn(send_plans(feed, connection.clone()))?;
                lock(&on_new_session.steps).insert(SessionId::new(id.as_str()), (0, catch_up));
                responder.respond(NewSessionResponse::new(id))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |request: PromptRequest,
                        responder: Responder<PromptResponse>,
                        connection: ConnectionTo<Client>| {
                let step = lock(&on_prompt.steps)
                    .get_mut(&request.session_id)
                    .map(|(step, catch_up)| {
                        *step += 1;
                        (*step - 1, catch_up.clone())
                    });
                let Some((step, catch_up)) = step else {
                    let unknown = format!("no session {:?} on this agent", request.session_id.0);
                    return responder
                        .respond_with_error(agent_client_protocol::Error::invalid_params().data(unknown));
                };
                let answer = match SCRIPT.get(step) {
                    // todokit: the model's call, as any host runs it.
                    Some(arguments) => match on_prompt
                        .service
                        .call(&request.session_id.0, "TodoWrite", arguments)
                        .await
                    {
                        Ok(result) => result.content,
                        Err(error) => format!("The list could not be stored: {error}"),
                    },
                    None => "Nothing left to do.".to_owned(),
                };
                // todokit: the plan for this turn's commits, before the answer.
                match catch_up.update().await {
                    Ok(Some(update)) => connection.send_notification(update)?,
                    Ok(None) => {}
                    Err(error) => eprintln!("acp_agent: {}: {error}", request.session_id.0),
                }
                let text = ContentBlock::Text(TextContent::new(answer));
                let chunk = SessionUpdate::AgentMessageChunk(ContentChunk::new(text));
                connection.send_notification(SessionNotification::new(request.session_id, chunk))?;
                responder.respond(PromptResponse::new(StopReason::EndTurn))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .connect_to(Stdio::new())
        .await?;
    Ok(())
}

/// todokit: every update of `feed` to the client, for as long as the
/// connection lasts. A store that cannot be read is told on standard error
/// and the feed goes on.
async fn send_plans(
    mut feed: PlanFeed,
    connection: ConnectionTo<Client>,
) -> agent_client_protocol::Result<()> {
    while let Some(update) = feed.next().await {
        match update {
            Ok(update) => {
                if connection.send_notification(update).is_err() {
                    break; // the client has gone
                }
            }
            Err(error) => eprintln!("acp_agent: {}: {error}", feed.conversation()),
        }
    }
    Ok(())
}

/// Whether `request` declares the plan operations; never without the
/// feature that can send them.
fn declares_plan_operations(request: &InitializeRequest) -> bool {
    #[cfg(feature = "acp-plan-operations")]
    return todokit::acp::supports_plan_operations(&request.client_capabilities);
    #[cfg(not(feature = "acp-plan-operations"))]
    {
        let _ = request;
        false
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
