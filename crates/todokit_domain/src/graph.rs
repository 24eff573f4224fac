//! Todo ids and the dependencies between tasks: lookups, id allocation and
//! the blocked-by graph, kept acyclic.
//!
//! Only the "blocked by" side of an edge is stored (on the waiting task);
//! the "blocks" side is derived from it, so the two can never disagree.

use crate::error::{TodoError, clip};
use crate::state::TodoState;
use crate::status::Status;
use crate::todo::Todo;

impl TodoState {
    /// The task with id `id`.
    pub fn find(&self, id: &str) -> Option<&Todo> {
        self.tasks().find(|t| t.id.as_deref() == Some(id))
    }

    /// The task with id `id`, to change it.
    pub fn find_mut(&mut self, id: &str) -> Option<&mut Todo> {
        self.phases
            .iter_mut()
            .flat_map(|p| p.tasks.iter_mut())
            .find(|t| t.id.as_deref() == Some(id))
    }

    /// The task with id `id`, or an error naming `field`.
    pub fn require(&self, id: &str, field: &str) -> Result<&Todo, TodoError> {
        self.find(id).ok_or_else(|| unknown(id, field))
    }

    /// A fresh id: `"1"`, `"2"`, ... Ids are never reused, even after the
    /// task that had one is deleted, so a model's stale reference cannot hit
    /// a newer task.
    ///
    /// The numbers are counted in 128 bits, so a hand-written id as high as
    /// `u64::MAX` is simply followed by the next number. Past the last
    /// 128-bit number (an id nobody writes but a hostile one), the id is
    /// the lowest positive number no task has: unique, never a panic.
    pub fn allocate_id(&mut self) -> String {
        let highest = self
            .tasks()
            .filter_map(|t| t.id.as_deref()?.parse::<u128>().ok())
            .max()
            .unwrap_or(0);
        let Some(id) = highest
            .checked_add(1)
            .map(|next| next.max(u128::from(self.next_id)).max(1))
        else {
            return self.lowest_free_number();
        };
        // The stored counter is 64 bits: past its end it stays at its end,
        // and the highest id (counted above) keeps ids moving up.
        self.next_id = u64::try_from(id).map_or(u64::MAX, |id| id.saturating_add(1));
        id.to_string()
    }

    /// The lowest positive number that is no task's id.
    fn lowest_free_number(&self) -> String {
        let taken: std::collections::HashSet<u128> = self
            .tasks()
            .filter_map(|t| t.id.as_deref()?.parse::<u128>().ok())
            .collect();
        // Among the first `taken.len() + 1` numbers one is free.
        let free = (1..).find(|n| !taken.contains(n)).unwrap_or(1);
        free.to_string()
    }

    /// A fresh id of `digits` hexadecimal digits (clamped to 1..=16) that
    /// no task has, for profiles whose ids look random (Gemini CLI's
    /// tracker uses six). It comes from the same never-reused counter as
    /// [`TodoState::allocate_id`], scrambled so that neighbours do not look
    /// alike, so the same state always gives the same id.
    ///
    /// When every id of that width is taken (only possible for very short
    /// ids), the id is one digit longer.
    pub fn allocate_hex_id(&mut self, digits: u32) -> String {
        let digits = digits.clamp(1, 16);
        let mask = u64::MAX >> (64 - 4 * digits);
        // Multiplying by an odd number is a bijection on the low bits, so
        // any 16^digits consecutive counters give distinct ids: among one
        // more try than there are tasks, one is free unless the width has
        // no room left at all.
        let tries = (self.tasks().count() as u64 + 1).min(mask.saturating_add(1));
        for _ in 0..tries {
            let n = self.next_id.max(1);
            self.next_id = n.wrapping_add(1);
            let id = format!(
                "{:0width$x}",
                n.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask,
                width = digits as usize
            );
            if self.find(&id).is_none() {
                return id;
            }
        }
        self.allocate_hex_id(digits + 1)
    }

    /// Gives every task that has no id the next fresh one, in list order.
    /// Deterministic: the same state always gets the same ids, so a tool
    /// can show them before any write makes them stick.
    pub fn ensure_ids(&mut self) {
        self.fill_missing_ids(Self::allocate_id);
    }

    /// [`TodoState::ensure_ids`] with ids from
    /// [`TodoState::allocate_hex_id`].
    pub fn ensure_hex_ids(&mut self, digits: u32) {
        self.fill_missing_ids(|state| state.allocate_hex_id(digits));
    }

