//! The store's conversations as MCP resources: one resource per
//! conversation, `todokit://conversations/<id>` with the id
//! percent-encoded, read as the list's markdown and as its stored JSON.
//!
//! Listing pages through the conversations in id order, so a conversation
//! that appears or changes while a client pages never moves an entry from
//! one page to another; the cursor is the last id of the page.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use rmcp::ErrorData;
use rmcp::model::{ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, ResourceTemplate};
use serde_json::{Value, json};
use todokit::app::MarkdownCodec;
use todokit::app::{ConversationSummary, ServiceError};
use todokit::domain::{CONVERSATION_ID_RULE, check_conversation_id};
use todokit::infra::PiMarkdown;
use todokit::{TodoState, TodoWriteService};

/// What every conversation's URI starts with.
pub const CONVERSATION_URI_PREFIX: &str = "todokit://conversations/";

/// The most resources one `resources/list` page holds.
pub const RESOURCES_PAGE_SIZE: usize = 100;

/// The longest conversation URI the server accepts, in bytes: a
/// subscription keeps its URI for as long as it lasts.
pub const MAX_URI_BYTES: usize = 4096;

/// The MIME type of a conversation read as markdown (the format
/// `todokit show` prints and `todokit import` reads back).
const MARKDOWN: &str = "text/markdown";

/// The MIME type of a conversation read as its stored state.
const JSON: &str = "application/json";

/// The key of a listed resource's `_meta` that holds the conversation's
/// summary (counts, version, the task in progress, when it changed).
pub const SUMMARY_META_KEY: &str = "todokit/summary";

/// Everything but RFC 3986's unreserved characters is escaped, so an id
/// holding `/`, `?`, `#` or `%` still makes one path segment.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The URI of `conversation`'s resource.
pub fn conversation_uri(conversation: &str) -> String {
    format!(
        "{CONVERSATION_URI_PREFIX}{}",
        utf8_percent_encode(conversation, ESCAPED)
    )
}

/// The conversation `uri` names, or an invalid-params error saying what is
/// wrong with it.
pub fn conversation_of_uri(uri: &str) -> Result<String, ErrorData> {
    let refuse = |why: &str| {
        ErrorData::invalid_params(
            format!(
                "{why}: conversation resources are {CONVERSATION_URI_PREFIX}<id>, the id percent-encoded \
                 (resources/list gives each one's URI)"
            ),
            Some(json!({ "uri": truncated(uri) })),
        )
    };
    if uri.len() > MAX_URI_BYTES {
        return Err(refuse(&format!(
            "The URI is {} bytes, over {MAX_URI_BYTES}",
            uri.len()
        )));
    }
    let Some(encoded) = uri.strip_prefix(CONVERSATION_URI_PREFIX) else {
        return Err(refuse("Not a todokit conversation URI"));
    };
    if encoded.is_empty() {
        return Err(refuse("The URI names no conversation"));
    }
    if encoded.contains(['/', '?', '#']) {
        return Err(refuse(
            "The conversation id must be one path segment, with `/`, `?` and `#` escaped",
        ));
    }
    let id = percent_decode_str(encoded)
        .decode_utf8()
        .map_err(|_| refuse("The percent-encoded id is not UTF-8"))?;
    match check_conversation_id(&id) {
        Ok(()) => Ok(id.into_owned()),
        Err(problem) => Err(refuse(&format!(
            "The id in the URI {CONVERSATION_ID_RULE}; {problem}"
        ))),
    }
}

