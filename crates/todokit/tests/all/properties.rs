//! Property tests over random sequences of calls, for every profile: the
//! arguments are generated from each tool's own schema (valid and
//! deliberately broken), run through the real service, and the invariants
//! checked after every call.

use std::collections::HashSet;
use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use serde_json::{Map, Value, json};
use todokit::app::schema::{SchemaTarget, definition};
use todokit::app::{ConversationContext, Profile};
use todokit::domain::InProgressPolicy;
use todokit::{ManualClock, MemoryStore, Status, TodoState, TodoWriteService, profiles};

/// Strings drawn from a small pool, so calls name the same tasks and ids
/// again; plus the awkward ones.
fn text() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::sample::select(vec!["1", "2", "3", "Plan", "Build", "Ship", "a", "b"]).prop_map(Value::from),
        1 => prop::sample::select(vec![
            String::new(),
            " ".to_owned(),
            "é".repeat(101),
            "x".repeat(1025),
            "- [x] #h\n> n".to_owned(),
        ])
        .prop_map(Value::from),
    ]
}

/// A random value for `schema` (type, enum, object, array, anyOf), now and
/// then deliberately wrong: a missing required field, an unknown value, the
/// wrong type.
fn arbitrary(schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    let wrong = prop_oneof![
        Just(Value::Null),
        Just(json!(7)),
        Just(json!("?")),
        Just(json!([]))
    ]
    .boxed();
    if depth > 4 {
        return wrong;
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        let options: Vec<BoxedStrategy<Value>> = branches.iter().map(|b| arbitrary(b, depth + 1)).collect();
        return proptest::strategy::Union::new(options).boxed();
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let values = values.clone();
        return prop_oneof![9 => prop::sample::select(values), 1 => wrong].boxed();
    }
    let types: Vec<String> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => vec![],
    };
    let main = types.iter().find(|t| *t != "null").cloned().unwrap_or_default();
    let strategy = match main.as_str() {
        "object" => {
            let props: Vec<(String, Value)> = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            let required: HashSet<String> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default();
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = props
                .into_iter()
                .map(|(name, sub)| {
                    let keep = if required.contains(&name) { 0.97 } else { 0.5 };
                    let key = name.clone();
                    prop::option::weighted(keep, arbitrary(&sub, depth + 1))
                        .prop_map(move |v| v.map(|v| (key.clone(), v)))
                        .boxed()
                })
                .collect();
            fields
                .prop_map(|fields| {
                    Value::Object(fields.into_iter().flatten().collect::<Map<String, Value>>())
                })
                .boxed()
        }
        "array" => {
            let item = schema.get("items").cloned().unwrap_or(Value::Bool(true));
            prop::collection::vec(arbitrary(&item, depth + 1), 0..5)
                .prop_map(Value::Array)
                .boxed()
        }
        "string" => text().boxed(),
        "integer" | "number" => (0i64..5).prop_map(Value::from).boxed(),
        "boolean" => any::<bool>().prop_map(Value::from).boxed(),
        _ => prop_oneof![text(), Just(json!({}))].boxed(),
    };
    prop_oneof![19 => strategy, 1 => wrong].boxed()
}

/// A sequence of (tool, arguments) calls for `profile`.
fn calls(profile: &Profile) -> BoxedStrategy<Vec<(String, Value)>> {
    let tools: Vec<BoxedStrategy<(String, Value)>> = profile
        .tools()
        .map(|tool| {
            let name = tool.name().to_owned();
            let schema = definition(tool, SchemaTarget::JsonSchema)["schema"].clone();
            arbitrary(&schema, 0)
                .prop_map(move |args| (name.clone(), args))
                .boxed()
        })
        .collect();
    prop::collection::vec(proptest::strategy::Union::new(tools), 1..10).boxed()
}

/// Every rule the stored list must keep, whatever was sent.
fn check_invariants(profile: &Profile, state: &TodoState) -> Result<(), String> {
    let rules = profile.rules();
    let tasks = state.flat_tasks();
    if tasks.len() > rules.limits.max_items {
        return Err(format!("{} tasks, limit {}", tasks.len(), rules.limits.max_items));
    }
    if let Some(t) = tasks
        .iter()
        .find(|t| t.content.len() > rules.limits.max_content_bytes)
    {
        return Err(format!("content of {} bytes", t.content.len()));
    }
    if tasks.iter().any(|t| t.content.trim().is_empty()) {
        return Err("a task with blank content".into());
    }
    let in_progress = tasks.iter().filter(|t| t.status == Status::InProgress).count();
    if rules.in_progress != InProgressPolicy::Warn && in_progress > 1 {
        return Err(format!("{in_progress} tasks in progress"));
    }
    let ids: Vec<&str> = tasks.iter().filter_map(|t| t.id.as_deref()).collect();
    if ids.iter().collect::<HashSet<_>>().len() != ids.len() {
        return Err(format!("duplicate ids {ids:?}"));
    }
    if profile.name() == "pi" && tasks.iter().map(|t| &t.content).collect::<HashSet<_>>().len() != tasks.len()
    {
        return Err("duplicate task content under pi".into());
    }
    Ok(())
}

