//! Subtasks: a task may name a parent task ([`Todo::parent`]), so a list
//! can hold a tree (an epic and its tasks). Setting a parent is checked
//! (both tasks exist, no task ends up under itself); a list whose parents
//! broke some other way (a rewrite dropped the parent, a hand edit, a
//! stored file from anywhere) is tidied by [`TodoState::drop_broken_parents`]
//! and still shown whole by [`outline`].

use std::collections::HashMap;

use crate::error::{TodoError, clip};
use crate::state::TodoState;
use crate::todo::Todo;

/// One line of an [`outline`]: a task and how deep under other tasks it
/// sits (0 for a task with no parent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutlineEntry<'a> {
    /// Parents above it: 0 for a top-level task.
    pub depth: usize,
    /// The task.
    pub task: &'a Todo,
}

/// `tasks` in the order a view shows a tree: each top-level task in list
/// order, followed by its subtasks (each followed by its own), in list
/// order. Every task appears exactly once: a task whose parent is not in
/// `tasks`, or whose parents loop back on themselves, is shown at the top
/// level.
pub fn outline(tasks: &[Todo]) -> Vec<OutlineEntry<'_>> {
    if tasks.iter().all(|t| t.parent.is_none()) {
        return tasks.iter().map(|task| OutlineEntry { depth: 0, task }).collect();
    }
    let parent_of = parent_positions(tasks);
    let rooted = reaches_a_root(&parent_of);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); tasks.len()];
    let mut roots = Vec::new();
    for (i, parent) in parent_of.iter().enumerate() {
        match parent {
            Some(p) if rooted[i] => children[*p].push(i),
            _ => roots.push(i),
        }
    }
    let mut out = Vec::with_capacity(tasks.len());
    // Depth first without recursion: a chain may be as long as the list.
    let mut stack: Vec<(usize, usize)> = roots.iter().rev().map(|&i| (i, 0)).collect();
    while let Some((index, depth)) = stack.pop() {
        out.push(OutlineEntry {
            depth,
            task: &tasks[index],
        });
        stack.extend(children[index].iter().rev().map(|&c| (c, depth + 1)));
    }
    out
}

/// For each task, the position of its parent in `tasks` (the first task
/// with that id), when it names one that is there and is not itself.
fn parent_positions(tasks: &[Todo]) -> Vec<Option<usize>> {
    let mut position: HashMap<&str, usize> = HashMap::with_capacity(tasks.len());
    for (i, task) in tasks.iter().enumerate() {
        if let Some(id) = task.id.as_deref() {
            position.entry(id).or_insert(i);
        }
    }
    tasks
        .iter()
        .enumerate()
        .map(|(i, task)| {
            let p = *position.get(task.parent.as_deref()?)?;
            (p != i).then_some(p)
        })
        .collect()
}

/// For each task, whether following its parents ends at a task with none
/// (rather than going round a loop).
fn reaches_a_root(parent_of: &[Option<usize>]) -> Vec<bool> {
    // 0 unknown, 1 being walked, 2 reaches a root, 3 loops.
    let mut mark = vec![0u8; parent_of.len()];
    for start in 0..parent_of.len() {
        let mut path = Vec::new();
        let mut at = start;
        let verdict = loop {
            match mark[at] {
                2 => break 2,
                3 | 1 => break 3,
                _ => {}
            }
            mark[at] = 1;
            path.push(at);
            match parent_of[at] {
                Some(p) => at = p,
                None => break 2,
            }
        };
        for i in path {
            mark[i] = verdict;
        }
    }
    mark.into_iter().map(|m| m == 2).collect()
}

impl TodoState {
    /// Makes task `child` a subtask of `parent`, or a top-level task for
    /// `None`. Both must exist, and `parent` may not be `child` or any
    /// task under it. `field` names where the request came from, for the
    /// error.
    pub fn set_parent(&mut self, child: &str, parent: Option<&str>, field: &str) -> Result<(), TodoError> {
        self.require(child, field)?;
        if let Some(parent) = parent {
            self.require(parent, field)?;
            if let Some(chain) = self.parent_chain_to(parent, child) {
                return Err(TodoError::ParentCycle {
                    field: field.to_owned(),
                    child: clip(child),
                    parent: clip(parent),
                    chain: chain.join(" -> "),
                });
            }
        }
        if let Some(task) = self.find_mut(child) {
            task.parent = parent.map(str::to_owned);
        }
        Ok(())
    }

    /// The chain of parents from `from` up to `to` (both included), when
    /// `to` is `from` or above it.
    fn parent_chain_to(&self, from: &str, to: &str) -> Option<Vec<String>> {
        let mut chain = vec![from.to_owned()];
        let mut at = from;
        // A stored loop cannot make this spin: a chain is never longer
        // than the list.
        for _ in 0..=self.tasks().count() {
            if at == to {
                return Some(chain);
            }
            at = self.find(at)?.parent.as_deref()?;
            chain.push(at.to_owned());
        }
        None
    }

