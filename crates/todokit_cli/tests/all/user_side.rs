//! The user's side through the real binary: one markdown dialect (what
//! `show --format markdown` prints, `import` reads back), hand edits on flat
//! and phased profiles, and usage errors that say what to do.

use std::path::Path;
use std::process::Output;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::cli::stdout;

/// `todokit` on `store` as pi, conversation `md`, with `args`.
fn todokit(store: &Path, args: &[&str]) -> Output {
    crate::support::cli::todokit(store)
        .args(["--profile", "pi", "--conversation", "md"])
        .args(args)
        .output()
        .expect("todokit runs")
}

/// The list as the user sees it: phases, and per task its content, status
/// and notes (ids and times are the store's, not the text's).
fn list(store: &Path) -> Value {
    let state: Value =
        serde_json::from_str(&stdout(&todokit(store, &["show", "--format", "json"]))).expect("JSON");
    let phases: Vec<Value> = state["phases"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|phase| {
            let tasks: Vec<Value> = phase["tasks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| {
                    serde_json::json!([
                        t["content"],
                        t["status"],
                        t.get("notes").cloned().unwrap_or_default()
                    ])
                })
                .collect();
            serde_json::json!({"name": phase["name"], "tasks": tasks})
        })
        .collect();
    Value::Array(phases)
}

#[test]
fn show_format_markdown_of_a_pi_list_with_notes_imports_back_to_the_same_list() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let calls = [
        r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire the store","Add tests"]},{"phase":"Ship","items":["Tag  v1 "]}]}]}"#,
        r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"note","task":"Wire the store","text":"use the lock\nand retry twice"},{"op":"note","task":"Wire the store","text":"ask first \u001b[31m"},{"op":"drop","task":"Add tests"}]}"#,
    ];
    for args in calls {
        let out = todokit(&store, &["call", "todo_write", args]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let before = list(&store);
    let shown = stdout(&todokit(&store, &["show", "--format", "markdown"]));
    let exported = stdout(&todokit(&store, &["export"]));
    let file = dir.path().join("copied.md");
    std::fs::write(&file, &shown).expect("write the copy");
    // Start from nothing, so the import alone must rebuild the list.
    let emptied = todokit(&store, &["rm", "Build"]);
    let imported = todokit(&store, &["import", file.to_str().expect("UTF-8 path")]);
    let after = list(&store);

    let actual = (
        shown == exported,
        shown.contains('\u{1b}'),
        emptied.status.code(),
        imported.status.code(),
        after,
    );
    let expected = (true, false, Some(0), Some(0), before);
    assert_eq!(actual, expected, "shown:\n{shown}");
}

#[test]
fn importing_a_file_that_is_not_there_is_a_usage_error_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let out = todokit(&store, &["import", "missing.md"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let actual = (
        out.status.code(),
        stderr.starts_with("todokit: cannot read missing.md:")
            && stderr.trim_end().ends_with("; nothing changed"),
        list(&store),
    );
    let expected = (Some(2), true, Value::Array(Vec::new()));
    assert_eq!(actual, expected, "{stderr}");
}

#[test]
fn a_flat_profile_appends_without_a_phase_and_its_export_has_no_heading() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let flat = |args: &[&str]| {
        crate::support::cli::todokit(&store)
            .args(["--profile", "claude-code", "--conversation", "flat"])
            .args(args)
            .output()
            .expect("todokit runs")
    };
    let first = flat(&["append", "Run tests", "Deploy"]);
    let with_phase = flat(&["append", "--", "Later", "Tag"]);
    let exported = stdout(&flat(&["export"]));
    let pi_without_phase = todokit(&store, &["append", "Tag"]);
    let actual = (
        first.status.code(),
        stdout(&first).lines().next().map(str::to_owned),
        with_phase.status.code(),
        exported,
        pi_without_phase.status.code(),
        String::from_utf8_lossy(&pi_without_phase.stderr).into_owned(),
    );
    let expected = (
        Some(0),
        Some("You added \"Run tests\"; added \"Deploy\".".to_owned()),
        Some(0),
        "- [ ] Run tests\n- [ ] Deploy\n- [ ] Later\n- [ ] Tag\n".to_owned(),
        Some(2),
        "todokit: pi groups tasks into phases: append PHASE ITEM...; nothing changed\n".to_owned(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn demo_refuses_a_profile_it_has_no_script_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = todokit(&dir.path().join("store"), &["demo"]);
    let actual = (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        stdout(&out),
    );
    let expected = (
        Some(2),
        "todokit: the demo plays claude-code's TodoWrite session only, not pi; run it with --profile claude-code \
         (or without --profile and TODOKIT_PROFILE)\n"
            .to_owned(),
        String::new(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn text_hidden_in_invisible_characters_is_shown_escaped_in_every_terminal_view() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    // "hidden" in Unicode tag characters, a Mongolian vowel separator and
    // a deprecated format character: all draw as nothing on a terminal.
    let hidden: String = "hidden"
        .chars()
        .filter_map(|c| char::from_u32(0xe0000 + u32::from(c)))
        .collect();
    let content = format!("visible{hidden}end\u{180e}\u{206a}");
    let todos = serde_json::json!([{"content": content, "status": "in_progress", "activeForm": content}]);
    crate::support::cli::write_todos(&store, "tags", &todos);
    let run = |args: &[&str]| {
        let out = crate::support::cli::todokit(&store)
            .args(args)
            .output()
            .expect("todokit runs");
        stdout(&out)
    };
    let views = [
        run(&["--conversation", "tags", "show"]),
        run(&["--conversation", "tags", "show", "--format", "ansi"]),
        run(&["conversations"]),
    ];
    let invisible = |text: &str| {
        text.chars()
            .filter(|c| matches!(u32::from(*c), 0xe0000..=0xe0fff | 0x180e | 0x206a..=0x206f))
            .count()
    };
    let escaped = "visible\\u{e0068}\\u{e0069}\\u{e0064}\\u{e0064}\\u{e0065}\\u{e006e}end\\u{180e}\\u{206a}";
    let actual: Vec<(usize, bool)> = views
        .iter()
        .map(|v| (invisible(v), v.contains(escaped)))
        .collect();
    assert_eq!(actual, vec![(0, true); 3], "{views:#?}");
}
