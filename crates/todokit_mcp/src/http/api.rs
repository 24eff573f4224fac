//! The board's JSON API: the conversations, one list as its profile shows
//! it, and hand edits.

use axum::Extension;
use axum::Json;
use axum::extract::Query;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use todokit::app::{EditRequest, UserEditError};
use todokit::domain::Timestamp;
use todokit::domain::outline;
use todokit::{EditList, Profile, TodoState};

use super::auth::refuse_edit;
use super::conversation_path::ConversationPath;
use super::overview::{Cursor, MAX_PAGE_SIZE, PAGE_SIZE, page};
use super::tenancy::Scope;
/// What `GET /api/conversations` may ask for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageRequest {
    /// How many conversations (1 to [`MAX_PAGE_SIZE`]; [`PAGE_SIZE`] when
    /// absent).
    limit: Option<String>,
    /// The last conversation of the page before, as `MILLIS:ID` (the
    /// `changed_at` and `id` of its summary; `:ID` when it has no time).
    after: Option<String>,
}

/// `GET /api/conversations`: a page of the conversations, newest change
/// first (`?limit=N&after=MILLIS:ID` for the next one). A page shorter
/// than its limit is the last.
pub async fn conversations(Extension(scope): Extension<Scope>, query: Query<PageRequest>) -> Response {
    let limit = match query.limit.as_deref().map(str::parse::<usize>) {
        None => PAGE_SIZE,
        Some(Ok(limit)) if (1..=MAX_PAGE_SIZE).contains(&limit) => limit,
        Some(_) => return refused(format!("limit: a number from 1 to {MAX_PAGE_SIZE}")),
    };
    let after = match query.after.as_deref().map(Cursor::parse) {
        None => None,
        Some(Some(cursor)) => Some(cursor),
        Some(None) => {
            return refused(
                "after: the `changed_at` and `id` of the last conversation of the page before, as MILLIS:ID \
                 (:ID when it has no time)"
                    .to_owned(),
            );
        }
    };
    match scope.service.conversations().await {
        Ok(list) => Json(page(&list, after.as_ref(), limit)).into_response(),
        Err(error) => failure(&error.to_string()),
    }
}

/// A request the board will not carry out: 400 with why.
fn refused(message: impl Into<String>) -> Response {
    let message: String = message.into();
    (StatusCode::BAD_REQUEST, Json(json!({"error": message}))).into_response()
}

/// `GET /api/conversations/{id}`: one list, as its profile shows it.
pub async fn conversation(
    Extension(scope): Extension<Scope>,
    ConversationPath(id): ConversationPath,
) -> Response {
    Json(view(&scope, &id).await).into_response()
}

/// `DELETE /api/conversations/{id}`: forgets the conversation, its list
/// and its turn record (a tenant's id is in its own namespace, like every
/// id it gives): 204, or 404 when nothing was stored. Allowed to whoever
/// may edit, with the same guard against cross-site requests.
pub async fn forget(
    Extension(scope): Extension<Scope>,
    ConversationPath(id): ConversationPath,
    headers: HeaderMap,
) -> Response {
    if let Some(refused) = refuse_edit(&scope, &headers) {
        return refused;
    }
    match scope.service.forget(&id).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": format!("no conversation {:?} is stored", todokit::domain::clip(&id))})),
        )
            .into_response(),
        Err(error) => failure(&error.to_string()),
    }
}

/// One list as the page draws it: the profile that wrote it (and what
/// that agent shows), the list settled under that profile, and whether the
/// page may offer edits.
pub async fn view(scope: &Scope, id: &str) -> Value {
    view_until(scope, id).await.0
}

/// [`view`], and when the profile will next show it differently with no
/// commit (a finished task due to clear), if ever.
pub async fn view_until(scope: &Scope, id: &str) -> (Value, Option<Timestamp>) {
    let (profile, state) = scope.service.view_as_written(id).await;
    match state.map_err(|error| error.to_string()) {
        Ok(state) => (
            list_json(id, &profile, &state, scope.can_edit),
            profile.settles_next_at(&state),
        ),
        Err(problem) => (
            json!({"id": id, "profile": profile.name(), "problem": problem}),
            None,
        ),
    }
}

