//! The documents that list the profiles are checked against the registry,
//! so a profile cannot be added, renamed or given a new tool without the
//! README and `docs/leniency.md` saying so.

use std::path::Path;

use pretty_assertions::assert_eq;
use todokit::profiles;

fn workspace_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of the first table under `heading`, as their cells.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|line| line.trim() != heading)
        .skip(1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// Every `` `code` `` span in a cell.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn the_readme_lists_every_profile_with_its_tools_in_registry_order() {
    let readme = workspace_file("README.md");
    let actual: Vec<(String, Vec<String>)> = table_rows(&readme, "## Profiles")
        .iter()
        .map(|row| {
            // profile | agent | tools | shape
            let name = code_spans(&row[0]).first().cloned().unwrap_or_default();
            (name, code_spans(&row[2]))
        })
        .collect();
    let expected: Vec<(String, Vec<String>)> = profiles::all()
        .iter()
        .map(|p| {
            let tools = p.tool_names().into_iter().map(str::to_owned).collect();
            (p.name().to_owned(), tools)
        })
        .collect();
    assert_eq!(actual, expected);
}

#[test]
fn the_leniency_document_covers_every_profile_in_registry_order() {
    let leniency = workspace_file("docs/leniency.md");
    let actual: Vec<String> = table_rows(&leniency, "## Per profile")
        .iter()
        .map(|row| code_spans(&row[0]).first().cloned().unwrap_or_default())
        .collect();
    let expected: Vec<String> = profiles::names().into_iter().map(str::to_owned).collect();
    assert_eq!(actual, expected);
}

/// `bytes` as people read a size: `8 KiB`, `200 B`, `1.5 MiB`.
fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

/// The per-profile table of `docs/limits.md`, from the registry.
fn limits_table() -> String {
    let mut out = String::from(
        "| profile | tasks | content | active form | id | description, note, reason | any one text | whole-list text | one array |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for profile in profiles::all() {
        let limits = profile.rules().limits;
        let gate = profile.size_limits();
        let list_text = match gate.list_text_fields.as_slice() {
            [] => "—".to_owned(),
            fields => format!(
                "{}: {}",
                fields
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                size(gate.list_text_bytes)
            ),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} items |\n",
            profile.name(),
            limits.max_items,
            size(limits.max_content_bytes),
            size(limits.max_active_form_bytes),
            size(limits.max_id_bytes),
            size(limits.max_description_bytes),
            size(gate.item_text_bytes),
            list_text,
            gate.array_items,
        ));
    }
    out
}

#[test]
fn docs_limits_lists_every_profiles_limits_as_the_code_sets_them() {
    let doc = workspace_file("docs/limits.md");
    let committed = doc
        .split_once("<!-- limits:begin -->\n")
        .and_then(|(_, rest)| rest.split_once("<!-- limits:end -->"))
        .map(|(table, _)| table.to_owned());
    let shared = format!(
        "item text {}, array slack {}, values per item {}, quoted {} characters, positions {}, problems {}",
        size(todokit::app::ITEM_TEXT_BYTES),
        todokit::app::ARRAY_SLACK,
        todokit::app::VALUES_PER_ITEM,
        todokit::domain::MAX_QUOTED_CHARS,
        todokit::domain::MAX_LISTED_POSITIONS,
        todokit::domain::MAX_REPORTED_VIOLATIONS,
    );
    let stated = doc
        .split_once("<!-- shared:begin -->\n")
        .and_then(|(_, rest)| rest.split_once("\n<!-- shared:end -->"))
        .map(|(line, _)| line.to_owned());
    let actual = (committed, stated);
    let expected = (Some(limits_table()), Some(shared));
    if std::env::var_os("TODOKIT_UPDATE_DOCS").is_some() {
        eprintln!(
            "{}\n{}",
            expected.0.as_deref().unwrap_or_default(),
            expected.1.as_deref().unwrap_or_default()
        );
    }
    assert_eq!(
        actual, expected,
        "docs/limits.md is stale: its tables are generated from the registry"
    );
}

/// The body of the first fenced block of `text` whose info string is
/// `info`.
fn fenced<'a>(text: &'a str, info: &str) -> Option<&'a str> {
    let start = text.find(&format!("\n```{info}\n"))? + info.len() + 5;
    let end = text[start..].find("\n```\n")? + start + 1;
    Some(&text[start..end])
}

#[test]
fn docs_your_own_dialect_shows_the_example_that_runs_and_its_transcript() {
    let doc = workspace_file("docs/your-own-dialect.md");
    let example = workspace_file("crates/todokit/examples/own_dialect.rs");
    let snapshot = workspace_file("snapshots/own_dialect__tests__example__own_dialect_transcript.snap");
    let transcript = snapshot.splitn(3, "---\n").nth(2).unwrap_or_default();
    let actual = (fenced(&doc, "rust"), fenced(&doc, "text"));
    let expected = (Some(example.as_str()), Some(transcript));
    assert_eq!(
        actual, expected,
        "docs/your-own-dialect.md must show examples/own_dialect.rs and its transcript as they are"
    );
}

/// `make bench` compares `pi` with oh-my-pi's own `todo_write`, unpacked
/// from the npm package the Makefile names. The profile is pinned to a
/// commit (its words), the bench to that package (its speed): where the pin
/// is shown, `docs/dialects.md` names the package and its checksum.
#[test]
fn the_benchmarked_oh_my_pi_package_is_named_where_the_pi_pin_is_shown() {
    let makefile = workspace_file("Makefile");
    let dialects = workspace_file("docs/dialects.md");
    let value = |key: &str| {
        makefile
            .lines()
            .find_map(|line| {
                line.strip_prefix(key)?
                    .trim_start()
                    .strip_prefix(":=")
                    .map(str::trim)
            })
            .map(str::to_owned)
    };
    let package = value("OMP_PACKAGE").unwrap_or_default();
    let sha256 = value("OMP_SHA256").unwrap_or_default();
    let pi_paragraph = dialects
        .split("\n\n")
        .find(|paragraph| paragraph.contains("`make bench`") && paragraph.contains("`pi`"))
        .unwrap_or_default();
    let actual = (
        !package.is_empty() && pi_paragraph.contains(&format!("`{package}`")),
        !sha256.is_empty() && pi_paragraph.contains(&sha256),
    );
    let expected = (true, true);
    assert_eq!(actual, expected);
}
