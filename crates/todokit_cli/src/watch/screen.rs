//! The screen `todokit watch` draws: always the size of the pane.
//!
//! The header (conversation, profile, store) and the progress line come
//! first; then the list. When the list does not fit, completed and
//! abandoned tasks collapse into one line per phase (`✓ 10 completed`); when
//! it still does not fit, what is left over is counted on a last line
//! (`… 12 more`), and the task in progress is kept in view whatever its
//! place. Text wraps between words with a hanging indent. Model text goes
//! through `sanitize`, so it can never steer the terminal.

use anstyle::Style;
use todokit::domain::{OutlineEntry, outline};
use todokit::infra::render::{Glyphs, sanitize, status_styles};
use todokit::{Status, Todo, TodoState};

use super::wrap::{clip, truncate, width, wrap};

/// The most rows the plan's explanation takes.
const MAX_EXPLANATION_ROWS: usize = 3;

/// What the screen shows besides the list, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScreenSpec {
    /// The pane's width in columns.
    pub width: usize,
    /// The pane's height in rows.
    pub height: usize,
    /// The conversation shown.
    pub conversation: String,
    /// The profile its tools speak.
    pub profile: String,
    /// Where the list is stored, as the user named it.
    pub store: String,
    /// Show each task's id (`#3`), as the profile's agent does.
    pub ids: bool,
    /// Status symbols.
    pub glyphs: Glyphs,
    /// Colour and style escape sequences.
    pub color: bool,
}

/// One task, or a phase heading, or a collapsed run: the lines it takes
/// and how many tasks it stands for.
struct Block {
    lines: Vec<String>,
    tasks: usize,
    /// Kept in view whatever else is cut: the task in progress and the
    /// heading of its phase.
    pinned: bool,
}

/// The rows of the screen for `state` (or the error reading it), at most
/// `spec.height` of them, each at most `spec.width` columns wide.
pub fn screen(state: &Result<TodoState, String>, spec: &ScreenSpec) -> Vec<String> {
    let paint = |style: Style, text: &str| paint(spec.color, style, text);
    let ellipsis = spec.glyphs.ellipsis();
    // The profile whose tools made the last change (another agent may
    // share the conversation), else the one the view was started with.
    let profile = match state {
        Ok(TodoState {
            profile: Some(profile),
            ..
        }) => sanitize(profile).into_owned(),
        _ => spec.profile.clone(),
    };
    let header = [
        "todokit watch",
        &sanitize(&spec.conversation),
        &profile,
        &sanitize(&spec.store),
    ]
    .join(spec.glyphs.separator());
    let mut rows = vec![paint(
        Style::new().dimmed(),
        &truncate(&header, spec.width, ellipsis),
    )];
    let body = match state {
        Err(error) => wrap(
            &format!("cannot read the list: {}", sanitize(error)),
            spec.width,
            spec.width,
        ),
        Ok(state) if state.is_empty() => vec![paint(Style::new().dimmed(), "No todos.")],
        Ok(state) => {
            let progress = todokit::domain::progress_line(state);
            rows.push(paint(
                Style::new().bold(),
                &truncate(&progress, spec.width, ellipsis),
            ));
            // Why the plan last changed (Codex's explanation), above the
            // plan as Codex shows it; at most three rows of it.
            if let Some(explanation) = state.explanation.as_deref() {
                let mut lines = wrap(&sanitize(explanation), spec.width, spec.width);
                if lines.len() > MAX_EXPLANATION_ROWS {
                    lines.truncate(MAX_EXPLANATION_ROWS);
                    if let Some(last) = lines.last_mut() {
                        *last = truncate(&format!("{last} {ellipsis}"), spec.width, ellipsis);
                    }
                }
                rows.extend(
                    lines
                        .iter()
                        .map(|line| paint(Style::new().italic().dimmed(), line)),
                );
            }
            rows.push(String::new());
            let room = spec.height.saturating_sub(rows.len());
            fit(state, spec, room)
        }
    };
    rows.extend(body);
    rows.truncate(spec.height);
    // Panes narrower than a glyph and a word: cut what still sticks out,
    // colour or not, rather than let the terminal wrap it and scroll.
    for row in &mut rows {
        *row = clip(row, spec.width);
    }
    rows
}

/// The list's rows in at most `room` rows.
fn fit(state: &TodoState, spec: &ScreenSpec, room: usize) -> Vec<String> {
    let rows = |blocks: &[Block]| blocks.iter().map(|b| b.lines.len()).sum::<usize>();
    let full = blocks(state, spec, false);
    if rows(&full) <= room {
        return full.into_iter().flat_map(|b| b.lines).collect();
    }
    let collapsed = blocks(state, spec, true);
    if rows(&collapsed) <= room {
        return collapsed.into_iter().flat_map(|b| b.lines).collect();
    }
    cut(collapsed, spec, room)
}

