//! The Python package's native module and the npm package's addon, built
//! one after the other for one target, share every compiled dependency
//! only when each dependency resolves to the same features in both builds:
//! cargo compiles a crate again for any other feature set. napi-rs asks for
//! features of crates the rest of the tree uses too, so `todokit_binding`
//! asks for the same ones; this finds a dependency on which the two
//! packages' builds have come to disagree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Each crate (`name version`, marked `(proc-macro)` when it is one) and
/// the features it is built with, from `cargo tree`'s `{p}|{f}` lines.
pub fn features_by_crate(tree: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut crates: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in tree.lines() {
        // `(*)` marks a crate already shown; a path in parentheses marks a
        // workspace member, which is not shared and not compared.
        let line = line.trim_end().trim_end_matches("(*)").trim_end();
        let Some((package, features)) = line.split_once('|') else {
            continue;
        };
        if package.contains(" (/") {
            continue;
        }
        let entry = crates.entry(package.trim().to_owned()).or_default();
        entry.extend(
            features
                .split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_owned),
        );
    }
    crates
}

/// The crates both trees build whose features differ, one line each:
/// `name version: a [..], b [..]`.
pub fn differences(
    a: (&str, &BTreeMap<String, BTreeSet<String>>),
    b: (&str, &BTreeMap<String, BTreeSet<String>>),
) -> Vec<String> {
    let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(",");
    a.1.iter()
        .filter_map(|(package, features)| {
            let other = b.1.get(package)?;
            (other != features).then(|| {
                format!(
                    "{package}: {} [{}], {} [{}]",
                    a.0,
                    list(features),
                    b.0,
                    list(other)
                )
            })
        })
        .collect()
}

/// The dependency tree of `package` for this machine's target as cargo
/// resolves it when building that package alone (normal and build
/// dependencies, with features), run in the workspace at `root`.
pub fn tree(root: &Path, package: &str) -> std::io::Result<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root)
        .args(["tree", "--locked", "--target", "host-tuple", "-e", "normal,build"])
        .args(["--prefix", "none", "--format", "{p}|{f}", "-p", package])
        .output()?;
    if !output.status.success() {
        return Err(std::io::Error::other(format!(
            "cargo tree -p {package} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    String::from_utf8(output.stdout).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_tree_reads_as_each_crates_features_without_workspace_members() {
        let fixture = "todokit_node v0.1.0 (/w/crates/todokit_node)|\n\
                       futures v0.3.34|async-await,default,executor,std\n\
                       syn v3.0.9 (proc-macro)|\n\
                       futures v0.3.34|async-await,default,executor,std (*)\n";
        let actual = features_by_crate(fixture);
        let expected = BTreeMap::from([
            (
                "futures v0.3.34".to_owned(),
                set(&["async-await", "default", "executor", "std"]),
            ),
            ("syn v3.0.9 (proc-macro)".to_owned(), set(&[])),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_crates_in_both_trees_with_other_features_differ() {
        let python = BTreeMap::from([
            ("futures v0.3.34".to_owned(), set(&["std"])),
            ("pyo3 v0.28.0".to_owned(), set(&["abi3"])),
            ("serde v1.0.0".to_owned(), set(&["std"])),
        ]);
        let node = BTreeMap::from([
            ("futures v0.3.34".to_owned(), set(&["executor", "std"])),
            ("napi v3.16.1".to_owned(), set(&["napi1"])),
            ("serde v1.0.0".to_owned(), set(&["std"])),
        ]);
        let actual = differences(("python", &python), ("node", &node));
        let expected = vec!["futures v0.3.34: python [std], node [executor,std]".to_owned()];
        assert_eq!(actual, expected);
    }
}
