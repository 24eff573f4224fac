//! Lists written as one markdown text: reading the checklist lines in it
//! (as VS Code's Copilot extension reads them, the most forgiving reading
//! among the agents that send such text), writing a list back as one, and
//! the text a free-text profile stored, while it still matches the list.

use serde::Serialize;
use todokit_domain::{Status, Todo, TodoState};

/// A stored task as a line of a free-text checklist, for the details of a
/// profile whose tool takes the list as one text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ChecklistLine<'a> {
    /// The line's text.
    pub text: &'a str,
    /// Whether it is ticked (the task is finished).
    pub done: bool,
}

impl<'a> ChecklistLine<'a> {
    /// `task` as a checklist line.
    pub fn of(task: &'a Todo) -> Self {
        ChecklistLine {
            text: &task.content,
            done: task.status.is_finished(),
        }
    }
}

/// The title and the items of a checklist, read line by line: fenced code
/// is skipped; the first non-empty line that is not an item is the title
/// (leading `#`s removed; `default_title` when there is none); an item is `-`, `*`, `+` or `1.`/`1)` followed
/// by a one-character box, `x`/`X` completed, `>`/`~` in progress, anything
/// else not started; a non-empty line indented by two spaces or a tab
/// continues the item above; items whose text is empty are dropped.
pub fn parse_checklist(markdown: &str, default_title: &str) -> (String, Vec<(String, Status)>) {
    let mut title = default_title.to_owned();
    let mut items: Vec<(String, Status)> = Vec::new();
    let mut current: Option<(String, Status)> = None;
    let mut in_code = false;
    let push = |item: Option<(String, Status)>, items: &mut Vec<(String, Status)>| {
        if let Some((text, status)) = item
            && !text.trim().is_empty()
        {
            items.push((text.trim().to_owned(), status));
        }
    };
    for line in markdown.split('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // As the original: while the title is still the default, any
        // non-empty line that is not an item with a one-character box
        // becomes it.
        if title == default_title && !trimmed.is_empty() && !matches!(item_of(trimmed), Some((Some(_), _))) {
            title = trimmed.trim_start_matches('#').trim_start().to_owned();
        }
        if let Some((mark, text)) = item_of(line.trim_start()) {
            push(current.take(), &mut items);
            let status = match mark {
                Some('x' | 'X') => Status::Completed,
                Some('>' | '~') => Status::InProgress,
                _ => Status::Pending,
            };
            current = Some((text.to_owned(), status));
        } else if let Some((text, _)) = current.as_mut()
            && !trimmed.is_empty()
            && (line.starts_with("  ") || line.starts_with('\t'))
        {
            text.push(' ');
            text.push_str(trimmed);
        }
    }
    push(current.take(), &mut items);
    (title, items)
}

/// The box character (none for `[]`) and the text after it, when `line`
/// (leading spaces removed) is a checklist item.
fn item_of(line: &str) -> Option<(Option<char>, &str)> {
    let rest = match line.strip_prefix(['-', '*', '+']) {
        Some(rest) => rest,
        None => {
            let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                return None;
            }
            line[digits..].strip_prefix(['.', ')'])?
        }
    };
    // At least one whitespace character between the marker and the box.
    let boxed = rest.trim_start();
    if boxed.len() == rest.len() {
        return None;
    }
    let inner = boxed.strip_prefix('[')?;
    let mut chars = inner.chars();
    let (mark, after) = match chars.next()? {
        ']' => (None, inner.get(1..)?),
        c => {
            let after = chars.as_str().strip_prefix(']')?;
            (Some(c), after)
        }
    };
    Some((mark, after.trim_start()))
}

/// The todos the checklist lines of `text` describe, in order.
pub fn checklist_todos(text: &str) -> Vec<Todo> {
    parse_checklist(text, "")
        .1
        .into_iter()
        .map(|(content, status)| Todo::new(content).status(status))
        .collect()
}

/// The text the list was last written as, while its checklist lines still
/// are the stored tasks (same texts, same statuses, same order); `None`
/// once another profile or a hand edit changed them, or when the list was
/// never written as text.
pub fn current_document(state: &TodoState) -> Option<&str> {
    let text = state.document.as_deref()?;
    let (_, items) = parse_checklist(text, "");
    let same = items.len() == state.tasks().count()
        && items
            .iter()
            .zip(state.tasks())
            .all(|((content, status), task)| *content == task.content && *status == task.status);
    same.then_some(text)
}

/// The list as checklist lines, `- [x] ` for a finished task (completed or
/// dropped) and `- [ ] ` for the others, one per line.
pub fn checklist_lines(state: &TodoState) -> String {
    let lines: Vec<String> = state
        .tasks()
        .map(|task| {
            let mark = if task.status.is_finished() { 'x' } else { ' ' };
            format!("- [{mark}] {}", task.content)
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_stored_text_counts_only_while_its_lines_are_the_tasks() {
        let text = "Notes first\n- [x] Read\n  - [ ] Fix\nmore notes";
        let mut state = TodoState::flat(checklist_todos(text));
        state.document = Some(text.to_owned());
        let fresh = current_document(&state).map(str::to_owned);
        state.phases[0].tasks[1].status = Status::Completed;
        let actual = (fresh, current_document(&state), checklist_lines(&state));
        let expected = (Some(text.to_owned()), None, "- [x] Read\n- [x] Fix".to_owned());
        assert_eq!(actual, expected);
    }
}