/// Keeps blocks in order while they fit, always the pinned ones, and counts
/// the rest on a last `… N more` row.
fn cut(blocks: Vec<Block>, spec: &ScreenSpec, room: usize) -> Vec<String> {
    let summary_row = 1;
    let mut pinned_left: usize = blocks.iter().filter(|b| b.pinned).map(|b| b.lines.len()).sum();
    let mut out = Vec::new();
    let mut hidden = 0;
    let mut cutting = false;
    for mut block in blocks {
        if block.pinned {
            pinned_left -= block.lines.len();
            // A pinned block taller than what is left loses its last lines
            // (its notes) before anything else goes.
            let left = room.saturating_sub(out.len() + pinned_left + summary_row);
            block.lines.truncate(left.max(1));
            out.extend(block.lines);
            continue;
        }
        let fits = out.len() + block.lines.len() + pinned_left + summary_row <= room;
        if cutting || !fits {
            cutting = true;
            hidden += block.tasks;
            continue;
        }
        out.extend(block.lines);
    }
    if hidden > 0 {
        let more = format!("{} {hidden} more", spec.glyphs.ellipsis());
        out.push(paint(spec.color, Style::new().dimmed(), &more));
    }
    out.truncate(room);
    out
}

/// The list as blocks, with finished tasks collapsed when `collapse`.
fn blocks(state: &TodoState, spec: &ScreenSpec, collapse: bool) -> Vec<Block> {
    let mut out = Vec::new();
    for phase in state.phases.iter().filter(|p| !p.tasks.is_empty()) {
        let indent = if phase.is_implicit() || spec.width < PHASE_INDENT + 2 + MIN_TEXT {
            0
        } else {
            PHASE_INDENT
        };
        if !phase.is_implicit() {
            let heading = truncate(&sanitize(&phase.name), spec.width, spec.glyphs.ellipsis());
            out.push(Block {
                lines: vec![paint(spec.color, Style::new().bold().underline(), &heading)],
                tasks: 0,
                pinned: phase.tasks.iter().any(|t| t.status == Status::InProgress),
            });
        }
        let finished = |t: &Todo| matches!(t.status, Status::Completed | Status::Abandoned);
        let entries = outline(&phase.tasks);
        // A finished task stays on screen while an open subtask sits under
        // it, so the subtask is never shown under the wrong parent.
        let open_below = open_below(&entries, finished);
        let collapsed: Vec<&Todo> = entries
            .iter()
            .zip(&open_below)
            .filter(|(e, below)| collapse && finished(e.task) && !**below)
            .map(|(e, _)| e.task)
            .collect();
        // In a flat list the summary takes the first finished task's place;
        // in a tree that place is under some parent, so it goes last.
        let tree = entries.iter().any(|e| e.depth > 0);
        let mut summarized = tree;
        for (entry, below) in entries.iter().zip(&open_below) {
            let task = entry.task;
            if collapse && finished(task) && !below {
                if !summarized {
                    summarized = true;
                    out.push(finished_summary(&collapsed, spec, indent));
                }
                continue;
            }
            // Two columns a level, never so deep that the text loses its room.
            let nested = (indent + 2 * entry.depth).min(spec.width.saturating_sub(MIN_TEXT + 2));
            out.push(task_block(
                task,
                &state.open_blockers(task),
                spec,
                nested.max(indent),
            ));
        }
        if tree && !collapsed.is_empty() {
            out.push(finished_summary(&collapsed, spec, indent));
        }
    }
    out
}

