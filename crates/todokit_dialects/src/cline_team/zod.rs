//! What Cline's `team_task` says of arguments its zod schema refuses:
//! zod 4's issues, each `✖ message` and the path it names, shortest paths
//! first (`prettifyError`). Fields are checked in the schema's order; the
//! check of which fields an action needs (a refinement) runs only when no
//! field had the wrong type or value, as zod runs refinements only on a
//! value whose shape it could read.

use serde_json::{Map, Value};

use super::{Action, BoardStatus};
use todokit_app::prelude::WireEnum;

/// The schema's fields in its order, each with what zod takes there.
const FIELDS: [(&str, Kind); 9] = [
    ("action", Kind::Action),
    ("title", Kind::Text),
    ("description", Kind::Text),
    ("dependsOn", Kind::Ids),
    ("assignee", Kind::Text),
    ("status", Kind::Status),
    ("taskId", Kind::Id),
    ("summary", Kind::Text),
    ("reason", Kind::Text),
];

#[derive(Clone, Copy)]
enum Kind {
    /// One of [`Action`]'s words, required.
    Action,
    /// A string of at least one character.
    Text,
    /// Any string.
    Id,
    /// A list of strings.
    Ids,
    /// One of [`BoardStatus`]'s words.
    Status,
}

/// One issue: its message and the path it names (empty for the whole).
struct Issue {
    message: String,
    path: Vec<String>,
}

/// The fields each action needs, as Cline lists them.
pub(super) fn required(action: Action) -> &'static [&'static str] {
    match action {
        Action::Create => &["title", "description"],
        Action::List => &[],
        Action::Claim => &["taskId"],
        Action::Complete => &["taskId", "summary"],
        Action::Block => &["taskId", "reason"],
    }
}

/// zod's report of what `args` breaks, `None` when it passes.
pub(super) fn refusal(args: &Value) -> Option<String> {
    match args {
        Value::Object(object) => refusal_of(object),
        other => Some(pretty(vec![Issue {
            message: format!("Invalid input: expected object, received {}", received(other)),
            path: Vec::new(),
        }])),
    }
}

/// [`refusal`] of a call's object.
pub(super) fn refusal_of(object: &Map<String, Value>) -> Option<String> {
    let issues = issues(object);
    (!issues.is_empty()).then(|| pretty(issues))
}

fn issues(object: &Map<String, Value>) -> Vec<Issue> {
    let mut found = Vec::new();
    // Wrong types and values stop zod before the refinement; a string too
    // short does not.
    let mut shape_read = true;
    for (name, kind) in FIELDS {
        // zod reads a null as absent in every optional field; `action` is
        // the one it requires.
        let value = match (kind, object.get(name)) {
            (Kind::Action, value) => value.unwrap_or(&Value::Null),
            (_, None | Some(Value::Null)) => continue,
            (_, Some(value)) => value,
        };
        let at = |extra: Option<String>| {
            let mut path = vec![name.to_owned()];
            path.extend(extra);
            path
        };
        match (kind, value) {
            (Kind::Action, Value::String(word)) if spelled::<Action>(word).is_some() => {}
            (Kind::Status, Value::String(word)) if spelled::<BoardStatus>(word).is_some() => {}
            (Kind::Action | Kind::Status, _) => {
                shape_read = false;
                let words = match kind {
                    Kind::Action => words_of::<Action>(),
                    _ => words_of::<BoardStatus>(),
                };
                found.push(Issue {
                    message: one_of(&words),
                    path: at(None),
                });
            }
            (Kind::Text, Value::String(text)) if text.is_empty() => found.push(Issue {
                message: "Too small: expected string to have >=1 characters".to_owned(),
                path: at(None),
            }),
            (Kind::Text | Kind::Id, Value::String(_)) => {}
            (Kind::Ids, Value::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        shape_read = false;
                        found.push(Issue {
                            message: expected("string", item),
                            path: at(Some(format!("[{index}]"))),
                        });
                    }
                }
            }
            (Kind::Ids, other) => {
                shape_read = false;
                found.push(Issue {
                    message: expected("array", other),
                    path: at(None),
                });
            }
            (Kind::Text | Kind::Id, other) => {
                shape_read = false;
                found.push(Issue {
                    message: expected("string", other),
                    path: at(None),
                });
            }
        }
    }
    if shape_read && let Some(action) = action_of(object) {
        for name in required(action) {
            if object.get(*name).is_none_or(Value::is_null) {
                found.push(Issue {
                    message: format!("Field \"{name}\" is required when action={}", action.as_str()),
                    path: vec![(*name).to_owned()],
                });
            }
        }
    }
    found
}

fn action_of(object: &Map<String, Value>) -> Option<Action> {
    spelled(object.get("action")?.as_str()?)
}

/// The value of a wire enum spelled `word` exactly.
fn spelled<E: WireEnum>(word: &str) -> Option<E> {
    E::SPELLINGS
        .iter()
        .find(|(s, _)| *s == word)
        .map(|(_, value)| *value)
}

/// The words a wire enum takes, in its order.
fn words_of<E: WireEnum>() -> Vec<&'static str> {
    E::SPELLINGS.iter().map(|(word, _)| *word).collect()
}

fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    format!("Invalid option: expected one of {}", quoted.join("|"))
}

fn expected(kind: &str, value: &Value) -> String {
    format!("Invalid input: expected {kind}, received {}", received(value))
}

/// zod's name for the type of `value`.
fn received(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// zod's `prettifyError`: the issues by path length (a stable sort), each
/// `✖ message`, then `  → at path` when it names one.
fn pretty(mut issues: Vec<Issue>) -> String {
    issues.sort_by_key(|issue| issue.path.len());
    let lines: Vec<String> = issues
        .into_iter()
        .map(|issue| match issue.path.split_first() {
            None => format!("✖ {}", issue.message),
            Some((first, rest)) => format!("✖ {}\n  → at {first}{}", issue.message, rest.concat()),
        })
        .collect();
    lines.join("\n")
}
