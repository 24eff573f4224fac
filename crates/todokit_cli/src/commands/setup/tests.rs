//! The edits on real files: what the user wrote survives setup, a second
//! run changes nothing, `--remove` gives the file back byte for byte, and
//! a file that cannot take the edits is refused with nothing written.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::document::tree::DocumentError;
use super::document::{Document, Syntax};
use super::plan::{Edit, FileEdits, PlanError, compute, keys, write};

const JSONC: &str = r#"// my settings
{
  "model": "opus", // the big one

  /* kept as written */
  "permissions": {
    "allow": [
      "Bash(ls:*)",
    ],
  },
}
"#;

const TOML: &str = r#"# my codex config
model = "gpt-5.5"   # fast

[mcp_servers.other]
command = "other"
"#;

fn json_edits(path: std::path::PathBuf) -> FileEdits {
    FileEdits {
        path,
        syntax: Syntax::Json,
        edits: vec![
            Edit::Entry {
                path: keys(&["mcpServers", "todokit"]),
                value: json!({"command": "/bin/todokit", "args": ["mcp"]}),
            },
            Edit::Setting {
                path: keys(&["useWriteTodos"]),
                value: json!(false),
            },
            Edit::Members {
                path: keys(&["permissions", "allow"]),
                values: vec![json!("mcp__todokit__TodoWrite")],
            },
        ],
        agent_keys: &[],
    }
}

fn toml_edits(path: std::path::PathBuf) -> FileEdits {
    FileEdits {
        path,
        syntax: Syntax::Toml,
        edits: vec![
            Edit::Entry {
                path: keys(&["mcp_servers", "todokit"]),
                value: json!({"command": "/bin/todokit", "args": ["mcp"], "tools": {"update_plan": {"approval_mode": "approve"}}}),
            },
            Edit::Setting {
                path: keys(&["tools", "update_plan", "enabled"]),
                value: json!(false),
            },
        ],
        agent_keys: &[],
    }
}

/// Setup, setup again, remove: the text after each step.
fn round_trip(file: &FileEdits, original: &str) -> (String, bool, String) {
    std::fs::write(&file.path, original).expect("as set up");
    let outcomes = compute(std::slice::from_ref(file), false, false).expect("as set up");
    write(&outcomes).expect("as set up");
    let written = std::fs::read_to_string(&file.path).expect("as set up");
    let again = compute(std::slice::from_ref(file), false, false).expect("as set up");
    let second_changes = again.iter().any(|o| o.changes());
    write(&compute(std::slice::from_ref(file), true, false).expect("as set up")).expect("as set up");
    (
        written,
        second_changes,
        std::fs::read_to_string(&file.path).expect("as set up"),
    )
}

#[test]
fn jsonc_keeps_the_users_comments_and_comes_back_whole() {
    let dir = tempfile::tempdir().expect("as set up");
    let file = json_edits(dir.path().join("settings.json"));
    let (written, second_changes, removed) = round_trip(&file, JSONC);
    let expected = r#"// my settings
{
  "model": "opus", // the big one

  /* kept as written */
  "permissions": {
    "allow": [
      "Bash(ls:*)",
      "mcp__todokit__TodoWrite",
    ],
  },
  "mcpServers": {
    "todokit": {
      "command": "/bin/todokit",
      "args": ["mcp"]
    }
  },
  "useWriteTodos": false,
}
"#;
    assert_eq!(written, expected);
    assert_eq!(second_changes, false);
    assert_eq!(removed, JSONC);
}

#[test]
fn toml_keeps_the_users_comments_and_comes_back_whole() {
    let dir = tempfile::tempdir().expect("as set up");
    let file = toml_edits(dir.path().join("config.toml"));
    let (written, second_changes, removed) = round_trip(&file, TOML);
    let expected = r#"# my codex config
model = "gpt-5.5"   # fast

[mcp_servers.other]
command = "other"

[mcp_servers.todokit]
command = "/bin/todokit"
args = ["mcp"]

[mcp_servers.todokit.tools.update_plan]
approval_mode = "approve"

[tools.update_plan]
enabled = false
"#;
    assert_eq!(written, expected);
    assert_eq!(second_changes, false);
    assert_eq!(removed, TOML);
}

