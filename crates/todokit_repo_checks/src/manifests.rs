//! One version and one home for everything todokit publishes: the
//! workspace manifest states them, and every crate, the Python project and
//! the npm package take them from there.

use std::path::Path;

/// What the workspace manifest's `[workspace.package]` table says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Home {
    /// `version`.
    pub version: String,
    /// `repository`.
    pub repository: String,
    /// `homepage`.
    pub homepage: String,
    /// `documentation`.
    pub documentation: String,
}

/// The `key = "value"` pairs of one TOML table, by its header line.
fn table_values(toml: &str, header: &str) -> Vec<(String, String)> {
    let mut inside = false;
    let mut values = Vec::new();
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == header;
        } else if inside && let Some((key, value)) = line.split_once('=') {
            values.push((key.trim().to_owned(), value.trim().trim_matches('"').to_owned()));
        }
    }
    values
}

/// The workspace's [`Home`], from the manifest text `toml`.
pub fn workspace_home(toml: &str) -> Home {
    let values = table_values(toml, "[workspace.package]");
    let get = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    Home {
        version: get("version"),
        repository: get("repository"),
        homepage: get("homepage"),
        documentation: get("documentation"),
    }
}

/// Each way `root`'s manifests part from the workspace's version and home,
/// in words; empty when they all agree.
pub fn disagreements(root: &Path) -> std::io::Result<Vec<String>> {
    let home = workspace_home(&std::fs::read_to_string(root.join("Cargo.toml"))?);
    let mut found = Vec::new();
    if home.version.is_empty()
        || home.repository.is_empty()
        || home.homepage.is_empty()
        || home.documentation.is_empty()
    {
        found.push(format!("Cargo.toml: [workspace.package] lacks one of version, repository, homepage, documentation: {home:?}"));
    }
    let mut crates: Vec<_> = std::fs::read_dir(root.join("crates"))?
        .filter_map(Result::ok)
        .map(|e| e.path().join("Cargo.toml"))
        .filter(|p| p.is_file())
        .collect();
    crates.sort();
    for manifest in crates {
        let package = table_values(&std::fs::read_to_string(&manifest)?, "[package]");
        for key in ["version", "repository", "homepage", "documentation"] {
            let inherited = package
                .iter()
                .any(|(k, v)| *k == format!("{key}.workspace") && v == "true");
            if !inherited {
                found.push(format!(
                    "{}: {key} is not taken from the workspace",
                    manifest.display()
                ));
            }
        }
    }
    let pyproject = std::fs::read_to_string(root.join("crates/todokit_python/pyproject.toml"))?;
    let project = table_values(&pyproject, "[project]");
    if !project
        .iter()
        .any(|(k, v)| k == "dynamic" && v.contains("\"version"))
    {
        found.push("pyproject.toml: the version is not taken from Cargo (dynamic)".to_owned());
    }
    let urls = table_values(&pyproject, "[project.urls]");
    for (key, expected) in [
        ("Homepage", &home.homepage),
        ("Repository", &home.repository),
        ("Documentation", &home.documentation),
    ] {
        let actual = urls.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        if actual != Some(expected.as_str()) {
            found.push(format!(
                "pyproject.toml: [project.urls] {key} is {actual:?}, not {expected:?}"
            ));
        }
    }
    let package: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
        root.join("crates/todokit_node/package.json"),
    )?)
    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("package.json: {e}")))?;
    let git = format!("git+{}.git", home.repository);
    for (pointer, expected) in [
        ("/version", &home.version),
        ("/homepage", &home.homepage),
        ("/repository/url", &git),
    ] {
        let actual = package.pointer(pointer).and_then(serde_json::Value::as_str);
        if actual != Some(expected.as_str()) {
            found.push(format!("package.json: {pointer} is {actual:?}, not {expected:?}"));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_workspace_home_is_read_from_its_own_table_only() {
        let fixture = "[workspace.package]\nversion = \"1.2.3\"\nrepository = \"https://example.org/r\"\nhomepage = \"https://example.org\"\ndocumentation = \"https://docs.rs/x\"\n\n[workspace.dependencies]\nversion = \"9\"\n";
        let actual = workspace_home(fixture);
        let expected = Home {
            version: "1.2.3".to_owned(),
            repository: "https://example.org/r".to_owned(),
            homepage: "https://example.org".to_owned(),
            documentation: "https://docs.rs/x".to_owned(),
        };
        assert_eq!(actual, expected);
    }
}
