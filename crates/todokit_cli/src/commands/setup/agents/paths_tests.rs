//! Where setup writes with `--global` on each system, run with each
//! system's layout under a made-up home folder and no environment
//! variables set: the table in docs/agents.md is this test's output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use super::AGENTS;
use super::inputs::{Inputs, System};

const SYSTEMS: [(System, &str, &str); 3] = [
    (System::Linux, "Linux", "/home/you"),
    (System::MacOs, "macOS", "/Users/you"),
    (System::Windows, "Windows", r"C:\Users\you"),
];

/// `path` as the system's users write it: `~/…`, or on Windows
/// `%APPDATA%\…` and `%USERPROFILE%\…`.
fn shown(path: &Path, system: System, home: &str) -> String {
    let text = path.to_string_lossy();
    let rest = text
        .strip_prefix(home)
        .unwrap_or_else(|| panic!("{text} is under the home folder"));
    match system {
        System::Windows => {
            let rest = rest.replace('/', r"\");
            match rest.strip_prefix(r"\AppData\Roaming") {
                Some(roaming) => format!("`%APPDATA%{roaming}`"),
                None => format!("`%USERPROFILE%{rest}`"),
            }
        }
        System::Linux | System::MacOs => format!("`~{rest}`"),
    }
}

fn table() -> String {
    let mut out = String::from("| agent | Linux | macOS | Windows |\n|---|---|---|---|\n");
    for agent in AGENTS {
        let cells: Vec<String> = SYSTEMS
            .iter()
            .map(|&(system, _, home)| {
                let inputs = Inputs {
                    global: true,
                    project: PathBuf::from("/project"),
                    home: PathBuf::from(home),
                    command: vec!["todokit".to_owned(), "mcp".to_owned()],
                    tools: vec!["TodoWrite".to_owned()],
                    system,
                    environment: BTreeMap::new(),
                };
                let files: Vec<String> = agent
                    .plan(&inputs)
                    .iter()
                    .map(|file| shown(&file.path, system, home))
                    .collect();
                files.join(", ")
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", agent.name, cells.join(" | ")));
    }
    out
}

#[test]
fn docs_agents_md_shows_each_systems_folders_as_setup_uses_them() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/agents.md");
    let text = std::fs::read_to_string(&path).expect("docs/agents.md");
    let (_, after) = text
        .split_once("<!-- paths:begin -->\n")
        .expect("docs/agents.md has <!-- paths:begin -->");
    let (shown, _) = after
        .split_once("<!-- paths:end -->")
        .expect("docs/agents.md has <!-- paths:end -->");
    assert_eq!(shown, table(), "docs/agents.md's table of folders per system");
}
