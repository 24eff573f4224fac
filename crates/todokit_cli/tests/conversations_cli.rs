//! `todokit conversations` on a real store folder: newest change first,
//! counts, hostile ids made inert, and JSON objects with an `id`.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use pretty_assertions::assert_eq;
use serde_json::Value;

fn todokit(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_todokit"))
        .arg("--store")
        .arg(store)
        .args(args)
        .env_remove("TODOKIT_CONVERSATION")
        .env_remove("TODOKIT_PROFILE")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn write(store: &Path, conversation: &str, todos: &str) {
    let args = format!(r#"{{"todos":{todos}}}"#);
    let out = todokit(
        store,
        &["--conversation", conversation, "call", "TodoWrite", &args],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Apart in time, so the order is the order of the writes.
    std::thread::sleep(std::time::Duration::from_millis(20));
}

#[test]
fn conversations_are_listed_newest_change_first_as_text_and_as_json() {
    let store = tempfile::tempdir().unwrap();
    let empty = todokit(store.path(), &["conversations"]);
    // All completed: claude-code clears the list, so it counts 0/0.
    write(
        store.path(),
        "first",
        r#"[{"content":"a","status":"completed","activeForm":"A"}]"#,
    );
    write(
        store.path(),
        "red\u{1b}[31m",
        r#"[{"content":"b","status":"in_progress","activeForm":"Doing b"},{"content":"c","status":"pending","activeForm":"C"}]"#,
    );
    let text = String::from_utf8_lossy(&todokit(store.path(), &["conversations"]).stdout).into_owned();
    let json: Value =
        serde_json::from_slice(&todokit(store.path(), &["conversations", "--format", "json"]).stdout)
            .expect("JSON on stdout");
    let columns: Vec<Vec<String>> = text
        .lines()
        .map(|line| {
            line.split("  ")
                .filter(|c| !c.is_empty())
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect();
    let ids: Vec<Value> = json
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| c["id"].clone())
        .collect();
    let actual = (
        String::from_utf8_lossy(&empty.stdout).into_owned(),
        columns
            .iter()
            .map(|c| (c[0].clone(), c[1].clone(), c.last().cloned()))
            .collect::<Vec<_>>(),
        text.contains('\u{1b}'),
        columns.iter().all(|c| c[2].ends_with(" UTC")),
        ids,
        json[0]["in_progress"].clone(),
    );
    let expected = (
        "No conversations.\n".to_owned(),
        vec![
            (
                "red\u{241b}[31m".to_owned(),
                "2/2 open".to_owned(),
                Some("now: Doing b".to_owned()),
            ),
            (
                "first".to_owned(),
                "0/0 open".to_owned(),
                Some(columns[1][2].clone()),
            ),
        ],
        false,
        true,
        vec![Value::from("red\u{1b}[31m"), Value::from("first")],
        Value::from("Doing b"),
    );
    assert_eq!(actual, expected, "{text}");
}

#[test]
fn reading_a_conversation_the_store_lacks_names_the_closest_ones_on_stderr() {
    let store = tempfile::tempdir().unwrap();
    write(
        store.path(),
        "release",
        r#"[{"content":"a","status":"pending","activeForm":"A"}]"#,
    );
    let mistyped = todokit(store.path(), &["--conversation", "relase", "show"]);
    let known = todokit(store.path(), &["--conversation", "release", "show"]);
    let actual = (
        mistyped.status.success(),
        String::from_utf8_lossy(&mistyped.stderr).into_owned(),
        String::from_utf8_lossy(&known.stderr).into_owned(),
    );
    let expected = (
        true,
        "todokit: no conversation \"relase\" in this store; the closest: \"release\" \
         (`todokit conversations` lists them all)\n"
            .to_owned(),
        String::new(),
    );
    assert_eq!(actual, expected);
}
