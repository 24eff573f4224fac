//! What Augment's tools answer the model, as Auggie 0.36.0 words it (npm
//! `@augmentcode/auggie`, `augment.mjs`): `view_tasklist` the list under
//! `# Current Task List` and a reminder; the three writers how many tasks
//! were created, updated and deleted, then each of them, flat.

use std::collections::HashMap;

use todokit_domain::{TodoState, outline};

use super::markdown::render;
use super::{ROOT_DESCRIPTION, ROOT_NAME, ROOT_UUID, TaskView};

/// The reminder under the list `view_tasklist` shows.
pub const REMINDER: &str = "REMINDER: Mark each task as [/] when you start, [x] when done, [-] if dropped. \
     Update tasks as you go \u{2014} do not batch updates to the end. Before switching topics, drive every \
     open task to [x] or [-].";

/// What `view_tasklist` answers.
pub fn view(state: &TodoState) -> String {
    format!("# Current Task List\n\n{}\n\n{REMINDER}", render(state))
}

/// One task (or the root) as the change report compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Node<'a> {
    uuid: &'a str,
    marker: char,
    name: &'a str,
    description: &'a str,
    children: Vec<&'a str>,
}

impl Node<'_> {
    /// `[x] UUID:… NAME:… DESCRIPTION:…`.
    fn line(&self) -> String {
        format!(
            "[{}] UUID:{} NAME:{} DESCRIPTION:{}",
            self.marker, self.uuid, self.name, self.description
        )
    }
}

/// The root and every task, root first, each task before its subtasks.
fn nodes(state: &TodoState) -> Vec<Node<'_>> {
    let tasks: Vec<_> = state.tasks().cloned().collect();
    let order: Vec<String> = outline(&tasks)
        .into_iter()
        .filter_map(|entry| entry.task.id.clone())
        .collect();
    let views: HashMap<&str, TaskView<'_>> = state
        .tasks()
        .map(|t| (TaskView::of(t).uuid, TaskView::of(t)))
        .collect();
    let children = |parent: &str| -> Vec<&str> {
        order
            .iter()
            .filter_map(|id| views.get(id.as_str()))
            .filter(|view| view.parent == parent)
            .map(|view| view.uuid)
            .collect()
    };
    let mut out = vec![Node {
        uuid: ROOT_UUID,
        marker: ' ',
        name: ROOT_NAME,
        description: ROOT_DESCRIPTION,
        children: children(ROOT_UUID),
    }];
    for id in &order {
        if let Some(view) = views.get(id.as_str()) {
            out.push(Node {
                uuid: view.uuid,
                marker: view.state.marker(),
                name: view.name,
                description: view.description,
                children: children(view.uuid),
            });
        }
    }
    out
}

/// What `add_tasks`, `update_tasks` and `reorganize_tasklist` answer: the
/// counts, then `# Task Changes` with each created, updated and deleted
/// task (a task whose subtasks changed counts as updated, the root too).
pub fn changes(before: &TodoState, after: &TodoState) -> String {
    let (old, new) = (nodes(before), nodes(after));
    let find = |list: &[Node<'_>], uuid: &str| list.iter().position(|n| n.uuid == uuid);
    let created: Vec<&Node<'_>> = new.iter().filter(|n| find(&old, n.uuid).is_none()).collect();
    let deleted: Vec<&Node<'_>> = old.iter().filter(|n| find(&new, n.uuid).is_none()).collect();
    let updated: Vec<&Node<'_>> = old
        .iter()
        .filter_map(|n| find(&new, n.uuid).map(|i| (n, &new[i])))
        .filter(|(was, now)| was != now)
        .map(|(_, now)| now)
        .collect();
    let mut out = format!(
        "Task list updated successfully. Created: {}, Updated: {}, Deleted: {}.\n\n",
        created.len(),
        updated.len(),
        deleted.len()
    );
    let mut sections = Vec::new();
    for (title, list) in [
        ("## Created Tasks", &created),
        ("## Updated Tasks", &updated),
        ("## Deleted Tasks", &deleted),
    ] {
        if list.is_empty() {
            continue;
        }
        sections.push(title.to_owned());
        sections.push(String::new());
        sections.extend(list.iter().map(|n| n.line()));
        sections.push(String::new());
    }
    if !sections.is_empty() {
        out.push_str("# Task Changes\n\n");
        out.push_str(&sections.join("\n"));
    }
    out
}
