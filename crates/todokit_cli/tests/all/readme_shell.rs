//! The README's shell recipes, run by bash with the built `todokit` first
//! on `PATH`, in a temporary folder: the quick start's `todokit setup`
//! lines, the command-line tour as written, the board's first line, and
//! the fleet recipe with the test database's URL and free ports in place
//! of the example's names. The install lines
//! (cargo, pip, npm) are what `make test` itself runs.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use pretty_assertions::assert_eq;

/// The README's `sh` blocks, in order.
fn shell_blocks() -> Vec<String> {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(readme).expect("the README");
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        match (&mut open, line) {
            (None, "```sh") => open = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                open = None;
            }
            (Some(block), line) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

/// The one block that holds `marker`.
fn block_with(marker: &str) -> String {
    let found: Vec<String> = shell_blocks()
        .into_iter()
        .filter(|b| b.contains(marker))
        .collect();
    assert_eq!(found.len(), 1, "one README sh block holds {marker:?}");
    found.into_iter().next().unwrap_or_default()
}

/// `PATH` with the built binary's folder first.
fn path_with_todokit() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_todokit"));
    let folder = bin.parent().map(Path::to_path_buf).unwrap_or_default();
    format!(
        "{}:{}",
        folder.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// bash running `script` in `dir`, no store named by the environment.
fn bash(dir: &Path, script: &str) -> Command {
    let mut command = Command::new("bash");
    command
        .args(["-c", script])
        .current_dir(dir)
        .env("PATH", path_with_todokit())
        .env_remove("TODOKIT_STORE")
        .env_remove("TODOKIT_CONVERSATION")
        .env_remove("TODOKIT_PROFILE")
        .env_remove("XDG_DATA_HOME");
    command
}

#[test]
fn the_quick_starts_setup_lines_run_as_written() {
    let block = block_with("todokit setup claude-code");
    let root = tempfile::tempdir().expect("temp dir");
    let home = root.path().join("home");
    let project = home.join("my-project");
    std::fs::create_dir_all(&project).expect("the project");
    let out = bash(&project, &format!("set -e\n{block}"))
        .env("HOME", &home)
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CRUSH_GLOBAL_CONFIG")
        .env_remove("COPILOT_HOME")
        .output()
        .expect("bash runs");
    let written = [
        ".mcp.json",
        ".claude/settings.json",
        ".codex/config.toml",
        ".gemini/settings.json",
        ".qwen/settings.json",
        "opencode.json",
        "crush.json",
        "../.copilot/mcp-config.json",
    ];
    let missing: Vec<&str> = written
        .iter()
        .copied()
        .filter(|file| !project.join(file).is_file())
        .collect();
    let actual = (out.status.code(), missing);
    let expected = (Some(0), Vec::<&str>::new());
    assert_eq!(actual, expected, "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_command_line_tour_runs_as_written() {
    let block = block_with("todokit --store \"$D\" check");
    let dir = tempfile::tempdir().expect("temp dir");
    // Each line's status, as the tour's reader sees it.
    let traced = block
        .lines()
        .map(|line| format!("{line}\necho \"status $?\"\n"))
        .collect::<String>();
    let out = bash(dir.path(), &traced).output().expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let statuses: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("status "))
        .collect();
    let actual = (
        statuses,
        stdout.contains("exit 3"),
        stdout.contains("Run tests"),
        std::fs::read_to_string(dir.path().join("plan.md"))
            .unwrap_or_default()
            .contains("Scaffold"),
    );
    let expected = (vec!["0"; 8], true, true, true);
    assert_eq!(
        actual,
        expected,
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_board_recipe_prints_its_address_first() {
    let block = block_with("todokit serve ");
    let first = block.lines().next().unwrap_or_default();
    // The recipe's port may be taken on a test machine: a free one instead.
    let command = first.replacen("todokit serve", "todokit serve --bind 127.0.0.1:0", 1);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = bash(dir.path(), &format!("exec {command}"))
        .env("HOME", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("bash runs");
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = BufReader::new(out).read_line(&mut line);
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("todokit serve: the board is at http://127.0.0.1:"),
        "{line}"
    );
}

#[test]
fn the_fleet_recipe_starts_two_servers_on_one_database() {
    let Ok(url) = std::env::var("TODOKIT_TEST_POSTGRES_TLS_URL") else {
        panic!(
            "TODOKIT_TEST_POSTGRES_TLS_URL must name a TLS-only test database: run the tests with `make test`"
        )
    };
    let block = block_with("--token-file tokens");
    let ports = free_ports();
    let example_url = block
        .lines()
        .find_map(|line| line.strip_prefix("URL='"))
        .and_then(|rest| rest.strip_suffix('\''))
        .unwrap_or_default()
        .to_owned();
    let script = block
        .replace(&example_url, &url)
        .replace("127.0.0.1:7421", &format!("127.0.0.1:{}", ports[0]))
        .replace("127.0.0.1:7422", &format!("127.0.0.1:{}", ports[1]));
    let dir = tempfile::tempdir().expect("temp dir");
    // The recipe starts both in the background; bash waits for them, and
    // is stopped (with them, one process group) at the end.
    let mut child = bash(dir.path(), &format!("{script}\nwait\n"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("bash runs");
    let healthy: Vec<u16> = ports
        .iter()
        .map(|port| {
            let address = format!("127.0.0.1:{port}");
            let mut status = 0;
            // Up to 30 s: a loaded machine starts two servers on TLS slowly.
            for _ in 0..300 {
                if std::net::TcpStream::connect(&address).is_ok() {
                    let headers = [("Host", "todo.example.com")];
                    status =
                        crate::support::serve::request(&address, "GET", "/healthz", &headers, None).status;
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            status
        })
        .collect();
    let acme = format!("127.0.0.1:{}", ports[1]);
    let auth = [
        ("Host", "todo.example.com"),
        ("Authorization", "Bearer 3f9c2a1e7b"),
    ];
    let listed = crate::support::serve::request(&acme, "GET", "/api/conversations", &auth, None).status;
    // The whole group: bash and both servers.
    let _ = Command::new("kill")
        .args(["-s", "TERM", "--", &format!("-{}", child.id())])
        .status();
    let _ = child.wait();
    assert_eq!((healthy, listed), (vec![200, 200], 200));
}

/// Two ports nothing listens on now.
fn free_ports() -> [u16; 2] {
    let bound = [0, 1].map(|_| std::net::TcpListener::bind("127.0.0.1:0").ok());
    bound.map(|listener| {
        listener
            .and_then(|listener| listener.local_addr().ok())
            .map_or(0, |address| address.port())
    })
}
