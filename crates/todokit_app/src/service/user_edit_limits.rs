//! What a hand edit may not leave on the list, whatever the edit: more
//! than the profile's own tool takes, or text no store keeps. Each check
//! gives the problems in words; the edit is refused with them.

use todokit_domain::TodoState;

/// Refuses an edit whose list holds the NUL character anywhere (an import
/// or a host's edit can carry one): no store keeps it the same way, and
/// PostgreSQL's `jsonb` refuses it.
pub(super) fn refuse_nul(next: &TodoState) -> Result<(), Vec<String>> {
    let phases = serde_json::to_value(&next.phases).unwrap_or_default();
    match crate::arguments::nul_in_value(&phases) {
        Some(_) => Err(vec![
            "the list would hold the NUL character (U+0000), which no task, note or phase may contain"
                .to_owned(),
        ]),
        None => Ok(()),
    }
}

/// Refuses an edit that leaves the list with something the profile's own
/// tool would refuse: more tasks than it takes (when the edit added
/// some), or a new task, phase name or note longer than it takes. The
/// model could not write such a list back; what was stored before the
/// edit is not judged again.
pub(super) fn within_tool_limits(
    before: &TodoState,
    after: &TodoState,
    limits: &todokit_domain::Limits,
    tool: &str,
) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    let (count_before, count_after) = (before.tasks().count(), after.tasks().count());
    if count_after > limits.max_items && count_after > count_before {
        problems.push(format!(
            "the list would hold {count_after} tasks, and {tool}'s tool takes at most {}: remove some first",
            limits.max_items
        ));
    }
    let known_tasks: std::collections::HashSet<&str> = before.tasks().map(|t| t.content.as_str()).collect();
    let known_phases: std::collections::HashSet<&str> =
        before.phases.iter().map(|p| p.name.as_str()).collect();
    let known_notes: std::collections::HashSet<&str> = before
        .tasks()
        .flat_map(|t| t.notes.iter().map(String::as_str))
        .collect();
    let mut too_long = |what: &str, text: &str, max: usize| {
        if text.len() > max {
            problems.push(format!(
                "{what} \"{}\" is {} bytes, and {tool}'s tool takes at most {max}: shorten it",
                todokit_domain::clip(text),
                text.len()
            ));
        }
    };
    for phase in after
        .phases
        .iter()
        .filter(|p| !known_phases.contains(p.name.as_str()))
    {
        too_long("the phase", &phase.name, limits.max_content_bytes);
    }
    for task in after.tasks() {
        if !known_tasks.contains(task.content.as_str()) {
            too_long("the task", &task.content, limits.max_content_bytes);
        }
        for note in task.notes.iter().filter(|n| !known_notes.contains(n.as_str())) {
            too_long("the note", note, limits.max_description_bytes);
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}
