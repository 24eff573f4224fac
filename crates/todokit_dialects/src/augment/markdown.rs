//! The task list as Augment's markdown: the root line, then each task as
//! `-[x] UUID:… NAME:… DESCRIPTION:…`, one more leading dash per level;
//! and the reading of such markdown back, for `reorganize_tasklist`.

use std::borrow::Cow;

use todokit_domain::{TodoState, outline};

use super::{AugmentState, NEW_UUID, ROOT_DESCRIPTION, ROOT_NAME, ROOT_UUID, TaskView};

/// The list as `view_tasklist` shows it: the root line, then every task in
/// tree order, one line each, no final newline.
pub fn render(state: &TodoState) -> String {
    let mut out = format!("[ ] UUID:{ROOT_UUID} NAME:{ROOT_NAME} DESCRIPTION:{ROOT_DESCRIPTION}");
    let tasks: Vec<_> = state.tasks().cloned().collect();
    for entry in outline(&tasks) {
        let view = TaskView::of(entry.task);
        out.push('\n');
        out.push_str(&"-".repeat(entry.depth + 1));
        out.push_str(&format!(
            "[{}] UUID:{} NAME:{} DESCRIPTION:{}",
            view.state.marker(),
            view.uuid,
            one_line(view.name),
            one_line(view.description)
        ));
    }
    out
}

/// `text` on one line: a line break would end the task's line.
fn one_line(text: &str) -> Cow<'_, str> {
    if text.contains(['\n', '\r']) {
        Cow::Owned(text.replace("\r\n", " ").replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// One task line of `reorganize_tasklist` markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedTask {
    /// Levels under the root: 1 for a top-level task.
    pub depth: usize,
    /// Its state.
    pub state: AugmentState,
    /// Its UUID; `None` for `NEW_UUID` or a line without one.
    pub uuid: Option<String>,
    /// Its name.
    pub name: String,
    /// Its description.
    pub description: String,
}

/// The tasks of `markdown`, in order, without the root line; or why it is
/// refused, naming the line. Blank lines are skipped, and a line that
/// starts with `DESCRIPTION:` carries on the task above (as some exports
/// write it).
pub fn parse(markdown: &str) -> Result<Vec<ParsedTask>, String> {
    let mut tasks: Vec<ParsedTask> = Vec::new();
    let mut roots = 0;
    let mut previous_depth: Option<usize> = None;
    for (index, raw) in markdown.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("DESCRIPTION:")
            && previous_depth.is_some()
        {
            if let Some(last) = tasks.last_mut() {
                last.description = rest.trim().to_owned();
            }
            continue;
        }
        let depth = line.len() - line.trim_start_matches('-').len();
        let task = parse_line(&line[depth..], depth, number)?;
        match previous_depth {
            None if depth != 0 => {
                return Err(format!(
                    "line {number}: the first line must be the root task, with no leading dash"
                ));
            }
            Some(previous) if depth > previous + 1 => {
                return Err(format!(
                    "line {number}: a task may sit at most one level deeper than the line above it"
                ));
            }
            _ => {}
        }
        previous_depth = Some(depth);
        if depth == 0 {
            roots += 1;
            if roots > 1 {
                return Err(format!(
                    "line {number}: the markdown must have exactly one root task (the only line with no leading dash)"
                ));
            }
            continue;
        }
        tasks.push(task);
    }
    if roots == 0 {
        return Err("the markdown must have exactly one root task; it has none".to_owned());
    }
    Ok(tasks)
}

/// `[x] UUID:… NAME:… DESCRIPTION:…` (the UUID may be left out) at `depth`.
fn parse_line(line: &str, depth: usize, number: usize) -> Result<ParsedTask, String> {
    let shape = || {
        format!(
            "line {number}: expected `{}[ ] UUID:<uuid> NAME:<name> DESCRIPTION:<description>`",
            "-".repeat(depth)
        )
    };
    let rest = line.strip_prefix('[').ok_or_else(shape)?;
    let mut chars = rest.chars();
    let marker = chars.next().ok_or_else(shape)?;
    let rest = chars.as_str().strip_prefix(']').ok_or_else(shape)?.trim_start();
    let state = AugmentState::of_marker(marker)
        .ok_or_else(|| format!("line {number}: unknown state `[{marker}]`; use [ ], [/], [-] or [x]"))?;
    let (uuid, rest) = match rest.strip_prefix("UUID:") {
        Some(after) => {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (Some(&after[..end]), after[end..].trim_start())
        }
        None => (None, rest),
    };
    let rest = rest.strip_prefix("NAME:").ok_or_else(shape)?;
    let (name, description) = match rest.find(" DESCRIPTION:") {
        Some(at) => (&rest[..at], &rest[at + " DESCRIPTION:".len()..]),
        None => (rest, ""),
    };
    Ok(ParsedTask {
        depth,
        state,
        uuid: uuid
            .filter(|u| *u != NEW_UUID && !u.is_empty())
            .map(str::to_owned),
        name: name.trim().to_owned(),
        description: description.trim().to_owned(),
    })
}
