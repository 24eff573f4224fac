//! How the cost of a call grows with what it carries (issue #42): for the
//! profiles whose calls carry lists (todo-update, codex, forge, learn,
//! augment) and for `import`, the time of a refused oversized call at
//! sizes n, 2n, 4n and 8n, each doubling's ratio (goal: at most 2.5x, work
//! that grows no faster than the input), and the time of the largest call
//! each accepts.

use serde_json::{Value, json};
use todokit::TodoState;
use todokit::app::{CallContext, profiles};

/// The first size of each curve: items in a call, or lines of a file.
const N: usize = 5_000;

/// The most a doubling may multiply the time by.
const GOAL: f64 = 2.5;

/// One profile's call carrying `count` items.
struct Case {
    profile: &'static str,
    tool: &'static str,
    call: fn(usize) -> Value,
}

const CASES: [Case; 5] = [
    Case {
        profile: "todo-update",
        tool: "todo_update",
        call: |n| json!({"add": (0..n).map(|i| json!({"content": format!("task {i}")})).collect::<Vec<_>>()}),
    },
    Case {
        profile: "codex",
        tool: "update_plan",
        call: |n| json!({"plan": (0..n).map(|i| json!({"step": format!("step {i}"), "status": "pending"})).collect::<Vec<_>>()}),
    },
    Case {
        profile: "forge",
        tool: "todo_write",
        call: |n| json!({"todos": (0..n).map(|i| json!({"id": i.to_string(), "content": format!("task {i}"), "status": "pending"})).collect::<Vec<_>>()}),
    },
    Case {
        profile: "learn",
        tool: "todo",
        call: |n| json!({"items": (0..n).map(|i| json!({"id": i.to_string(), "text": format!("task {i}"), "status": "pending"})).collect::<Vec<_>>()}),
    },
    Case {
        profile: "augment",
        tool: "add_tasks",
        call: |n| json!({"tasks": (0..n).map(|i| json!({"name": format!("task {i}"), "description": "d"})).collect::<Vec<_>>()}),
    },
];

/// `times` (ns) as `1.2 ms, 2.4 ms (x2.0), ...`, and whether every
/// doubling kept within [`GOAL`].
fn curve(times: &[f64]) -> (String, bool) {
    let mut within = true;
    let shown: Vec<String> = times
        .iter()
        .enumerate()
        .map(|(i, t)| match i.checked_sub(1).map(|before| t / times[before]) {
            Some(ratio) => {
                within &= ratio <= GOAL;
                format!("{:.2} ms (x{ratio:.2})", t / 1e6)
            }
            None => format!("{:.2} ms", t / 1e6),
        })
        .collect();
    (shown.join(", "), within)
}

/// Prints each curve.
pub fn report(measure: &dyn Fn(&mut dyn FnMut()) -> f64, say: &mut dyn FnMut(String)) {
    let empty = TodoState::new();
    for case in CASES {
        let profile = profiles::by_name(case.profile).expect("registered");
        let ctx = CallContext::new(&empty, 0, profile.rules());
        let run = |text: &str| profile.run_text(case.tool, text, &ctx).expect("the tool exists");
        let times: Vec<f64> = [N, 2 * N, 4 * N, 8 * N]
            .iter()
            .map(|&n| {
                let text = (case.call)(n).to_string();
                assert!(run(&text).result.is_error, "{} accepted {n} items", case.profile);
                measure(&mut || {
                    std::hint::black_box(run(&text));
                })
            })
            .collect();
        let most = profile.rules().limits.max_items;
        let accepted = (case.call)(most).to_string();
        let took = measure(&mut || {
            std::hint::black_box(run(&accepted));
        });
        let (shown, within) = curve(&times);
        say(format!(
            "doubling: {} {} refused at {N}, 2x, 4x, 8x items: {shown} ({}); the largest call it takes ({most} items): {:.1} µs",
            case.profile,
            case.tool,
            if within {
                "each doubling within 2.5x"
            } else {
                "A DOUBLING OVER 2.5x"
            },
            took / 1e3
        ));
    }
    let times: Vec<f64> = [N, 2 * N, 4 * N, 8 * N]
        .iter()
        .map(|&n| {
            let text: String = (0..n).map(|i| format!("- [ ] task {i}\n")).collect();
            measure(&mut || {
                std::hint::black_box(todokit::infra::markdown::import(&text, 0).ok());
            })
        })
        .collect();
    let (shown, within) = curve(&times);
    say(format!(
        "doubling: import of {N}, 2x, 4x, 8x lines: {shown} ({})",
        if within {
            "each doubling within 2.5x"
        } else {
            "A DOUBLING OVER 2.5x"
        }
    ));
}
