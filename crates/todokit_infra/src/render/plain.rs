//! Plain text: ASCII markers, no colour, safe anywhere.

use std::fmt::Write;

use todokit_domain::{Status, TodoState, outline, progress_line};

use super::sanitize;

/// The list as plain text: a progress line, then each phase's tasks with
/// `[x]` completed, `[>]` in progress (showing its active form), `[ ]`
/// pending, `[!]` blocked and `[-]` abandoned; the notes of the task in
/// progress follow it, one `> ` line each, as `todokit watch` shows them.
/// A subtask is indented two spaces under its parent.
pub fn render_plain(state: &TodoState) -> String {
    if state.is_empty() {
        return "No todos.".to_owned();
    }
    let mut out = progress_line(state);
    out.push('\n');
    for phase in state.phases.iter().filter(|p| !p.tasks.is_empty()) {
        out.push('\n');
        let base = if phase.is_implicit() {
            0
        } else {
            let _ = writeln!(out, "{}", sanitize(&phase.name));
            2
        };
        for entry in outline(&phase.tasks) {
            let task = entry.task;
            let indent = " ".repeat(base + 2 * entry.depth);
            let (marker, note) = match task.status {
                Status::Pending => ("[ ]", ""),
                Status::InProgress => ("[>]", ""),
                Status::Completed => ("[x]", ""),
                Status::Blocked => ("[!]", " (blocked)"),
                Status::Abandoned => ("[-]", " (abandoned)"),
            };
            let _ = writeln!(out, "{indent}{marker} {}{note}", sanitize(task.display_text()));
            if task.status == Status::InProgress {
                for line in task.notes.iter().flat_map(|note| note.lines()) {
                    let _ = writeln!(out, "{indent}    > {}", sanitize(line));
                }
            }
        }
    }
    out.truncate(out.trim_end().len());
    out
}