/// The first 200 bytes of `text` (at a character boundary), for an error's
/// data: a 4 MiB URI is not sent back whole.
fn truncated(text: &str) -> &str {
    let mut end = text.len().min(200);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The template every conversation URI follows.
pub fn templates() -> ListResourceTemplatesResult {
    let template: Option<ResourceTemplate> = serde_json::from_value(json!({
        "uriTemplate": format!("{CONVERSATION_URI_PREFIX}{{id}}"),
        "name": "conversation",
        "title": "A conversation's todo list",
        "description": "One conversation's list in the store: markdown (as `todokit show` prints it) and the stored JSON.",
        "mimeType": MARKDOWN,
    }))
    .ok();
    ListResourceTemplatesResult::with_all_items(template.into_iter().collect())
}

/// The store's conversations, for [`list_page`].
pub async fn summaries(service: &TodoWriteService) -> Result<Vec<ConversationSummary>, ErrorData> {
    service.conversations().await.map_err(store_failed)
}

/// One page of `summaries` as resources, in id order, after the id the
/// `cursor` names (from the start without one).
pub fn list_page(
    mut summaries: Vec<ConversationSummary>,
    cursor: Option<&str>,
) -> Result<ListResourcesResult, ErrorData> {
    let after = cursor.map(conversation_of_cursor).transpose()?;
    summaries.sort_by(|a, b| a.id.cmp(&b.id));
    let start = after.map_or(0, |after| {
        summaries.partition_point(|summary| summary.id <= after)
    });
    let page = summaries.get(start..).unwrap_or_default();
    let more = page.len() > RESOURCES_PAGE_SIZE;
    let page = &page[..page.len().min(RESOURCES_PAGE_SIZE)];
    let resources = page
        .iter()
        .filter_map(|summary| serde_json::from_value(resource(summary)).ok())
        .collect();
    let mut result = ListResourcesResult::with_all_items(resources);
    result.next_cursor = more
        .then(|| {
            page.last()
                .map(|summary| utf8_percent_encode(&summary.id, ESCAPED).to_string())
        })
        .flatten();
    Ok(result)
}

/// The id a `resources/list` cursor names.
fn conversation_of_cursor(cursor: &str) -> Result<String, ErrorData> {
    percent_decode_str(cursor)
        .decode_utf8()
        .map(|id| id.into_owned())
        .map_err(|_| {
            ErrorData::invalid_params(
                "Invalid cursor: pass the nextCursor of the previous page as it came",
                None,
            )
        })
}

/// A listed conversation as an MCP resource.
fn resource(summary: &ConversationSummary) -> Value {
    let counts = summary.counts;
    let total = counts.total();
    let description = match (&summary.problem, &summary.in_progress) {
        (Some(problem), _) => format!("Cannot be read: {problem}"),
        (None, Some(doing)) => format!("{} of {total} done; in progress: {doing}", counts.completed),
        (None, None) => format!("{} of {total} done", counts.completed),
    };
    json!({
        "uri": conversation_uri(&summary.id),
        "name": summary.id,
        "title": format!("Todo list of {}", summary.id),
        "description": description,
        "mimeType": MARKDOWN,
        "_meta": { SUMMARY_META_KEY: summary },
    })
}

/// The conversation `uri` names, read: its list as markdown, shown as the
/// profile that last wrote it shows it now, and its stored state as JSON.
/// A conversation with no list yet is not found.
pub async fn read(service: &TodoWriteService, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let conversation = conversation_of_uri(uri)?;
    let stored = service.state(&conversation).await.map_err(store_failed)?;
    if stored.version == 0 {
        return Err(ErrorData::resource_not_found(
            format!("Conversation {conversation:?} has no list in this store yet"),
            Some(json!({ "uri": truncated(uri) })),
        ));
    }
    serde_json::from_value(contents(service, uri, &stored))
        .map(ReadResourceResult::new)
        .map_err(|error| ErrorData::internal_error(format!("Could not build the resource: {error}"), None))
}

/// The two forms of a read conversation.
fn contents(service: &TodoWriteService, uri: &str, stored: &TodoState) -> Value {
    let (_, shown) = service.as_written(stored);
    let markdown = PiMarkdown.export(&shown);
    // The state is plain data: writing it as JSON cannot fail.
    let state = serde_json::to_string(stored).unwrap_or_default();
    json!([
        { "uri": uri, "mimeType": MARKDOWN, "text": markdown },
        { "uri": uri, "mimeType": JSON, "text": state },
    ])
}

/// A store that could not be read is the server's failure, not the
/// client's.
fn store_failed(error: ServiceError) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn an_id_with_every_awkward_character_makes_one_segment_and_comes_back() {
        let fixture = ["plain-id_1.2~3", "a/b?c#d%e f", "naïve 🦀", "%41"];
        let actual: Vec<(String, String)> = fixture
            .iter()
            .map(|id| {
                let uri = conversation_uri(id);
                let back = conversation_of_uri(&uri).unwrap_or_else(|error| error.message.into_owned());
                (uri, back)
            })
            .collect();
        let expected = vec![
            (
                "todokit://conversations/plain-id_1.2~3".to_owned(),
                "plain-id_1.2~3".to_owned(),
            ),
            (
                "todokit://conversations/a%2Fb%3Fc%23d%25e%20f".to_owned(),
                "a/b?c#d%e f".to_owned(),
            ),
            (
                "todokit://conversations/na%C3%AFve%20%F0%9F%A6%80".to_owned(),
                "naïve 🦀".to_owned(),
            ),
            ("todokit://conversations/%2541".to_owned(), "%41".to_owned()),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_uri_that_names_no_conversation_is_refused_with_the_reason() {
        let long = format!("{CONVERSATION_URI_PREFIX}{}", "a".repeat(MAX_URI_BYTES));
        let fixture = [
            "file:///etc/passwd",
            "todokit://conversations/",
            "todokit://conversations/a/b",
            "todokit://conversations/%FF",
            long.as_str(),
            "todokit://conversations/c1%01turn",
        ];
        let actual: Vec<(i32, String)> = fixture
            .iter()
            .map(|uri| match conversation_of_uri(uri) {
                Ok(id) => (0, id),
                Err(error) => (
                    error.code.0,
                    error.message.split(':').next().unwrap_or_default().to_owned(),
                ),
            })
            .collect();
        let expected = vec![
            (-32602, "Not a todokit conversation URI".to_owned()),
            (-32602, "The URI names no conversation".to_owned()),
            (
                -32602,
                "The conversation id must be one path segment, with `/`, `?` and `#` escaped".to_owned(),
            ),
            (-32602, "The percent-encoded id is not UTF-8".to_owned()),
            (
                -32602,
                format!("The URI is {} bytes, over {MAX_URI_BYTES}", long.len()),
            ),
            (
                -32602,
                "The id in the URI must name a conversation in 1 to 4096 bytes of UTF-8 text without U+0001; this \
                 one holds U+0001 at byte 2"
                    .to_owned(),
            ),
        ];
        assert_eq!(actual, expected);
    }

    fn summary(id: &str) -> ConversationSummary {
        ConversationSummary {
            id: id.to_owned(),
            changed_at: None,
            version: 1,
            counts: todokit::StatusCounts::default(),
            in_progress: None,
            profile: None,
            problem: None,
        }
    }

    /// Pages through `count` conversations given newest first, as the
    /// service lists them: each page's names and the cursor it ends with.
    fn pages(count: usize) -> Vec<(Vec<String>, Option<String>)> {
        let summaries: Vec<ConversationSummary> =
            (0..count).rev().map(|n| summary(&format!("c/{n:03}"))).collect();
        let mut pages = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let Ok(page) = list_page(summaries.clone(), cursor.as_deref()) else {
                break;
            };
            let names = page
                .resources
                .iter()
                .map(|resource| resource.name.clone())
                .collect();
            pages.push((names, page.next_cursor.clone()));
            cursor = page.next_cursor;
            if cursor.is_none() || pages.len() > count {
                break;
            }
        }
        pages
    }

    #[test]
    fn conversations_come_in_pages_in_id_order_each_cursor_naming_the_last_id() {
        let actual = pages(RESOURCES_PAGE_SIZE * 2 + 1);
        let names = |range: std::ops::Range<usize>| range.map(|n| format!("c/{n:03}")).collect::<Vec<_>>();
        let expected = vec![
            (names(0..100), Some("c%2F099".to_owned())),
            (names(100..200), Some("c%2F199".to_owned())),
            (names(200..201), None),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_full_last_page_has_no_cursor_and_an_empty_store_one_empty_page() {
        let actual = (pages(RESOURCES_PAGE_SIZE).len(), pages(0));
        let expected = (1, vec![(Vec::new(), None)]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn what_a_client_reads_templates_a_page_a_list_and_the_errors() {
        let service = TodoWriteService::new(
            todokit::profiles::by_name("claude-code").expect("registered"),
            std::sync::Arc::new(todokit::MemoryStore::new()),
            std::sync::Arc::new(todokit::ManualClock::new(1_700_000_000_000)),
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let args = r#"{"todos":[{"content":"Write the parser","status":"completed","activeForm":"Writing the parser"},
            {"content":"Test <edge> cases","status":"in_progress","activeForm":"Testing edge cases"},
            {"content":"Ship it","status":"pending","activeForm":"Shipping it"}]}"#;
        let actual = runtime.block_on(async {
            for conversation in ["sprint 7/α", "chat-2"] {
                let called = service.call(conversation, "TodoWrite", args).await;
                assert!(called.is_ok_and(|result| !result.is_error));
            }
            let as_json =
                |value: Result<Value, ErrorData>| value.unwrap_or_else(|error| json!({ "error": error }));
            let page = summaries(&service)
                .await
                .and_then(|summaries| list_page(summaries, None))
                .and_then(|page| {
                    serde_json::to_value(page).map_err(|e| ErrorData::internal_error(e.to_string(), None))
                });
            let mut reads = Vec::new();
            for uri in [
                conversation_uri("sprint 7/α"),
                conversation_uri("nobody"),
                "todokit://lists/x".to_owned(),
            ] {
                let read = read(&service, &uri).await.and_then(|read| {
                    serde_json::to_value(read).map_err(|e| ErrorData::internal_error(e.to_string(), None))
                });
                reads.push(as_json(read));
            }
            let mut page = as_json(page);
            // The memory store stamps a change with the system's time.
            for resource in page["resources"].as_array_mut().into_iter().flatten() {
                resource["_meta"][SUMMARY_META_KEY]["changed_at"] = json!("(when it changed)");
            }
            json!({
                "templates": serde_json::to_value(templates()).unwrap_or_default(),
                "list": page,
                "reads": reads,
            })
        });
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_json_snapshot!("mcp_resources", actual));
    }
}
