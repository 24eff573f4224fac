//! The terminal view: glyphs and, when asked, colour.

use std::fmt::Write;

use anstyle::{AnsiColor, Effects, Style};
use todokit_domain::{Status, TodoState, outline, progress_line};

use super::sanitize;

/// The status symbols a terminal view uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Glyphs {
    /// `✓ ~ ○ ⊘ ✗`: in most fonts.
    #[default]
    Unicode,
    /// `x ~ o ! -`: for terminals without those characters.
    Ascii,
    /// Nerd Font icons (check circle, spinner, empty circle, ban, times circle).
    NerdFont,
}

impl Glyphs {
    /// Every set, in the order the CLI lists them.
    pub const ALL: [Glyphs; 3] = [Glyphs::Unicode, Glyphs::Ascii, Glyphs::NerdFont];

    /// The name the CLI and `TODOKIT_GLYPHS` use.
    pub fn as_str(self) -> &'static str {
        match self {
            Glyphs::Unicode => "unicode",
            Glyphs::Ascii => "ascii",
            Glyphs::NerdFont => "nerd",
        }
    }

    /// What marks text cut short: `…`, or `...` in ASCII.
    pub fn ellipsis(self) -> &'static str {
        match self {
            Glyphs::Ascii => "...",
            Glyphs::Unicode | Glyphs::NerdFont => "…",
        }
    }

    /// What separates the parts of a one-line header: ` · `, or ` | ` in
    /// ASCII.
    pub fn separator(self) -> &'static str {
        match self {
            Glyphs::Ascii => " | ",
            Glyphs::Unicode | Glyphs::NerdFont => " · ",
        }
    }

    /// What starts a note under a task: `›`, or `>` in ASCII.
    pub fn note_mark(self) -> &'static str {
        match self {
            Glyphs::Ascii => ">",
            Glyphs::Unicode | Glyphs::NerdFont => "›",
        }
    }

    /// The symbol for `status`.
    pub fn glyph(self, status: Status) -> &'static str {
        match (self, status) {
            (Glyphs::Unicode, Status::Completed) => "✓",
            (Glyphs::Unicode, Status::InProgress) => "~",
            (Glyphs::Unicode, Status::Pending) => "○",
            (Glyphs::Unicode, Status::Blocked) => "⊘",
            (Glyphs::Unicode, Status::Abandoned) => "✗",
            (Glyphs::Ascii, Status::Completed) => "x",
            (Glyphs::Ascii, Status::InProgress) => "~",
            (Glyphs::Ascii, Status::Pending) => "o",
            (Glyphs::Ascii, Status::Blocked) => "!",
            (Glyphs::Ascii, Status::Abandoned) => "-",
            (Glyphs::NerdFont, Status::Completed) => "\u{f058}",
            (Glyphs::NerdFont, Status::InProgress) => "\u{f110}",
            (Glyphs::NerdFont, Status::Pending) => "\u{f10c}",
            (Glyphs::NerdFont, Status::Blocked) => "\u{f05e}",
            (Glyphs::NerdFont, Status::Abandoned) => "\u{f057}",
        }
    }
}

impl std::str::FromStr for Glyphs {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| format!("unknown glyph set {s:?}; expected unicode, ascii or nerd"))
    }
}

/// How the terminal view is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AnsiOptions {
    /// Emit colour and style escape sequences. Callers decide from the
    /// terminal, `NO_COLOR` and the user's flags.
    pub color: bool,
    /// Which status symbols to use.
    pub glyphs: Glyphs,
}

