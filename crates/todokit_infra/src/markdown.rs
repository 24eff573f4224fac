//! The markdown round trip a user edits by hand: each phase as `# name`,
//! each task as `- [m] content` (m: ` ` pending, `/` in progress, `x`
//! completed, `-` abandoned, `!` blocked), each note as `  > text`.
//!
//! Import also takes `>` for in progress, `~` for abandoned, `X` for
//! completed, `*` for `-` bullets, any number of `#` for a heading, and
//! unindented `>` notes; tasks before the first heading go to a `Todos`
//! phase; the result is normalized to one task in progress.
//!
//! The format is lossless for names, contents, statuses and notes. What
//! plain markdown cannot carry is escaped with a backslash: `\\` a
//! backslash, `\n` a line break, `\r` a carriage return, `\t` a tab, `\s` a
//! space and `\u{hex}` any other character at the start or end of a text
//! (where editors strip whitespace) or any control character, and `\#` a
//! `#` at the start of a phase name. An unnamed phase (a flat list) is a
//! bare `#`. Ids, priorities, owners, metadata and times are not in the
//! text; an import keeps them for the tasks whose content did not change.

use std::fmt::Write;

use todokit_app::{ImportError, MarkdownCodec};
use todokit_domain::checklist::{LineError, PI};
use todokit_domain::{Phase, Timestamp, Todo, TodoState, normalize_in_progress};

/// The phase that collects tasks written before any heading.
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

/// The list as markdown, ending with a newline (empty for an empty list).
pub fn export(state: &TodoState) -> String {
    let mut out = String::new();
    for (i, phase) in state.phases.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let name = escape(&phase.name);
        let name = match name.strip_prefix('#') {
            Some(rest) => format!("\\#{rest}"),
            None => name,
        };
        if name.is_empty() {
            out.push_str("#\n");
        } else {
            let _ = writeln!(out, "# {name}");
        }
        for task in &phase.tasks {
            let _ = writeln!(out, "{}", PI.write(task.status, &escape(&task.content)));
            for note in &task.notes {
                if note.is_empty() {
                    out.push_str("  >\n");
                } else {
                    let _ = writeln!(out, "  > {}", escape(note));
                }
            }
        }
    }
    out
}

/// A list from markdown, normalized at `now`, or the first problem with
/// its line number.
pub fn import(text: &str, now: Timestamp) -> Result<TodoState, ImportError> {
    let mut state = TodoState::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let fail = |message: String| ImportError { line, message };
        let trimmed = raw.trim_end();
        let content = trimmed.trim_start();
        if content.is_empty() {
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#');
            let heading = heading.strip_prefix(' ').unwrap_or(heading);
            let name = unescape(heading).map_err(fail)?;
            if state.phases.iter().any(|p| p.name == name) {
                return Err(fail(format!("phase \"{name}\" appears twice")));
            }
            state.phases.push(Phase::new(name));
        } else if let Some((status, body)) = PI.parse(content).map_err(|e| fail(line_error(e, content)))? {
            let text = unescape(body).map_err(fail)?;
            if text.trim().is_empty() {
                return Err(fail("the task has no text".to_owned()));
            }
            if state.tasks().any(|t| t.content == text) {
                return Err(fail(format!(
                    "task \"{text}\" appears twice; task texts must be unique"
                )));
            }
            if state.phases.is_empty() {
                state.phases.push(Phase::new(DEFAULT_PHASE));
            }
            if let Some(phase) = state.phases.last_mut() {
                phase.tasks.push(Todo::new(text).status(status));
            }
        } else if let Some(note) = content.strip_prefix('>') {
            let note = note.strip_prefix(' ').unwrap_or(note);
            let note = unescape(note).map_err(fail)?;
            let task = state
                .phases
                .last_mut()
                .and_then(|p| p.tasks.last_mut())
                .ok_or_else(|| fail("a `>` note must follow a task".to_owned()))?;
            task.notes.push(note);
        } else {
            return Err(fail(format!(
                "expected a `# phase` heading, a `- [ ] task` or an indented `> note`, got \"{}\"",
                todokit_domain::clip(content)
            )));
        }
    }
    normalize_in_progress(&mut state, now);
    Ok(state)
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

