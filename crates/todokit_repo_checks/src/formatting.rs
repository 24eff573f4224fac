//! Every Rust file of the repository under rustfmt, found by path.
//!
//! `cargo fmt` formats what it reaches from each crate's roots through
//! `mod` lines; a module declared inside a macro, or a file no crate
//! declares, is never read, and a contributor's format-on-save then
//! rewrites it whole. Here each `.rs` file under `crates/` and `fuzz/` is
//! handed to rustfmt by its own path.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the check could not run.
#[derive(Debug, thiserror::Error)]
pub enum FormattingError {
    /// A folder could not be listed.
    #[error("listing {path}: {source}")]
    List {
        /// The folder.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// rustfmt could not be started.
    #[error("starting {program} (set RUSTFMT, or `rustup component add rustfmt`): {source}")]
    Start {
        /// The program tried.
        program: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// rustfmt failed for another reason than a difference (a file it
    /// cannot parse, say).
    #[error("rustfmt failed: {0}")]
    Failed(String),
    /// A file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
}

/// Every `.rs` file under `dirs` (relative to `root`), sorted, leaving out
/// build output, installed packages and hidden folders.
pub fn rust_files(root: &Path, dirs: &[&str]) -> Result<Vec<PathBuf>, FormattingError> {
    let mut found = Vec::new();
    let mut pending: Vec<PathBuf> = dirs.iter().map(|dir| root.join(dir)).collect();
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|source| FormattingError::List {
            path: dir.clone(),
            source,
        })?;
        for entry in entries {
            let entry = entry.map_err(|source| FormattingError::List {
                path: dir.clone(),
                source,
            })?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                    pending.push(path);
                }
            } else if name.ends_with(".rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The files among `files` that rustfmt (the workspace's `rustfmt.toml`,
/// edition 2024) would change, relative to `root`.
pub fn unformatted(root: &Path, files: &[PathBuf]) -> Result<Vec<String>, FormattingError> {
    let program = std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".to_owned());
    let output = Command::new(&program)
        .args([
            "--check",
            "--files-with-diff",
            "--edition",
            "2024",
            "--config-path",
        ])
        .arg(root.join("rustfmt.toml"))
        .args(files)
        .output()
        .map_err(|source| FormattingError::Start { program, source })?;
    // rustfmt --check exits 1 on a difference and names each file; any
    // other failure says so on its error stream.
    if !output.status.success() && !output.stderr.is_empty() {
        return Err(FormattingError::Failed(
            String::from_utf8_lossy(&output.stderr).into_owned(),
        ));
    }
    let mut listed: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let path = Path::new(line.trim());
            path.strip_prefix(root).unwrap_or(path).display().to_string()
        })
        .collect();
    listed.sort();
    listed.dedup();
    Ok(listed)
}

/// The most lines a Rust file of the workspace may have (AGENTS.md: files
/// of about 400 lines, 600 at most).
pub const MAX_FILE_LINES: usize = 600;

/// Each of `files` (paths relative to `root`) longer than
/// [`MAX_FILE_LINES`], with its length.
pub fn too_long(root: &Path, files: &[PathBuf]) -> Result<Vec<(String, usize)>, FormattingError> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(root.join(file)).map_err(|source| FormattingError::Read {
            path: file.clone(),
            source,
        })?;
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            found.push((file.display().to_string(), lines));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_file_no_crate_declares_is_still_checked() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let root = dir.path();
        std::fs::copy(
            crate::workspace_root().join("rustfmt.toml"),
            root.join("rustfmt.toml"),
        )
        .expect("rustfmt.toml copied");
        std::fs::create_dir_all(root.join("crates/x/src/hidden")).expect("folders");
        std::fs::create_dir_all(root.join("crates/x/target")).expect("folders");
        std::fs::write(root.join("crates/x/src/lib.rs"), "pub fn f() {}\n").expect("written");
        std::fs::write(root.join("crates/x/src/hidden/loose.rs"), "pub fn g( ) {   }\n").expect("written");
        std::fs::write(root.join("crates/x/target/built.rs"), "fn  h() {}\n").expect("written");
        let fixture = rust_files(root, &["crates"]).expect("listed");
        let actual = unformatted(root, &fixture).expect("rustfmt ran");
        let expected = vec!["crates/x/src/hidden/loose.rs".to_owned()];
        assert_eq!(actual, expected);
    }
}
