//! The agents' own todo tools, read from their shipping CLIs: each CLI
//! (at the version `tests/agent_clis/package-lock.json` pins) runs with
//! nothing set up, against the scripted model, which calls the agent's
//! own tools with example arguments. What the model was offered (each
//! tool's input schema, descriptions left out: todokit's are its own
//! words) and what each call answered are the upstream fixture of the
//! profile that mimics the tool, in
//! `crates/todokit_dialects/fixtures/upstream/`, which the dialects'
//! `upstream` test compares the profile with.
//!
//! This test fails when the pinned CLI offers or answers anything else
//! than its fixture says; `make upstream` (`TODOKIT_UPSTREAM=write`)
//! writes the fixtures anew, after a pin moved.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};

use super::matrix::{
    claude_code_command, codex_command, copilot_command, gemini_cli_command, opencode_command,
    qwen_code_base_command,
};
use super::model::{Model, Script};
use super::wire;
use super::{Machine, printed, request_log};

/// One agent's own tools, as a profile mimics them.
struct Capture {
    /// The profile whose fixture this is.
    profile: &'static str,
    /// The npm package the agent's users install.
    package: &'static str,
    /// How the agent was run, for the fixture's reader.
    run: &'static str,
    /// The agent's own todo tools, as it offers them.
    tools: &'static [&'static str],
    /// The example calls the model makes, in turn.
    calls: Vec<(&'static str, Value)>,
    /// Starts the agent against the model at the given address.
    command: fn(&Machine, &str) -> Command,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../todokit_dialects/fixtures/upstream")
}

/// The package-lock entries of `package` and of its platform packages
/// installed here (where a native binary lives): name, version, integrity.
fn locked(package: &str) -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agent_clis");
    let lock: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("package-lock.json")).expect("the agents' lock file"),
    )
    .expect("the lock file is JSON");
    let installed = super::agents_folder();
    let prefix = format!("node_modules/{package}");
    let mut entries: Vec<Value> = lock["packages"]
        .as_object()
        .expect("the lock's packages")
        .iter()
        .filter(|(key, _)| key.starts_with(&prefix) && !key[prefix.len()..].contains("node_modules/"))
        .filter(|(key, _)| installed.join(key).is_dir())
        .map(|(key, entry)| {
            json!({
                "name": key.trim_start_matches("node_modules/"),
                "version": entry["version"],
                "integrity": entry["integrity"],
            })
        })
        .collect();
    entries.sort_by_key(|e| e["name"].as_str().map(str::to_owned));
    entries
}

/// `schema` without what is the tool author's prose: descriptions, titles
/// and examples.
fn without_prose(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !matches!(key.as_str(), "description" | "title" | "examples" | "$schema"))
                .map(|(key, value)| {
                    // A property named `description` is a schema, not prose.
                    let kept = match key.as_str() {
                        "properties" | "$defs" | "definitions" => Value::Object(
                            value
                                .as_object()
                                .map(|props| {
                                    props.iter().map(|(k, v)| (k.clone(), without_prose(v))).collect()
                                })
                                .unwrap_or_default(),
                        ),
                        _ => without_prose(value),
                    };
                    (key.clone(), kept)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_prose).collect()),
        other => other.clone(),
    }
}

/// `text` without the note of the tokens left that Claude Code appends to
/// every tool's answer (a `<system-reminder>` holding `<total_tokens>`):
/// the agent's words, not the tool's. Other reminders (Qwen Code's
/// `todo_write` answers with one) are the tool's and stay.
fn without_token_note(text: &str) -> String {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    let Some(start) = text.rfind(OPEN) else {
        return text.to_owned();
    };
    let note = &text[start..];
    match note.find(CLOSE) {
        Some(end)
            if note[..end].contains("<total_tokens>") && note[end + CLOSE.len()..].trim().is_empty() =>
        {
            text[..start].trim_end().to_owned()
        }
        _ => text.to_owned(),
    }
}

