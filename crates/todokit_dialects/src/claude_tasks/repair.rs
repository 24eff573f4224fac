//! What Claude Code repairs in a `TaskCreate` or `TaskUpdate` call before
//! it checks it, and the two refusals it words itself. Models trained on
//! Claude Code send these shapes and get away with them there, so here
//! too.
//!
//! Read in `@anthropic-ai/claude-code-linux-x64` 2.1.328 (the bundled
//! JavaScript in its `claude` binary): the `TaskCreate` input repair, the
//! `TaskUpdate` one, and the steering messages for a batch call and for an
//! `Agent` tool call sent to `TaskCreate`; 2.1.332 answers the repaired
//! calls of the upstream fixture the same.

use serde_json::{Map, Value};

/// The keys `TaskCreate` keeps once `subject` and `description` are both
/// there; any other is taken out rather than refused.
const CREATE_KEYS: [&str; 4] = ["subject", "description", "activeForm", "metadata"];

/// The refusal of a call that sends several tasks at once.
pub const ONE_PER_CALL: &str = "TaskCreate creates ONE task per call and has no `tasks` or `todos` parameter. \
     Call TaskCreate once per task, passing `subject` (a brief title) and `description` (what needs to be done) \
     as top-level string parameters.";

/// The refusal of a call meant for the `Agent` tool.
pub const NOT_AN_AGENT: &str = "This call used Agent-tool parameters (`prompt`/`subagent_type`). TaskCreate adds \
     an item to the task list and takes `subject` and `description` string parameters. To delegate work to a \
     subagent, use the Agent tool instead.";

fn filled(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

fn batch(fields: &Map<String, Value>) -> bool {
    fields.contains_key("tasks") || fields.contains_key("todos")
}

fn for_an_agent(fields: &Map<String, Value>) -> bool {
    (fields.contains_key("prompt") || fields.contains_key("subagent_type"))
        && !(filled(fields.get("subject")) && filled(fields.get("description")))
}

/// Moves `from`'s value to `to` when `to` is missing and `from` holds text.
fn alias(fields: &mut Map<String, Value>, from: &str, to: &str) {
    if !fields.contains_key(to)
        && filled(fields.get(from))
        && let Some(value) = fields.remove(from)
    {
        fields.insert(to.to_owned(), value);
    }
}

/// A subject made from a description: the whole of it up to 80
/// characters, else its first 80 cut at the last space past the 40th.
fn subject_of(description: &str) -> String {
    let text = description.trim();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 80 {
        return text.to_owned();
    }
    let head: String = chars[..80].iter().collect();
    let cut = head
        .char_indices()
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| i)
        .next_back()
        .filter(|i| head[..*i].chars().count() > 40);
    match cut {
        Some(i) => head[..i].trim().to_owned(),
        None => head.trim().to_owned(),
    }
}

/// Claude Code's `TaskCreate` repair: `task` unwrapped (a string becomes
/// the description, an object's keys are taken as the call's), `title` or
/// `name` for `subject`, `content` for `description`, `active_form` for
/// `activeForm`, a lone subject or description filling the other, and once
/// both are there every other key taken out, a non-string `activeForm`
/// and a non-object `metadata` dropped. A batch or an `Agent` call is left
/// as it is, for [`steering`] to refuse.
pub fn repair_create(args: &mut Value) {
    let Some(fields) = args.as_object_mut() else {
        return;
    };
    if batch(fields) || for_an_agent(fields) {
        return;
    }
    if !fields.contains_key("subject")
        && !fields.contains_key("description")
        && let Some(task) = fields.get("task").cloned()
    {
        match task {
            Value::String(text) if !text.trim().is_empty() => {
                fields.remove("task");
                fields.insert("description".to_owned(), Value::String(text));
            }
            Value::Object(inner) if !batch(&inner) && !for_an_agent(&inner) => {
                fields.remove("task");
                fields.extend(inner);
            }
            _ => return,
        }
    }
    for (from, to) in [
        ("title", "subject"),
        ("name", "subject"),
        ("content", "description"),
        ("active_form", "activeForm"),
    ] {
        alias(fields, from, to);
    }
    if filled(fields.get("subject")) && !fields.contains_key("description") {
        let subject = fields.get("subject").cloned().unwrap_or_default();
        fields.insert("description".to_owned(), subject);
    } else if !fields.contains_key("subject")
        && let Some(description) = fields.get("description").and_then(Value::as_str)
        && !description.trim().is_empty()
    {
        let subject = subject_of(description);
        fields.insert("subject".to_owned(), Value::String(subject));
    }
    if filled(fields.get("subject")) && filled(fields.get("description")) {
        fields.retain(|key, _| CREATE_KEYS.contains(&key.as_str()));
        if fields.get("activeForm").is_some_and(|v| !v.is_string()) {
            fields.remove("activeForm");
        }
        if fields.get("metadata").is_some_and(|v| !v.is_object()) {
            fields.remove("metadata");
        }
    }
}

