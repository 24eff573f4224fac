//! The shown checklist: the whole list with a progress line on top,
//! `- [~]` in progress in bold, finished todos struck through, blocked and
//! abandoned ones labelled. It is the checklist the markdown renderer and
//! an MCP client's resource show a user, and the text Forge's `todo_write`
//! and `todo_read` give the model (the `forge` profile answers with it);
//! each caller decides how model text is escaped (not at all for the
//! model, made inert for a terminal).

use std::fmt::Write;

use super::markers::{Bullet, Mark, MarkerTable, Spacing};
use super::render::{Escape, progress_line, verbatim};
use crate::state::TodoState;

/// The shown checklist's markers: `- [~]` in progress in bold, finished
/// todos struck through, blocked and abandoned ones labelled.
pub const SHOWN: MarkerTable = MarkerTable {
    written: [
        Mark::plain(' '),
        Mark {
            marker: '~',
            before: "**",
            after: "**",
        },
        Mark {
            marker: '!',
            before: "",
            after: " (blocked)",
        },
        Mark {
            marker: 'x',
            before: "~~",
            after: "~~",
        },
        Mark {
            marker: '-',
            before: "~~",
            after: "~~ (abandoned)",
        },
    ],
    also_read: &[],
    bullet: Bullet::Required,
    spacing: Spacing::Exact,
};

/// A markdown checklist of a whole list: `- [ ]` pending, `- [~]` in
/// progress in bold, `- [x]` completed struck through, `- [!]` blocked,
/// `- [-]` abandoned struck through; named phases as `##` headings.
#[derive(Debug, Clone, Copy)]
pub struct Checklist<'a> {
    state: &'a TodoState,
    escape: Escape,
}

impl<'a> Checklist<'a> {
    /// A checklist of `state` that quotes model text as it is.
    pub fn new(state: &'a TodoState) -> Self {
        Self {
            state,
            escape: verbatim,
        }
    }

    /// Passes every piece of model text through `escape` first.
    pub fn escape(mut self, escape: Escape) -> Self {
        self.escape = escape;
        self
    }

    /// The checklist as markdown, ending without a newline.
    pub fn render(&self) -> String {
        if self.state.is_empty() {
            return "No todos.".to_owned();
        }
        let mut out = progress_line(self.state);
        out.push('\n');
        for phase in &self.state.phases {
            if phase.tasks.is_empty() {
                continue;
            }
            if !phase.is_implicit() {
                let _ = write!(out, "\n## {}\n", (self.escape)(&phase.name));
            }
            out.push('\n');
            for task in &phase.tasks {
                out.push_str(&SHOWN.write(task.status, &(self.escape)(&task.content)));
                out.push('\n');
            }
        }
        out.truncate(out.trim_end().len());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Phase;
    use crate::status::Status;
    use crate::todo::Todo;
    use pretty_assertions::assert_eq;
    use std::borrow::Cow;

    #[test]
    fn empty_list() {
        let fixture = TodoState::new();
        let actual = Checklist::new(&fixture).render();
        let expected = "No todos.";
        assert_eq!(actual, expected);
    }

    #[test]
    fn flat_list_with_every_status() {
        let fixture = TodoState::flat(vec![
            Todo::new("Write schema").status(Status::Completed),
            Todo::new("Wire service").status(Status::InProgress),
            Todo::new("Add tests"),
            Todo::new("Ship").status(Status::Blocked),
            Todo::new("Port to C").status(Status::Abandoned),
        ]);
        let actual = Checklist::new(&fixture).render();
        let expected = "Progress: 1/5 completed, 1 abandoned

- [x] ~~Write schema~~
- [~] **Wire service**
- [ ] Add tests
- [!] Ship (blocked)
- [-] ~~Port to C~~ (abandoned)";
        assert_eq!(actual, expected);
    }

    #[test]
    fn named_phases_get_headings_and_escaping_applies_to_all_model_text() {
        let fixture = TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![Todo::new("a")]),
            Phase::new("Empty"),
            Phase::new("Ship").tasks(vec![Todo::new("b").status(Status::Completed)]),
        ]);
        let actual = Checklist::new(&fixture)
            .escape(|s| Cow::Owned(s.to_uppercase()))
            .render();
        let expected = "Progress: 1/2 completed

## BUILD

- [ ] A

## SHIP

- [x] ~~B~~";
        assert_eq!(actual, expected);
    }

    #[test]
    fn forge_wraps_the_text_as_its_status_says() {
        let actual: Vec<String> = Status::ALL.iter().map(|s| SHOWN.write(*s, "t")).collect();
        let expected = vec![
            "- [ ] t",
            "- [~] **t**",
            "- [!] t (blocked)",
            "- [x] ~~t~~",
            "- [-] ~~t~~ (abandoned)",
        ];
        assert_eq!(actual, expected);
    }
}
