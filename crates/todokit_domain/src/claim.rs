//! Claims on a shared list: who may set a task's owner when several agents
//! work from one list.
//!
//! A task nobody owns can be claimed by anyone; its owner can claim it again
//! (nothing changes); an empty owner releases it. Setting another owner on a
//! task someone else owns is refused unless the call says it takes the task
//! over on purpose, so two agents racing for one task never both believe
//! they have it: the one whose write lands first owns it, and every later
//! claim sees that owner.

use crate::error::{TodoError, clip};
use crate::todo::Todo;

/// What a requested owner does to `task`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The task had no owner, or already had this one.
    Taken,
    /// The owner was emptied: the task is free for anyone.
    Released,
    /// The task changed hands from the owner it had, on purpose.
    TakenOver,
}

/// The names a wire format gives the two fields of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimFields {
    /// The owner field (`owner`).
    pub owner: &'static str,
    /// The flag that takes a task over on purpose (`takeOver`).
    pub take_over: &'static str,
}

/// Checks that `requested` may become the owner of `task` (named `id`):
/// refused with [`TodoError::Claimed`] when another agent owns it and
/// `take_over` is false. `fields` name the fields in the caller's wire
/// format, for the message.
pub fn check_claim(
    task: &Todo,
    id: &str,
    requested: &str,
    take_over: bool,
    fields: ClaimFields,
) -> Result<Claim, TodoError> {
    let current = task.owner.as_deref().filter(|owner| !owner.is_empty());
    match current {
        _ if requested.is_empty() => Ok(Claim::Released),
        None => Ok(Claim::Taken),
        Some(owner) if owner == requested => Ok(Claim::Taken),
        Some(_) if take_over => Ok(Claim::TakenOver),
        Some(owner) => Err(TodoError::Claimed {
            field: fields.owner.to_owned(),
            take_over: fields.take_over.to_owned(),
            id: clip(id),
            owner: clip(owner),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const FIELDS: ClaimFields = ClaimFields {
        owner: "owner",
        take_over: "takeOver",
    };

    #[test]
    fn only_a_task_owned_by_someone_else_refuses_a_new_owner_without_a_take_over() {
        let free = Todo::new("a");
        let mine = Todo::new("a").owner("agent-a");
        let blank = Todo::new("a").owner("");
        let actual = vec![
            check_claim(&free, "1", "agent-b", false, FIELDS),
            check_claim(&blank, "1", "agent-b", false, FIELDS),
            check_claim(&mine, "1", "agent-a", false, FIELDS),
            check_claim(&mine, "1", "", false, FIELDS),
            check_claim(&mine, "1", "agent-b", true, FIELDS),
            check_claim(&mine, "1", "agent-b", false, FIELDS),
        ];
        let expected = vec![
            Ok(Claim::Taken),
            Ok(Claim::Taken),
            Ok(Claim::Taken),
            Ok(Claim::Released),
            Ok(Claim::TakenOver),
            Err(TodoError::Claimed {
                field: "owner".to_owned(),
                take_over: "takeOver".to_owned(),
                id: "1".to_owned(),
                owner: "agent-a".to_owned(),
            }),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_refusal_names_the_owner_and_the_ways_forward() {
        let owned = Todo::new("a").owner("agent-a");
        let actual = check_claim(&owned, "7", "agent-b", false, FIELDS).map_err(|e| e.to_string());
        let expected = Err(
            "owner: task 7 is owned by \"agent-a\", so it was left unchanged: another agent is working on it. \
             Pick another task; to change hands, the owner releases it first (owner \"\"), or the call takes it over on purpose (takeOver: true)"
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }
}