    /// This list as a tool that names every task by a hex id sees it:
    /// borrowed when every task has an id, else a copy where the tasks
    /// without one have the ids [`TodoState::ensure_hex_ids`] gives them
    /// (the ids the next write stores, so ids a read shows stay right).
    pub fn with_hex_ids(&self, digits: u32) -> std::borrow::Cow<'_, TodoState> {
        self.with_ids_from(|state| state.allocate_hex_id(digits))
    }

    /// This list with an id on every task: borrowed when every task has
    /// one, else a copy where each task without one, in list order, gets
    /// what `allocate` makes from the list as it stands (deterministic, so
    /// the ids a read shows are the ones the next write stores).
    pub fn with_ids_from(
        &self,
        allocate: impl FnMut(&mut Self) -> String,
    ) -> std::borrow::Cow<'_, TodoState> {
        if self.tasks().all(|t| t.id.is_some()) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut state = self.clone();
        state.fill_missing_ids(allocate);
        std::borrow::Cow::Owned(state)
    }

    fn fill_missing_ids(&mut self, mut allocate: impl FnMut(&mut Self) -> String) {
        let missing = self.tasks().filter(|t| t.id.is_none()).count();
        if missing == 0 {
            return;
        }
        let fresh: Vec<String> = (0..missing).map(|_| allocate(self)).collect();
        let mut fresh = fresh.into_iter();
        for task in self.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
            if task.id.is_none() {
                task.id = fresh.next();
            }
        }
    }

    /// Appends `task` to the last phase (the implicit one when there is
    /// none).
    pub fn push_task(&mut self, task: Todo) {
        match self.phases.last_mut() {
            Some(phase) => phase.tasks.push(task),
            None => self
                .phases
                .push(crate::state::Phase::new(crate::state::Phase::IMPLICIT).tasks(vec![task])),
        }
    }

    /// Removes the task with id `id` and every dependency on it; its
    /// subtasks take its parent.
    pub fn remove_task(&mut self, id: &str) -> Option<Todo> {
        let mut removed = None;
        for phase in &mut self.phases {
            if let Some(i) = phase.tasks.iter().position(|t| t.id.as_deref() == Some(id)) {
                removed = Some(phase.tasks.remove(i));
                break;
            }
        }
        if let Some(gone) = &removed {
            for task in self.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
                task.blocked_by.retain(|b| b != id);
                // Its subtasks move up to its own parent.
                if task.parent.as_deref() == Some(id) {
                    task.parent.clone_from(&gone.parent);
                }
            }
        }
        removed
    }

    /// The ids `task` waits on that are not completed yet. A blocker that
    /// no longer exists does not block.
    pub fn open_blockers<'a>(&'a self, task: &'a Todo) -> Vec<&'a str> {
        task.blocked_by
            .iter()
            .map(String::as_str)
            .filter(|id| self.find(id).is_some_and(|b| b.status != Status::Completed))
            .collect()
    }

    /// The ids of the tasks that wait on `id`.
    pub fn blocks(&self, id: &str) -> Vec<&str> {
        self.tasks()
            .filter(|t| t.blocked_by.iter().any(|b| b == id))
            .filter_map(|t| t.id.as_deref())
            .collect()
    }

    /// Makes `blocked` wait on `blocker`. Both must exist; an edge already
    /// there is kept once; an edge that would close a cycle is refused.
    /// `field` names where the request came from, for the error.
    pub fn add_dependency(&mut self, blocker: &str, blocked: &str, field: &str) -> Result<(), TodoError> {
        self.require(blocker, field)?;
        self.require(blocked, field)?;
        if let Some(path) = self.wait_path(blocker, blocked) {
            let mut cycle = vec![blocked.to_owned()];
            cycle.extend(path);
            return Err(TodoError::Cycle {
                field: field.to_owned(),
                blocked: clip(blocked),
                blocker: clip(blocker),
                cycle: cycle.join(" -> "),
            });
        }
        let task = self.find_mut(blocked).ok_or_else(|| unknown(blocked, field))?;
        if !task.blocked_by.iter().any(|b| b == blocker) {
            task.blocked_by.push(blocker.to_owned());
        }
        Ok(())
    }

    /// A chain of waits from `from` to `to` (`from` waits on ... waits on
    /// `to`), both ends included, if there is one.
    fn wait_path(&self, from: &str, to: &str) -> Option<Vec<String>> {
        let mut stack = vec![vec![from.to_owned()]];
        let mut seen = std::collections::HashSet::new();
        while let Some(path) = stack.pop() {
            let last = path.last()?.clone();
            if last == to {
                return Some(path);
            }
            if !seen.insert(last.clone()) {
                continue;
            }
            if let Some(task) = self.find(&last) {
                for next in &task.blocked_by {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push(longer);
                }
            }
        }
        None
    }
}