#[test]
fn files_setup_made_are_removed_with_their_folder() {
    let dir = tempfile::tempdir().expect("as set up");
    let file = json_edits(dir.path().join(".agent/settings.json"));
    write(&compute(std::slice::from_ref(&file), false, false).expect("as set up")).expect("as set up");
    assert!(file.path.exists());
    write(&compute(std::slice::from_ref(&file), true, false).expect("as set up")).expect("as set up");
    let actual: Vec<_> = std::fs::read_dir(dir.path()).expect("as set up").collect();
    assert_eq!(actual.len(), 0);
}

#[test]
fn a_file_that_does_not_parse_is_refused_untouched() {
    let dir = tempfile::tempdir().expect("as set up");
    let json = json_edits(dir.path().join("settings.json"));
    let toml = toml_edits(dir.path().join("config.toml"));
    std::fs::write(&json.path, "{ \"model\": ").expect("as set up");
    std::fs::write(&toml.path, "[mcp_servers\n").expect("as set up");
    for file in [&json, &toml] {
        let before = std::fs::read_to_string(&file.path).expect("as set up");
        let actual = compute(std::slice::from_ref(file), false, false).expect_err("refused");
        assert!(
            matches!(
                &actual,
                PlanError::Document {
                    reason: DocumentError::Parse(_),
                    ..
                }
            ),
            "{actual}"
        );
        assert!(
            actual.to_string().contains(&file.path.display().to_string()),
            "{actual}"
        );
        assert_eq!(std::fs::read_to_string(&file.path).expect("as set up"), before);
    }
}

