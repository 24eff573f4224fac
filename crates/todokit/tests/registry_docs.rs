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
            let name = code_spans(&row[0]).first().cloned().unwrap_or_default();
            (name, code_spans(&row[1]))
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
