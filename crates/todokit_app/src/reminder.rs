//! The end-of-turn check: what to tell a model that wants to stop while its
//! list still has open items.

use std::fmt::Write;

use todokit_domain::{Phase, Todo, TodoState};

/// Writes `open` items under their phase names (a flat list has none),
/// each through `item` with the indent its line takes. Shared by the
/// end-of-turn reminder and the compaction message, which list the same
/// items with different detail.
pub(crate) fn write_by_phase(
    text: &mut String,
    open: &[(&Phase, &Todo)],
    mut item: impl FnMut(&mut String, &str, &Todo),
) {
    let mut current_phase: Option<&str> = None;
    for (phase, task) in open {
        let indent = if phase.is_implicit() { "" } else { "  " };
        if !phase.is_implicit() && current_phase != Some(phase.name.as_str()) {
            let _ = writeln!(text, "{}:", phase.name);
            current_phase = Some(phase.name.as_str());
        }
        item(text, indent, task);
    }
}

/// The reminder for a model that is ending its turn with open (pending or
/// in-progress) items, listing them by phase; `None` when nothing is open.
pub fn end_of_turn_reminder(state: &TodoState) -> Option<String> {
    let open = state.open_tasks();
    if open.is_empty() {
        return None;
    }
    let noun = if open.len() == 1 { "item is" } else { "items are" };
    let mut text = format!("{} todo {noun} still open:\n", open.len());
    write_by_phase(&mut text, &open, |text, indent, task| {
        let _ = writeln!(text, "{indent}- [{}] {}", task.status, task.content);
    });
    text.push_str(
        "Keep working until each one is completed, marking it completed as soon as it is really done. \
         If the plan changed, update the list so it shows what is actually left. \
         Stop early only if you need the user's input, and say so.",
    );
    Some(text)
}

/// The hidden reminder for the turn after a failed call of `tool`: the
/// list the user sees is stale until the model retries.
pub fn stale_list_reminder(tool: &str) -> String {
    format!(
        "Your last {tool} call failed, so the todo list the user sees is out of date. \
         Call {tool} again with corrected arguments before you go on."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::snapshot_settings;
    use pretty_assertions::assert_eq;
    use todokit_domain::{Phase, Status, Todo};

    #[test]
    fn nothing_open_means_no_reminder() {
        let fixture = TodoState::flat(vec![
            Todo::new("a").status(Status::Completed),
            Todo::new("b").status(Status::Abandoned),
            Todo::new("c").status(Status::Blocked),
        ]);
        let actual = end_of_turn_reminder(&fixture);
        let expected = None;
        assert_eq!(actual, expected);
    }

    #[test]
    fn reminder_texts() {
        let flat = TodoState::flat(vec![
            Todo::new("Read the code").status(Status::Completed),
            Todo::new("Fix the bug").status(Status::InProgress),
            Todo::new("Run tests"),
        ]);
        let phased = TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![
                Todo::new("Scaffold").status(Status::InProgress),
                Todo::new("Wire"),
            ]),
            Phase::new("Ship").tasks(vec![
                Todo::new("Tag").status(Status::Completed),
                Todo::new("Publish"),
            ]),
        ]);
        snapshot_settings().bind(|| {
            insta::assert_snapshot!(
                "reminder__end_of_turn__flat",
                end_of_turn_reminder(&flat).unwrap_or_default()
            );
            insta::assert_snapshot!(
                "reminder__end_of_turn__phased",
                end_of_turn_reminder(&phased).unwrap_or_default()
            );
        });
    }
}
