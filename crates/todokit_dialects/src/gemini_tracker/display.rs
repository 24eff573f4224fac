//! The two ways the tracker draws its tree: the list Gemini CLI shows the
//! user after every call (`buildTodosReturnDisplay`, in the details here)
//! and the text `tracker_visualize` gives the model.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write;

use serde::Serialize;
use todokit_domain::outline;

use super::{TaskType, TrackerStatus};
use todokit_app::prelude::WireEnum;
use todokit_app::prelude::*;

/// What Gemini CLI shows the user after a tracker call: the tree as a
/// flat list of indented lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrackerDisplay {
    /// One line per task, each subtask under its parent.
    pub todos: Vec<TrackerDisplayItem>,
}

/// One line of a [`TrackerDisplay`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrackerDisplayItem {
    /// `type: title (id)`, indented two spaces per level.
    pub description: String,
    /// The status in the words of Gemini CLI's todo list.
    pub status: &'static str,
}

/// Each task with its subtasks, in list order. A task whose parent is not
/// on the list (or whose parents loop) stands at the top.
struct Tree<'a> {
    roots: Vec<&'a Todo>,
    children: HashMap<&'a str, Vec<&'a Todo>>,
}

impl<'a> Tree<'a> {
    fn of(tasks: &'a [Todo]) -> Self {
        let mut roots = Vec::new();
        let mut children: HashMap<&str, Vec<&Todo>> = HashMap::new();
        // `outline` visits top-level tasks, and the subtasks of each task,
        // in list order.
        for entry in outline(tasks) {
            match entry.task.parent.as_deref() {
                Some(parent) if entry.depth > 0 => children.entry(parent).or_default().push(entry.task),
                _ => roots.push(entry.task),
            }
        }
        Tree { roots, children }
    }

    fn children(&self, task: &Todo) -> &[&'a Todo] {
        task.id
            .as_deref()
            .and_then(|id| self.children.get(id))
            .map_or(&[], Vec::as_slice)
    }
}

/// The list Gemini CLI shows after a call: top-level tasks and each
/// task's subtasks sorted in progress, open, blocked, closed, then by id.
pub fn return_display(state: &TodoState) -> TrackerDisplay {
    let tasks = state.flat_tasks();
    let tree = Tree::of(&tasks);
    let order = |a: &&Todo, b: &&Todo| -> Ordering {
        let rank = |t: &Todo| match TrackerStatus::from(t.status) {
            TrackerStatus::InProgress => 0,
            TrackerStatus::Open => 1,
            TrackerStatus::Blocked => 2,
            TrackerStatus::Closed => 3,
        };
        rank(a).cmp(&rank(b)).then_with(|| a.id.cmp(&b.id))
    };
    let mut todos = Vec::with_capacity(tasks.len());
    let mut roots = tree.roots.clone();
    roots.sort_by(order);
    let mut stack: Vec<(&Todo, usize)> = roots.iter().rev().map(|t| (*t, 0)).collect();
    while let Some((task, depth)) = stack.pop() {
        let status = match TrackerStatus::from(task.status) {
            TrackerStatus::InProgress => "in_progress",
            TrackerStatus::Closed => "completed",
            TrackerStatus::Blocked => "blocked",
            TrackerStatus::Open => "pending",
        };
        todos.push(TrackerDisplayItem {
            description: format!(
                "{}{}: {} ({})",
                "  ".repeat(depth),
                TaskType::of(task).as_str(),
                task.content,
                task.id.as_deref().unwrap_or_default()
            ),
            status,
        });
        let mut children = tree.children(task).to_vec();
        children.sort_by(order);
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    TrackerDisplay { todos }
}

/// What `tracker_visualize` answers: `Task Tracker Graph:` and one line
/// per task in list order, each subtask indented under its parent, with
/// its dependencies on a line below; `None` for an empty list.
pub fn visualize(state: &TodoState) -> Option<String> {
    let tasks = state.flat_tasks();
    if tasks.is_empty() {
        return None;
    }
    let tree = Tree::of(&tasks);
    let mut out = String::from("Task Tracker Graph:\n");
    let mut stack: Vec<(&Todo, usize)> = tree.roots.iter().rev().map(|t| (*t, 0)).collect();
    while let Some((task, depth)) = stack.pop() {
        let indent = "  ".repeat(depth);
        let emoji = match TrackerStatus::from(task.status) {
            TrackerStatus::Open => "⭕",
            TrackerStatus::InProgress => "🚧",
            TrackerStatus::Blocked => "⛔",
            TrackerStatus::Closed => "✅",
        };
        let _ = writeln!(
            out,
            "{indent}{emoji} {} {} {}",
            task.id.as_deref().unwrap_or_default(),
            TaskType::of(task).label(),
            task.content
        );
        if !task.blocked_by.is_empty() {
            let _ = writeln!(out, "{indent}  └─ Depends on: {}", task.blocked_by.join(", "));
        }
        stack.extend(tree.children(task).iter().rev().map(|c| (*c, depth + 1)));
    }
    Some(out)
}
