//! The fast path against the repairing one, on every tool of every profile:
//! valid arguments generated from each tool's schema, then bent in the ways
//! models bend them. Wherever the fast path decodes, the call it makes must
//! be exactly the call the repairing path makes (result text, details and
//! the state committed); where it declines, nothing is claimed. The same
//! calls also check that details deferred to their first reading (as the
//! service has them written) are the details written at once.

use pretty_assertions::assert_eq;
use serde_json::{Map, Value, json};
use todokit_domain::TodoState;

use crate::test_support::NOW;
use todokit_app::Profile;
use todokit_app::parse_arguments;
use todokit_app::{CallContext, Outcome, ToolError};

/// A small deterministic generator (xorshift64*), so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const WORDS: [&str; 8] = [
    "Write the parser",
    "Run tests",
    "1",
    "2",
    "Ünïcode ✓ text",
    "Deploy",
    "Foundation",
    "a \"quoted\" word",
];

/// A value that `schema` accepts, with optional fields present or not.
fn instance(schema: &Value, rng: &mut Rng, depth: usize) -> Value {
    let Some(s) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(Value::Array(branches)) = s.get("anyOf") {
        let non_null: Vec<&Value> = branches.iter().filter(|b| b["type"] != "null").collect();
        return match non_null.is_empty() || rng.chance(15) {
            true => Value::Null,
            false => instance(non_null[rng.below(non_null.len())], rng, depth),
        };
    }
    if let Some(Value::Array(allowed)) = s.get("enum") {
        return allowed[rng.below(allowed.len())].clone();
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let non_null: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    if non_null.is_empty() || (types.contains(&"null") && rng.chance(15)) {
        return Value::Null;
    }
    match non_null[rng.below(non_null.len())] {
        "object" => {
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut map = Map::new();
            for (key, field) in s
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                if required.contains(&key.as_str()) || rng.chance(50) {
                    map.insert(key.clone(), instance(field, rng, depth + 1));
                }
            }
            Value::Object(map)
        }
        "array" => {
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let count = min + rng.below(if depth > 3 { 1 } else { 4 });
            let items = s.get("items").cloned().unwrap_or(Value::Null);
            Value::Array((0..count).map(|_| instance(&items, rng, depth + 1)).collect())
        }
        "string" => Value::String(WORDS[rng.below(WORDS.len())].to_owned()),
        "integer" => Value::from(rng.below(4)),
        "number" => Value::from(rng.below(4) as f64 + 0.5),
        "boolean" => Value::Bool(rng.chance(50)),
        _ => Value::Null,
    }
}

