//! The words a binding's host reads when it used a kit wrongly: the same
//! sentence in Python and in TypeScript, with the language's own names
//! for the options where a sentence names them. Kept here, beside the
//! codes, so both bindings say the same and one snapshot pins them.

/// A kit used after its `close()`.
pub const CLOSED: &str = "this Todokit is closed";

/// A kit used in another process than the one that made it (after
/// `fork()`): the store's and the service's threads did not come along.
pub const FORKED: &str = "this Todokit was made in another process: create it after fork()";

/// A kit whose lock a panicking call left poisoned.
pub const POISONED: &str = "this Todokit is unusable: a call panicked while holding it";

/// More than one store given; `names` are the language's names of the
/// three options (folder, memory, database).
pub fn one_store(names: [&str; 3]) -> String {
    let [dir, memory, url] = names;
    format!("give at most one of {dir}, {memory} and {url}")
}

/// A blocking call on a kit whose store is a database (it would block the
/// host's event loop on the network); `instead` is what to call.
pub fn blocking_on_database(method: &str, instead: &str) -> String {
    format!("{method} would block the event loop on the database: use {instead}")
}

/// Two lists that must pair up one for one did not.
pub fn one_per(method: &str, what: &str) -> String {
    format!("{method} needs one {what} per tool")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoundPolicy, call_options, definitions_for, idle_for, open, user_action};

    /// Every sentence a binding's host may read about its own mistakes,
    /// the language's names filled in as each binding fills them.
    #[test]
    fn what_a_host_reads_when_it_used_a_kit_wrongly() {
        let handle =
            open("claude-code", Some(todokit::StoreLocation::Memory)).unwrap_or_else(|e| panic!("{e}"));
        let err = |result: Result<(), String>| result.err().unwrap_or_default();
        let policy = |end: &str, counters: Option<serde_json::Value>| {
            err(BoundPolicy::new(handle.clone(), "c".into(), Some(end), None, counters).map(drop))
        };
        let lines = [
            ("closed", CLOSED.to_owned()),
            ("forked (Python)", FORKED.to_owned()),
            ("poisoned", POISONED.to_owned()),
            (
                "two stores (Python)",
                one_store(["store_dir", "memory", "database_url"]),
            ),
            (
                "two stores (TypeScript)",
                one_store(["storeDir", "memory", "databaseUrl"]),
            ),
            (
                "callSync on PostgreSQL (TypeScript)",
                blocking_on_database("callSync", "await call()"),
            ),
            (
                "callRound pairs (TypeScript)",
                one_per("callRound", "arguments value"),
            ),
            (
                "onToolResults pairs (TypeScript)",
                one_per("onToolResults", "isError and id"),
            ),
            (
                "beforeRequest pairs (TypeScript)",
                one_per("beforeRequest", "isError and id"),
            ),
            ("an unknown mode", err(call_options("yolo").map(drop))),
            ("an unknown end of turn", policy("sometimes", None)),
            (
                "counters that are not the policy's",
                policy("soft", Some(serde_json::json!([1]))),
            ),
            (
                "an unknown schema target",
                err(definitions_for(&handle.service, "xml").map(drop)),
            ),
            (
                "an edit that is not an object",
                err(user_action(serde_json::json!("{")).map(drop)),
            ),
            ("a prune idle for no time", err(idle_for(0.0).map(drop))),
            ("a prune idle for ever", err(idle_for(f64::INFINITY).map(drop))),
            (
                "an unknown edit action",
                err(user_action(serde_json::json!({"action": "explode"})).map(drop)),
            ),
        ];
        let actual: String = lines
            .iter()
            .map(|(what, text)| format!("{what}: {text}\n"))
            .collect();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!("binding_host_mistakes", actual));
    }
}
