//! The markdown a user edits by hand, in oh-my-pi's format: each phase as
//! `# name`, each task as `- [m] content` (` ` pending, `/` in progress,
//! `x` completed, `-` abandoned, `!` blocked, with ` <!-- blocker: reason
//! -->` after it when the task says what it waits on, as oh-my-pi's `todo`
//! writes it), each line of a note as `  > line` (its `todo_write`), a bare
//! `  >` between two notes of one task, a blank line between phases, and
//! `# Todos` for an empty list. Text is written as it is: a backslash is a
//! backslash.
//!
//! Import reads what oh-my-pi reads: any of `#` to `######` for a heading,
//! `-`, `*` or `+` bullets, `X` for completed, `>` for in progress, `~` for
//! abandoned, `[]` for pending; consecutive `>` lines are one note and a
//! bare `>` ends it; tasks before any heading go to a `Todos` phase (see
//! below for the one exception); the result is normalized to one task in
//! progress. It is stricter in one way: a line it cannot read, a repeated
//! task or a repeated phase refuses the whole import, naming the line.
//!
//! ## The lossless extension
//!
//! Some lists cannot be said in oh-my-pi's format: a blank line inside a
//! note (a bare `>` ends the note), text with leading or trailing spaces
//! (the format trims), a line break in a task or phase name, control
//! characters (and the invisible or direction-changing characters that
//! could hide text on a terminal), an empty note, a `<!--` in a blocked
//! task's text, a flat list's unnamed phase.
//! For those alone, this format uses line forms oh-my-pi never writes but
//! reads as nearly the same thing:
//!
//! - `## name`, `+ [m] content` and `  >> line`: the text after the marker
//!   is escaped ([`escape`]): `\\` a backslash, `\n` a line break, `\s` a
//!   space at either end, `\u{hex}` a control character. oh-my-pi reads
//!   them as a heading, a task and a note line (starting with `>`).
//! - `  >>` alone: an empty line inside a note (or an empty note).
//! - On a `+ [!]` line, a blocker comment's reason is escaped too, and a
//!   `<!--` in the text is written `\u{3c}!--`, so it cannot be taken for
//!   the comment.
//! - A flat list (one unnamed phase, as the flat profiles keep it): its
//!   tasks with no heading, and tasks with no heading and no phase after
//!   them read back as a flat list (oh-my-pi would put them in `Todos`, but
//!   it never writes a task before a heading). An unnamed phase among named
//!   ones is a bare `##`.
//! - A lone empty phase named `Todos` is `## Todos`, since `# Todos` alone
//!   is the empty list.
//!
//! Ids, parents, types, priorities, owners, metadata and times are not in
//! the text; an import keeps them for the tasks whose content did not
//! change.

mod escape;

pub use escape::{escape, unescape};

use std::collections::HashSet;

use crate::render::steers_terminal;
use todokit_app::{ImportError, MarkdownCodec};
use todokit_domain::checklist::LineError;
use todokit_domain::checklist::PHASED as PI;
use todokit_domain::{Phase, Status, Timestamp, Todo, TodoState, normalize_in_progress};

/// The phase of an empty list, and of tasks written before any heading in
/// a file oh-my-pi would read.
pub const DEFAULT_PHASE: &str = "Todos";

/// The `pi` markdown format; see the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct PiMarkdown;

impl MarkdownCodec for PiMarkdown {
    fn export(&self, state: &TodoState) -> String {
        export(state)
    }

    fn import(&self, text: &str, now: Timestamp) -> Result<TodoState, ImportError> {
        import(text, now)
    }
}

/// True when `text` can be written as it is on one line that oh-my-pi
/// reads back the same: not empty, no space at either end, no control
/// character.
fn says_itself(text: &str) -> bool {
    !text.is_empty() && text.trim() == text && !text.chars().any(|c| c.is_control() || steers_terminal(c))
}

/// True when one line of a note can be written as `  > line`: not empty
/// (a bare `>` ends a note) and no control character but a tab.
fn note_line_says_itself(line: &str) -> bool {
    !line.is_empty()
        && !line
            .chars()
            .any(|c| c != '\t' && (c.is_control() || steers_terminal(c)))
}

