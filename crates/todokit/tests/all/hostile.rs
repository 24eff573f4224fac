//! Every profile's every tool against hostile variants of a call it takes
//! (issue #42): its example (or, for a tool with none, a call built from its
//! schema) with each text blown past its cap, each array past its count,
//! wrong types, missing and unknown fields, control characters, deep
//! nesting and broken JSON. A profile added later is covered as it lands.
//!
//! The checks are bounds, never times: past a cap the call is refused and
//! nothing is stored; a refusal leaves the list as it was; no answer quotes
//! more than 200 characters of a bad value; no list shown on a terminal
//! carries a raw control character. Variants are drawn with a fixed seed,
//! a bounded number per tool; a failure names the seed and the variant.

use pretty_assertions::assert_eq;
use serde_json::{Map, Value, json};
use todokit::app::{Profile, Tool, profiles};
use todokit::infra::render::Glyphs;
use todokit::{Format, TodoState, TodoWriteService, Todokit, render};

/// The seed every variant is drawn with.
const SEED: u64 = 0x5EED_0042;

/// The most variants run per tool, after the caps (always all run).
const PER_TOOL: usize = 40;

/// The character long texts are made of: a run of more than
/// [`todokit::domain::MAX_QUOTED_CHARS`] of it in an answer is an echo.
const FILL: char = 'Q';

/// A terminal-steering text: an OSC title, a colour, a bidi override, a C1
/// control and a tag character.
const STEERING: &str = "a\u{1b}]0;t\u{7}b\u{1b}[31mc\u{202e}d\u{9b}e\u{e0041}";

/// A small deterministic generator (xorshift), so a failure can be rerun.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// One variant: what it is, its argument text, and what must hold.
struct Variant {
    name: String,
    text: String,
    /// It is past a cap: it must be refused.
    over_cap: bool,
}

/// A call of `tool` the tool takes: the profile's example when it is for
/// this tool, else one built from the schema's required fields.
fn base_call(profile: &Profile, tool: &dyn Tool) -> Value {
    match profile.example() {
        Some(example) if example.tool == tool.name() => {
            serde_json::from_str(example.arguments).expect("examples are JSON")
        }
        _ => from_schema(&tool.input_schema(), 0),
    }
}

/// A call of `tool` with every field its schema names, optional ones too,
/// so each text a model may send is blown up somewhere.
fn full_call(tool: &dyn Tool) -> Value {
    from_schema_with(&tool.input_schema(), 0, true)
}

/// A value of the shape `schema` describes, with its required fields.
fn from_schema(schema: &Value, depth: usize) -> Value {
    from_schema_with(schema, depth, false)
}

