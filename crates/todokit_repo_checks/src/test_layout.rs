//! Where a crate's tests keep what they share: at most one `test_support`
//! module among its sources (beside the code its unit tests test) and at
//! most one `support` module among its integration tests
//! (`tests/all/support`), so a helper has one home a test author finds.

use std::path::{Path, PathBuf};

/// Every test-support module of the crate in `dir`: each `test_support`
/// (`.rs` or folder) under `src/`, and each `support` (`.rs` or folder)
/// under `tests/`. More than one of a kind breaks the guide's rule.
pub fn support_modules(dir: &Path) -> std::io::Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let mut unit = Vec::new();
    let mut integration = Vec::new();
    find(&dir.join("src"), "test_support", &mut unit)?;
    find(&dir.join("tests"), "support", &mut integration)?;
    Ok((unit, integration))
}

fn find(dir: &Path, name: &str, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if module && stem == name {
            found.push(path.clone());
        }
        if path.is_dir() && stem != name {
            find(&path, name, found)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn each_kind_of_support_module_is_found_wherever_it_sits() {
        let dir = tempfile::tempdir().expect("a folder");
        for file in [
            "src/test_support.rs",
            "src/a/test_support/mod.rs",
            "tests/all/support/cli.rs",
            "src/b.rs",
        ] {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folders");
            std::fs::write(path, "").expect("a file");
        }
        let (unit, integration) = support_modules(dir.path()).expect("readable");
        let relative = |paths: Vec<PathBuf>| -> Vec<String> {
            paths
                .iter()
                .map(|p| p.strip_prefix(dir.path()).unwrap_or(p).display().to_string())
                .collect()
        };
        let actual = (relative(unit), relative(integration));
        let expected = (
            vec!["src/a/test_support".to_owned(), "src/test_support.rs".to_owned()],
            vec!["tests/all/support".to_owned()],
        );
        assert_eq!(actual, expected);
    }
}