/// Every node of `value`, as paths of keys and indexes.
fn paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for key in map.keys() {
                prefix.push(Step::Key(key.clone()));
                paths(&map[key], prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                prefix.push(Step::Index(i));
                paths(item, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn at<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// One slip a model makes, at a random node.
fn bend(value: &mut Value, rng: &mut Rng) {
    let mut all = Vec::new();
    paths(value, &mut Vec::new(), &mut all);
    let path = all[rng.below(all.len())].clone();
    let Some(node) = at(value, &path) else { return };
    match (rng.below(14), &mut *node) {
        (0, Value::Object(map)) if !map.is_empty() => {
            let key = map.keys().nth(rng.below(map.len())).cloned().unwrap_or_default();
            map.shift_remove(&key);
        }
        (1, Value::Object(map)) => {
            map.insert("extra".to_owned(), json!(1));
        }
        (2, Value::Object(map)) if !map.is_empty() => {
            let key = map.keys().nth(rng.below(map.len())).cloned().unwrap_or_default();
            let renamed = todokit_app::case_variant(&key).unwrap_or_else(|| key.to_uppercase());
            if let Some(v) = map.shift_remove(&key) {
                map.insert(renamed, v);
            }
        }
        (3, Value::String(text)) => text.clear(),
        (4, Value::String(text)) => {
            *text = ["done", "In Progress", "COMPLETED", "in-progress", "cancelled"][rng.below(5)].to_owned();
        }
        (5, _) => *node = Value::Null,
        (6, _) => *node = json!(3),
        (7, other) => *node = Value::String(other.to_string()),
        (8, Value::Array(items)) => items.clear(),
        (9, Value::Object(map)) => *node = Value::Array(map.values().cloned().collect()),
        (10, _) => *node = json!(1.5),
        (11, _) => *node = json!(-2),
        (12, _) => *node = json!({"pending": null}),
        (13, Value::Array(items)) if !items.is_empty() => *node = items[0].clone(),
        _ => {}
    }
}

/// `value` as text, now and then with a key written twice or a string with
/// escapes (which serde cannot borrow).
fn text_of(value: &Value, rng: &mut Rng) -> String {
    match value {
        Value::Object(map) => {
            let mut parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), text_of(v, rng)))
                .collect();
            if !parts.is_empty() && rng.chance(3) {
                let copy = parts[rng.below(parts.len())].clone();
                parts.push(copy);
            }
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|v| text_of(v, rng)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::String(s) if rng.chance(5) => {
            let escaped: String = s
                .chars()
                .map(|c| format!("\\u{:04x}", c as u32 & 0xffff))
                .collect();
            match s.chars().all(|c| (c as u32) < 0xd800) {
                true => format!("\"{escaped}\""),
                false => value.to_string(),
            }
        }
        other => other.to_string(),
    }
}

/// What the repairing path does with `text`: parse, repair, check, run.
fn slow(profile: &Profile, tool: &str, text: &str, ctx: &CallContext<'_>) -> Outcome {
    let tool_ref = profile.find(tool).expect("the profile has the tool");
    match parse_arguments(text) {
        Ok(args) => profile.run(tool, &args, ctx).expect("the profile has the tool"),
        Err(e) => Outcome::read(ToolError::from(e).into_result(tool_ref.name())),
    }
}

/// The state a profile's own example leaves, so calls have tasks to name.
fn example_state(profile: &Profile) -> TodoState {
    let empty = TodoState::default();
    let ctx = CallContext::new(&empty, NOW, profile.rules()).durable(true);
    profile
        .example()
        .and_then(|e| slow(profile, e.tool, e.arguments, &ctx).commit)
        .unwrap_or_default()
}

#[test]
fn fast_and_repairing_paths_agree() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut fast_taken, mut declined, mut mismatches) = (0usize, 0usize, Vec::new());
    for profile in crate::all() {
        let states = [TodoState::default(), example_state(&profile)];
        for tool in profile.tool_names() {
            let schema = profile.find(tool).expect("listed").input_schema();
            let example = profile
                .example()
                .filter(|e| e.tool == tool)
                .and_then(|e| parse_arguments(e.arguments).ok());
            for round in 0..400 {
                // Half the rounds bend the profile's own example, whose
                // shape (nested lists of real tasks) a random one rarely hits.
                let mut args = match (&example, round % 2) {
                    (Some(example), 0) => example.clone(),
                    _ => instance(&schema, &mut rng, 0),
                };
                for _ in 0..(round % 3 + usize::from(round % 2 == 0)) {
                    bend(&mut args, &mut rng);
                }
                let text = text_of(&args, &mut rng);
                for state in &states {
                    let ctx = CallContext::new(state, NOW, profile.rules()).durable(true);
                    let Some(input) = profile.decode_well_formed(tool, &text) else {
                        declined += 1;
                        continue;
                    };
                    fast_taken += 1;
                    let actual = profile.find(tool).expect("listed").call_decoded(input, &ctx);
                    let expected = slow(&profile, tool, &text, &ctx);
                    if actual != expected {
                        mismatches.push(format!("{} {tool} {text}", profile.name()));
                    }
                }
            }
        }
    }
    let actual = (mismatches, fast_taken > 2_000, declined > 2_000);
    let expected = (Vec::<String>::new(), true, true);
    assert_eq!(actual, expected);
}

