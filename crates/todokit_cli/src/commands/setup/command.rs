//! The command an agent's configuration starts todokit with: one that will
//! still be there tomorrow. That is the running program's absolute path,
//! unless it runs from a package runner's cache (`npx`, `uvx`), which may
//! be emptied at any time; then the runner with this exact version.

use std::path::{Path, PathBuf};

/// Set by the Python and npm packages' `todokit` executables to the script
/// that started the command, since the process itself is the interpreter.
pub const LAUNCHER_VARIABLE: &str = "TODOKIT_LAUNCHER";

/// How the configuration starts todokit (`--command`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Launcher {
    /// The absolute path of the todokit now running
    Path,
    /// `npx -y todokit@VERSION`, from the npm registry
    Npx,
    /// `uvx todokit@VERSION`, from PyPI
    Uvx,
}

/// The program and its leading arguments for `launcher`, or the one
/// [`detect`]ed.
pub fn launch_command(launcher: Option<Launcher>) -> Result<Vec<String>, String> {
    let version = env!("CARGO_PKG_VERSION");
    let program = running_program();
    let launcher = launcher.unwrap_or_else(|| program.as_deref().map_or(Launcher::Path, detect));
    Ok(match launcher {
        Launcher::Npx => vec!["npx".into(), "-y".into(), format!("todokit@{version}")],
        Launcher::Uvx => vec!["uvx".into(), format!("todokit@{version}")],
        Launcher::Path => {
            let program =
                program.ok_or("cannot tell where the running todokit is; name a launcher with --command")?;
            vec![program.to_string_lossy().into_owned()]
        }
    })
}

/// The launcher for a todokit started from `program`: a package runner's
/// when the program lies in its cache.
pub fn detect(program: &Path) -> Launcher {
    let parts: Vec<String> = program
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let has = |name: &str| parts.iter().any(|p| p == name);
    if has("_npx") {
        Launcher::Npx
    } else if has("uv") && (has("archive-v0") || has("builds-v0")) {
        Launcher::Uvx
    } else {
        Launcher::Path
    }
}

/// The absolute path of the program that is running as `todokit`: the
/// packages' script when they said so, else this executable when it is
/// the `todokit` binary (not an interpreter that linked the command in).
fn running_program() -> Option<PathBuf> {
    if let Some(script) = std::env::var_os(LAUNCHER_VARIABLE).filter(|s| !s.is_empty()) {
        let script = PathBuf::from(script);
        return std::path::absolute(&script).ok();
    }
    std::env::current_exe()
        .ok()
        .filter(|exe| exe.file_stem().is_some_and(|stem| stem == "todokit"))
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_program_in_a_runners_cache_is_run_by_the_runner() {
        let cases = [
            (
                "/home/u/.npm/_npx/4b2a/node_modules/todokit/dist/bin.js",
                Launcher::Npx,
            ),
            ("/home/u/.cache/uv/archive-v0/Xq1/bin/todokit", Launcher::Uvx),
            ("/home/u/.cargo/bin/todokit", Launcher::Path),
            ("/home/u/project/.venv/bin/todokit", Launcher::Path),
            ("/usr/local/lib/node_modules/todokit/dist/bin.js", Launcher::Path),
        ];
        let actual: Vec<_> = cases
            .iter()
            .map(|(path, _)| (*path, detect(Path::new(path))))
            .collect();
        let expected: Vec<_> = cases.to_vec();
        assert_eq!(actual, expected);
    }
}