/// For each entry of an outline, whether a task that is not `finished`
/// sits somewhere under it.
fn open_below(entries: &[OutlineEntry<'_>], finished: impl Fn(&Todo) -> bool) -> Vec<bool> {
    let mut below = vec![false; entries.len()];
    // Walking back, `seen[d]` says whether an open task was met at depth
    // `d` or deeper since the last entry at depth `d - 1` or shallower.
    let mut seen: Vec<bool> = Vec::new();
    for (i, entry) in entries.iter().enumerate().rev() {
        let d = entry.depth;
        below[i] = seen.get(d + 1..).is_some_and(|deeper| deeper.iter().any(|&b| b));
        seen.truncate(d + 1);
        seen.resize(d + 1, false);
        seen[d] |= below[i] || !finished(entry.task);
    }
    below
}

/// `✓ 10 completed, 2 abandoned`: a phase's finished tasks on one row.
fn finished_summary(tasks: &[&Todo], spec: &ScreenSpec, indent: usize) -> Block {
    let count = |status: Status| tasks.iter().filter(|t| t.status == status).count();
    let (completed, abandoned) = (count(Status::Completed), count(Status::Abandoned));
    let mut parts = Vec::new();
    if completed > 0 {
        parts.push(format!("{completed} completed"));
    }
    if abandoned > 0 {
        parts.push(format!("{abandoned} abandoned"));
    }
    let status = if completed > 0 {
        Status::Completed
    } else {
        Status::Abandoned
    };
    let (glyph_style, _) = status_styles(status);
    let text = truncate(
        &parts.join(", "),
        spec.width.saturating_sub(indent + 2),
        spec.glyphs.ellipsis(),
    );
    let line = format!(
        "{}{} {}",
        " ".repeat(indent),
        paint(spec.color, glyph_style, spec.glyphs.glyph(status)),
        paint(spec.color, Style::new().dimmed(), &text)
    );
    Block {
        lines: vec![line],
        tasks: completed + abandoned,
        pinned: false,
    }
}

/// One task: glyph, id, priority, text and owner, wrapped under a hanging
/// indent; then the blockers not completed yet (`open_blockers`: a
/// completed blocker no longer holds the task up, as Claude Code's
/// `TaskList` shows it); then, while in progress, its notes.
fn task_block(task: &Todo, open_blockers: &[&str], spec: &ScreenSpec, indent: usize) -> Block {
    let glyph = spec.glyphs.glyph(task.status);
    let (glyph_style, text_style) = status_styles(task.status);
    let hang = indent + width(glyph) + 1;
    let mut text = String::new();
    if let Some(id) = task.id.as_deref().filter(|_| spec.ids) {
        text.push_str(&format!("#{} ", sanitize(id)));
    }
    if let Some(priority) = task.priority {
        text.push_str(&format!("[{}] ", priority.as_str()));
    }
    text.push_str(&sanitize(task.display_text()));
    if let Some(owner) = task.owner.as_deref().filter(|o| !o.is_empty()) {
        text.push_str(&format!(" ({})", sanitize(owner)));
    }
    let hang = narrowed(hang, spec.width);
    let room = spec.width.saturating_sub(hang);
    let first_room = spec.width.saturating_sub(indent + width(glyph) + 1);
    let mut lines: Vec<String> = wrap(&text, first_room, room)
        .into_iter()
        .enumerate()
        .map(|(row, part)| {
            let lead = match row {
                0 => format!("{}{} ", " ".repeat(indent), paint(spec.color, glyph_style, glyph)),
                _ => " ".repeat(hang),
            };
            format!("{lead}{}", paint(spec.color, text_style, &part))
        })
        .collect();
    let dim = Style::new().dimmed();
    if !open_blockers.is_empty() {
        let ids: Vec<String> = open_blockers
            .iter()
            .map(|id| format!("#{}", sanitize(id)))
            .collect();
        for part in wrap(&format!("blocked by {}", ids.join(", ")), room, room) {
            lines.push(format!("{}{}", " ".repeat(hang), paint(spec.color, dim, &part)));
        }
    }
    if task.status == Status::InProgress {
        let mark = spec.glyphs.note_mark();
        let note_hang = narrowed(hang + width(mark) + 1, spec.width);
        let note_room = spec.width.saturating_sub(note_hang);
        for note in &task.notes {
            for (row, part) in wrap(&sanitize(note), note_room, note_room)
                .into_iter()
                .enumerate()
            {
                let lead = match row {
                    0 => format!("{}{mark} ", " ".repeat(hang)),
                    _ => " ".repeat(note_hang),
                };
                lines.push(format!(
                    "{}{}",
                    paint(spec.color, dim, &lead),
                    paint(spec.color, dim, &part)
                ));
            }
        }
    }
    Block {
        lines,
        tasks: 1,
        pinned: task.status == Status::InProgress,
    }
}

/// The indent of tasks under a phase heading, where the pane has room.
const PHASE_INDENT: usize = 2;

/// The fewest columns of text a line keeps beside its indent; a narrower
/// pane gives up the indent instead.
const MIN_TEXT: usize = 4;

/// `indent`, or none when it would leave fewer than [`MIN_TEXT`] columns of
/// a `width`-column pane for the text.
fn narrowed(indent: usize, width: usize) -> usize {
    if width >= indent + MIN_TEXT { indent } else { 0 }
}

fn paint(color: bool, style: Style, text: &str) -> String {
    if color && !text.is_empty() {
        format!("{style}{text}{style:#}")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
#[path = "screen_tests.rs"]
mod tests;