/// A call as the service makes it: on a shared state, with the deferred
/// details given the list as committed (stamped with the profile and the
/// next version, as the service stores it) or, when nothing is, the list as
/// it stood.
fn deferred(profile: &Profile, tool: &str, text: &str, state: &TodoState) -> Outcome {
    let shared = std::sync::Arc::new(state.clone());
    let ctx = CallContext::shared(&shared, NOW, profile.rules()).durable(true);
    let outcome = match parse_arguments(text) {
        Ok(args) => profile.run(tool, &args, &ctx).expect("the profile has the tool"),
        Err(e) => Outcome::read(ToolError::from(e).into_result(tool)),
    };
    let committed = outcome.commit.as_ref().map(|next| {
        let mut stored = next.clone().profile(profile.name());
        stored.version = state.version + 1;
        std::sync::Arc::new(stored)
    });
    outcome
        .result
        .details
        .bind_after(committed.as_ref().unwrap_or(&shared));
    outcome
}

#[test]
fn deferred_details_are_the_details_written_at_once() {
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    let (mut compared, mut mismatches) = (0usize, Vec::new());
    for profile in crate::all() {
        let states = [TodoState::default(), example_state(&profile)];
        for tool in profile.tool_names() {
            let schema = profile.find(tool).expect("listed").input_schema();
            let example = profile.example().filter(|e| e.tool == tool).map(|e| e.arguments);
            for round in 0..60 {
                let text = match (example, round) {
                    (Some(example), 0) => example.to_owned(),
                    _ => text_of(&instance(&schema, &mut rng, 0), &mut rng),
                };
                for state in &states {
                    let ctx = CallContext::new(state, NOW, profile.rules()).durable(true);
                    let expected = slow(&profile, tool, &text, &ctx);
                    let actual = deferred(&profile, tool, &text, state);
                    compared += 1;
                    // Compared as text, read before the outcomes are.
                    if (actual.result.details.as_str(), &actual)
                        != (expected.result.details.as_str(), &expected)
                    {
                        mismatches.push(format!("{} {tool} {text}", profile.name()));
                    }
                }
            }
        }
    }
    let actual = (mismatches, compared > 1_000);
    let expected = (Vec::<String>::new(), true);
    assert_eq!(actual, expected);
}

/// Every example of a tool without commands (a command tool reads which
/// fields were sent from the arguments, so it always takes the checked path).
#[test]
fn every_profile_example_takes_the_fast_path() {
    let actual: Vec<(&str, bool)> = crate::all()
        .iter()
        .filter_map(|p| {
            let example = p.example()?;
            if !p.find(example.tool)?.commands().is_empty() {
                return None;
            }
            Some((
                p.name(),
                p.decode_well_formed(example.tool, example.arguments).is_some(),
            ))
        })
        .collect();
    let expected: Vec<(&str, bool)> = actual.iter().map(|(name, _)| (*name, true)).collect();
    assert_eq!(actual, expected);
}

#[test]
fn text_the_repairing_path_would_change_is_declined() {
    let profile = crate::by_name("claude-code").expect("a profile");
    let item = r#"{"content":"a","status":"pending","activeForm":"A"}"#;
    let cases = [
        format!(r#"{{"todos":[{item}]}}"#),
        r#"{"todos":[{"content":"a","status":"done","activeForm":"A"}]}"#.to_owned(),
        r#"{"todos":[{"content":"a","status":"pending","active_form":"A"}]}"#.to_owned(),
        r#"{"todos":[{"content":"","status":"pending","activeForm":"A"}]}"#.to_owned(),
        format!(r#"{{"todos":"[{}]"}}"#, item.replace('"', "\\\"")),
        r#"{"todos":[["a","pending","A"]]}"#.to_owned(),
        r#"{"todos":[{"content":"a","status":{"pending":null},"activeForm":"A"}]}"#.to_owned(),
        format!(r#"{{"todos":[{item}],"todos":[]}}"#),
        format!(r#"{{"todos":[{item}],"extra":1}}"#),
        "".to_owned(),
        "null".to_owned(),
        format!(r#"{{"todos":[{item}]}} trailing"#),
    ];
    let actual: Vec<bool> = cases
        .iter()
        .map(|text| profile.decode_well_formed("TodoWrite", text).is_some())
        .collect();
    let mut expected = vec![false; cases.len()];
    expected[0] = true;
    assert_eq!(actual, expected);
}