/// The list for a terminal: a bold progress line, phase headings, and per
/// task a green `✓` (completed), yellow `~` (in progress, in bold, showing
/// its active form), grey `○` (pending), magenta `⊘` (blocked) or red `✗`
/// (abandoned, struck through); other symbols with other [`Glyphs`]. The
/// notes of the task in progress follow it, dimmed, one line each under
/// the note mark, as `todokit watch` shows them. A subtask is indented two
/// spaces under its parent.
pub fn render_ansi(state: &TodoState, options: AnsiOptions) -> String {
    let paint = |style: Style, text: &str| -> String {
        if options.color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    };
    if state.is_empty() {
        return paint(dim(), "No todos.");
    }
    let mut out = paint(Style::new().bold(), &progress_line(state));
    out.push('\n');
    for phase in state.phases.iter().filter(|p| !p.tasks.is_empty()) {
        out.push('\n');
        let base = if phase.is_implicit() {
            0
        } else {
            let heading = Style::new().bold().underline();
            let _ = writeln!(out, "{}", paint(heading, &sanitize(&phase.name)));
            2
        };
        for entry in outline(&phase.tasks) {
            let task = entry.task;
            let indent = " ".repeat(base + 2 * entry.depth);
            let text = sanitize(task.display_text());
            let glyph = options.glyphs.glyph(task.status);
            let (glyph_style, text_style) = status_styles(task.status);
            let _ = writeln!(
                out,
                "{indent}{} {}",
                paint(glyph_style, glyph),
                paint(text_style, &text)
            );
            if task.status == Status::InProgress {
                let hang = " ".repeat(glyph.chars().count() + 1);
                let mark = options.glyphs.note_mark();
                for line in task.notes.iter().flat_map(|note| note.lines()) {
                    let note = format!("{mark} {}", sanitize(line));
                    let _ = writeln!(out, "{indent}{hang}{}", paint(dim(), &note));
                }
            }
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// The styles of a task's glyph and of its text, by status: the one palette
/// every terminal view shares.
pub fn status_styles(status: Status) -> (Style, Style) {
    match status {
        Status::Completed => (color(AnsiColor::Green), dim()),
        Status::InProgress => (color(AnsiColor::Yellow).bold(), Style::new().bold()),
        Status::Pending => (grey(), Style::new()),
        Status::Blocked => (color(AnsiColor::Magenta), Style::new()),
        Status::Abandoned => (
            color(AnsiColor::Red),
            dim().effects(Effects::DIMMED | Effects::STRIKETHROUGH),
        ),
    }
}

fn color(c: AnsiColor) -> Style {
    Style::new().fg_color(Some(c.into()))
}

fn grey() -> Style {
    color(AnsiColor::BrightBlack)
}

fn dim() -> Style {
    Style::new().dimmed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::mixed_list;
    use pretty_assertions::assert_eq;

    /// Every escape sequence in `text` is one of ours: `ESC [ digits;… m`.
    fn only_our_sgr_sequences(text: &str) -> bool {
        let mut rest = text;
        while let Some(at) = rest.find('\u{1b}') {
            let tail = &rest[at + 1..];
            let Some(body) = tail.strip_prefix('[') else {
                return false;
            };
            let end = body.find('m').unwrap_or(body.len());
            if end == body.len() || !body[..end].chars().all(|c| c.is_ascii_digit() || c == ';') {
                return false;
            }
            rest = &body[end + 1..];
        }
        !text.chars().any(|c| c.is_control() && c != '\n' && c != '\u{1b}')
    }

    #[test]
    fn glyph_sets() {
        let fixture = mixed_list();
        crate::test_support::snapshot_settings().bind(|| {
            for glyphs in [Glyphs::Ascii, Glyphs::NerdFont] {
                let view = render_ansi(&fixture, AnsiOptions { color: false, glyphs });
                insta::assert_snapshot!(format!("render__ansi_glyphs_{}", glyphs.as_str()), view);
            }
        });
    }

    #[test]
    fn glyph_set_names_round_trip() {
        let actual: Vec<Glyphs> = Glyphs::ALL.iter().map(|g| g.as_str().parse().unwrap()).collect();
        let expected = Glyphs::ALL.to_vec();
        assert_eq!(actual, expected);
    }

    #[test]
    fn model_text_cannot_reach_the_terminal_as_control_characters() {
        let fixture = mixed_list();
        let actual = (
            only_our_sgr_sequences(&render_ansi(
                &fixture,
                AnsiOptions {
                    color: true,
                    ..AnsiOptions::default()
                },
            )),
            render_ansi(&fixture, AnsiOptions::default()).contains('\u{1b}'),
        );
        let expected = (true, false);
        assert_eq!(actual, expected);
    }
}
