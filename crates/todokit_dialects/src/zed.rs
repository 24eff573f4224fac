//! `zed`: the Zed agent's `update_plan`: the whole plan of `{step, status,
//! priority?}` entries, a priority of `medium` when left out. The plan is
//! not checked (any number of steps may be in progress) and the answer is
//! always `Plan updated`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::{TriStatus, WirePriority};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "zed";
/// What the model reads back after every plan, as Zed says it.
pub const PLAN_UPDATED: &str = "Plan updated";

const FIELDS: FieldNames = FieldNames {
    list: "plan",
    content: "step",
    ..FieldNames::DEFAULT
};

/// The profile with its default rules: several steps may be in progress,
/// as Zed leaves the plan unchecked.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Zed agent's update_plan: a plan of steps with optional priorities",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Zed",
        pin: Pin::Source {
            repository: "zed-industries/zed",
            path: "crates/agent/src/tools/update_plan_tool.rs",
            commit: "bedd29e1806139c7aa52ec3fc0c0cd9f5ef8f9f1",
            date: None,
            read_through: None,
        },
        ships_in: "Zed's own agent (`update_plan`, behind a feature flag since March 2026)",
        checked: None,
    })
    .with_system_prompt(include_str!("../descriptions/zed/system-prompt.md"))
    .with_example(
        "update_plan",
        r#"{"plan":[{"step":"Run the tests","status":"in_progress","priority":"high"},{"step":"Fix what fails","status":"pending"}]}"#,
    )
    .tool(ListTool(UpdatePlan))
}

/// One entry of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct PlanEntry {
    /// What the step does.
    pub step: String,
    /// Where it stands.
    pub status: TriStatus,
    /// How much it matters; `medium` when left out.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub priority: Option<WirePriority>,
}

/// A stored todo as a plan entry in the details, with the priority Zed
/// shows (`medium` for a todo another profile wrote without one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlanEntryView<'a> {
    /// What the step does.
    pub step: &'a str,
    /// Where it stands.
    pub status: TriStatus,
    /// How much it matters.
    pub priority: WirePriority,
}

/// The arguments of `update_plan`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdatePlanInput {
    /// The whole plan, in order.
    pub plan: Vec<PlanEntry>,
}

todokit_app::prelude::writer_tool! {
    /// The `update_plan` tool.
    UpdatePlan = "update_plan",
    include_str!("../descriptions/zed/update_plan.md")
}

impl ListWriter for UpdatePlan {
    type Input = UpdatePlanInput;
    type Item<'a> = PlanEntryView<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut UpdatePlanInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .plan
            .iter_mut()
            .map(|entry| {
                // Left out is `medium` in Zed, not "as before".
                let priority = entry.priority.unwrap_or(WirePriority::Medium);
                Todo::new(std::mem::take(&mut entry.step))
                    .status(entry.status)
                    .priority(Priority::from(priority))
            })
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> PlanEntryView<'_> {
        PlanEntryView {
            step: &todo.content,
            status: todo.status.into(),
            priority: todo.priority.map_or(WirePriority::Medium, WirePriority::from),
        }
    }

    fn text(_op: &ToolOperation<'_, UpdatePlanInput>) -> String {
        PLAN_UPDATED.to_owned()
    }

    fn fields(_op: &ToolOperation<'_, UpdatePlanInput>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{detail, run_tool};
    use pretty_assertions::assert_eq;
    use serde_json::json;
    use todokit_domain::Status;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), UpdatePlan::NAME, state, args)
    }

    // Golden facts from Zed: repository zed-industries/zed at commit
    // bedd29e1806139c7aa52ec3fc0c0cd9f5ef8f9f1,
    // crates/agent/src/tools/update_plan_tool.rs: the input is
    // `{plan: [{step, status, priority}]}` with statuses `pending`,
    // `in_progress`, `completed` and priorities `high`, `medium`, `low`
    // (`medium` by default); every call answers `Plan updated`, with no
    // check of the plan (two steps in progress are fine).
    #[test]
    fn every_plan_is_stored_and_answered_plan_updated() {
        let outcome = call(
            &TodoState::new(),
            r#"{"plan":[{"step":"A","status":"in_progress","priority":"high"},{"step":"B","status":"in_progress"},{"step":"C","status":"completed","priority":"low"}]}"#,
        );
        let stored = outcome.commit.clone().map(|s| {
            s.tasks()
                .map(|t| (t.content.clone(), t.status, t.priority))
                .collect::<Vec<_>>()
        });
        let actual = (
            outcome.result.content.clone(),
            stored,
            detail(&outcome, "current"),
        );
        let expected = (
            PLAN_UPDATED.to_owned(),
            Some(vec![
                ("A".to_owned(), Status::InProgress, Some(Priority::High)),
                ("B".to_owned(), Status::InProgress, Some(Priority::Medium)),
                ("C".to_owned(), Status::Completed, Some(Priority::Low)),
            ]),
            (
                false,
                json!([
                    {"step": "A", "status": "in_progress", "priority": "high"},
                    {"step": "B", "status": "in_progress", "priority": "medium"},
                    {"step": "C", "status": "completed", "priority": "low"},
                ]),
            ),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_plan_clears_it_and_is_still_plan_updated() {
        let before = TodoState::flat(vec![Todo::new("A")]);
        let outcome = call(&before, r#"{"plan":[]}"#);
        let actual = (outcome.result.content, outcome.commit.map(|s| s.is_empty()));
        let expected = (PLAN_UPDATED.to_owned(), Some(true));
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_priority_left_out_is_medium_even_when_the_step_had_another() {
        let before = TodoState::flat(vec![Todo::new("A").priority(Priority::High)]);
        let outcome = call(&before, r#"{"plan":[{"step":"A","status":"completed"}]}"#);
        let actual = outcome
            .commit
            .map(|s| s.tasks().map(|t| t.priority).collect::<Vec<_>>());
        let expected = Some(vec![Some(Priority::Medium)]);
        assert_eq!(actual, expected);
    }
}