/// A value of the shape `schema` describes: its required fields, or every
/// field when `all`; an open object gets one text entry.
fn from_schema_with(schema: &Value, depth: usize, all: bool) -> Value {
    if depth > 6 {
        return Value::Null;
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(branch) = schema.get("anyOf").and_then(Value::as_array).and_then(|b| {
        b.iter()
            .find(|s| s.get("type").and_then(Value::as_str) != Some("null"))
    }) {
        return from_schema_with(branch, depth + 1, all);
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ => "string",
    };
    match kind {
        "object" => {
            let mut out = Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match schema.get("properties").and_then(Value::as_object) {
                Some(props) => {
                    for (key, sub) in props
                        .iter()
                        .filter(|(k, _)| all || required.contains(&k.as_str()))
                    {
                        out.insert(key.clone(), from_schema_with(sub, depth + 1, all));
                    }
                }
                None if all => {
                    out.insert("key".to_owned(), json!("x"));
                }
                None => {}
            }
            Value::Object(out)
        }
        "array" => json!([from_schema(
            schema.get("items").unwrap_or(&Value::Null),
            depth + 1
        )]),
        "integer" | "number" => json!(1),
        "boolean" => json!(false),
        "null" => Value::Null,
        _ => json!("x"),
    }
}

/// Every path to a string, an array and any leaf of `value`.
fn paths(value: &Value, at: &mut Vec<PathStep>, out: &mut Vec<(Vec<PathStep>, Value)>) {
    out.push((at.clone(), value.clone()));
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                at.push(PathStep::Key(key.clone()));
                paths(item, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                at.push(PathStep::Index(i));
                paths(item, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Debug, Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn spelled(path: &[PathStep]) -> String {
    path.iter()
        .map(|step| match step {
            PathStep::Key(key) => format!(".{key}"),
            PathStep::Index(i) => format!("[{i}]"),
        })
        .collect()
}

/// `value` with the node at `path` replaced by `with` (`None`: removed).
fn replaced(value: &Value, path: &[PathStep], with: Option<Value>) -> Value {
    let mut out = value.clone();
    let Some((last, parent)) = path.split_last() else {
        return with.unwrap_or(Value::Null);
    };
    let mut node = &mut out;
    for step in parent {
        node = match step {
            PathStep::Key(key) => &mut node[key.as_str()],
            PathStep::Index(i) => &mut node[*i],
        };
    }
    match (last, node, with) {
        (PathStep::Key(key), Value::Object(map), Some(with)) => {
            map.insert(key.clone(), with);
        }
        (PathStep::Key(key), Value::Object(map), None) => {
            map.remove(key);
        }
        (PathStep::Index(i), Value::Array(items), Some(with)) => items[*i] = with,
        (PathStep::Index(i), Value::Array(items), None) => {
            items.remove(*i);
        }
        _ => {}
    }
    out
}

/// The variants of `base` for a tool of `profile`.
fn variants(profile: &Profile, base: &Value, draw: &mut Draw) -> Vec<Variant> {
    let limits = profile.size_limits();
    let mut found = Vec::new();
    paths(base, &mut Vec::new(), &mut found);
    let mut capped = Vec::new();
    let mut others = Vec::new();
    for (path, value) in &found {
        let at = spelled(path);
        let with = |v: Value| replaced(base, path, Some(v)).to_string();
        match value {
            Value::String(_) => {
                let top = matches!(path.as_slice(), [PathStep::Key(key)] if limits.list_text_fields.contains(&key.as_str()));
                let cap = if top {
                    limits.list_text_bytes
                } else {
                    limits.item_text_bytes
                };
                let long = |n: usize| FILL.to_string().repeat(n);
                capped.push(Variant {
                    name: format!("{at}: {} bytes, one past its cap", cap + 1),
                    text: with(json!(long(cap + 1))),
                    over_cap: true,
                });
                others.push(Variant {
                    name: format!("{at}: {cap} bytes, at its cap"),
                    text: with(json!(long(cap))),
                    over_cap: false,
                });
                others.push(Variant {
                    name: format!("{at}: terminal-steering text"),
                    text: with(json!(STEERING)),
                    over_cap: false,
                });
            }
            Value::Array(items) if !path.is_empty() => {
                let first = items.first().cloned().unwrap_or(json!("x"));
                capped.push(Variant {
                    name: format!("{at}: {} items, one past the array cap", limits.array_items + 1),
                    text: with(Value::Array(vec![first; limits.array_items + 1])),
                    over_cap: true,
                });
            }
            _ => {}
        }
        if !path.is_empty() {
            for wrong in [
                json!(null),
                json!(true),
                json!(-1.5),
                json!("s"),
                json!([]),
                json!({}),
            ] {
                others.push(Variant {
                    name: format!("{at}: {wrong}"),
                    text: with(wrong),
                    over_cap: false,
                });
            }
            others.push(Variant {
                name: format!("{at}: left out"),
                text: replaced(base, path, None).to_string(),
                over_cap: false,
            });
            let deep = (0..200).fold(json!(1), |inner, _| json!([inner]));
            others.push(Variant {
                name: format!("{at}: 200 levels deep"),
                text: with(deep),
                over_cap: false,
            });
        }
    }
    let text = base.to_string();
    others.push(Variant {
        name: "an unknown field".to_owned(),
        text: replaced(base, &[PathStep::Key("zz_unknown".to_owned())], Some(json!(1))).to_string(),
        over_cap: false,
    });
    others.push(Variant {
        name: "cut short".to_owned(),
        text: text[..text.len() / 2].to_owned(),
        over_cap: false,
    });
    others.push(Variant {
        name: "the whole call as a string".to_owned(),
        text: json!(text).to_string(),
        over_cap: false,
    });
    // A fixed-seed sample of the rest, so every profile costs about the same.
    let mut drawn = Vec::new();
    while !others.is_empty() && drawn.len() < PER_TOOL {
        let at = (draw.next() % others.len() as u64) as usize;
        drawn.push(others.swap_remove(at));
    }
    capped.into_iter().chain(drawn).collect()
}

/// True for a character that must never reach a terminal raw.
fn steers(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{e0000}'..='\u{e007f}')
}

fn shown(state: &TodoState) -> Vec<String> {
    [
        Format::Text,
        Format::Markdown,
        // Without colour: the renderer's own escape sequences are not the
        // model's.
        Format::Ansi {
            color: false,
            glyphs: Glyphs::Unicode,
        },
    ]
    .into_iter()
    .map(|format| render(state, format))
    .collect()
}

/// Runs every variant of every tool of `profile`; the problems found, and
/// how many calls over a cap were made.
async fn check_profile(profile: Profile, draw: &mut Draw) -> (Vec<String>, usize) {
    let service: TodoWriteService = Todokit::builder()
        .memory_store()
        .profile(profile.name())
        .and_then(|b| b.build())
        .expect("a memory service");
    let conversation = "hostile";
    let mut problems = Vec::new();
    if let Some(example) = profile.example() {
        let _ = service.call(conversation, example.tool, example.arguments).await;
    }
    let echo = FILL.to_string().repeat(todokit::domain::MAX_QUOTED_CHARS + 1);
    let mut over_cap = 0;
    for tool in profile.tools() {
        let mut all = variants(&profile, &base_call(&profile, tool), draw);
        // The caps again on a call naming every field: the optional texts.
        let full = variants(&profile, &full_call(tool), draw);
        all.extend(full.into_iter().filter(|v| v.over_cap));
        for variant in all {
            let label = format!(
                "{} {} [{}] (seed {SEED:#x})",
                profile.name(),
                tool.name(),
                variant.name
            );
            let before = service
                .state(conversation)
                .await
                .map(|s| (s.version, s.phases.clone()));
            let result = match service.call(conversation, tool.name(), &variant.text).await {
                Ok(result) => result,
                Err(error) => {
                    problems.push(format!("{label}: Err({error})"));
                    continue;
                }
            };
            let after = service
                .state(conversation)
                .await
                .map(|s| (s.version, s.phases.clone()));
            over_cap += usize::from(variant.over_cap);
            if variant.over_cap && !result.is_error {
                problems.push(format!("{label}: accepted past its cap"));
            }
            if result.is_error && before.as_ref().ok() != after.as_ref().ok() {
                problems.push(format!("{label}: refused, yet the list changed"));
            }
            let details = result.details.value().to_string();
            if variant.over_cap && (result.content.contains(&echo) || details.contains(&echo)) {
                problems.push(format!(
                    "{label}: quotes more than 200 characters of the bad value"
                ));
            }
            if let Ok(state) = service.state(conversation).await
                && shown(&state).iter().any(|text| text.chars().any(steers))
            {
                problems.push(format!("{label}: a raw control character reaches the terminal"));
            }
        }
    }
    (problems, over_cap)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_of_every_profile_holds_its_bounds_under_hostile_calls() {
    let mut draw = Draw(SEED);
    let mut problems = Vec::new();
    let mut thin = Vec::new();
    for profile in profiles::all() {
        let name = profile.name();
        let (found, over_cap) = check_profile(profile, &mut draw).await;
        problems.extend(found);
        // Every profile's calls carry at least one text to blow up.
        if over_cap == 0 {
            thin.push(name);
        }
    }
    assert_eq!((problems, thin), (Vec::<String>::new(), Vec::<&str>::new()));
}
