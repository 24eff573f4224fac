//! The headers of committed insta snapshots: each names the source file of
//! the test that writes it (`source:`), and that file must exist. A header
//! left from before a file moved misleads every reviewer of a snapshot diff.

use std::path::Path;

/// One snapshot whose header is stale: its file name and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleHeader {
    /// The snapshot's file name.
    pub snapshot: String,
    /// What is wrong with its header.
    pub problem: String,
}

/// Every snapshot in `dir` whose header has no `source:` or names a file
/// that is not under `root`.
pub fn stale_headers(dir: &Path, root: &Path) -> std::io::Result<Vec<StaleHeader>> {
    let mut stale = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".snap") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path())?;
        if let Some(problem) = header_problem(&text, root) {
            stale.push(StaleHeader {
                snapshot: name,
                problem,
            });
        }
    }
    Ok(stale)
}

/// What is wrong with one snapshot's header, if anything.
fn header_problem(text: &str, root: &Path) -> Option<String> {
    let header = text.strip_prefix("---\n")?.split("\n---\n").next()?;
    let source = header.lines().find_map(|line| line.strip_prefix("source: "));
    match source {
        None => Some("no `source:` line".to_owned()),
        Some(path) if !root.join(path.trim()).is_file() => {
            Some(format!("`source: {}` names no file", path.trim()))
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_header_naming_a_missing_file_or_none_is_stale() {
        let root = crate::workspace_root();
        let fixture = [
            "---\nsource: crates/todokit_repo_checks/src/snapshots.rs\n---\nbody\n",
            "---\nsource: crates/gone/src/lib.rs\n---\nbody\n",
            "---\nexpression: x\n---\nbody\n",
        ];
        let actual: Vec<Option<String>> = fixture.iter().map(|t| header_problem(t, &root)).collect();
        let expected = vec![
            None,
            Some("`source: crates/gone/src/lib.rs` names no file".to_owned()),
            Some("no `source:` line".to_owned()),
        ];
        assert_eq!(actual, expected);
    }
}