/// Claude Code's `TaskUpdate` repair: `id` or `task_id` for `taskId`,
/// `active_form` for `activeForm`.
pub fn repair_update(args: &mut Value) {
    if let Some(fields) = args.as_object_mut() {
        for (from, to) in [
            ("id", "taskId"),
            ("task_id", "taskId"),
            ("active_form", "activeForm"),
        ] {
            alias(fields, from, to);
        }
    }
}

/// Claude Code's own refusal of a `TaskCreate` call it cannot repair: one
/// that sends several tasks, or one meant for the `Agent` tool.
pub fn steering(args: &Value) -> Option<&'static str> {
    let fields = args.as_object()?;
    let task = fields.get("task").and_then(Value::as_object);
    if batch(fields) || task.is_some_and(batch) {
        Some(ONE_PER_CALL)
    } else if for_an_agent(fields) || task.is_some_and(for_an_agent) {
        Some(NOT_AN_AGENT)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    fn repaired(args: Value) -> Value {
        let mut args = args;
        repair_create(&mut args);
        args
    }

    #[test]
    fn create_calls_are_repaired_as_claude_code_repairs_them() {
        let long = "Parse every input file, report each malformed line with its number, and keep going after the first error";
        let actual = [
            repaired(json!({"title": "Write the parser", "content": "Parse the files"})),
            repaired(json!({"subject": "Write the parser"})),
            repaired(json!({"description": long})),
            repaired(json!({"task": "Parse the files"})),
            repaired(
                json!({"task": {"name": "Write the parser", "description": "Parse", "active_form": "Writing"}}),
            ),
            repaired(
                json!({"subject": "A", "description": "B", "status": "pending", "owner": "me", "activeForm": 3, "metadata": "x"}),
            ),
        ];
        let expected = [
            json!({"subject": "Write the parser", "description": "Parse the files"}),
            json!({"subject": "Write the parser", "description": "Write the parser"}),
            json!({"description": long, "subject": "Parse every input file, report each malformed line with its number, and keep"}),
            json!({"description": "Parse the files", "subject": "Parse the files"}),
            json!({"subject": "Write the parser", "description": "Parse", "activeForm": "Writing"}),
            json!({"subject": "A", "description": "B"}),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_batch_or_an_agent_call_is_left_for_the_steering_refusal() {
        let calls = [
            json!({"tasks": [{"subject": "a"}]}),
            json!({"task": {"todos": []}}),
            json!({"prompt": "do it", "subagent_type": "general"}),
            json!({"subject": "A", "description": "B"}),
        ];
        let actual: Vec<(Value, Option<&str>)> = calls
            .iter()
            .map(|call| (repaired(call.clone()), steering(call)))
            .collect();
        let expected = vec![
            (calls[0].clone(), Some(ONE_PER_CALL)),
            (calls[1].clone(), Some(ONE_PER_CALL)),
            (calls[2].clone(), Some(NOT_AN_AGENT)),
            (calls[3].clone(), None),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn update_calls_take_id_and_task_id_for_task_id() {
        let mut args = [
            json!({"id": "1", "status": "completed"}),
            json!({"task_id": "2", "active_form": "Doing"}),
        ];
        args.iter_mut().for_each(repair_update);
        let expected = [
            json!({"taskId": "1", "status": "completed"}),
            json!({"taskId": "2", "activeForm": "Doing"}),
        ];
        assert_eq!(args, expected);
    }
}
