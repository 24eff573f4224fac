//! The binary's answers to hostile input (issue #42): arguments that are not
//! UTF-8, model and user text that would steer a terminal, an import that
//! never ends, and an edit racing a model's commit. Each leaves the list as
//! it was and answers at once.

use std::path::Path;
use std::process::Output;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{json_of, run, todokit, write_todos};

/// Text a model could write that would steer a terminal printed raw: an
/// OSC title, a colour, a bidi override, a C1 control, a tag character.
/// (NUL is refused before anything is stored, see `nul` in the app crate.)
const HOSTILE: &str = "Fix \u{1b}]0;pwned\u{7}\u{1b}[31mred \u{202e}evil \u{9b} \u{e0041}";

/// True when `bytes` hold a character [`HOSTILE`] carries raw.
fn steers(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    text.chars().any(|c| {
        matches!(
            c,
            '\u{1b}' | '\u{7}' | '\u{0}' | '\u{9b}' | '\u{202e}' | '\u{e0041}'
        )
    })
}

fn version(store: &Path, conversation: &str) -> Value {
    json_of(&run(todokit(store).args([
        "--conversation",
        conversation,
        "show",
        "--format",
        "json",
    ])))["version"]
        .clone()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[cfg(unix)]
#[test]
fn invalid_utf8_in_the_argument_on_the_command_line_is_a_tool_error_as_on_stdin() {
    use std::os::unix::ffi::OsStrExt;
    let store = tempfile::tempdir().unwrap();
    let bytes: &[u8] = b"{\"todos\":[{\"content\":\"a\xff\",\"status\":\"pending\",\"activeForm\":\"A\"}]}";
    let out = run(todokit(store.path())
        .args(["call", "TodoWrite"])
        .arg(std::ffi::OsStr::from_bytes(bytes)));
    let reply = json_of(&out);
    let actual = (
        out.status.code(),
        reply["is_error"].clone(),
        reply["content"]
            .as_str()
            .is_some_and(|c| c.contains("the JSON argument is not valid UTF-8: the byte at offset 23")),
        version(store.path(), "default"),
    );
    let expected = (Some(0), json!(true), true, json!(0));
    assert_eq!(actual, expected);
}

#[test]
fn check_and_reminders_print_model_text_inert_and_keep_their_lines() {
    let store = tempfile::tempdir().unwrap();
    write_todos(
        store.path(),
        "c",
        &json!([{"content": HOSTILE, "status": "in_progress", "activeForm": "Fixing"}]),
    );
    let check = run(todokit(store.path()).args(["--conversation", "c", "check"]));
    // A hand edit leaves a reminder that quotes the task.
    let done = run(todokit(store.path()).args(["--conversation", "c", "done", "Fix"]));
    let reminders = run(todokit(store.path()).args(["--conversation", "c", "reminders"]));
    let actual = (
        check.status.code(),
        steers(&check.stdout),
        String::from_utf8_lossy(&check.stdout)
            .contains("␛]0;pwned␇␛[31mred \\u{202e}evil \\u{9b} \\u{e0041}"),
        String::from_utf8_lossy(&check.stdout).lines().count() > 1,
        done.status.code(),
        steers(&done.stdout),
        steers(&reminders.stdout),
        String::from_utf8_lossy(&reminders.stdout).contains("␛]0;pwned"),
    );
    let expected = (Some(3), false, true, true, Some(0), false, false, true);
    assert_eq!(actual, expected);
}

#[test]
fn hand_edit_and_import_errors_quote_the_users_text_inert_on_stderr() {
    let store = tempfile::tempdir().unwrap();
    write_todos(
        store.path(),
        "c",
        &json!([{"content": "Plan", "status": "pending", "activeForm": "Planning"}]),
    );
    let unknown = run(todokit(store.path()).args(["--conversation", "c", "done", HOSTILE]));
    let file = store.path().join("list.md");
    std::fs::write(
        &file,
        format!("# Todos\n\nnot a list line {HOSTILE}\n- [?] {HOSTILE}\n"),
    )
    .unwrap();
    let import = run(todokit(store.path())
        .args(["--conversation", "c", "import"])
        .arg(&file));
    let actual = (
        unknown.status.code(),
        steers(&unknown.stderr),
        stderr(&unknown).contains("␛]0;pwned"),
        import.status.code(),
        steers(&import.stderr),
        version(store.path(), "c"),
    );
    let expected = (Some(2), false, true, Some(2), false, json!(1));
    assert_eq!(actual, expected, "{}\n{}", stderr(&unknown), stderr(&import));
}

#[test]
fn import_reads_at_most_16_mib_and_refuses_a_file_that_never_ends() {
    let store = tempfile::tempdir().unwrap();
    let big = store.path().join("big.md");
    let line = "- [ ] a task\n";
    std::fs::write(&big, line.repeat((16 << 20) / line.len() + 1)).unwrap();
    let over = run(todokit(store.path()).arg("import").arg(&big));
    let endless = run(todokit(store.path()).args(["import", "/dev/zero"]));
    let says = |out: &Output| stderr(out).contains("is larger than 16 MiB, the most `import` reads");
    let actual = (
        over.status.code(),
        says(&over),
        endless.status.code(),
        says(&endless),
        version(store.path(), "default"),
    );
    let expected = (Some(2), true, Some(2), true, json!(0));
    assert_eq!(actual, expected);
}

#[cfg(unix)]
#[test]
fn an_edit_never_overwrites_a_commit_made_while_the_editor_was_open() {
    use std::os::unix::fs::PermissionsExt;
    let store = tempfile::tempdir().unwrap();
    write_todos(
        store.path(),
        "c",
        &json!([{"content": "Plan", "status": "pending", "activeForm": "Planning"}]),
    );
    // The editor: notes its file's mode, lets a model commit meanwhile,
    // then changes the text.
    let commit = json!({"todos": [{"content": "Model", "status": "in_progress", "activeForm": "Modelling"}]});
    let editor = store.path().join("editor.sh");
    let script = format!(
        "#!/bin/sh\nstat -c %a \"$1\" > '{mode}'\n'{bin}' --store '{store}' --conversation c call TodoWrite '{commit}' > /dev/null\nsed -i 's/Plan/Planned/' \"$1\"\n",
        mode = store.path().join("mode").display(),
        bin = env!("CARGO_BIN_EXE_todokit"),
        store = store.path().display(),
    );
    std::fs::write(&editor, script).unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = run(todokit(store.path())
        .args(["--conversation", "c", "edit"])
        .env("VISUAL", &editor)
        .env_remove("EDITOR"));
    let shown = json_of(&run(todokit(store.path()).args([
        "--conversation",
        "c",
        "show",
        "--format",
        "json",
    ])));
    let kept = stderr(&out)
        .split("Your text is in ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .map(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("Planned")));
    let actual = (
        out.status.code(),
        shown["phases"][0]["tasks"][0]["content"].clone(),
        std::fs::read_to_string(store.path().join("mode"))
            .map(|m| m.trim().to_owned())
            .ok(),
        kept,
    );
    let expected = (Some(2), json!("Model"), Some("600".to_owned()), Some(true));
    assert_eq!(actual, expected, "{}", stderr(&out));
}