    /// Clears every parent that does not hold: one no task has as its id,
    /// the task itself, or one that leads round a loop. True when any was
    /// cleared. Each transition that can break a parent calls it; what a
    /// store hands back is shown whole by [`outline`] either way.
    pub fn drop_broken_parents(&mut self) -> bool {
        if self.tasks().all(|t| t.parent.is_none()) {
            return false;
        }
        let mut changed = false;
        for phase in &mut self.phases {
            let parent_of = parent_positions(&phase.tasks);
            let rooted = reaches_a_root(&parent_of);
            for (i, task) in phase.tasks.iter_mut().enumerate() {
                let holds = parent_of[i].is_some() && rooted[i];
                if task.parent.is_some() && !holds {
                    task.parent = None;
                    changed = true;
                }
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn tree() -> TodoState {
        TodoState::flat(vec![
            Todo::new("epic").id("e"),
            Todo::new("other").id("o"),
            Todo::new("child b").id("b").parent("e"),
            Todo::new("grandchild").id("g").parent("b"),
            Todo::new("child a").id("a").parent("e"),
        ])
    }

    fn lines(tasks: &[Todo]) -> Vec<(usize, &str)> {
        outline(tasks)
            .iter()
            .map(|e| (e.depth, e.task.content.as_str()))
            .collect()
    }

    #[test]
    fn an_outline_puts_each_subtask_under_its_parent_in_list_order() {
        let fixture = tree();
        let actual = lines(&fixture.phases[0].tasks);
        let expected = vec![
            (0, "epic"),
            (1, "child b"),
            (2, "grandchild"),
            (1, "child a"),
            (0, "other"),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_outline_shows_every_task_once_even_with_broken_parents() {
        let fixture = vec![
            Todo::new("loop x").id("x").parent("y"),
            Todo::new("loop y").id("y").parent("x"),
            Todo::new("under the loop").id("u").parent("x"),
            Todo::new("orphan").id("z").parent("missing"),
            Todo::new("self").id("s").parent("s"),
        ];
        let actual = lines(&fixture);
        let expected = vec![
            (0, "loop x"),
            (0, "loop y"),
            (0, "under the loop"),
            (0, "orphan"),
            (0, "self"),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_parent_is_set_when_both_exist_and_no_loop_follows() {
        let mut fixture = tree();
        fixture.set_parent("o", Some("g"), "parentId").unwrap();
        fixture.set_parent("a", None, "parentId").unwrap();
        let actual = (
            fixture.find("o").unwrap().parent.clone(),
            fixture.find("a").unwrap().parent.clone(),
            fixture
                .tasks()
                .filter(|t| t.parent.as_deref() == Some("e"))
                .count(),
        );
        let expected = (Some("g".to_owned()), None, 1);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_task_cannot_go_under_itself_or_its_own_subtask() {
        let mut fixture = tree();
        let before = fixture.clone();
        let actual = (
            fixture.set_parent("e", Some("g"), "parentId"),
            fixture.set_parent("e", Some("e"), "parentId"),
            fixture.set_parent("e", Some("nope"), "parentId"),
            fixture == before,
        );
        let expected = (
            Err(TodoError::ParentCycle {
                field: "parentId".into(),
                child: "e".into(),
                parent: "g".into(),
                chain: "g -> b -> e".into(),
            }),
            Err(TodoError::ParentCycle {
                field: "parentId".into(),
                child: "e".into(),
                parent: "e".into(),
                chain: "e".into(),
            }),
            Err(TodoError::UnknownTask {
                field: "parentId".into(),
                id: "nope".into(),
            }),
            true,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn broken_parents_are_dropped_and_sound_ones_kept() {
        let mut fixture = TodoState::flat(vec![
            Todo::new("loop x").id("x").parent("y"),
            Todo::new("loop y").id("y").parent("x"),
            Todo::new("orphan").id("z").parent("missing"),
            Todo::new("root").id("r"),
            Todo::new("kept").id("k").parent("r"),
        ]);
        let changed = fixture.drop_broken_parents();
        let actual: (bool, Vec<Option<&str>>) =
            (changed, fixture.tasks().map(|t| t.parent.as_deref()).collect());
        let expected = (true, vec![None, None, None, None, Some("r")]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_rewrite_keeps_a_named_subtasks_parent_and_drops_a_parent_it_left_out() {
        let rules = crate::rules::ListRules::default().in_progress(crate::rules::InProgressPolicy::Warn);
        let names = crate::rules::FieldNames::DEFAULT;
        let both = vec![Todo::new("epic"), Todo::new("child b")];
        let child_only = vec![Todo::new("child b")];
        let kept = crate::transition::replace_flat(&tree(), both, &rules, &names, 1).map(|r| r.state);
        let dropped =
            crate::transition::replace_flat(&tree(), child_only, &rules, &names, 1).map(|r| r.state);
        let parent_of_b =
            |state: Result<TodoState, TodoError>| state.ok().and_then(|s| s.find("b")?.parent.clone());
        let actual = (parent_of_b(kept), parent_of_b(dropped));
        let expected = (Some("e".to_owned()), None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn removing_a_parent_moves_its_subtasks_up_a_level() {
        let mut fixture = tree();
        fixture.remove_task("b");
        let actual = lines(&fixture.phases[0].tasks);
        let expected = vec![(0, "epic"), (1, "grandchild"), (1, "child a"), (0, "other")];
        assert_eq!(actual, expected);
    }
}