/// The list as markdown, ending with a newline.
pub fn export(state: &TodoState) -> String {
    if state.phases.is_empty() {
        return format!("# {DEFAULT_PHASE}\n");
    }
    let mut lines: Vec<String> = Vec::new();
    for (i, phase) in state.phases.iter().enumerate() {
        let flat_head = state.phases.len() == 1 && phase.is_implicit() && !phase.tasks.is_empty();
        if i > 0 {
            lines.push(String::new());
        }
        if !flat_head {
            lines.push(heading(phase, state.phases.len()));
        }
        for task in &phase.tasks {
            lines.push(task_line(task));
            for (j, note) in task.notes.iter().enumerate() {
                if j > 0 {
                    lines.push("  >".to_owned());
                }
                for line in note.split('\n') {
                    lines.push(match note_line_says_itself(line) {
                        true => format!("  > {line}"),
                        false if line.is_empty() => "  >>".to_owned(),
                        false => format!("  >> {}", escape(line)),
                    });
                }
            }
        }
    }
    lines.push(String::new());
    lines.join("\n")
}

fn heading(phase: &Phase, phases: usize) -> String {
    // A lone empty `Todos` phase would read back as the empty list.
    let lone_empty_default = phases == 1 && phase.name == DEFAULT_PHASE && phase.tasks.is_empty();
    match says_itself(&phase.name) && !lone_empty_default {
        true => format!("# {}", phase.name),
        false => format!("## {}", escape(&phase.name)).trim_end().to_owned(),
    }
}

fn task_line(task: &Todo) -> String {
    let blocked = task.status == Status::Blocked;
    let blocker = task.blocked_reason.as_deref().filter(|_| blocked);
    // On a `[!]` line a `<!--` in the text would read as the blocker's start.
    let plain = says_itself(&task.content)
        && !(blocked && task.content.contains(COMMENT_OPEN))
        && blocker.is_none_or(says_itself);
    let mut line = match plain {
        true => PI.write(task.status, &task.content),
        false => {
            let content = escape(&task.content).replace(COMMENT_OPEN, "\\u{3c}!--");
            format!("+{}", &PI.write(task.status, &content)[1..])
        }
    };
    if let Some(reason) = blocker {
        let reason = if plain { reason.to_owned() } else { escape(reason) };
        line.push_str(&format!(" {COMMENT_OPEN} {BLOCKER} {reason} {COMMENT_CLOSE}"));
    }
    line
}

/// The blocker comment a blocked task's line may end with:
/// `<!-- blocker: reason -->`.
const COMMENT_OPEN: &str = "<!--";
const BLOCKER: &str = "blocker:";
const COMMENT_CLOSE: &str = "-->";

/// A `[!]` line's text split into the task's text and the reason its
/// trailing blocker comment gives (the first `<!--` that starts one), as
/// oh-my-pi's `markdownToPhases` splits it; the text alone when it has none.
fn split_blocker(body: &str) -> (&str, Option<&str>) {
    let Some(inner) = body.strip_suffix(COMMENT_CLOSE) else {
        return (body, None);
    };
    let found = inner.match_indices(COMMENT_OPEN).find_map(|(at, _)| {
        let reason = inner[at + COMMENT_OPEN.len()..]
            .trim_start()
            .strip_prefix(BLOCKER)?;
        Some((inner[..at].trim_end(), reason.trim()))
    });
    match found {
        Some((content, reason)) => (content, Some(reason)),
        None => (body, None),
    }
}

/// A list from markdown, normalized at `now`, or the first problem with
/// its line number.
pub fn import(text: &str, now: Timestamp) -> Result<TodoState, ImportError> {
    let mut reader = Reader::default();
    for (index, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        reader.line(raw).map_err(|message| ImportError {
            line: index + 1,
            message,
        })?;
    }
    let mut state = reader.finish();
    normalize_in_progress(&mut state, now);
    Ok(state)
}

/// Reads a file line by line, keeping the note being gathered.
#[derive(Default)]
struct Reader {
    state: TodoState,
    /// Lines of the note being gathered for the last task.
    note: Option<Vec<String>>,
    /// Whether a task can take notes (the last line was a task or a note).
    in_task: bool,
    /// Whether the file has a plain `# Todos` heading (the empty list's).
    plain_default: bool,
    /// Whether the first phase holds tasks written before any heading.
    orphans: bool,
    /// The task texts and phase names read so far: a repeat is refused at
    /// the cost of one look-up, not a pass over the list (a file may hold
    /// many thousands of lines).
    task_texts: HashSet<String>,
    phase_names: HashSet<String>,
}

impl Reader {
    fn line(&mut self, raw: &str) -> Result<(), String> {
        // As in oh-my-pi, a note line keeps what follows `>` to its very end.
        if let Some(rest) = raw.trim_start().strip_prefix('>')
            && self.in_task
        {
            return self.note_line(rest);
        }
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        self.flush_note();
        if let Some(rest) = trimmed.strip_prefix('#') {
            return self.heading(rest);
        }
        if trimmed.starts_with('>') {
            return Err("a `>` note must follow a task".to_owned());
        }
        self.task(trimmed)
    }

