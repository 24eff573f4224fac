//! `docs/limits.md`'s table of the binary's own limits, generated from the
//! constants the binary uses (with the board, `serve`, built in); the test
//! fails when the committed copy differs.

use crate::commands::call::MAX_STDIN_BYTES;
use crate::commands::edit::markdown::MAX_IMPORT_BYTES;
use todokit_mcp::{
    MAX_FOLLOWED_CONVERSATIONS, MAX_IN_FLIGHT, MAX_LISTENS, MAX_MESSAGE_BYTES, MAX_MESSAGE_VALUES,
};

/// `bytes` as people read a size.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

/// The table's rows: what is limited, the limit, and its constant.
fn rows() -> Vec<(&'static str, String, &'static str)> {
    vec![
        (
            "`todokit call`: the arguments read from standard input",
            size(MAX_STDIN_BYTES),
            "`commands::call::MAX_STDIN_BYTES`",
        ),
        (
            "`todokit import` and `edit`: the markdown read",
            size(MAX_IMPORT_BYTES),
            "`commands::edit::markdown::MAX_IMPORT_BYTES`",
        ),
        (
            "`todokit mcp`: one message",
            size(MAX_MESSAGE_BYTES as u64),
            "`todokit_mcp::MAX_MESSAGE_BYTES`",
        ),
        (
            "`todokit mcp` and `serve`: values (items, keys, nested values) in one message read as a tree",
            MAX_MESSAGE_VALUES.to_string(),
            "`todokit_mcp::MAX_MESSAGE_VALUES`",
        ),
        (
            "`todokit mcp`: requests read before their replies",
            MAX_IN_FLIGHT.to_string(),
            "`todokit_mcp::MAX_IN_FLIGHT`",
        ),
        (
            "`todokit mcp`: conversations followed for resource updates",
            MAX_FOLLOWED_CONVERSATIONS.to_string(),
            "`todokit_mcp::MAX_FOLLOWED_CONVERSATIONS`",
        ),
        (
            "`todokit mcp`: open `subscriptions/listen` requests",
            MAX_LISTENS.to_string(),
            "`todokit_mcp::MAX_LISTENS`",
        ),
        (
            "`todokit serve`: a request body",
            size(todokit_mcp::http::MAX_BODY_BYTES as u64),
            "`todokit_mcp::http::MAX_BODY_BYTES`",
        ),
        (
            "`todokit serve`: live streams in one process (board events, MCP GET streams, listens)",
            todokit_mcp::http::MAX_EVENT_STREAMS.to_string(),
            "`todokit_mcp::http::MAX_EVENT_STREAMS`",
        ),
        (
            "`todokit serve`: live streams one token holds (`--max-streams-per-token`)",
            todokit_mcp::http::MAX_STREAMS_PER_TOKEN.to_string(),
            "`todokit_mcp::http::MAX_STREAMS_PER_TOKEN`",
        ),
        (
            "`todokit serve`: connections held at once (`--max-connections`)",
            todokit_mcp::http::MAX_CONNECTIONS.to_string(),
            "`todokit_mcp::http::MAX_CONNECTIONS`",
        ),
        (
            "`todokit serve`: bodies one token has arriving at once, as a divisor of `--max-connections` (64 at its default)",
            todokit_mcp::http::BODY_SHARE_DIVISOR.to_string(),
            "`todokit_mcp::http::BODY_SHARE_DIVISOR`",
        ),
        (
            "`todokit serve`: MCP sessions open in one process (`--max-sessions`)",
            todokit_mcp::http::MAX_SESSIONS.to_string(),
            "`todokit_mcp::http::MAX_SESSIONS`",
        ),
        (
            "`todokit serve`: MCP sessions one token holds (`--max-sessions-per-token`)",
            todokit_mcp::http::MAX_SESSIONS_PER_TOKEN.to_string(),
            "`todokit_mcp::http::MAX_SESSIONS_PER_TOKEN`",
        ),
        (
            "`todokit serve`: an `initialize`'s parameters, kept for its session",
            size(todokit_mcp::http::MAX_INITIALIZE_PARAMS_BYTES as u64),
            "`todokit_mcp::http::MAX_INITIALIZE_PARAMS_BYTES`",
        ),
        (
            "`todokit serve`: seconds a request's body may take after its head",
            todokit_mcp::http::BODY_DEADLINE.as_secs().to_string(),
            "`todokit_mcp::http::BODY_DEADLINE`",
        ),
        (
            "`todokit serve`: the rest of a body past its cap, read and dropped after the 413",
            size(todokit_mcp::http::LINGER_BYTES as u64),
            "`todokit_mcp::http::LINGER_BYTES`",
        ),
        (
            "`todokit serve`: an MCP request body (`/mcp`)",
            size(MAX_MESSAGE_BYTES as u64),
            "`todokit_mcp::MAX_MESSAGE_BYTES`",
        ),
        (
            "A conversation id a client names (`_meta`, header, query, board path, resource URI, command line)",
            size(todokit::domain::MAX_CONVERSATION_ID_BYTES as u64),
            "`todokit::domain::MAX_CONVERSATION_ID_BYTES`",
        ),
        (
            "`todokit serve`: a tenant's namespace, in bytes",
            todokit::infra::store::MAX_NAMESPACE_BYTES.to_string(),
            "`todokit::infra::store::MAX_NAMESPACE_BYTES`",
        ),
        (
            "`todokit serve --retain`: seconds between two sweeps",
            todokit_mcp::http::RETAIN_SWEEP_MAX.as_secs().to_string(),
            "`todokit_mcp::http::RETAIN_SWEEP_MAX`",
        ),
        (
            "`todokit serve`: seconds a board sign-in lasts, unless `--session-ttl` says",
            todokit_mcp::http::DEFAULT_SESSION_TTL.as_secs().to_string(),
            "`todokit_mcp::http::DEFAULT_SESSION_TTL`",
        ),
        (
            "`todokit serve`: signed-out sessions a process remembers (each until its expiry)",
            todokit_mcp::http::MAX_SIGNED_OUT_SESSIONS.to_string(),
            "`todokit_mcp::http::MAX_SIGNED_OUT_SESSIONS`",
        ),
        (
            "The folder store: seconds a killed writer's temporary file lives before a sweep (a write's, a prune's, \
             `--retain`'s, the first listing's) removes it",
            todokit::infra::store::ABANDONED_AFTER.as_secs().to_string(),
            "`todokit::infra::store::ABANDONED_AFTER`",
        ),
        (
            "`todokit serve`: seconds a stop waits for the tool calls in flight",
            todokit_mcp::http::DRAIN_LIMIT.as_secs().to_string(),
            "`todokit_mcp::http::DRAIN_LIMIT`",
        ),
    ]
}

fn table() -> String {
    let mut out = String::from("| what | at most | constant |\n|---|---|---|\n");
    for (what, limit, constant) in rows() {
        out.push_str(&format!("| {what} | {limit} | {constant} |\n"));
    }
    out
}

#[test]
fn docs_limits_lists_the_binarys_limits_as_its_constants_set_them() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/limits.md"))
        .unwrap_or_default();
    let committed = doc
        .split_once("<!-- binary:begin -->\n")
        .and_then(|(_, rest)| rest.split_once("<!-- binary:end -->"))
        .map(|(table, _)| table.to_owned());
    if std::env::var_os("TODOKIT_UPDATE_DOCS").is_some() {
        eprintln!("{}", table());
    }
    pretty_assertions::assert_eq!(committed, Some(table()), "docs/limits.md is stale");
}
