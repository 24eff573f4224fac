//! The example ACP agent (`crates/todokit/examples/acp_agent.rs`) under an
//! editor built on the official ACP TypeScript SDK
//! (`@agentclientprotocol/sdk`, `tests/clients/acp_client.mjs`): after each
//! of the agent's tool calls, a `todokit call` by another process and a
//! `todokit done` hand edit, the editor's plan equals the stored list as
//! `todokit::acp` maps it.
//!
//! Needs node with the clients' packages (`make node-clients`) and the
//! example built (`cargo test --workspace --all-features` builds it;
//! alone: `cargo build -p todokit --features acp-plan-operations --example
//! acp_agent`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::support::cli::{in_process, run, todokit, write_todos};
use crate::support::node::NodeClient;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// The example agent, built next to this test's binary.
fn agent_binary() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_todokit"));
    let agent = bin
        .parent()
        .map(|dir| dir.join("examples").join("acp_agent"))
        .unwrap_or_default();
    assert!(
        agent.is_file(),
        "the example agent is not built at {}: run `cargo build -p todokit --features acp-plan-operations --example acp_agent`",
        agent.display()
    );
    agent
}

/// The editor: node running the SDK client, which runs the agent.
struct Editor(NodeClient);

impl Editor {
    fn start(store: &Path, plan_operations: bool) -> Self {
        let mut args = vec![agent_binary().into_os_string()];
        if plan_operations {
            args.push("plan-operations".into());
        }
        let client = NodeClient::start(
            "acp_client.mjs",
            "@agentclientprotocol/sdk",
            &args,
            &[("TODOKIT_STORE", store)],
        );
        let mut editor = Self(client);
        editor.next_where("the handshake", |m| m.get("initialized").is_some());
        editor
    }

    fn send(&mut self, command: Value) {
        self.0.send(command);
    }

    fn next_where(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        self.0.next_where(what, wanted)
    }

    fn new_session(&mut self) -> String {
        self.send(json!({ "do": "new" }));
        let created = self.next_where("session", |m| m.get("session").is_some());
        created["session"].as_str().unwrap_or_default().to_owned()
    }

    /// Sends a prompt; when its answer arrived.
    fn prompt(&mut self, session: &str) -> Instant {
        self.send(json!({ "do": "prompt", "session": session }));
        let (at, answered) = self
            .0
            .next_timed("prompt answer", |m| m.get("stopReason").is_some());
        assert_eq!(answered["stopReason"], "end_turn");
        at
    }

    /// The plan the editor shows once it has been sent the stored
    /// `version` of the list (under plan operations, `plan_update`), and
    /// when that update arrived.
    fn plan_timed(&mut self, session: &str, version: u64) -> (Instant, Value) {
        let (at, update) = self.0.next_timed(&format!("plan at version {version}"), |m| {
            let update = &m["update"]["update"];
            let meta = if update["sessionUpdate"] == "plan_update" {
                &update["plan"]["_meta"]
            } else {
                &update["_meta"]
            };
            m["update"]["sessionId"] == session && meta["todokit"]["version"] == version
        });
        (at, update["update"]["update"].clone())
    }
}

/// The stored list of `conversation`, and the plan `todokit::acp` maps it
/// to (as the profile that wrote it shows it).
fn stored_plan(store: &Path, conversation: &str) -> (u64, Value) {
    let (runtime, service) = in_process(store);
    let stored = runtime
        .block_on(service.state(conversation))
        .expect("the list loads");
    let (_, shown) = service.as_written(&stored);
    let plan = todokit::acp::plan(conversation, &shown);
    (stored.version, serde_json::to_value(plan).unwrap_or_default())
}

/// What a `plan` update shows, or the items of a `plan_update` with the
/// plan's `_meta`, in the stable plan's shape.
fn shown(update: &Value) -> Value {
    if update["sessionUpdate"] == "plan_update" {
        json!({ "entries": update["plan"]["entries"], "_meta": update["plan"]["_meta"] })
    } else {
        json!({ "entries": update["entries"], "_meta": update["_meta"] })
    }
}

fn check_each_step(plan_operations: bool) {
    let store = tempfile::tempdir().expect("a store folder");
    let mut editor = Editor::start(store.path(), plan_operations);
    let session = editor.new_session();
    let mut actual = Vec::new();
    let mut expected = Vec::new();
    let mut late = Vec::new();
    let mut compare = |editor: &mut Editor, step: &str, answered: Option<Instant>| {
        let (version, plan) = stored_plan(store.path(), &session);
        // Under plan operations an empty list (Claude Code clears one whose
        // every task is done) is a removal of the plan.
        if plan_operations && plan["entries"].as_array().is_some_and(Vec::is_empty) {
            let removed = editor.next_where("plan removal", |m| {
                m["update"]["update"]["sessionUpdate"] == "plan_removed"
            });
            actual.push((
                step.to_owned(),
                json!({ "removed": removed["update"]["update"]["planId"] }),
            ));
            expected.push((step.to_owned(), json!({ "removed": format!("todo-{session}") })));
            return;
        }
        let (shown_at, update) = editor.plan_timed(&session, version);
        if answered.is_some_and(|answered| shown_at > answered) {
            late.push(step.to_owned());
        }
        actual.push((step.to_owned(), shown(&update)));
        expected.push((step.to_owned(), plan));
    };
    if !plan_operations {
        compare(&mut editor, "opened", None);
    }
    // The plan for each turn's own commit reaches the editor before the
    // turn's answer (the agent sends its feed's catch-up first).
    for turn in 1..=4 {
        let answered = editor.prompt(&session);
        compare(&mut editor, &format!("turn {turn}"), Some(answered));
    }
    write_todos(
        store.path(),
        &session,
        &json!([
            {"content": "Write the release note", "status": "in_progress", "activeForm": "Writing the release note"},
            {"content": "Tag the release", "status": "pending", "activeForm": "Tagging the release"}
        ]),
    );
    compare(&mut editor, "another process's call", None);
    let done = run(todokit(store.path()).args(["--conversation", &session, "done", "release note"]));
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    compare(&mut editor, "a hand edit", None);
    write_todos(store.path(), &session, &json!([]));
    compare(&mut editor, "emptied by another process", None);
    let steps = actual.len();
    assert_eq!((actual, late), (expected, Vec::<String>::new()));
    // Every step was compared, the list's clearing and a removal included.
    assert_eq!(steps, if plan_operations { 7 } else { 8 });
}

#[test]
fn the_editor_shows_the_stored_list_after_every_call_and_edit() {
    check_each_step(false);
}

#[test]
fn under_plan_operations_the_editor_gets_plan_updates_and_a_removal() {
    check_each_step(true);
}
