//! [`Upstream`]: which agent's tool a profile reproduces, and the exact
//! version of it that was read, so a host can pick the profile its model
//! was trained on and a reviewer can check every word against its source.

use serde::Serialize;

/// Where a profile's words were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Pin {
    /// A file of a public GitHub repository at one commit.
    Source {
        /// `owner/name` on GitHub.
        repository: &'static str,
        /// The file read (the main one, when the tool spans several).
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
    /// `path` @ `commit` (date) `` or `design note "title" (date)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (text, date) = match self {
            Pin::Source {
                repository,
                path,
                commit,
                date,
            } => (format!("`{repository}` `{path}` @ `{commit}`"), date),
            Pin::DesignNote { title, date } => (format!("design note \"{title}\""), date),
        };
        match date {
            Some(date) => write!(f, "{text} ({date})"),
            None => f.write_str(&text),
        }
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
}

impl Upstream {
    /// The pin in one short line: `owner/name@abcdef123456 (date)` or
    /// `design note "title" (date)`.
    pub fn version(&self) -> String {
        let dated = |text: String, date: Option<&str>| match date {
            Some(date) => format!("{text} ({date})"),
            None => text,
        };
        match self.pin {
            Pin::Source {
                repository,
                commit,
                date,
                ..
            } => dated(
                format!("{repository}@{}", commit.get(..12).unwrap_or(commit)),
                date,
            ),
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
            },
            ships_in: "Example CLI 1.x",
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
}