impl Capture {
    fn fixture(&self) -> Value {
        let machine = Machine::new();
        let script = Script {
            calls: self
                .calls
                .iter()
                .map(|(t, a)| ((*t).to_owned(), a.clone()))
                .collect(),
            search: None,
            closing: "Planned.".to_owned(),
        };
        let model = Model::start(script, request_log(&format!("upstream-{}", self.profile)));
        let out = (self.command)(&machine, &model.url)
            .output()
            .expect("the agent runs");
        assert!(out.status.success(), "{}: {}", self.profile, printed(&out));
        let requests = model.main_requests();
        let first = requests.first().unwrap_or_else(|| {
            panic!(
                "{}: no request offered {:?}:\n{}",
                self.profile,
                self.tools,
                printed(&out)
            )
        });
        let offered = wire::tool_schemas(first.format, &first.body);
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|name| {
                let schema = offered
                    .iter()
                    .find(|(offered, _)| offered == name)
                    .map(|(_, schema)| without_prose(schema))
                    .unwrap_or_else(|| panic!("{}: {name} is not offered", self.profile));
                json!({"name": name, "input_schema": schema})
            })
            .collect();
        let last = requests.last().expect("at least one");
        let answers: Vec<String> = wire::tool_results(last.format, &last.body)
            .into_iter()
            .filter(|(name, _)| self.tools.contains(&name.as_str()))
            .map(|(_, text)| without_token_note(&text))
            .collect();
        assert_eq!(
            answers.len(),
            self.calls.len(),
            "{}: not every call was answered: {answers:#?}",
            self.profile
        );
        let calls: Vec<Value> = self
            .calls
            .iter()
            .zip(answers)
            .map(
                |((tool, arguments), answer)| json!({"tool": tool, "arguments": arguments, "answer": answer}),
            )
            .collect();
        let mut fixture = Map::new();
        fixture.insert("profile".into(), json!(self.profile));
        fixture.insert("packages".into(), Value::Array(locked(self.package)));
        fixture.insert("read".into(), json!(self.run));
        fixture.insert("tools".into(), Value::Array(tools));
        fixture.insert("calls".into(), Value::Array(calls));
        Value::Object(fixture)
    }

    fn check(&self) {
        let fixture = self.fixture();
        let version = fixture["packages"][0]["version"]
            .as_str()
            .unwrap_or("unknown")
            .to_owned();
        let path = fixtures().join(format!("{}@{version}.json", self.profile));
        let text = serde_json::to_string_pretty(&fixture).expect("JSON") + "\n";
        if std::env::var("TODOKIT_UPSTREAM").as_deref() == Ok("write") {
            std::fs::create_dir_all(fixtures()).expect("the fixtures' folder");
            std::fs::write(&path, text).expect("the fixture");
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!(
                "no fixture {} for the pinned package: run `make upstream`",
                path.display()
            )
        });
        pretty_assertions::assert_eq!(
            committed,
            text,
            "{}: the pinned package no longer offers or answers what its fixture says; `make upstream` writes it anew",
            self.profile
        );
    }
}

/// Claude Code as its users run it, with its tools sent whole rather than
/// behind its tool search (`ENABLE_TOOL_SEARCH=false`), so that the
/// request holds their schemas.
fn claude_tasks_command(machine: &Machine, url: &str) -> Command {
    let mut cmd = claude_code_command(machine, url);
    cmd.env("ENABLE_TOOL_SEARCH", "false");
    cmd
}

/// The same with `TodoWrite` instead of the Task tools
/// (`CLAUDE_CODE_ENABLE_TASKS=0`).
fn claude_todo_write_command(machine: &Machine, url: &str) -> Command {
    let mut cmd = claude_tasks_command(machine, url);
    cmd.env("CLAUDE_CODE_ENABLE_TASKS", "0");
    cmd
}

#[test]
fn claude_codes_task_tools_are_as_the_fixture_says() {
    Capture {
        profile: "claude-tasks",
        package: "@anthropic-ai/claude-code",
        run: "claude -p on claude-sonnet-4-6, ENABLE_TOOL_SEARCH=false",
        tools: &["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"],
        calls: vec![
            ("TaskCreate", json!({"subject": "Write the parser", "description": "Parse the input files", "activeForm": "Writing the parser"})),
            ("TaskCreate", json!({"subject": "Add tests", "description": "Cover the parser"})),
            ("TaskUpdate", json!({"taskId": "1", "status": "in_progress"})),
            ("TaskUpdate", json!({"taskId": "2", "addBlockedBy": ["1"]})),
            ("TaskGet", json!({"taskId": "2"})),
            ("TaskList", json!({})),
            // A finished blocker, then what Claude Code repairs: another
            // name for a field, a lone subject, a wrapped task, `id`.
            ("TaskUpdate", json!({"taskId": "1", "status": "completed"})),
            ("TaskGet", json!({"taskId": "2"})),
            ("TaskCreate", json!({"title": "Ship it", "content": "Release the parser"})),
            ("TaskCreate", json!({"subject": "Tell the team"})),
            ("TaskCreate", json!({"task": {"name": "Write docs", "description": "Document the parser", "status": "pending"}})),
            ("TaskUpdate", json!({"id": "3", "status": "in_progress"})),
            ("TaskList", json!({})),
        ],
        command: claude_tasks_command,
    }
    .check();
}

