//! The mapping from a todokit list to ACP plan entries.
//!
//! # The mapping
//!
//! ACP knows three statuses and three priorities, and an entry is only its
//! text, a priority and a status. Every task of every phase becomes one
//! entry, in the list's order, and what ACP cannot say goes into the
//! entry's `_meta` under [`META_KEY`], so a client that knows todokit
//! loses nothing and any other client still shows a faithful plan:
//!
//! | todokit | ACP `status` | why |
//! |---|---|---|
//! | `pending` | `pending` | |
//! | `in_progress` | `in_progress` | its `activeForm`, when it has one, is the entry's text ("Running the tests") |
//! | `blocked` | `pending` | it still needs doing, but nobody is on it; `_meta` says `blocked`, with the reason and blockers |
//! | `completed` | `completed` | |
//! | `abandoned` (a profile's `cancelled`, `dropped`) | `completed` | it needs no more work, as most agents' three-status tools show it; it stays in the plan (some agents drop it, and the user then cannot see it was given up); `_meta` says `abandoned` |
//!
//! A task without a priority is `medium` (ACP requires one); `_meta` then
//! has no `priority`, so the two can be told apart. The entry's `_meta`
//! object holds `status` (todokit's word), and where they apply `id`,
//! `phase` (for a list in named phases), `content` (the task's own text,
//! when the entry shows its active form), `priority`, `blockedReason`,
//! `blockedBy` and `owner`. The plan's `_meta` object holds the
//! `conversation`, the list's `version` and the `profile` that last wrote
//! it.

use agent_client_protocol::v1::schema::{Meta, Plan, PlanEntry, PlanEntryPriority, PlanEntryStatus};
use serde_json::{Value, json};
use todokit_domain::{Phase, Priority, Status, Todo, TodoState};

/// The key of an entry's and a plan's `_meta` that holds what ACP cannot
/// say (see [the mapping](self#the-mapping)).
pub const META_KEY: &str = "todokit";

/// `state`, the list of `conversation`, as an ACP plan: every entry by
/// [`entry`], in order.
pub fn plan(conversation: &str, state: &TodoState) -> Plan {
    Plan::new(entries(state)).meta(plan_meta(conversation, state))
}

/// Every task of `state` as an entry, in the list's order.
pub(super) fn entries(state: &TodoState) -> Vec<PlanEntry> {
    state
        .phases
        .iter()
        .flat_map(|phase| phase.tasks.iter().map(move |task| entry(phase, task)))
        .collect()
}

/// The plan-level `_meta`: which conversation, which version, whose words.
pub(super) fn plan_meta(conversation: &str, state: &TodoState) -> Meta {
    let mut facts = serde_json::Map::new();
    facts.insert("conversation".into(), conversation.into());
    facts.insert("version".into(), state.version.into());
    if let Some(profile) = &state.profile {
        facts.insert("profile".into(), profile.as_str().into());
    }
    wrap(facts)
}

/// One task of `phase` as a plan entry.
pub fn entry(phase: &Phase, task: &Todo) -> PlanEntry {
    let status = match task.status {
        Status::Pending | Status::Blocked => PlanEntryStatus::Pending,
        Status::InProgress => PlanEntryStatus::InProgress,
        Status::Completed | Status::Abandoned => PlanEntryStatus::Completed,
    };
    let priority = match task.priority {
        Some(Priority::High) => PlanEntryPriority::High,
        Some(Priority::Low) => PlanEntryPriority::Low,
        Some(Priority::Medium) | None => PlanEntryPriority::Medium,
    };
    let active = match (task.status, &task.active_form) {
        (Status::InProgress, Some(form)) if !form.trim().is_empty() => Some(form.as_str()),
        _ => None,
    };
    let mut facts = serde_json::Map::new();
    facts.insert("status".into(), task.status.as_str().into());
    if let Some(id) = &task.id {
        facts.insert("id".into(), id.as_str().into());
    }
    if phase.name != Phase::IMPLICIT {
        facts.insert("phase".into(), phase.name.as_str().into());
    }
    if active.is_some() {
        facts.insert("content".into(), task.content.as_str().into());
    }
    if let Some(priority) = task.priority {
        facts.insert("priority".into(), priority.as_str().into());
    }
    if let Some(reason) = &task.blocked_reason {
        facts.insert("blockedReason".into(), reason.as_str().into());
    }
    if !task.blocked_by.is_empty() {
        facts.insert("blockedBy".into(), json!(task.blocked_by));
    }
    if let Some(owner) = &task.owner {
        facts.insert("owner".into(), owner.as_str().into());
    }
    PlanEntry::new(active.unwrap_or(&task.content), priority, status).meta(wrap(facts))
}

/// `facts` under [`META_KEY`].
fn wrap(facts: serde_json::Map<String, Value>) -> Meta {
    let mut meta = Meta::new();
    meta.insert(META_KEY.into(), Value::Object(facts));
    meta
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn task(content: &str, status: Status) -> Todo {
        Todo::new(content).status(status)
    }

    #[test]
    fn every_status_maps_to_the_acp_status_the_table_gives() {
        let fixture = Phase::new(Phase::IMPLICIT).tasks(Status::ALL.map(|s| task(s.as_str(), s)).to_vec());
        let actual: Vec<(String, PlanEntryStatus)> = fixture
            .tasks
            .iter()
            .map(|t| (t.content.clone(), entry(&fixture, t).status))
            .collect();
        let expected = vec![
            ("pending".to_owned(), PlanEntryStatus::Pending),
            ("in_progress".to_owned(), PlanEntryStatus::InProgress),
            ("blocked".to_owned(), PlanEntryStatus::Pending),
            ("completed".to_owned(), PlanEntryStatus::Completed),
            ("abandoned".to_owned(), PlanEntryStatus::Completed),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_task_in_progress_shows_its_active_form_and_keeps_its_content_in_meta() {
        let fixture = task("Run the tests", Status::InProgress).active_form("Running the tests");
        let phase = Phase::new(Phase::IMPLICIT).tasks(vec![fixture.clone()]);
        let actual = entry(&phase, &fixture);
        let facts = json!({"status": "in_progress", "content": "Run the tests"});
        let expected = PlanEntry::new(
            "Running the tests",
            PlanEntryPriority::Medium,
            PlanEntryStatus::InProgress,
        )
        .meta(wrap(facts.as_object().cloned().unwrap_or_default()));
        assert_eq!(actual, expected);
    }

    /// The whole mapping as a client receives it: every status, with and
    /// without a priority, an active form, ids, named phases, a blocked
    /// task's reason and blockers, an owner.
    #[test]
    fn a_list_with_every_status_as_the_client_receives_it() {
        let explore = Phase::new("Explore").tasks(vec![
            task("Read the code", Status::Completed)
                .id("1")
                .priority(Priority::High),
            task("Try the old parser", Status::Abandoned)
                .id("2")
                .priority(Priority::Low),
        ]);
        let build = Phase::new("Build").tasks(vec![
            task("Port the parser", Status::InProgress)
                .id("3")
                .active_form("Porting the parser")
                .owner("agent-2"),
            task("Ship it", Status::Blocked)
                .id("4")
                .blocked_reason("waiting for review")
                .blocked_by(vec!["3".to_owned()]),
            task("Write the changelog", Status::Pending).id("5"),
        ]);
        let fixture = TodoState::new()
            .phases(vec![explore, build])
            .version(7u64)
            .profile("omp");
        let actual = serde_json::to_value(plan("conversation-1", &fixture)).unwrap_or_default();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_json_snapshot!("acp_plan_every_status", actual));
    }
}