#[test]
fn a_key_that_is_not_an_object_is_refused() {
    let actual = Document::parse(Syntax::Json, r#"{"permission": "allow"}"#)
        .expect("as set up")
        .set(&["permission", "todowrite"], &json!("deny"))
        .expect_err("refused");
    assert_eq!(actual, DocumentError::NotAnObject("permission".into()));
    let actual = Document::parse(Syntax::Json, r#"{"permissions": {"allow": "all"}}"#)
        .expect("as set up")
        .add_member(&["permissions", "allow"], &json!("x"))
        .expect_err("refused");
    assert_eq!(actual, DocumentError::NotAList("permissions.allow".into()));
}

#[test]
fn the_users_own_todokit_entry_is_kept_unless_forced() {
    let dir = tempfile::tempdir().expect("as set up");
    let file = json_edits(dir.path().join("settings.json"));
    let theirs = "{\"mcpServers\": {\"todokit\": {\"command\": \"mine\"}}}\n";
    std::fs::write(&file.path, theirs).expect("as set up");
    let refused = compute(std::slice::from_ref(&file), false, false).expect_err("refused");
    assert!(matches!(refused, PlanError::TheirEntry { .. }), "{refused}");
    let kept = compute(std::slice::from_ref(&file), true, false).expect("as set up");
    assert_eq!(kept[0].after.as_deref(), Some(theirs));
    assert_eq!(kept[0].notes.len(), 1);
    let forced = compute(std::slice::from_ref(&file), false, true).expect("as set up");
    let doc =
        Document::parse(Syntax::Json, forced[0].after.as_deref().expect("as set up")).expect("as set up");
    assert_eq!(
        doc.get(&["mcpServers", "todokit", "command"]),
        Some(json!("/bin/todokit"))
    );
}

#[cfg(unix)]
#[test]
fn a_linked_settings_file_stays_a_link_and_its_target_is_edited() {
    let dir = tempfile::tempdir().expect("a folder");
    let target = dir.path().join("dotfiles/settings.json");
    std::fs::create_dir_all(target.parent().expect("a parent")).expect("made");
    std::fs::write(&target, JSONC).expect("written");
    let link = dir.path().join("home/.agent/settings.json");
    std::fs::create_dir_all(link.parent().expect("a parent")).expect("made");
    std::os::unix::fs::symlink(&target, &link).expect("linked");
    let file = json_edits(link.clone());
    write(&compute(std::slice::from_ref(&file), false, false).expect("computed")).expect("written");
    let linked = std::fs::symlink_metadata(&link)
        .expect("there")
        .file_type()
        .is_symlink();
    let edited = std::fs::read_to_string(&target)
        .expect("read")
        .contains("mcp__todokit__TodoWrite");
    assert_eq!((linked, edited), (true, true));
}

const YAML: &str = r#"# goose, as the user keeps it
GOOSE_PROVIDER: anthropic   # the one I pay for
extensions:
  developer:
    enabled: true
    type: platform
    name: developer
  todo:
    enabled: true
    type: platform
    name: todo
    description: "kept as quoted"
tags:
  - mine
"#;

fn yaml_edits(path: std::path::PathBuf) -> FileEdits {
    FileEdits {
        path,
        syntax: Syntax::Yaml,
        edits: vec![
            Edit::Entry {
                path: keys(&["extensions", "todokit"]),
                value: json!({"type": "stdio", "cmd": "/bin/todokit", "args": ["--profile", "goose", "mcp"], "bundled": null, "envs": {}}),
            },
            Edit::Switch {
                path: keys(&["extensions", "todo", "enabled"]),
                value: json!(false),
                restore: json!(true),
                made: json!({"enabled": false, "type": "platform", "name": "todo"}),
            },
            Edit::Members {
                path: keys(&["tags"]),
                values: vec![json!("todokit")],
            },
        ],
        agent_keys: &[],
    }
}

#[test]
fn yaml_keeps_the_users_comments_and_comes_back_whole() {
    let dir = tempfile::tempdir().expect("as set up");
    let file = yaml_edits(dir.path().join("config.yaml"));
    let (written, second_changes, removed) = round_trip(&file, YAML);
    let expected = r#"# goose, as the user keeps it
GOOSE_PROVIDER: anthropic   # the one I pay for
extensions:
  developer:
    enabled: true
    type: platform
    name: developer
  todo:
    enabled: false
    type: platform
    name: todo
    description: "kept as quoted"
  todokit:
    args:
      - '--profile'
      - goose
      - mcp
    bundled: null
    cmd: /bin/todokit
    envs: {}
    type: stdio
tags:
  - mine
  - todokit
"#;
    assert_eq!(written, expected);
    assert_eq!(second_changes, false);
    assert_eq!(removed, YAML);
}

#[test]
fn a_switch_whose_entry_is_missing_writes_it_whole_and_takes_it_back_out() {
    let dir = tempfile::tempdir().expect("as set up");
    let file = yaml_edits(dir.path().join("config.yaml"));
    let original = "GOOSE_MODE: auto\n";
    let (written, second_changes, removed) = round_trip(&file, original);
    let expected = r#"GOOSE_MODE: auto
extensions:
  todokit:
    args:
      - '--profile'
      - goose
      - mcp
    bundled: null
    cmd: /bin/todokit
    envs: {}
    type: stdio
  todo:
    enabled: false
    name: todo
    type: platform
tags:
- todokit
"#;
    assert_eq!(written, expected);
    assert_eq!(second_changes, false);
    assert_eq!(removed, original);
}

#[test]
fn yaml_that_does_not_parse_or_is_no_mapping_is_refused() {
    let actual: Vec<Option<DocumentError>> = ["extensions: [unclosed\n", "- a list\n- at the top\n"]
        .iter()
        .map(|text| Document::parse(Syntax::Yaml, text).err())
        .collect();
    assert!(
        matches!(
            actual.as_slice(),
            [Some(DocumentError::Parse(_)), Some(DocumentError::Parse(_))]
        ),
        "{actual:?}"
    );
}