fn list_json(id: &str, profile: &Profile, state: &TodoState, can_edit: bool) -> Value {
    let phases: Vec<Value> = state
        .phases
        .iter()
        .filter(|phase| !phase.tasks.is_empty())
        .map(|phase| {
            // Each subtask right under its parent, with how deep it sits.
            let tasks: Vec<Value> = outline(&phase.tasks)
                .into_iter()
                .map(|entry| {
                    let task = entry.task;
                    json!({
                        "id": task.id,
                        "parent": task.parent,
                        "depth": entry.depth,
                        "content": task.content,
                        "display": task.display_text(),
                        "status": task.status.as_str(),
                        "priority": task.priority.map(|p| p.as_str()),
                        "owner": task.owner,
                        "blocked_by": task.blocked_by,
                        // What still holds it up: a completed blocker no
                        // longer does (Claude Code's `TaskList` rule).
                        "open_blockers": state.open_blockers(task),
                        "notes": task.notes,
                    })
                })
                .collect();
            json!({"name": phase.name, "tasks": tasks})
        })
        .collect();
    json!({
        "id": id,
        "profile": profile.name(),
        "shows_ids": profile.shows_ids(),
        "can_edit": can_edit,
        // The profiles whose agents show task ids are the shared task
        // boards, where tasks have owners to give and take.
        "can_claim": can_edit && profile.shows_ids(),
        "version": state.version,
        "counts": state.counts(),
        "explanation": state.explanation,
        "phases": phases,
    })
}

/// The actions the board offers (it adds and removes tasks nowhere).
const BOARD_ACTIONS: [&str; 5] = ["start", "done", "drop", "claim", "release"];

/// `POST /api/conversations/{id}/edits`: a hand edit, through the same
/// path as the CLI's, so the model is told. The body is read only once the
/// request may edit at all: a forged or read-only request is refused
/// before any of it is parsed.
pub async fn edit(
    Extension(scope): Extension<Scope>,
    ConversationPath(id): ConversationPath,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(refused) = refuse_edit(&scope, &headers) {
        return refused;
    }
    let json = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/json")
        });
    if !json {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Json(json!({"error": "send the edit as JSON (Content-Type: application/json)"})),
        )
            .into_response();
    }
    let request: EditRequest = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(error) => return refused(format!("body: {error}")),
    };
    let action = match request.into_action(&BOARD_ACTIONS) {
        Ok(action) => action,
        Err(message) => return refused(message),
    };
    match scope.service.edit(&id, action).await {
        Ok(edit) => Json(json!({"action": edit.map(|e| e.action)})).into_response(),
        Err(UserEditError::Service(error)) => failure(&error.to_string()),
        Err(error) => refused(error.to_string()),
    }
}

fn failure(message: &str) -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({"error": message}))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use todokit::{Phase, Priority, Status, Todo, profiles};

    #[test]
    fn the_list_json_the_page_reads_is_pinned() {
        let state = TodoState::new()
            .phases(vec![Phase::new("Build").tasks(vec![
                Todo::new("Run the tests")
                    .id("1")
                    .active_form("Running the tests")
                    .status(Status::InProgress)
                    .priority(Priority::High)
                    .owner("alice")
                    .notes(vec!["flaky on arm64".to_owned()]),
                Todo::new("Ship <b>it</b>")
                    .id("2")
                    .blocked_by(vec!["1".to_owned(), "3".to_owned()]),
                Todo::new("Design it").id("3").status(Status::Completed),
            ])])
            .version(3u64)
            .explanation("Tests first.");
        let profile = profiles::by_name("claude-tasks").expect("profile");
        let actual = list_json("team", &profile, &state, true);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_json_snapshot!("serve_list_json", actual));
    }
}
