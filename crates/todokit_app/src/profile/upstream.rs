//! [`Upstream`]: which agent's tool a profile reproduces, and the exact
//! version of it that was read, so a host can pick the profile its model
//! was trained on and a reviewer can check every word against its source.

use serde::Serialize;

/// Where a profile's words were read: three kinds a reviewer can check
/// (`docs/dialects.md` says how), and a design note for a tool no agent
/// published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Pin {
    /// A file of the agent's own public repository, at a commit reachable
    /// from its default branch (never a pull request's).
    Source {
        /// `owner/name` on GitHub: the agent's own repository.
        repository: &'static str,
        /// The file read (the main one, when the tool spans several).
        path: &'static str,
        /// The full commit hash read.
        commit: &'static str,
        /// The commit's date (`YYYY-MM-DD`), when it could be established.
        date: Option<&'static str>,
        /// The copy (fork or mirror, `owner/name`) the commit was read
        /// through, when the repository itself could not be read at it. A
        /// hash names a commit and its whole history, so a copy carrying
        /// the same hash on a main line that merges the repository's
        /// carries exactly that commit. `None`: read in the repository.
        read_through: Option<&'static str>,
    },
    /// A file inside a published package: for an open agent whose own
    /// repository could not be read at the version that matters.
    Package {
        /// The registry (`npm`, `pypi`, `crates.io`).
        registry: &'static str,
        /// The package's name there.
        name: &'static str,
        /// The version read.
        version: &'static str,
        /// The file read, inside the package.
        path: &'static str,
        /// The sha256 of the package's archive as the registry serves it.
        sha256: &'static str,
    },
    /// A public capture of a closed agent's prompt or tool list: a file of
    /// the repository that published it, at one commit.
    Capture {
        /// `owner/name` on GitHub.
        repository: &'static str,
        /// The captured file.
        path: &'static str,
        /// The full commit hash read.
        commit: &'static str,
        /// The commit's date (`YYYY-MM-DD`), when it could be established.
        date: Option<&'static str>,
    },
    /// A design note with no public source to pin (the tool is described,
    /// not published).
    DesignNote {
        /// The note's title.
        title: &'static str,
        /// The date the note gives, if any (`YYYY-MM-DD`).
        date: Option<&'static str>,
    },
}

impl std::fmt::Display for Pin {
    /// The pin in full, as `docs/dialects.md` shows it: `` `owner/name`
    /// `path` @ `commit` (date) `` (then `` , read through `copy/name` ``
    /// for a commit read through a copy), `` capture `owner/name` `path` @
    /// `commit` ``, `` npm `name` `version` `path` (sha256 `…`) `` or
    /// `design note "title" (date)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (text, date) = match self {
            Pin::Source {
                repository,
                path,
                commit,
                date,
                read_through,
            } => {
                let text = format!("`{repository}` `{path}` @ `{commit}`");
                return match (date, read_through) {
                    (Some(date), Some(copy)) => write!(f, "{text} ({date}), read through `{copy}`"),
                    (None, Some(copy)) => write!(f, "{text}, read through `{copy}`"),
                    (Some(date), None) => write!(f, "{text} ({date})"),
                    (None, None) => f.write_str(&text),
                };
            }
            Pin::Capture {
                repository,
                path,
                commit,
                date,
            } => (format!("capture `{repository}` `{path}` @ `{commit}`"), date),
            Pin::Package {
                registry,
                name,
                version,
                path,
                sha256,
            } => (
                format!("{registry} `{name}` `{version}` `{path}` (sha256 `{sha256}`)"),
                &None,
            ),
            Pin::DesignNote { title, date } => (format!("design note \"{title}\""), date),
        };
        match date {
            Some(date) => write!(f, "{text} ({date})"),
            None => f.write_str(&text),
        }
    }
}

/// When a profile's pin was last compared with its upstream, and with
/// what: the newest main-line commit (or capture commit, or published
/// version) that could be read that day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// The day of the comparison (`YYYY-MM-DD`).
    pub date: &'static str,
    /// The commit (full hash) or version it was compared against.
    pub against: &'static str,
}

impl std::fmt::Display for Checked {
    /// `2026-11-26 against 51316ead4a43` (a commit shortened to 12 digits).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let is_commit = self.against.len() == 40 && self.against.bytes().all(|b| b.is_ascii_hexdigit());
        let against = if is_commit {
            &self.against[..12]
        } else {
            self.against
        };
        write!(f, "{} against {against}", self.date)
    }
}

/// The upstream tool a profile matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Upstream {
    /// The agent or library that ships the tool.
    pub agent: &'static str,
    /// The version read.
    pub pin: Pin,
    /// Who meets this tool: products, releases or models.
    pub ships_in: &'static str,
    /// When the pin was last compared with the upstream's main line;
    /// `None` where it could not be (`docs/dialects.md` says why).
    pub checked: Option<Checked>,
}

impl Upstream {
    /// The pin in one short line: `owner/name@abcdef123456 (date)` (then
    /// `via copy/name` for a commit read through a copy),
    /// `capture owner/name@abcdef123456`, `npm name@version` or
    /// `design note "title" (date)`.
    pub fn version(&self) -> String {
        let dated = |text: String, date: Option<&str>| match date {
            Some(date) => format!("{text} ({date})"),
            None => text,
        };
        let short = |commit: &'static str| commit.get(..12).unwrap_or(commit);
        match self.pin {
            Pin::Source {
                repository,
                commit,
                date,
                read_through,
                ..
            } => {
                let line = dated(format!("{repository}@{}", short(commit)), date);
                match read_through {
                    Some(copy) => format!("{line} via {copy}"),
                    None => line,
                }
            }
            Pin::Capture {
                repository,
                commit,
                date,
                ..
            } => dated(format!("capture {repository}@{}", short(commit)), date),
            Pin::Package {
                registry,
                name,
                version,
                ..
            } => format!("{registry} {name}@{version}"),
            Pin::DesignNote { title, date } => dated(format!("design note \"{title}\""), date),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_version_line_names_the_repository_short_commit_and_date() {
        let source = Upstream {
            agent: "Example CLI",
            pin: Pin::Source {
                repository: "example/cli",
                path: "src/todo.ts",
                commit: "0123456789abcdef0123456789abcdef01234567",
                date: Some("2026-08-21"),
                read_through: None,
            },
            ships_in: "Example CLI 1.x",
            checked: None,
        };
        let note = Upstream {
            pin: Pin::DesignNote {
                title: "Todo tool",
                date: None,
            },
            ..source
        };
        let actual = (source.version(), note.version());
        let expected = (
            "example/cli@0123456789ab (2026-08-21)".to_owned(),
            "design note \"Todo tool\"".to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_commit_read_through_a_copy_names_the_copy_after_the_repository() {
        let copied = Pin::Source {
            repository: "example/cli",
            path: "src/todo.ts",
            commit: "0123456789abcdef0123456789abcdef01234567",
            date: Some("2026-08-21"),
            read_through: Some("someone/cli"),
        };
        let upstream = Upstream {
            agent: "Example CLI",
            pin: copied,
            ships_in: "Example CLI 1.x",
            checked: None,
        };
        let actual = (copied.to_string(), upstream.version());
        let expected = (
            "`example/cli` `src/todo.ts` @ `0123456789abcdef0123456789abcdef01234567` (2026-08-21), read through \
             `someone/cli`"
                .to_owned(),
            "example/cli@0123456789ab (2026-08-21) via someone/cli".to_owned(),
        );
        assert_eq!(actual, expected);
    }
}
