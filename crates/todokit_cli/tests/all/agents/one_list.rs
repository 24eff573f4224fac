//! Two agents set up in one project share its list: Claude Code plans,
//! then Codex, started in the same folder, is shown that plan before its
//! first request (the server's instructions at `initialize`) and carries
//! it on; `todokit watch` and the board say which profile made each change.

use serde_json::json;

use super::matrix::{CONVERSATION, claude_code_command, codex_command};
use super::model::{Model, Script};
use super::{Machine, printed, request_log};
use crate::support::serve::{Server, request};
use crate::watch::PipedWatch;

#[test]
fn claude_code_then_codex_keep_one_list() {
    let machine = Machine::new();
    machine.setup(&["claude-code"]);
    machine.setup(&["codex"]);
    let watch = PipedWatch::start(
        &machine.store,
        &["--conversation", CONVERSATION, "--interval-ms", "200"],
    );
    let mut lines = vec![watch.next()];

    let task = json!({"subject": "Write the parser", "description": "Parse the input files", "activeForm": "Writing the parser"});
    let claude = Model::start(
        Script {
            calls: vec![("mcp__todokit__TaskCreate".into(), task)],
            search: Some((
                "ToolSearch".into(),
                json!({"query": "select:mcp__todokit__TaskCreate"}),
            )),
            closing: "Planned.".into(),
        },
        request_log("one-list-claude-code"),
    );
    let out = claude_code_command(&machine, &claude.url)
        .output()
        .expect("claude runs");
    assert!(out.status.success(), "{}", printed(&out));
    lines.push(watch.next());

    let plan = json!({"plan": [
        {"step": "Write the parser", "status": "completed"},
        {"step": "Add tests", "status": "in_progress"}]});
    let codex = Model::start(
        Script {
            calls: vec![("mcp__todokit.update_plan".into(), plan)],
            search: None,
            closing: "Carried on.".into(),
        },
        request_log("one-list-codex"),
    );
    let out = codex_command(&machine, &codex.url).output().expect("codex runs");
    assert!(out.status.success(), "{}", printed(&out));
    lines.push(watch.next());
    drop(watch);

    // What Codex's model read of todokit before its first request: the
    // namespace of todokit's tools, described by the server's instructions.
    let first = &codex.main_requests()[0];
    let namespace = first.body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|tool| tool["name"] == "mcp__todokit")
        .map(|tool| tool["description"].as_str().unwrap_or_default().to_owned())
        .unwrap_or_default();
    assert!(
        namespace.contains("already keeps a list") && namespace.contains("Write the parser"),
        "Codex's model was not shown the list Claude Code left: {namespace}"
    );
    assert!(
        namespace.contains("this server's `update_plan` tool"),
        "{namespace}"
    );

    let list = machine.list(CONVERSATION);
    assert_eq!(list["profile"], "codex", "{list}");
    assert!(list.to_string().contains("Add tests"), "{list}");
    let expected = vec![
        "version 0: no todos".to_owned(),
        "version 1 by claude-tasks: 0/1 completed; 1 pending".to_owned(),
        "version 2 by codex: 1/2 completed; in progress: Add tests".to_owned(),
    ];
    assert_eq!(lines, expected);

    let board = Server::start(&machine.store, &[]);
    let reply = request(
        &board.address,
        "GET",
        &format!("/api/conversations/{CONVERSATION}"),
        &[],
        None,
    );
    assert_eq!(reply.json()["profile"], "codex", "{}", reply.json());
}
