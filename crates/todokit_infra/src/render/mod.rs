//! Showing a list to a person: markdown, plain text and ANSI terminal.
//!
//! Everything here is meant to be printed, so model-written text always
//! passes through [`sanitize`] first: escape sequences, bells and the like
//! arrive on the terminal as visible, inert symbols.

mod ansi;
mod plain;
mod sanitize;

use todokit_domain::TodoState;
use todokit_domain::checklist::Checklist;

pub use ansi::{AnsiOptions, Glyphs, render_ansi, status_styles};
pub use plain::render_plain;
pub use sanitize::{sanitize, steers_terminal};

/// How to show a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// The markdown checklist with a progress line.
    Markdown,
    /// Plain text with ASCII status markers.
    Text,
    /// Glyphs for a terminal, coloured when `color` is set.
    Ansi {
        /// Whether to emit colour and style escape sequences.
        color: bool,
        /// Which status symbols to use.
        glyphs: Glyphs,
    },
}

/// `state` in `format`, ending without a newline.
pub fn render(state: &TodoState, format: Format) -> String {
    match format {
        Format::Markdown => render_markdown(state),
        Format::Text => render_plain(state),
        Format::Ansi { color, glyphs } => render_ansi(state, AnsiOptions { color, glyphs }),
    }
}

/// The markdown checklist (the same one `forge` shows the model), with
/// model text made safe for a terminal.
pub fn render_markdown(state: &TodoState) -> String {
    Checklist::new(state).escape(sanitize).render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::snapshot_settings;
    use todokit_domain::{Phase, Status, Todo};

    /// One list with every status, a named and an implicit phase, an active
    /// form and model text that tries to smuggle escape sequences.
    pub(crate) fn mixed_list() -> TodoState {
        TodoState::new().phases(vec![
            Phase::new("").tasks(vec![Todo::new("Triage the report").status(Status::Completed)]),
            Phase::new("Build").tasks(vec![
                Todo::new("Write the parser").status(Status::Completed),
                Todo::new("Wire the store")
                    .active_form("Wiring the store")
                    .status(Status::InProgress)
                    .notes(vec![
                        "Use the lock file".to_owned(),
                        "Retry twice\n\u{1b}[2Jthen stop".to_owned(),
                    ]),
                Todo::new("Add tests"),
                Todo::new("Release \u{1b}[31mnow\u{1b}[0m\u{7}").status(Status::Blocked),
                Todo::new("Port to C").status(Status::Abandoned),
            ]),
        ])
    }

    #[test]
    fn renderings_of_a_mixed_list() {
        let fixture = mixed_list();
        snapshot_settings().bind(|| {
            insta::assert_snapshot!("render__markdown", render(&fixture, Format::Markdown));
            insta::assert_snapshot!("render__text", render(&fixture, Format::Text));
            insta::assert_snapshot!(
                "render__ansi_plain",
                render(
                    &fixture,
                    Format::Ansi {
                        color: false,
                        glyphs: Glyphs::Unicode
                    }
                )
            );
            // The escape byte is shown as \e so the snapshot stays readable.
            let coloured = render(
                &fixture,
                Format::Ansi {
                    color: true,
                    glyphs: Glyphs::Unicode,
                },
            )
            .replace('\u{1b}', "\\e");
            insta::assert_snapshot!("render__ansi_color", coloured);
            insta::assert_snapshot!("render__empty_text", render(&TodoState::new(), Format::Text));
        });
    }

    #[test]
    fn a_subtask_is_shown_under_its_parent_in_every_view() {
        let fixture = TodoState::flat(vec![
            Todo::new("Ship the export").id("e").status(Status::InProgress),
            Todo::new("Loose task").id("l"),
            Todo::new("Write the parser")
                .id("p")
                .parent("e")
                .status(Status::Completed),
            Todo::new("Read the headings").id("h").parent("p"),
        ]);
        let ansi = render(
            &fixture,
            Format::Ansi {
                color: false,
                glyphs: Glyphs::Unicode,
            },
        );
        let actual = (render(&fixture, Format::Text), ansi);
        let expected = (
            "Progress: 1/4 completed\n\n[>] Ship the export\n  [x] Write the parser\n    [ ] Read the headings\n[ ] Loose task"
                .to_owned(),
            "Progress: 1/4 completed\n\n~ Ship the export\n  ✓ Write the parser\n    ○ Read the headings\n○ Loose task"
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }
}
