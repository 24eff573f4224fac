//! Each agent, set up by `todokit setup` alone, plans through todokit:
//! its own todo tools are not offered, todokit's are, the model's call is
//! stored, and the model reads the profile's own answer and refusal.

use std::process::Command;

use serde_json::{Value, json};

use super::model::{Model, Script};
use super::wire;
use super::{Machine, agent, printed, profile_answers, request_log};

/// The conversation `setup` names after the project folder.
pub(super) const CONVERSATION: &str = "demo-project";

/// What the model is asked.
pub(super) const PROMPT: &str = "Plan the parser work, then start it.";

/// One agent's run.
struct Case {
    /// `todokit setup`'s name for it.
    agent: &'static str,
    /// The profile setup gives it.
    profile: &'static str,
    /// The model's calls: the tool as the agent names it, as the profile
    /// names it, and the arguments. The first is valid, the second not.
    calls: [(String, &'static str, Value); 2],
    /// The agent's loader of deferred tools, when it may defer MCP tools.
    search: Option<(String, Value)>,
    /// The agent's own todo tools, which must not be offered.
    own_tools: &'static [&'static str],
    /// The item the first call stores.
    stored: &'static str,
    /// The user's file setup writes, for an agent set up with `--global`
    /// (relative to the home folder); `None` for a project's setup.
    global_file: Option<&'static str>,
    /// Whether the agent hands the model the server's instructions.
    relays_instructions: bool,
}

impl Case {
    /// Runs the agent that `agent_command` starts (given the machine and
    /// the model's address) and checks everything the agent must do.
    fn check(&self, agent_command: fn(&Machine, &str) -> Command) {
        let machine = Machine::new();
        let before = machine.project_files();
        let setup: &[&str] = match self.global_file {
            Some(_) => &[self.agent, "--global"],
            None => &[self.agent],
        };
        machine.setup(setup);
        let script = Script {
            calls: self
                .calls
                .iter()
                .map(|(name, _, args)| (name.clone(), args.clone()))
                .collect(),
            search: self.search.clone(),
            closing: "The plan is in place.".to_owned(),
        };
        let model = Model::start(script, request_log(self.agent));
        let out = agent_command(&machine, &model.url)
            .output()
            .expect("the agent runs");
        let requests = model.main_requests();
        assert!(out.status.success(), "{} failed:\n{}", self.agent, printed(&out));
        assert!(
            !requests.is_empty(),
            "{} never offered todokit's tool:\n{}",
            self.agent,
            printed(&out)
        );

        let first = &requests[0];
        let mut offered = wire::offered_tools(first.format, &first.body);
        offered.extend(wire::deferred_tools(first.format, &first.body));
        let own: Vec<&&str> = self
            .own_tools
            .iter()
            .filter(|t| offered.iter().any(|o| o == *t))
            .collect();
        assert!(
            own.is_empty(),
            "{} still offers its own {own:?}; offered: {offered:?}",
            self.agent
        );
        assert!(
            offered.contains(&self.calls[0].0),
            "{}: todokit's tool is not offered: {offered:?}",
            self.agent
        );

        // The server's instructions, naming the profile's tool as this
        // server's (the model may know the tool only under a prefix).
        let named = format!("this server's `{}` tool", self.calls[0].1);
        assert_eq!(
            first.body.to_string().contains(&named),
            self.relays_instructions,
            "{}: the model's first request and the server's instructions ({named})",
            self.agent
        );

        let list = machine.list(CONVERSATION);
        assert!(
            list.to_string().contains(self.stored),
            "{}: the store does not hold {:?}: {list}",
            self.agent,
            self.stored
        );

        let answers = profile_answers(
            self.profile,
            &self
                .calls
                .iter()
                .map(|(_, tool, args)| (*tool, args.clone()))
                .collect::<Vec<_>>(),
        );
        let last = requests.last().expect("at least one");
        let results: Vec<String> = wire::tool_results(last.format, &last.body)
            .into_iter()
            .filter(|(name, _)| name == &self.calls[0].0)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(
            results.len(),
            2,
            "{}: the model did not get both results: {results:#?}",
            self.agent
        );
        for (result, (answer, details)) in results.iter().zip(&answers) {
            assert!(
                relays(result, answer),
                "{}: the model read\n{result}\ninstead of the profile's\n{answer}",
                self.agent
            );
            assert!(
                !result.contains(details.as_str()),
                "{}: the model read todokit's details beside the answer:\n{result}",
                self.agent
            );
        }
        assert!(
            answers[1].0.contains("was not applied"),
            "the second call must be a refusal: {}",
            answers[1].0
        );

        machine.setup(&[setup, &["--remove"]].concat());
        if let Some(file) = self.global_file {
            let path = machine.home.join(file);
            assert!(
                !path.exists(),
                "{}: setup --remove left {}",
                self.agent,
                path.display()
            );
        }
        let after = machine.project_files();
        pretty_assertions::assert_eq!(
            after,
            before,
            "{}: setup --remove left the project changed",
            self.agent
        );
    }
}

/// Whether `result` holds `answer` as the agent relays a tool's text: as
/// it is, or quoted as a JSON string once or twice (Gemini CLI hands the
/// model a refusal inside the JSON of the whole MCP response).
fn relays(result: &str, answer: &str) -> bool {
    let quoted = |text: &str| {
        let json = Value::from(text).to_string();
        json[1..json.len() - 1].to_owned()
    };
    let once = quoted(answer);
    result.contains(answer) || result.contains(&once) || result.contains(&quoted(&once))
}

#[test]
fn codex_plans_through_todokit() {
    let plan = json!({"explanation": "Starting the work", "plan": [
        {"step": "Write the parser", "status": "in_progress"},
        {"step": "Add tests", "status": "pending"}]});
    let bad = json!({"plan": [{"step": "Write the parser", "status": "done"}]});
    let case = Case {
        agent: "codex",
        profile: "codex",
        calls: [
            ("mcp__todokit.update_plan".into(), "update_plan", plan),
            ("mcp__todokit.update_plan".into(), "update_plan", bad),
        ],
        search: None,
        own_tools: &["update_plan"],
        stored: "Write the parser",
        global_file: None,
        relays_instructions: true,
    };
    case.check(codex_command);
}

#[test]
fn claude_code_plans_through_todokit() {
    let task = json!({"subject": "Write the parser", "description": "Parse the input files", "activeForm": "Writing the parser"});
    // Several tasks in one call: refused (a lone subject would be repaired).
    let bad = json!({"tasks": [{"subject": "Add tests", "description": "Cover the parser"}]});
    let case = Case {
        agent: "claude-code",
        profile: "claude-tasks",
        calls: [
            ("mcp__todokit__TaskCreate".into(), "TaskCreate", task),
            ("mcp__todokit__TaskCreate".into(), "TaskCreate", bad),
        ],
        // Claude Code offers MCP tools by name only until the model loads
        // them through its `ToolSearch`.
        search: Some((
            "ToolSearch".into(),
            json!({"query": "select:mcp__todokit__TaskCreate", "max_results": 5}),
        )),
        own_tools: &["TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate"],
        stored: "Write the parser",
        global_file: None,
        relays_instructions: true,
    };
    case.check(claude_code_command);
}

#[test]
fn gemini_cli_plans_through_todokit() {
    let todos = json!({"todos": [
        {"description": "Write the parser", "status": "in_progress"},
        {"description": "Add tests", "status": "pending"}]});
    let bad = json!({"todos": [
        {"description": "Write the parser", "status": "in_progress"},
        {"description": "Add tests", "status": "in_progress"}]});
    let case = Case {
        agent: "gemini",
        profile: "gemini",
        calls: [
            ("mcp_todokit_write_todos".into(), "write_todos", todos),
            ("mcp_todokit_write_todos".into(), "write_todos", bad),
        ],
        search: None,
        own_tools: &["write_todos"],
        stored: "Write the parser",
        global_file: None,
        relays_instructions: true,
    };
    case.check(gemini_cli_command);
}

#[test]
fn qwen_code_plans_through_todokit() {
    let todos = json!({"todos": [
        {"id": "1", "content": "Write the parser", "status": "in_progress"},
        {"id": "2", "content": "Add tests", "status": "pending", "blockedBy": ["1"]}]});
    let bad = json!({"todos": [
        {"id": "1", "content": "Write the parser", "status": "in_progress"},
        {"id": "1", "content": "Add tests", "status": "pending"}]});
    let case = Case {
        agent: "qwen",
        profile: "qwen",
        calls: [
            ("mcp__todokit__todo_write".into(), "todo_write", todos),
            ("mcp__todokit__todo_write".into(), "todo_write", bad),
        ],
        search: None,
        own_tools: &["todo_write"],
        stored: "Write the parser",
        global_file: None,
        relays_instructions: true,
    };
    case.check(qwen_code_command);
}

#[test]
fn opencode_plans_through_todokit() {
    let todos = json!({"todos": [
        {"content": "Write the parser", "status": "in_progress", "priority": "high"},
        {"content": "Add tests", "status": "pending", "priority": "medium"}]});
    let bad = json!({"todos": [{"content": "Write the parser", "status": "in_progress"}]});
    let case = Case {
        agent: "opencode",
        profile: "opencode",
        calls: [
            ("todokit_todowrite".into(), "todowrite", todos),
            ("todokit_todowrite".into(), "todowrite", bad),
        ],
        search: None,
        own_tools: &["todowrite"],
        stored: "Write the parser",
        global_file: None,
        relays_instructions: true,
    };
    case.check(opencode_command);
}

#[test]
fn copilot_cli_plans_through_todokit() {
    let checklist = json!({"todos": "# Parser\n- [>] Write the parser\n- [ ] Add tests"});
    let bad = json!({"todos": 5});
    let case = Case {
        agent: "copilot",
        profile: "copilot-cli",
        calls: [
            ("todokit-update_todo".into(), "update_todo", checklist),
            ("todokit-update_todo".into(), "update_todo", bad),
        ],
        search: None,
        own_tools: &["update_todo"],
        stored: "Write the parser",
        global_file: Some(".copilot/mcp-config.json"),
        relays_instructions: false,
    };
    case.check(copilot_command);
}

/// Starts codex as its user would, against the model at `url`.
pub(super) fn codex_command(machine: &Machine, url: &str) -> Command {
    let codex_home = machine.home.join(".codex");
    std::fs::create_dir_all(&codex_home).expect("CODEX_HOME");
    // The user's own choices: the model provider, the project trusted
    // (what Codex asks the first time it starts there), and Codex's own
    // `update_plan` turned on (it is off by default), which a project set
    // up by todokit turns off again.
    let config = format!(
        "model = \"scripted\"\nmodel_provider = \"scripted\"\n\n[model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{url}/v1\"\nwire_api = \"responses\"\nenv_key = \"SCRIPTED_API_KEY\"\n\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n\n[tools.update_plan]\nenabled = true\n",
        machine.project.display()
    );
    std::fs::write(codex_home.join("config.toml"), config).expect("config.toml");
    let mut cmd = agent(
        machine,
        "codex",
        &[
            ("SCRIPTED_API_KEY", "scripted"),
            ("CODEX_HOME", codex_home.to_str().expect("a UTF-8 path")),
        ],
    );
    cmd.args(["exec", "--skip-git-repo-check", "--json", PROMPT]);
    cmd
}

/// Starts claude code as its user would, against the model at `url`.
pub(super) fn claude_code_command(machine: &Machine, url: &str) -> Command {
    // The user trusted the project when Claude Code first asked.
    let state = json!({
        "hasCompletedOnboarding": true,
        "projects": {machine.project.to_str().expect("a UTF-8 path"): {"hasTrustDialogAccepted": true}}
    });
    std::fs::write(machine.home.join(".claude.json"), state.to_string()).expect(".claude.json");
    let mut cmd = agent(
        machine,
        "claude",
        &[
            ("ANTHROPIC_BASE_URL", url),
            ("ANTHROPIC_API_KEY", "scripted"),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
            ("DISABLE_AUTOUPDATER", "1"),
        ],
    );
    // A model that gets Claude Code's own todo tools.
    cmd.args([
        "-p",
        PROMPT,
        "--model",
        "claude-sonnet-4-6",
        "--output-format",
        "json",
    ]);
    cmd
}

/// Starts gemini cli as its user would, against the model at `url`.
pub(super) fn gemini_cli_command(machine: &Machine, url: &str) -> Command {
    let gemini = machine.home.join(".gemini");
    std::fs::create_dir_all(&gemini).expect("~/.gemini");
    // The user's own choices: an API key, and the project trusted.
    std::fs::write(
        gemini.join("settings.json"),
        json!({"security": {"auth": {"selectedType": "gemini-api-key"}}}).to_string(),
    )
    .expect("settings.json");
    std::fs::write(
        gemini.join("trustedFolders.json"),
        json!({machine.project.to_str().expect("a UTF-8 path"): "TRUST_FOLDER"}).to_string(),
    )
    .expect("trustedFolders.json");
    let mut cmd = agent(
        machine,
        "gemini",
        &[("GEMINI_API_KEY", "scripted"), ("GOOGLE_GEMINI_BASE_URL", url)],
    );
    // A Gemini 2 model in yolo mode: the only headless run in which Gemini
    // CLI offers its own write_todos.
    cmd.args(["-m", "gemini-2.5-flash", "--approval-mode", "yolo", "-p", PROMPT]);
    cmd
}

/// Starts qwen code as its user would, against the model at `url`, once
/// the user approved the project's server.
fn qwen_code_command(machine: &Machine, url: &str) -> Command {
    let cmd = qwen_code_base_command(machine, url);
    // What Qwen Code asks the user before it starts a project's server.
    let approve = agent(machine, "qwen", &[])
        .args(["mcp", "approve", "todokit"])
        .output()
        .expect("qwen runs");
    assert!(
        approve.status.success(),
        "qwen mcp approve: {}",
        printed(&approve)
    );
    cmd
}

/// Starts qwen code against the model at `url`, as its user set it up.
pub(super) fn qwen_code_base_command(machine: &Machine, url: &str) -> Command {
    let qwen = machine.home.join(".qwen");
    std::fs::create_dir_all(&qwen).expect("~/.qwen");
    // The user's own choices: the provider, and Qwen Code's own todo_write
    // turned on (it is off by default), which a project set up by todokit
    // turns off again.
    std::fs::write(
        qwen.join("settings.json"),
        json!({"security": {"auth": {"selectedType": "openai"}}, "tools": {"todoWrite": {"enabled": true}}})
            .to_string(),
    )
    .expect("settings.json");
    let base = format!("{url}/v1");
    let mut cmd = agent(
        machine,
        "qwen",
        &[
            ("OPENAI_API_KEY", "scripted"),
            ("OPENAI_BASE_URL", &base),
            ("OPENAI_MODEL", "scripted"),
        ],
    );
    cmd.args(["-p", PROMPT]);
    cmd
}

/// Starts opencode as its user would, against the model at `url`.
pub(super) fn opencode_command(machine: &Machine, url: &str) -> Command {
    let config = machine.home.join(".config/opencode");
    std::fs::create_dir_all(&config).expect("~/.config/opencode");
    // The user's own model provider.
    let provider = json!({
        "model": "scripted/scripted",
        "provider": {"scripted": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Scripted",
            "options": {"baseURL": format!("{url}/v1"), "apiKey": "scripted"},
            "models": {"scripted": {"name": "Scripted"}}
        }}
    });
    std::fs::write(config.join("opencode.json"), provider.to_string()).expect("opencode.json");
    let mut cmd = agent(machine, "opencode", &[]);
    cmd.args(["run", PROMPT]);
    cmd
}

/// Starts GitHub Copilot CLI as its user would, against the model at
/// `url`: its own provider settings (BYOK, offline) and, for a run with no
/// one to ask, the permission for todokit's tools on its command line, the
/// only place Copilot CLI takes one.
pub(super) fn copilot_command(machine: &Machine, url: &str) -> Command {
    let base = format!("{url}/v1");
    let mut cmd = agent(
        machine,
        "copilot",
        &[
            ("COPILOT_PROVIDER_BASE_URL", &base),
            ("COPILOT_PROVIDER_TYPE", "openai"),
            ("COPILOT_PROVIDER_API_KEY", "scripted"),
            ("COPILOT_MODEL", "scripted"),
            ("COPILOT_OFFLINE", "true"),
        ],
    );
    cmd.args(["-p", PROMPT, "--allow-tool", "todokit"]);
    cmd
}