fn run_sequence(profile: Profile, calls: Vec<(String, Value)>) -> Result<(), TestCaseError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let store = Arc::new(MemoryStore::new());
        let service =
            TodoWriteService::new(profile.clone(), store.clone(), Arc::new(ManualClock::new(1_000)));
        for (tool, args) in calls {
            let before =
                serde_json::to_vec(&store.load("c").await.expect("memory never fails")).expect("encodes");
            let result = service
                .call_value("c", &tool, &args)
                .await
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let state = store.load("c").await.expect("memory never fails");
            let after = serde_json::to_vec(&state).expect("encodes");
            // A refused call (bad arguments, a broken rule) stores nothing;
            // only `pi` batches store what applied despite failing ops.
            if result.details.value().get("error").is_some() {
                prop_assert_eq!(
                    &before,
                    &after,
                    "{} refused but changed the list: {}",
                    tool,
                    result.content
                );
            }
            if result.is_error && profile.name() != "pi" {
                prop_assert_eq!(&before, &after, "{} failed but changed the list", tool);
            }
            check_invariants(&profile, &state)
                .map_err(|e| TestCaseError::fail(format!("after {tool} {args}: {e}")))?;
        }
        Ok(())
    })
}

/// Every registered profile, 256 generated call sequences each.
#[test]
fn every_profile_keeps_its_invariants() {
    for profile in profiles::all() {
        let mut runner = TestRunner::new(ProptestConfig::with_cases(256));
        let name = profile.name();
        let result = runner.run(&calls(&profile), |sequence| {
            run_sequence(profile.clone(), sequence)
        });
        if let Err(failure) = result {
            panic!("{name}: {failure}");
        }
    }
}

/// `pi` batches that mostly make sense: ops of the right shape naming tasks
/// and phases from a small pool, so that they find each other.
fn pi_batches() -> impl Strategy<Value = Vec<(String, Value)>> {
    let names = vec![
        "Scaffold", "Wire", "Test", "Docs", "Tag", "Publish", "Review", "Fix",
    ];
    let phases = vec!["Build", "Ship", "Later"];
    let task = prop::sample::select(names.clone()).prop_map(Value::from);
    let phase = prop::sample::select(phases.clone()).prop_map(Value::from);
    let items = prop::sample::subsequence(names, 1..5).prop_map(|v| json!(v));
    let op = prop_oneof![
        prop::collection::vec((phase.clone(), items.clone()), 1..4)
            .prop_map(|list| json!({"op": "init", "list": list.into_iter().map(|(p, i)| json!({"phase": p, "items": i})).collect::<Vec<_>>()})),
        task.clone().prop_map(|t| json!({"op": "start", "task": t})),
        prop::option::of(task.clone()).prop_map(|t| json!({"op": "done", "task": t})),
        (prop::option::of(task.clone()), prop::option::of(phase.clone()))
            .prop_map(|(t, p)| json!({"op": "drop", "task": t, "phase": p})),
        prop::option::of(phase.clone()).prop_map(|p| json!({"op": "rm", "phase": p})),
        (phase, items).prop_map(|(p, i)| json!({"op": "append", "phase": p, "items": i})),
        (task, prop::sample::select(vec!["found it", "", "x\ny  "])).prop_map(|(t, n)| json!({"op": "note", "task": t, "text": n})),
    ];
    let batch = prop::collection::vec(op, 1..5).prop_map(|ops| {
        // `null` fields mean "left out".
        let ops: Vec<Value> = ops
            .into_iter()
            .map(|mut op| {
                if let Some(map) = op.as_object_mut() {
                    map.retain(|_, v| !v.is_null());
                }
                op
            })
            .collect();
        ("todo_write".to_owned(), json!({ "ops": ops }))
    });
    prop::collection::vec(batch, 1..10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pi_keeps_its_invariants_on_meaningful_batches(sequence in pi_batches()) {
        run_sequence(profiles::by_name("pi").expect("registered"), sequence)?;
    }
}