#[test]
fn claude_codes_todo_write_is_as_the_fixture_says() {
    Capture {
        profile: "claude-code",
        package: "@anthropic-ai/claude-code",
        run: "claude -p on claude-sonnet-4-6, CLAUDE_CODE_ENABLE_TASKS=0, ENABLE_TOOL_SEARCH=false",
        tools: &["TodoWrite"],
        calls: vec![(
            "TodoWrite",
            json!({"todos": [
                {"content": "Write the parser", "status": "in_progress", "activeForm": "Writing the parser"},
                {"content": "Add tests", "status": "pending", "activeForm": "Adding tests"}]}),
        )],
        command: claude_todo_write_command,
    }
    .check();
}

#[test]
fn codexs_update_plan_is_as_the_fixture_says() {
    Capture {
        profile: "codex",
        package: "@openai/codex",
        run: "codex exec, with [tools.update_plan] enabled = true (off by default)",
        tools: &["update_plan"],
        calls: vec![(
            "update_plan",
            json!({"explanation": "Starting the work", "plan": [
                {"step": "Write the parser", "status": "in_progress"},
                {"step": "Add tests", "status": "pending"}]}),
        )],
        command: codex_command,
    }
    .check();
}

#[test]
fn gemini_clis_write_todos_is_as_the_fixture_says() {
    Capture {
        profile: "gemini",
        package: "@google/gemini-cli",
        run: "gemini -p on gemini-2.5-flash, --approval-mode yolo (headless Gemini CLI offers write_todos only then, and only to Gemini 2 models)",
        tools: &["write_todos"],
        calls: vec![(
            "write_todos",
            json!({"todos": [
                {"description": "Write the parser", "status": "in_progress"},
                {"description": "Add tests", "status": "pending"}]}),
        )],
        command: gemini_cli_command,
    }
    .check();
}

#[test]
fn qwen_codes_todo_write_is_as_the_fixture_says() {
    Capture {
        profile: "qwen",
        package: "@qwen-code/qwen-code",
        run: "qwen -p, with tools.todoWrite.enabled (off by default)",
        tools: &["todo_write"],
        calls: vec![(
            "todo_write",
            json!({"todos": [
                {"id": "1", "content": "Write the parser", "status": "in_progress"},
                {"id": "2", "content": "Add tests", "status": "pending"}]}),
        )],
        command: qwen_code_base_command,
    }
    .check();
}

#[test]
fn opencodes_todowrite_is_as_the_fixture_says() {
    Capture {
        profile: "opencode",
        package: "opencode-ai",
        run: "opencode run",
        tools: &["todowrite"],
        calls: vec![(
            "todowrite",
            json!({"todos": [
                {"content": "Write the parser", "status": "in_progress", "priority": "high"},
                {"content": "Add tests", "status": "pending", "priority": "medium"}]}),
        )],
        command: opencode_command,
    }
    .check();
}

/// Gemini CLI with its experimental task tracker on (`experimental.taskTracker`),
/// whose `tracker_*` tools replace `write_todos`.
fn gemini_tracker_command(machine: &Machine, url: &str) -> Command {
    let cmd = gemini_cli_command(machine, url);
    std::fs::write(
        machine.home.join(".gemini/settings.json"),
        json!({"security": {"auth": {"selectedType": "gemini-api-key"}}, "experimental": {"taskTracker": true}})
            .to_string(),
    )
    .expect("settings.json");
    cmd
}

#[test]
fn gemini_clis_task_tracker_is_as_the_fixture_says() {
    Capture {
        profile: "gemini-tracker",
        package: "@google/gemini-cli",
        run: "gemini -p on gemini-2.5-flash, --approval-mode yolo, with experimental.taskTracker (the tracker's ids are random, so only an empty list is asked for)",
        tools: &[
            "tracker_create_task",
            "tracker_update_task",
            "tracker_get_task",
            "tracker_list_tasks",
            "tracker_add_dependency",
            "tracker_visualize",
        ],
        calls: vec![("tracker_list_tasks", json!({}))],
        command: gemini_tracker_command,
    }
    .check();
}

/// Copilot CLI allowed its own `sql` tool, which the command line's
/// permissions otherwise keep from a run with no one to ask.
fn copilot_sql_command(machine: &Machine, url: &str) -> Command {
    let mut cmd = copilot_command(machine, url);
    cmd.args(["--allow-tool", "sql"]);
    cmd
}

/// One `sql` call: what it says it does, and the statements.
fn sql(description: &str, query: &str) -> (&'static str, Value) {
    ("sql", json!({"description": description, "query": query}))
}