/// `text` on one line, safe from editors that trim.
pub fn escape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let lead = chars.iter().take_while(|c| c.is_whitespace()).count();
    let trail = chars.len() - chars.iter().rev().take_while(|c| c.is_whitespace()).count();
    let mut out = String::with_capacity(text.len());
    for (i, c) in chars.iter().copied().enumerate() {
        let edge = i < lead || i >= trail.max(lead);
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' ' if edge => out.push_str("\\s"),
            c if c.is_control() || (edge && c.is_whitespace()) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// The text an [`escape`]d line stands for.
pub fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('s') => out.push(' '),
            Some('#') => out.push('#'),
            Some('u') => {
                let rest = chars.as_str();
                let decoded =
                    rest.strip_prefix('{')
                        .and_then(|r| r.split_once('}'))
                        .and_then(|(hex, tail)| {
                            Some((char::from_u32(u32::from_str_radix(hex, 16).ok()?)?, tail))
                        });
                let Some((c, tail)) = decoded else {
                    return Err("`\\u` must be followed by `{hex}` naming a character".to_owned());
                };
                out.push(c);
                chars = tail.chars();
            }
            Some(other) => {
                return Err(format!(
                    "unknown escape `\\{other}`: write `\\\\` for a backslash"
                ));
            }
            None => {
                return Err("a line cannot end with a single `\\`: write `\\\\` for a backslash".to_owned());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::snapshot_settings;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;
    use todokit_domain::Status;

    fn sample() -> TodoState {
        TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![
                Todo::new("Scaffold the crate").status(Status::Completed),
                Todo::new("Wire the store").status(Status::InProgress).notes(vec![
                    "Behind a trait.".to_owned(),
                    "Line one\n\nline three".to_owned(),
                ]),
                Todo::new("  **Bold** - [x] not a marker  "),
            ]),
            Phase::new("#hashtag phase").tasks(vec![
                Todo::new("Ship \\ it\ttoday").status(Status::Abandoned),
                Todo::new("Wait for review").status(Status::Blocked),
            ]),
        ])
    }

    #[test]
    fn export_text() {
        snapshot_settings().bind(|| insta::assert_snapshot!("markdown__export", export(&sample())));
    }

    #[test]
    fn the_sample_round_trips() {
        let fixture = sample();
        let actual = import(&export(&fixture), 0);
        let expected = Ok(fixture);
        assert_eq!(actual, expected);
    }

    #[test]
    fn import_accepts_the_other_markers_orphans_and_loose_notes() {
        let fixture = "- [>] first\n> loose note\n\n## Later\n* [~] dropped\n- [X] done\n";
        let actual = import(fixture, 0);
        let expected = Ok(TodoState::new().phases(vec![
            Phase::new(DEFAULT_PHASE).tasks(vec![
                Todo::new("first")
                    .status(Status::InProgress)
                    .notes(vec!["loose note".to_owned()]),
            ]),
            Phase::new("Later").tasks(vec![
                Todo::new("dropped").status(Status::Abandoned),
                Todo::new("done").status(Status::Completed),
            ]),
        ]));
        assert_eq!(actual, expected);
    }

    #[test]
    fn import_normalizes_to_one_task_in_progress() {
        let fixture = "# A\n- [/] a\n- [/] b\n- [ ] c\n";
        let actual = import(fixture, 7).map(|s| s.tasks().map(|t| t.status).collect::<Vec<_>>());
        let expected = Ok(vec![Status::InProgress, Status::Pending, Status::Pending]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_malformed_line_kind_is_reported_with_its_line() {
        let cases = [
            ("# A\n- [ ] a\nstray text\n", 3),
            ("# A\n- [?] a\n", 2),
            ("# A\n- [ ]\n", 2),
            ("# A\n- [x\n", 2),
            ("  > orphan note\n", 1),
            ("# A\n- [ ] a\n- [ ] a\n", 3),
            ("# A\n# A\n", 2),
            ("# A\n- [ ] bad \\q escape\n", 2),
            ("# A\n- [ ] trailing \\\n", 2),
            ("# A\n- [ ] \\u{zz}\n", 2),
        ];
        let actual: Vec<Result<TodoState, ImportError>> =
            cases.iter().map(|(text, _)| import(text, 0)).collect();
        let lines: Vec<Option<usize>> = actual.iter().map(|r| r.as_ref().err().map(|e| e.line)).collect();
        let expected: Vec<Option<usize>> = cases.iter().map(|(_, line)| Some(*line)).collect();
        assert_eq!(lines, expected);
        let messages: Vec<String> = actual
            .into_iter()
            .filter_map(|r| r.err())
            .map(|e| e.to_string())
            .collect();
        snapshot_settings().bind(|| insta::assert_snapshot!("markdown__import_errors", messages.join("\n")));
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[ -~]{0,20}",
            prop::collection::vec(
                prop_oneof![
                    Just("#".to_owned()),
                    Just("- [x] ".to_owned()),
                    Just("\n".to_owned()),
                    Just("\n\n".to_owned()),
                    Just("  ".to_owned()),
                    Just("\\".to_owned()),
                    Just("> ".to_owned()),
                    Just("\u{a0}".to_owned()),
                    Just("\r\n".to_owned()),
                    Just("é🦀".to_owned()),
                    "[a-z]{1,5}",
                ],
                0..8
            )
            .prop_map(|parts| parts.concat()),
        ]
    }

    fn status() -> impl Strategy<Value = Status> {
        prop::sample::select(Status::ALL.to_vec())
    }

    /// Any list the format claims to carry: unique phase names, unique
    /// non-blank task texts, any notes; normalized, as every stored `pi`
    /// list is.
    fn state() -> impl Strategy<Value = TodoState> {
        prop::collection::vec(
            (
                text(),
                prop::collection::vec((text(), status(), prop::collection::vec(text(), 0..3)), 0..4),
            ),
            0..4,
        )
        .prop_map(|phases| {
            let mut state = TodoState::new();
            for (i, (name, tasks)) in phases.into_iter().enumerate() {
                let mut phase = Phase::new(format!("{name}{i}"));
                for (j, (content, status, notes)) in tasks.into_iter().enumerate() {
                    phase.tasks.push(
                        Todo::new(format!("{content}#{i}.{j}"))
                            .status(status)
                            .notes(notes),
                    );
                }
                state.phases.push(phase);
            }
            normalize_in_progress(&mut state, 0);
            // Times are not part of the text.
            for task in state.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
                task.status_changed_at = None;
            }
            state
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn export_then_import_gives_back_the_same_list(fixture in state()) {
            let actual = import(&export(&fixture), 0);
            prop_assert_eq!(actual, Ok(fixture));
        }

        #[test]
        fn escaping_round_trips_any_text(fixture in text()) {
            let escaped = escape(&fixture);
            prop_assert!(!escaped.contains('\n') && escaped.trim() == escaped);
            prop_assert_eq!(unescape(&escaped), Ok(fixture));
        }
    }
}
