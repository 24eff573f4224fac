//! The markdown round trip and the hand edits of pi lists through the real
//! binary: export, import, edit in `$EDITOR`, and the single-task edits.

use std::path::Path;
use std::process::Output;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{json_of, run, snapshot_dir, stdout, todokit};

const PI_INIT: &str = r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire"]},{"phase":"Ship","items":["Tag"]}]}]}"#;

fn pi(store: &Path, args: &[&str]) -> Output {
    let mut cmd = todokit(store);
    cmd.args(["--profile", "pi"]).args(args);
    run(&mut cmd)
}

#[test]
fn pi_init_then_a_batch_with_a_failing_op() {
    let store = tempfile::tempdir().unwrap();
    let init = json_of(&pi(store.path(), &["call", "todo_write", PI_INIT]));
    let batch = pi(
        store.path(),
        &[
            "call",
            "todo_write",
            r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"start","task":"Nope"},{"op":"note","task":"Wire","text":"behind a trait"}]}"#,
        ],
    );
    let shown = json_of(&pi(store.path(), &["show", "--format", "json"]));
    let statuses: Vec<Value> = shown["phases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| {
            p["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| json!([t["content"], t["status"]]))
        })
        .collect();
    let actual = (
        init["content"]
            .as_str()
            .unwrap()
            .lines()
            .nth(1)
            .map(str::to_owned),
        batch.status.code(),
        json_of(&batch)["is_error"].clone(),
        statuses,
    );
    let expected = (
        Some("  - Scaffold [in_progress] (Build)".to_owned()),
        Some(0),
        json!(true),
        vec![
            json!(["Scaffold", "completed"]),
            json!(["Wire", "in_progress"]),
            json!(["Tag", "pending"]),
        ],
    );
    assert_eq!(actual, expected);
}

#[test]
fn export_then_import_of_the_same_file_changes_nothing() {
    let store = tempfile::tempdir().unwrap();
    pi(store.path(), &["call", "todo_write", PI_INIT]);
    let file = store.path().join("list.md");
    let before = stdout(&pi(store.path(), &["show", "--format", "json"]));
    pi(store.path(), &["export", file.to_str().unwrap()]);
    let import = pi(store.path(), &["import", file.to_str().unwrap()]);
    let after = stdout(&pi(store.path(), &["show", "--format", "json"]));
    let actual = (import.status.code(), stdout(&import), after);
    let expected = (
        Some(0),
        "No change: the list was already like that.\n".to_owned(),
        before,
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_edited_export_imports_across_processes_and_leaves_a_reminder() {
    let store = tempfile::tempdir().unwrap();
    pi(store.path(), &["call", "todo_write", PI_INIT]);
    let file = store.path().join("list.md");
    pi(store.path(), &["export", file.to_str().unwrap()]);
    let edited = std::fs::read_to_string(&file)
        .unwrap()
        .replace("- [/] Scaffold", "- [x] Scaffold")
        + "\n# Docs\n- [ ] Write the README\n  > mention the CLI\n";
    std::fs::write(&file, edited).unwrap();
    pi(store.path(), &["import", file.to_str().unwrap()]);
    let shown = stdout(&pi(store.path(), &["show", "--format", "markdown"]));
    let reminders = stdout(&pi(store.path(), &["reminders"]));
    let again = stdout(&pi(store.path(), &["reminders"]));
    let actual = (
        shown,
        reminders.lines().next().unwrap_or_default().to_owned(),
        again,
    );
    let expected = (
        // The export dialect, note included: it imports back as it is.
        "# Build\n- [x] Scaffold\n- [/] Wire\n\n# Ship\n- [ ] Tag\n\n# Docs\n- [ ] Write the README\n  > mention the CLI\n"
            .to_owned(),
        // Every change is said, the side effect of completing the task in
        // progress included.
        "The user edited the todo list by hand: they rewrote the list: marked \"Scaffold\" completed; started \
         \"Wire\"; added \"Write the README\" to phase \"Docs\". The change is deliberate: carry on from this list, \
         and do not restore or re-add anything they removed or changed."
            .to_owned(),
        String::new(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_import_that_does_not_parse_names_the_line_and_changes_nothing() {
    let store = tempfile::tempdir().unwrap();
    pi(store.path(), &["call", "todo_write", PI_INIT]);
    let before = snapshot_dir(store.path());
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), "# Build\n- [?] Scaffold\n").unwrap();
    let out = pi(store.path(), &["import", file.path().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let actual = (
        out.status.code(),
        stderr.contains("line 2: unknown status marker `?`"),
        snapshot_dir(store.path()),
    );
    let expected = (Some(2), true, before);
    assert_eq!(actual, expected);
}

#[test]
fn hand_edits_match_names_ignoring_case_and_refuse_ambiguity() {
    let store = tempfile::tempdir().unwrap();
    pi(
        store.path(),
        &[
            "call",
            "todo_write",
            r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Wire the store","Wire the CLI"]}]}]}"#,
        ],
    );
    let ambiguous = pi(store.path(), &["done", "wire"]);
    let done = pi(store.path(), &["done", "the STORE"]);
    let appended = pi(store.path(), &["append", "build", "Test it"]);
    let dropped = pi(store.path(), &["drop", "test"]);
    let shown = stdout(&pi(store.path(), &["show", "--format", "text"]));
    let actual = (
        ambiguous.status.code(),
        String::from_utf8_lossy(&ambiguous.stderr).into_owned(),
        stdout(&done).lines().next().map(str::to_owned),
        appended.status.code(),
        dropped.status.code(),
        shown,
    );
    let expected = (
        Some(2),
        "todokit: \"wire\" is ambiguous: it matches \"Wire the store\", \"Wire the CLI\"; be more specific; nothing changed\n"
            .to_owned(),
        Some("You marked \"Wire the store\" completed; started \"Wire the CLI\".".to_owned()),
        Some(0),
        Some(0),
        "Progress: 1/3 completed, 1 abandoned\n\nBuild\n  [x] Wire the store\n  [>] Wire the CLI\n  [-] Test it (abandoned)\n"
            .to_owned(),
    );
    assert_eq!(actual, expected);
}

#[cfg(unix)]
#[test]
fn edit_runs_the_editor_and_imports_what_it_saved() {
    use std::os::unix::fs::PermissionsExt;
    let store = tempfile::tempdir().unwrap();
    pi(store.path(), &["call", "todo_write", PI_INIT]);
    let editor = store.path().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\nsed -i 's/- \\[ \\] Tag/- [-] Tag/' \"$1\"\n").unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = todokit(store.path());
    cmd.args(["--profile", "pi", "edit"])
        .env("VISUAL", &editor)
        .env_remove("EDITOR");
    let out = run(&mut cmd);
    let shown = json_of(&pi(store.path(), &["show", "--format", "json"]));
    let actual = (
        out.status.code(),
        shown["phases"][1]["tasks"][0]["status"].clone(),
    );
    let expected = (Some(0), json!("abandoned"));
    assert_eq!(actual, expected);
}

#[test]
fn edit_without_an_editor_is_a_usage_error() {
    let store = tempfile::tempdir().unwrap();
    let mut cmd = todokit(store.path());
    cmd.arg("edit").env_remove("VISUAL").env_remove("EDITOR");
    let out = run(&mut cmd);
    let actual = (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).contains("$VISUAL or $EDITOR"),
    );
    let expected = (Some(2), true);
    assert_eq!(actual, expected);
}
