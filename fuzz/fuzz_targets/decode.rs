//! Any bytes as the arguments of any tool of any profile: decoding,
//! checking and running must never panic, a refused call must commit
//! nothing, and where the fast path decodes the text, the call must be
//! exactly the one the repairing path makes. The first byte picks the tool.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use todokit::app::{CallContext, Profile};
use todokit::internal::parse_arguments;
use todokit::{Todo, TodoState, profiles};

fn tools() -> &'static [(Profile, &'static str)] {
    static TOOLS: OnceLock<Vec<(Profile, &'static str)>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        profiles::all()
            .into_iter()
            .flat_map(|p| p.tool_names().into_iter().map(move |t| (p.clone(), t)))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let tools = tools();
    let (profile, tool) = &tools[usize::from(pick) % tools.len()];
    let text = String::from_utf8_lossy(rest);
    let prior = TodoState::flat(vec![Todo::new("Plan").id("1"), Todo::new("Build").id("2")]);
    let ctx = CallContext::new(&prior, 1, profile.rules());
    let fast = profile.decode_well_formed(tool, &text).map(|input| {
        profile
            .find(tool)
            .expect("the tool is registered")
            .call_decoded(input, &ctx)
    });
    let Ok(args) = parse_arguments(&text) else {
        assert!(fast.is_none(), "the fast path took text that is not JSON");
        return;
    };
    let outcome = profile.run(tool, &args, &ctx).expect("the tool is registered");
    if outcome.result.details.value().get("error").is_some() {
        assert!(outcome.commit.is_none(), "a refused call committed");
    }
    if let Some(fast) = fast {
        assert_eq!(fast, outcome, "the fast path and the repairing path disagree");
    }
});
