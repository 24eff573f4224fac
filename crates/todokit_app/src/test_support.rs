//! Helpers shared by this crate's tests.

use std::path::Path;

/// insta settings that write snapshots to the workspace's `snapshots/`.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates live two levels below the workspace root");
    settings.set_snapshot_path(workspace.join("snapshots"));
    settings.set_omit_expression(true);
    settings
}

/// The time every profile test runs at.
pub const NOW: u64 = 1_700_000_000_000;

/// Runs tool `tool` of `profile` on `state` at [`NOW`] with a durable store,
/// through the decoding layer, as the service would.
pub fn run_tool(
    profile: &crate::Profile,
    tool: &str,
    state: &todokit_domain::TodoState,
    args: &str,
) -> crate::Outcome {
    let ctx = crate::CallContext::new(state, NOW, profile.rules()).durable(true);
    let args = crate::parse_arguments(args).expect("test arguments are JSON");
    profile.run(tool, &args, &ctx).expect("the profile has the tool")
}

/// The message of every problem an error result reports.
pub fn problem_messages(outcome: &crate::Outcome) -> Vec<String> {
    outcome.result.details.value()["error"]["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| p["message"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}
