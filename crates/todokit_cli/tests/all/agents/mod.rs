//! The agents themselves, run as their users run them: each agent's own
//! shipping CLI (installed by `make agent-clis` at the versions
//! `tests/agent_clis/package-lock.json` pins), in a fresh home folder, in a
//! project configured only by `todokit setup`, talking to the scripted
//! model of [`model`] on loopback and to todokit over MCP.
//!
//! They need the agents' packages: `make agent-clis` installs them under
//! `target/agents/` (`unit`, in `make test`, does it first), and a test
//! that finds none fails saying so. `make check` leaves this module out.

mod matrix;
mod model;
mod one_list;
mod upstream;
mod wire;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::cli::todokit;
pub use crate::support::machine::Machine;

/// Where `make agent-clis` installed the agents' packages (`TODOKIT_AGENTS`
/// names another folder).
fn agents_folder() -> PathBuf {
    let folder = std::env::var_os("TODOKIT_AGENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/agents"));
    assert!(
        folder.join("node_modules/.bin").is_dir(),
        "no agents installed in {}: run `make agent-clis`",
        folder.display()
    );
    folder
}

/// The agent's command, `bin` in the installed packages.
pub fn agent_bin(bin: &str) -> PathBuf {
    agents_folder().join("node_modules/.bin").join(bin)
}

/// Where a test's model requests are written, under `target/`.
pub fn request_log(test: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/agents/requests")
        .join(test)
}

/// A command for the agent `bin`, run in `machine`'s project with nothing of
/// this machine's environment but `PATH` and `env`.
pub fn agent(machine: &Machine, bin: &str, env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(agent_bin(bin));
    cmd.current_dir(&machine.project)
        .env_clear()
        .env("HOME", &machine.home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .envs(env.iter().copied());
    cmd
}

/// What a profile answers `calls` with, one after the other on a fresh
/// list: the text the model must read back, and the call's details as
/// compact JSON (what `structuredContent` would carry, which it must not).
pub fn profile_answers(profile: &str, tool_calls: &[(&str, Value)]) -> Vec<(String, String)> {
    let scratch = tempfile::tempdir().expect("a temporary folder");
    tool_calls
        .iter()
        .map(|(tool, args)| {
            let out = todokit(scratch.path())
                .args([
                    "--profile",
                    profile,
                    "--conversation",
                    "answers",
                    "call",
                    tool,
                    &args.to_string(),
                ])
                .output()
                .expect("todokit runs");
            let result: Value = serde_json::from_slice(&out.stdout).expect("call prints JSON");
            let text = result["content"].as_str().expect("a text answer").to_owned();
            (text, result["details"].to_string())
        })
        .collect()
}

/// Says what an agent's run printed, for an assertion's message.
pub fn printed(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