    fn note_line(&mut self, rest: &str) -> Result<(), String> {
        if let Some(escaped) = rest.strip_prefix('>') {
            let line = unescape(escaped.strip_prefix(' ').unwrap_or(escaped))?;
            self.note.get_or_insert_with(Vec::new).push(line);
            return Ok(());
        }
        // One space (or tab) after `>` belongs to the marker, as in oh-my-pi.
        let line = rest.strip_prefix([' ', '\t']).unwrap_or(rest);
        if line.is_empty() {
            self.flush_note();
        } else {
            self.note.get_or_insert_with(Vec::new).push(line.to_owned());
        }
        Ok(())
    }

    fn flush_note(&mut self) {
        let Some(lines) = self.note.take() else {
            return;
        };
        if let Some(task) = self.state.phases.last_mut().and_then(|p| p.tasks.last_mut()) {
            task.notes.push(lines.join("\n"));
        }
    }

    fn heading(&mut self, rest: &str) -> Result<(), String> {
        self.in_task = false;
        let level = 1 + rest.chars().take_while(|c| *c == '#').count();
        let text = rest.trim_start_matches('#');
        if level > 6 || !(text.is_empty() || text.starts_with(char::is_whitespace)) {
            return Err(format!(
                "expected `# phase name`, got \"#{}\"",
                todokit_domain::clip(rest)
            ));
        }
        let text = text.trim();
        let name = match level {
            1 if text.is_empty() => return Err("the heading has no phase name".to_owned()),
            1 => text.to_owned(),
            _ => unescape(text)?,
        };
        // Tasks before the first heading form oh-my-pi's `Todos` phase.
        if std::mem::take(&mut self.orphans)
            && let Some(first) = self.state.phases.first_mut()
        {
            first.name = DEFAULT_PHASE.to_owned();
            self.phase_names.insert(DEFAULT_PHASE.to_owned());
        }
        if !self.phase_names.insert(name.clone()) {
            return Err(format!("phase \"{}\" appears twice", todokit_domain::clip(&name)));
        }
        self.plain_default |= level == 1 && name == DEFAULT_PHASE;
        self.state.phases.push(Phase::new(name));
        Ok(())
    }

    fn task(&mut self, trimmed: &str) -> Result<(), String> {
        let Some((status, body)) = PI.parse(trimmed).map_err(|e| line_error(e, trimmed))? else {
            let message = match trimmed.starts_with(['-', '*', '+']) {
                true => "expected `[m]` after the bullet",
                false => "expected a `# phase` heading, a `- [ ] task` or an indented `> note`",
            };
            return Err(format!("{message}, got \"{}\"", todokit_domain::clip(trimmed)));
        };
        // A `+` bullet marks the extension's escaped text.
        let escaped = trimmed.starts_with('+');
        let (body, reason) = match status {
            Status::Blocked => split_blocker(body.trim()),
            _ => (body.trim(), None),
        };
        let (content, reason) = match escaped {
            true => (unescape(body)?, reason.map(unescape).transpose()?),
            false => (body.to_owned(), reason.map(str::to_owned)),
        };
        if content.is_empty() {
            return Err("the task has no text".to_owned());
        }
        if !self.task_texts.insert(content.clone()) {
            return Err(format!(
                "task \"{}\" appears twice; task texts must be unique",
                todokit_domain::clip(&content)
            ));
        }
        if self.state.phases.is_empty() {
            // Before any heading: a flat list, unless a heading follows
            // (then oh-my-pi's `Todos`, named in `heading`).
            self.state.phases.push(Phase::new(Phase::IMPLICIT));
            self.orphans = true;
        }
        if let Some(phase) = self.state.phases.last_mut() {
            let mut task = Todo::new(content).status(status);
            task.blocked_reason = reason;
            phase.tasks.push(task);
        }
        self.in_task = true;
        Ok(())
    }

    fn finish(mut self) -> TodoState {
        self.flush_note();
        let mut state = self.state;
        // `# Todos` alone is the empty list.
        let lone_default = state.phases.len() == 1
            && state.phases[0].name == DEFAULT_PHASE
            && state.phases[0].tasks.is_empty();
        if lone_default && self.plain_default {
            state.phases.clear();
        }
        state
    }
}

/// What is wrong with a line that starts like a task.
fn line_error(error: LineError, content: &str) -> String {
    match error {
        LineError::BadBox => format!("expected `[m]` with one marker character, got \"{content}\""),
        LineError::UnknownMarker(mark) => format!(
            "unknown status marker `{mark}`: use ` ` (pending), `/` or `>` (in progress), \
             `x` (completed), `-` or `~` (abandoned), `!` (blocked)"
        ),
    }
}

#[cfg(test)]
mod tests;
