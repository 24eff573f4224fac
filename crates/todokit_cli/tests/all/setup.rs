//! `todokit setup` as a user runs it: `--list`, what each agent's files
//! get (pinned by snapshots, and the README's sections kept equal to
//! them), `--global`, the command written, and the refusals.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use crate::support::cli::{snapshot_settings, todokit};
use crate::support::machine::Machine;

/// What the README's examples say todokit was installed as.
const INSTALLED: &str = "/home/you/.cargo/bin/todokit";

/// A user's machine with an empty project called `my-project`.
struct Project {
    _machine: Machine,
    home: PathBuf,
    dir: PathBuf,
}

impl Project {
    fn new() -> Self {
        let machine = Machine::with_project("my-project");
        let (home, dir) = (machine.home.clone(), machine.project.clone());
        Self {
            _machine: machine,
            home,
            dir,
        }
    }

    fn setup(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_todokit"));
        cmd.arg("setup")
            .args(args)
            .current_dir(&self.dir)
            .env("HOME", &self.home)
            .env("TODOKIT_LAUNCHER", INSTALLED)
            .env("NO_COLOR", "1");
        for var in [
            "TODOKIT_STORE",
            "TODOKIT_CONVERSATION",
            "TODOKIT_PROFILE",
            "CODEX_HOME",
            "XDG_CONFIG_HOME",
            "CLAUDE_CONFIG_DIR",
            "CRUSH_GLOBAL_CONFIG",
            "COPILOT_HOME",
            "KIMI_SHARE_DIR",
            "GOOSE_PATH_ROOT",
            "APPDATA",
        ] {
            cmd.env_remove(var);
        }
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.setup(args).output().expect("todokit runs")
    }

    /// stdout and stderr, with the temporary home folder written as `~`.
    fn shown(&self, out: &Output) -> String {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        text.replace(&self.home.display().to_string(), "~")
    }
}

const AGENTS: [&str; 13] = [
    "claude-code",
    "codex",
    "gemini",
    "qwen",
    "opencode",
    "crush",
    "copilot",
    "cursor",
    "vscode",
    "zed",
    "claude-desktop",
    "kimi-cli",
    "goose",
];

/// The agents that read no project configuration: set up with `--global`.
const GLOBAL_ONLY: [&str; 4] = ["copilot", "claude-desktop", "kimi-cli", "goose"];

/// `agent` and, for one set up in the user's configuration only, `--global`.
fn setup_args(agent: &str) -> Vec<&str> {
    match GLOBAL_ONLY.contains(&agent) {
        true => vec![agent, "--global"],
        false => vec![agent],
    }
}

#[test]
fn list_shows_every_agent_and_its_files() {
    let project = Project::new();
    let out = project.run(&["--list"]);
    assert!(out.status.success());
    snapshot_settings().bind(|| insta::assert_snapshot!("setup_list", project.shown(&out)));
    let help = project.run(&["--help"]);
    assert!(help.status.success());
    snapshot_settings().bind(|| insta::assert_snapshot!("setup_help", project.shown(&help)));
}

#[test]
fn each_agent_gets_its_files_as_the_snapshots_show() {
    for agent in AGENTS {
        let project = Project::new();
        let args = setup_args(agent);
        let dry = project.run(&[args.as_slice(), &["--dry-run"]].concat());
        assert!(dry.status.success(), "{}", project.shown(&dry));
        assert_eq!(
            project.dir.read_dir().expect("as set up").count(),
            0,
            "{agent}: --dry-run wrote a file"
        );
        let out = project.run(&args);
        assert!(out.status.success(), "{}", project.shown(&out));
        let again = project.run(&[args.as_slice(), &["--dry-run"]].concat());
        assert_eq!(
            project.shown(&again),
            "Nothing to change.\n",
            "{agent}: a second run would change files"
        );
        let command = args.join(" ");
        let shown = format!(
            "$ todokit setup {command} --dry-run\n{}\n$ todokit setup {command}\n{}",
            project.shown(&dry),
            project.shown(&out)
        );
        snapshot_settings().bind(|| insta::assert_snapshot!(format!("setup_{agent}"), shown));
        if GLOBAL_ONLY.contains(&agent) {
            let refused = Project::new().run(&[agent]);
            assert_eq!(refused.status.code(), Some(2), "{agent} has no project scope");
            continue;
        }
        let global = project.run(&[agent, "--global", "--dry-run"]);
        assert!(global.status.success(), "{}", project.shown(&global));
        snapshot_settings()
            .bind(|| insta::assert_snapshot!(format!("setup_{agent}_global"), project.shown(&global)));
    }
}

/// The README's section for `agent`: what sits between its markers.
fn readme_section(agent: &str) -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
        .expect("the README");
    let start = format!("<!-- setup {agent} -->\n");
    let from = readme
        .find(&start)
        .unwrap_or_else(|| panic!("the README has no {start:?} marker"))
        + start.len();
    let to = from + readme[from..].find("<!-- /setup -->").expect("its end marker");
    readme[from..to].to_owned()
}