fn unknown(id: &str, field: &str) -> TodoError {
    TodoError::UnknownTask {
        field: field.to_owned(),
        id: clip(id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn three() -> TodoState {
        TodoState::flat(vec![
            Todo::new("a").id("1"),
            Todo::new("b").id("2"),
            Todo::new("c").id("3"),
        ])
    }

    #[test]
    fn ids_are_allocated_past_the_highest_and_never_reused() {
        let mut fixture = three();
        let first = fixture.allocate_id();
        fixture.remove_task("4");
        fixture.remove_task("3");
        let second = fixture.allocate_id();
        let actual = (first, second, fixture.next_id);
        let expected = ("4".to_owned(), "5".to_owned(), 6);
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_id_at_the_end_of_the_number_range_is_followed_not_overflowed() {
        let max = u64::MAX.to_string();
        let mut fixture = TodoState::flat(vec![Todo::new("a").id(max.as_str())]);
        let after_u64 = fixture.allocate_id();
        fixture.push_task(Todo::new("b").id(after_u64.as_str()));
        let next = fixture.allocate_id();
        let mut last = TodoState::flat(vec![
            Todo::new("c").id(u128::MAX.to_string()),
            Todo::new("d").id("1"),
        ]);
        let past_u128 = last.allocate_id();
        let actual = (after_u64, next, fixture.next_id, past_u128);
        let expected = (
            "18446744073709551616".to_owned(),
            "18446744073709551617".to_owned(),
            u64::MAX,
            "2".to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn missing_ids_are_filled_in_order_after_the_highest() {
        let mut fixture = TodoState::flat(vec![Todo::new("a"), Todo::new("b").id("5"), Todo::new("c")]);
        fixture.ensure_ids();
        let actual: Vec<Option<String>> = fixture.tasks().map(|t| t.id.clone()).collect();
        let expected = vec![Some("6".to_owned()), Some("5".to_owned()), Some("7".to_owned())];
        assert_eq!(actual, expected);
    }

    #[test]
    fn hex_ids_are_fixed_width_distinct_and_skip_taken_ones() {
        let mut fixture = TodoState::flat(vec![Todo::new("a")]);
        let first = fixture.allocate_hex_id(6);
        // The id counter 2 gives is taken: the next one is handed out.
        fixture.push_task(Todo::new("b").id(TodoState::new().next_id(2u64).allocate_hex_id(6)));
        let after_taken = fixture.allocate_hex_id(6);
        let mut many = TodoState::new();
        let mut ids: Vec<String> = (0..5_000).map(|_| many.allocate_hex_id(6)).collect();
        let well_formed = ids
            .iter()
            .all(|id| id.len() == 6 && id.bytes().all(|b| b.is_ascii_hexdigit()));
        ids.sort();
        ids.dedup();
        let actual = (first, after_taken, well_formed, ids.len());
        let expected = ("4a7c15".to_owned(), "df743f".to_owned(), true, 5_000);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_full_width_of_hex_ids_moves_to_a_longer_one_instead_of_spinning() {
        let taken: Vec<Todo> = (0..16)
            .map(|n| Todo::new(format!("t{n}")).id(format!("{n:x}")))
            .collect();
        let mut fixture = TodoState::flat(taken);
        let actual = fixture.allocate_hex_id(1).len();
        let expected = 2;
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_list_is_seen_with_hex_ids_borrowed_when_every_task_has_one() {
        let mixed = TodoState::flat(vec![Todo::new("a").id("x"), Todo::new("b")]);
        let seen = mixed.with_hex_ids(6);
        let complete = seen.clone().into_owned();
        let actual = (
            seen.tasks().map(|t| t.id.clone()).collect::<Vec<_>>(),
            matches!(complete.with_hex_ids(6), std::borrow::Cow::Borrowed(_)),
        );
        let expected = (vec![Some("x".to_owned()), Some("4a7c15".to_owned())], true);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_dependency_is_stored_once_and_seen_from_both_sides() {
        let mut fixture = three();
        fixture.add_dependency("1", "2", "addBlocks").unwrap();
        fixture.add_dependency("1", "2", "addBlockedBy").unwrap();
        let actual = (fixture.find("2").unwrap().blocked_by.clone(), fixture.blocks("1"));
        let expected = (vec!["1".to_owned()], vec!["2"]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_cycle_is_refused_and_named() {
        let mut fixture = three();
        fixture.add_dependency("1", "2", "f").unwrap();
        fixture.add_dependency("2", "3", "f").unwrap();
        let before = fixture.clone();
        let actual = (fixture.add_dependency("3", "1", "addBlockedBy"), fixture);
        let expected = (
            Err(TodoError::Cycle {
                field: "addBlockedBy".into(),
                blocked: "1".into(),
                blocker: "3".into(),
                cycle: "1 -> 3 -> 2 -> 1".into(),
            }),
            before,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_task_cannot_wait_on_itself() {
        let mut fixture = three();
        let actual = fixture.add_dependency("1", "1", "f");
        let expected = Err(TodoError::Cycle {
            field: "f".into(),
            blocked: "1".into(),
            blocker: "1".into(),
            cycle: "1 -> 1".into(),
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn completing_a_blocker_unblocks_and_removing_a_task_drops_its_edges() {
        let mut fixture = three();
        fixture.add_dependency("1", "3", "f").unwrap();
        fixture.add_dependency("2", "3", "f").unwrap();
        if let Some(t) = fixture.find_mut("1") {
            t.status = Status::Completed;
        }
        let open = fixture.open_blockers(fixture.find("3").unwrap()).join(",");
        fixture.remove_task("2");
        let actual = (open, fixture.find("3").unwrap().blocked_by.clone());
        let expected = ("2".to_owned(), vec!["1".to_owned()]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_id_is_named() {
        let mut fixture = three();
        let actual = fixture.add_dependency("9", "1", "addBlockedBy");
        let expected = Err(TodoError::UnknownTask {
            field: "addBlockedBy".into(),
            id: "9".into(),
        });
        assert_eq!(actual, expected);
    }
}
