//! The workspace's crate graph as its manifests state it, and as
//! `docs/architecture.md`'s picture draws it, so a test can hold the two
//! equal.

use std::collections::BTreeSet;
use std::path::Path;

/// A crate and the workspace crates it depends on (normal dependencies;
/// dev- and build-dependencies are not arrows of the picture).
pub type Graph = BTreeSet<(String, Option<String>)>;

/// Every crate under `crates/` as `(name, None)` and every normal
/// dependency of one on another as `(from, Some(to))`.
pub fn from_manifests(crates: &Path) -> std::io::Result<Graph> {
    let mut names = BTreeSet::new();
    let mut manifests = Vec::new();
    for entry in std::fs::read_dir(crates)? {
        let manifest = entry?.path().join("Cargo.toml");
        if manifest.is_file() {
            let text = std::fs::read_to_string(&manifest)?;
            let name = package_name(&text).ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: no package name", manifest.display()),
                )
            })?;
            names.insert(name.clone());
            manifests.push((name, text));
        }
    }
    let mut graph: Graph = names.iter().map(|n| (n.clone(), None)).collect();
    for (name, text) in manifests {
        for dependency in normal_dependencies(&text) {
            if names.contains(&dependency) {
                graph.insert((name.clone(), Some(dependency)));
            }
        }
    }
    Ok(graph)
}

/// The graph a mermaid `graph` block between `<!-- crates:begin -->` and
/// `<!-- crates:end -->` draws: `a --> b` lines are arrows, a lone name a
/// crate without any; every name on an arrow is a crate too.
pub fn from_picture(markdown: &str) -> Option<Graph> {
    let (_, rest) = markdown.split_once("<!-- crates:begin -->")?;
    let (picture, _) = rest.split_once("<!-- crates:end -->")?;
    let mut graph = Graph::new();
    for line in picture.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("```") || line.starts_with("graph ") {
            continue;
        }
        match line.split_once("-->") {
            Some((from, to)) => {
                let (from, to) = (from.trim().to_owned(), to.trim().to_owned());
                graph.insert((from.clone(), None));
                graph.insert((to.clone(), None));
                graph.insert((from, Some(to)));
            }
            None => {
                graph.insert((line.to_owned(), None));
            }
        }
    }
    Some(graph)
}

fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package && let Some(value) = line.strip_prefix("name") {
            return Some(
                value
                    .trim_start()
                    .strip_prefix('=')?
                    .trim()
                    .trim_matches('"')
                    .to_owned(),
            );
        }
    }
    None
}

/// The names of the `[dependencies]` table's entries (including
/// platform-specific `[target.….dependencies]` tables).
fn normal_dependencies(manifest: &str) -> Vec<String> {
    entries_of(manifest, "dependencies]")
}

/// The names of the `[dev-dependencies]` table's entries (including
/// platform-specific ones).
fn dev_dependencies(manifest: &str) -> Vec<String> {
    entries_of(manifest, "dev-dependencies]")
}

/// The names of the entries of the tables `[<table>` and
/// `[target.….<table>`, `table` ending in `]`.
fn entries_of(manifest: &str, table: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line.strip_prefix('[') == Some(table)
                || (line.starts_with("[target.") && line.ends_with(&format!(".{table}")));
        } else if in_dependencies && let Some((name, _)) = line.split_once('=') {
            // `name.workspace = true` and `name = {...}` alike.
            let name = name
                .trim()
                .split('.')
                .next()
                .unwrap_or_default()
                .trim_matches('"');
            if !name.is_empty() && !name.starts_with('#') {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// Every pair of workspace crates that depend on each other, in their
/// normal or their tests' dependencies (`(a, b)` with `a < b`): a crate's
/// tests may use a crate of its own layer (the dialects' tests use the
/// stores), but never one that uses it back, so packaging can order them
/// and a change to one never rebuilds the other's tests in a loop.
pub fn mutual_dependencies(crates: &Path) -> std::io::Result<Vec<(String, String)>> {
    let mut arrows = BTreeSet::new();
    for entry in std::fs::read_dir(crates)? {
        let manifest = entry?.path().join("Cargo.toml");
        if manifest.is_file() {
            let text = std::fs::read_to_string(&manifest)?;
            let Some(name) = package_name(&text) else {
                continue;
            };
            for dependency in normal_dependencies(&text)
                .into_iter()
                .chain(dev_dependencies(&text))
            {
                arrows.insert((name.clone(), dependency));
            }
        }
    }
    Ok(arrows
        .iter()
        .filter(|(from, to)| from < to && arrows.contains(&(to.clone(), from.clone())))
        .cloned()
        .collect())
}

/// The workspace's layers, lowest first: a crate may depend only on crates
/// of a lower layer, so two crates of one layer (the stores and the
/// dialects) never depend on each other.
pub const LAYERS: &[&[&str]] = &[
    &["todokit_domain"],
    &["todokit_app"],
    &["todokit_dialects", "todokit_infra"],
    &["todokit"],
    &["todokit_mcp"],
    &["todokit_cli"],
    &["todokit_binding"],
    &["todokit_python", "todokit_node"],
];

/// The arrows of `graph` that do not point to a lower layer (or name a
/// crate no layer holds), as `(from, to)`.
pub fn arrows_not_pointing_down(graph: &Graph) -> Vec<(String, String)> {
    let layer = |name: &str| LAYERS.iter().position(|layer| layer.contains(&name));
    graph
        .iter()
        .filter_map(|(from, to)| Some((from, to.as_ref()?)))
        .filter(|(from, to)| match (layer(from), layer(to)) {
            (Some(from), Some(to)) => from <= to,
            _ => true,
        })
        .map(|(from, to)| (from.clone(), to.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_picture_reads_as_its_crates_and_arrows() {
        let fixture =
            "intro\n<!-- crates:begin -->\n```mermaid\ngraph LR\n  a --> b\n  c\n```\n<!-- crates:end -->\n";
        let actual = from_picture(fixture);
        let expected: Graph = [
            ("a".to_owned(), None),
            ("b".to_owned(), None),
            ("c".to_owned(), None),
            ("a".to_owned(), Some("b".to_owned())),
        ]
        .into_iter()
        .collect();
        assert_eq!(actual, Some(expected));
    }

    #[test]
    fn dev_dependencies_are_read_from_their_own_tables() {
        let fixture = "[dependencies]\ny.workspace = true\n\n[dev-dependencies]\nw.workspace = true\n\n[target.'cfg(unix)'.dev-dependencies]\nv = \"1\"\n";
        let actual = (normal_dependencies(fixture), dev_dependencies(fixture));
        let expected = (vec!["y".to_owned()], vec!["w".to_owned(), "v".to_owned()]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_normal_dependencies_are_arrows() {
        let fixture = "[package]\nname = \"x\"\n\n[dependencies]\ny.workspace = true\nz = { path = \"../z\" }\n\n[dev-dependencies]\nw.workspace = true\n";
        let actual = (package_name(fixture), normal_dependencies(fixture));
        let expected = (Some("x".to_owned()), vec!["y".to_owned(), "z".to_owned()]);
        assert_eq!(actual, expected);
    }
}