/// The files setup writes for `agent`, as the README shows them: a
/// project's by their path in it, the user's from `~`.
fn files_section(agent: &str) -> String {
    let project = Project::new();
    let out = project.run(&setup_args(agent));
    assert!(out.status.success(), "{}", project.shown(&out));
    let mut section = String::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut folders = vec![project.home.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("as set up").flatten() {
            if entry.path().is_dir() {
                folders.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    for file in files {
        let name = match file.strip_prefix(&project.dir) {
            Ok(inside) => inside.display().to_string(),
            Err(_) => format!(
                "~/{}",
                file.strip_prefix(&project.home).expect("as set up").display()
            ),
        };
        let lang = match name.rsplit('.').next() {
            Some("toml") => "toml",
            Some("yaml") => "yaml",
            _ => "json",
        };
        let text = std::fs::read_to_string(&file).expect("as set up");
        section.push_str(&format!("`{name}`:\n\n```{lang}\n{text}```\n\n"));
    }
    section
}

#[test]
fn the_readme_shows_what_setup_writes() {
    for agent in AGENTS {
        let expected = files_section(agent);
        assert_eq!(
            readme_section(agent),
            expected,
            "README.md's section for {agent} is not what setup writes"
        );
    }
}

#[test]
fn an_unreadable_file_and_the_users_own_entry_are_refused_with_nothing_written() {
    let project = Project::new();
    std::fs::write(project.dir.join("opencode.json"), "{ \"mcp\": ").expect("as set up");
    let broken = project.run(&["opencode"]);
    std::fs::create_dir_all(project.dir.join(".codex")).expect("as set up");
    let theirs = "[mcp_servers.todokit]\ncommand = \"my-todokit\"\n";
    std::fs::write(project.dir.join(".codex/config.toml"), theirs).expect("as set up");
    let taken = project.run(&["codex"]);
    assert_eq!((broken.status.code(), taken.status.code()), (Some(1), Some(1)));
    assert_eq!(
        std::fs::read_to_string(project.dir.join("opencode.json")).expect("as set up"),
        "{ \"mcp\": "
    );
    assert_eq!(
        std::fs::read_to_string(project.dir.join(".codex/config.toml")).expect("as set up"),
        theirs
    );
    let shown = format!("{}{}", project.shown(&broken), project.shown(&taken));
    snapshot_settings().bind(|| {
        insta::assert_snapshot!(
            "setup_refusals",
            shown.replace(&project.dir.display().to_string(), "PROJECT")
        )
    });
}

#[test]
fn the_command_is_the_installed_one_or_a_runner_at_this_version() {
    let version = env!("CARGO_PKG_VERSION");
    let cases = [
        (
            None,
            "/home/you/.npm/_npx/1a2b/node_modules/todokit/dist/bin.js",
            format!("[\"npx\",\"-y\",\"todokit@{version}\""),
        ),
        (
            None,
            "/home/you/.cache/uv/archive-v0/Ab1/bin/todokit",
            format!("[\"uvx\",\"todokit@{version}\""),
        ),
        (None, INSTALLED, format!("[\"{INSTALLED}\"")),
        (Some("uvx"), INSTALLED, format!("[\"uvx\",\"todokit@{version}\"")),
    ];
    for (choice, launcher, start) in cases {
        let project = Project::new();
        let mut cmd = project.setup(&["opencode"]);
        cmd.env("TODOKIT_LAUNCHER", launcher);
        if let Some(choice) = choice {
            cmd.args(["--command", choice]);
        }
        assert!(cmd.output().expect("as set up").status.success());
        let config: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(project.dir.join("opencode.json")).expect("as set up"),
        )
        .expect("as set up");
        let command = config["mcp"]["todokit"]["command"].to_string();
        assert!(command.starts_with(&start), "{launcher}: {command}");
    }
}

#[test]
fn profile_conversation_and_store_are_written_into_the_entry() {
    let project = Project::new();
    let store = project.home.join("lists");
    let out = todokit(&store)
        .args([
            "--profile",
            "claude-code",
            "--conversation",
            "shared",
            "setup",
            "claude-code",
        ])
        .current_dir(&project.dir)
        .env("HOME", &project.home)
        .env("TODOKIT_LAUNCHER", INSTALLED)
        .output()
        .expect("as set up");
    assert!(out.status.success(), "{}", project.shown(&out));
    let mcp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.dir.join(".mcp.json")).expect("as set up"))
            .expect("as set up");
    let settings: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.dir.join(".claude/settings.json")).expect("as set up"),
    )
    .expect("as set up");
    let expected_args = serde_json::json!([
        "--store",
        store,
        "--profile",
        "claude-code",
        "--conversation",
        "shared",
        "mcp"
    ]);
    assert_eq!(mcp["mcpServers"]["todokit"]["args"], expected_args);
    assert_eq!(
        settings["permissions"]["allow"],
        serde_json::json!(["mcp__todokit__TodoWrite"])
    );
}