#[test]
fn copilot_clis_sql_todos_are_as_the_fixture_says() {
    Capture {
        profile: "copilot-sql",
        package: "@github/copilot",
        run: "copilot -p with its own provider settings (BYOK, offline), --allow-tool sql; the session database's todos and todo_deps tables (times are the clock's, so no call reads them)",
        tools: &["sql"],
        calls: vec![
            sql(
                "Insert plan todos",
                "INSERT INTO todos (id, title, description) VALUES\n  ('user-model', 'Creating user model', 'Define the User schema in src/models/user.ts'),\n  ('api-routes', 'Creating API routes', 'Implement routes that use the User model'),\n  ('theme-toggle', 'Adding theme toggle', 'Add a dark-mode toggle');\nINSERT INTO todo_deps (todo_id, depends_on) VALUES ('api-routes', 'user-model');",
            ),
            sql("Start user model", "UPDATE todos SET status = 'in_progress' WHERE id = 'user-model'"),
            sql(
                "Query ready todos",
                "SELECT t.id, t.title FROM todos t\nWHERE t.status = 'pending'\nAND NOT EXISTS (\n    SELECT 1 FROM todo_deps td\n    JOIN todos dep ON td.depends_on = dep.id\n    WHERE td.todo_id = t.id AND dep.status != 'done'\n);",
            ),
            sql("List todo statuses", "SELECT id, status, description IS NULL AS bare FROM todos ORDER BY id"),
            sql("Query blocked todos", "SELECT id FROM todos WHERE status = 'blocked'"),
            sql("Finish user model", "UPDATE todos SET status = 'finished' WHERE id = 'user-model'"),
            sql(
                "Finish and add",
                "UPDATE todos SET status = 'done' WHERE id = 'user-model'; INSERT INTO todos (id) VALUES ('untitled');",
            ),
            sql("Count todos", "SELECT COUNT(*) AS n, SUM(status = 'done') AS finished FROM todos"),
            sql("Drop theme toggle", "DELETE FROM todos WHERE id = 'theme-toggle'"),
            sql("Nothing", ""),
            sql("Read dependencies", "SELECT todo_id, depends_on FROM todo_deps"),
            sql(
                "Insert one todo",
                "INSERT INTO todos (id, title) VALUES ('docs', 'Writing docs | guides')",
            ),
            sql("Show descriptions", "SELECT id, description FROM todos WHERE id IN ('docs', 'api-routes') ORDER BY id"),
            sql("Block nothing", "UPDATE todos SET status = 'blocked' WHERE id = 'nowhere'"),
            sql("Broken query", "SELEC id FROM todos"),
            sql(
                "Mixed statements",
                "UPDATE todos SET description = 'Line one\nline two' WHERE id = 'docs'; SELECT id, description FROM todos WHERE id = 'docs'",
            ),
            sql("Keep state", "CREATE TABLE session_state (key TEXT PRIMARY KEY, value TEXT)"),
            sql("Drop dependencies", "DROP TABLE todo_deps"),
            sql("Upsert todo", "INSERT OR REPLACE INTO todos (id, title, status) VALUES ('docs', 'Writing docs', 'done')"),
            sql("Show all", "SELECT id, title, status FROM todos ORDER BY rowid"),
            sql("Misspelt first", "SELEC id FROM todos; UPDATE todos SET status = 'done'"),
            sql("Unknown prerequisite", "INSERT INTO todo_deps (todo_id, depends_on) VALUES ('docs', 'nowhere')"),
            sql("Read dependencies again", "SELECT * FROM todo_deps"),
            sql("Value forms", "SELECT 1.5 AS half, x'00ff' AS bin, 2.0 AS two, 1e20 AS big, 'a | b' AS t"),
            sql("Lower case", "select 1 as one; -- a note\nselect 2 as two"),
            sql(
                "Three kinds",
                "UPDATE todos SET status = 'done'; DELETE FROM todos WHERE id = 'nowhere'; INSERT INTO todos (id, title) VALUES ('ship', 'Shipping')",
            ),
            sql("Replace todo", "REPLACE INTO todos (id, title) VALUES ('ship', 'Shipping it')"),
            sql("Undo rename", "BEGIN; UPDATE todos SET title = 'Renamed'; ROLLBACK"),
            sql("Attach file", "ATTACH DATABASE 'other.db' AS other"),
            sql("Huge value", "SELECT length(x) FROM (SELECT randomblob(2000000000) AS x)"),
            sql("Only separators", "  ;  "),
            sql("Vacuum", "VACUUM"),
            sql("Check keys", "PRAGMA foreign_keys"),
            sql("Final list", "SELECT id, title, status FROM todos ORDER BY rowid"),
        ],
        command: copilot_sql_command,
    }
    .check();
}
