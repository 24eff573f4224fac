//! Claims on a shared `claude-tasks` list under a real race: eight
//! `todokit call` processes try to take the same task at once on one
//! JSON-file store, ten rounds, and exactly one wins each round.

use std::process::{Command, Stdio};

use pretty_assertions::assert_eq;
use serde_json::Value;

/// `todokit call tool args` as claude-tasks, conversation `team`.
fn todokit(store: &std::path::Path, tool: &str, args: &str) -> Command {
    let mut command = crate::support::cli::todokit(store);
    command
        .args([
            "--profile",
            "claude-tasks",
            "--conversation",
            "team",
            "call",
            tool,
            args,
        ])
        .stdin(Stdio::null());
    command
}

fn answer(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or(Value::Null)
}

#[test]
fn eight_racing_claimers_get_exactly_one_winner_every_round() {
    const CLAIMERS: usize = 8;
    const ROUNDS: usize = 10;
    let mut actual = Vec::new();
    for _ in 0..ROUNDS {
        let store = tempfile::tempdir().unwrap();
        let created = todokit(
            store.path(),
            "TaskCreate",
            r#"{"subject":"Ship","description":"Tag it"}"#,
        )
        .output()
        .expect("todokit runs");
        assert_eq!(answer(&created)["is_error"], Value::Bool(false));
        let racers: Vec<_> = (0..CLAIMERS)
            .map(|n| {
                let args = format!(r#"{{"taskId":"1","owner":"agent-{n}","status":"in_progress"}}"#);
                todokit(store.path(), "TaskUpdate", &args)
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("todokit starts")
            })
            .collect();
        let answers: Vec<Value> = racers
            .into_iter()
            .map(|child| answer(&child.wait_with_output().expect("todokit finishes")))
            .collect();
        let winners: Vec<String> = (0..CLAIMERS)
            .filter(|n| answers[*n]["is_error"] == Value::Bool(false))
            .map(|n| format!("agent-{n}"))
            .collect();
        let refusals_name_the_winner =
            answers
                .iter()
                .filter(|a| a["is_error"] == Value::Bool(true))
                .all(|a| {
                    winners.first().is_some_and(|w| {
                        a["content"]
                            .as_str()
                            .unwrap_or_default()
                            .contains(&format!("owned by \"{w}\""))
                    })
                });
        let shown = Command::new(env!("CARGO_BIN_EXE_todokit"))
            .arg("--store")
            .arg(store.path())
            .args(["--conversation", "team", "show", "--format", "json"])
            .output()
            .expect("todokit show runs");
        let stored: Value = serde_json::from_slice(&shown.stdout).unwrap_or(Value::Null);
        let owner = stored["phases"][0]["tasks"][0]["owner"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        actual.push((
            winners.len(),
            winners.first() == Some(&owner),
            refusals_name_the_winner,
        ));
    }
    let expected = vec![(1, true, true); ROUNDS];
    assert_eq!(actual, expected);
}
