//! `codex`: Codex's `update_plan`: an optional explanation and the whole
//! plan of `{step, status}` items. Unknown fields are refused, as the
//! original refuses them; at most one step may be in progress (checked
//! here, unlike the original). In the host's Plan mode every call is
//! refused in Codex's words, before its arguments are read.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::TriStatus;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "codex";
/// What the model reads back after an accepted plan, as the original says it.
pub const PLAN_UPDATED: &str = "Plan updated";
/// The whole answer to a call in the host's Plan mode, as Codex gives it.
pub const PLAN_MODE_REFUSAL: &str = "update_plan is a TODO/checklist tool and is not allowed in Plan mode";

const FIELDS: FieldNames = FieldNames {
    list: "plan",
    content: "step",
    active_form: "activeForm",
    id: "id",
    status: "status",
    ..FieldNames::DEFAULT
};

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Codex's update_plan: explanation and a plan of steps",
        ListRules::with_default_limits(InProgressPolicy::Reject),
    )
    .with_upstream(Upstream {
        agent: "Codex",
        pin: Pin::Source {
            repository: "openai/codex",
            path: "codex-rs/core/src/tools/handlers/plan.rs",
            commit: "2704ecea9a1d52ece2429da4ed5775000b59164d",
            date: Some("2026-06-10"),
            read_through: None,
        },
        ships_in: "Codex CLI (`update_plan`, refused in Plan mode; opt-in since 0.152.0)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @openai/codex 0.171.0",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/codex/system-prompt.md"))
    .with_example("update_plan", r#"{"explanation":"Tests first","plan":[{"step":"Run the tests","status":"in_progress"},{"step":"Fix what fails","status":"pending"}]}"#)
    .tool(RefusedIn::new(ListTool(UpdatePlan), HostMode::Plan, PLAN_MODE_REFUSAL))
}

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[serde(deny_unknown_fields)]
#[setters(strip_option, into)]
pub struct PlanItem {
    /// The step, in a few words.
    pub step: String,
    /// Where it stands.
    pub status: TriStatus,
}

/// A stored todo as a [`PlanItem`] in the details, borrowing its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlanItemView<'a> {
    /// The step.
    pub step: &'a str,
    /// Where it stands.
    pub status: TriStatus,
}

/// The arguments of `update_plan`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdatePlanInput {
    /// Why the plan changed, when that is worth saying.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub explanation: Option<String>,
    /// The whole plan, in order.
    pub plan: Vec<PlanItem>,
}

todokit_app::prelude::writer_tool! {
    /// The `update_plan` tool.
    UpdatePlan = "update_plan",
    include_str!("../descriptions/codex/update_plan.md")
}

impl ListWriter for UpdatePlan {
    type Input = UpdatePlanInput;
    type Item<'a> = PlanItemView<'a>;
    type Fields = Explanation;
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut UpdatePlanInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .plan
            .iter()
            .map(|item| Todo::new(item.step.clone()).status(item.status))
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> PlanItemView<'_> {
        PlanItemView {
            step: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(_op: &ToolOperation<'_, UpdatePlanInput>) -> String {
        PLAN_UPDATED.to_owned()
    }

    const EXPLAINS: bool = true;

    fn explanation(input: &UpdatePlanInput) -> Option<String> {
        input.explanation.clone().filter(|e| !e.trim().is_empty())
    }

    fn fields(op: &ToolOperation<'_, UpdatePlanInput>) -> Explanation {
        Explanation {
            explanation: op.asked.explanation.clone(),
        }
    }
}

/// What `update_plan` reports beside the plans: why it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The model's explanation, when it gave one.
    pub explanation: Option<String>,
}

impl PlanItem {
    /// A step.
    pub fn new(step: impl Into<String>, status: TriStatus) -> Self {
        Self {
            step: step.into(),
            status,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;
    use todokit_domain::Status;

    fn call(args: &str) -> Outcome {
        run_tool(&profile(), UpdatePlan::NAME, &TodoState::new(), args)
    }

    #[test]
    fn a_plan_is_stored_and_acknowledged() {
        let outcome = call(
            r#"{"plan":[{"step":"Read code","status":"in_progress"},{"step":"Fix","status":"pending"}]}"#,
        );
        let actual = (
            outcome.result.content.clone(),
            outcome.commit.map(|s| {
                s.tasks()
                    .map(|t| (t.content.clone(), t.status))
                    .collect::<Vec<_>>()
            }),
        );
        let expected = (
            PLAN_UPDATED.to_owned(),
            Some(vec![
                ("Read code".to_owned(), Status::InProgress),
                ("Fix".to_owned(), Status::Pending),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn unknown_fields_are_refused_at_every_level() {
        let outcome = call(r#"{"plan":[{"step":"a","status":"pending","note":"x"}],"reason":"y"}"#);
        let actual = problem_messages(&outcome);
        let expected = vec![
            "(arguments): unknown field `reason`; allowed: `explanation`, `plan`".to_owned(),
            "plan[0]: unknown field `note`; allowed: `step`, `status`".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_steps_in_progress_are_refused() {
        let outcome =
            call(r#"{"plan":[{"step":"a","status":"in_progress"},{"step":"b","status":"in_progress"}]}"#);
        let actual = problem_messages(&outcome);
        let expected = vec![
            "plan: 2 items are in_progress (plan[0], plan[1]); only one item may be in_progress at a time"
                .to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_step_is_refused() {
        let actual = problem_messages(&call(r#"{"plan":[{"step":" ","status":"pending"}]}"#));
        let expected = vec!["plan[0].step: must not be empty or only whitespace".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_status_is_accepted() {
        let actual: Vec<bool> = ["pending", "in_progress", "completed"]
            .iter()
            .map(|s| {
                call(&format!(r#"{{"plan":[{{"step":"a","status":"{s}"}}]}}"#))
                    .result
                    .is_error
            })
            .collect();
        let expected = vec![false, false, false];
        assert_eq!(actual, expected);
    }

    // Golden facts from openai/codex at commit
    // 2704ecea9a1d52ece2429da4ed5775000b59164d (main, 2026-06-10):
    // codex-rs/core/src/tools/handlers/plan.rs answers "Plan updated";
    // plan_spec.rs (last changed in 1c55bb27, #24794) makes the root and
    // each plan item closed objects (`additional_properties: false`),
    // `plan` required, each item requiring `step` and `status`, and
    // `status` a string enum of pending, in_progress, completed.
    #[test]
    fn the_answer_and_schema_are_codexs() {
        let schema = todokit_app::schema::canonical::<UpdatePlanInput>();
        let item = &schema["properties"]["plan"]["items"];
        let actual = (
            call(r#"{"plan":[{"step":"a","status":"pending"}]}"#)
                .result
                .content,
            schema["additionalProperties"].clone(),
            schema["required"].clone(),
            item["additionalProperties"].clone(),
            item["required"].clone(),
            item["properties"]["status"]["enum"].clone(),
        );
        let expected = (
            "Plan updated".to_owned(),
            serde_json::json!(false),
            serde_json::json!(["plan"]),
            serde_json::json!(false),
            serde_json::json!(["step", "status"]),
            serde_json::json!(["pending", "in_progress", "completed"]),
        );
        assert_eq!(actual, expected);
    }

    // Golden fact from openai/codex at commit
    // 2704ecea9a1d52ece2429da4ed5775000b59164d (main; the check came with
    // ec4a2d07, #9786), codex-rs/core/src/tools/handlers/plan.rs: in Plan
    // mode the handler answers `update_plan is a TODO/checklist tool and is
    // not allowed in Plan mode` (RespondToModel: the text is what the model
    // reads) before it parses the arguments, and records nothing.
    #[test]
    fn plan_mode_refuses_every_call_in_codexs_words_before_reading_it() {
        let service = crate::test_support::memory_service(NAME);
        let plan = todokit_app::CallOptions::default().mode(HostMode::Plan);
        let good = r#"{"plan":[{"step":"Run the tests","status":"in_progress"}]}"#;
        let run = |args: &str, options| {
            crate::test_support::block_on(service.call_with("c", UpdatePlan::NAME, args, options))
                .map(|r| (r.is_error, r.content))
                .ok()
        };
        let refused = Some((true, PLAN_MODE_REFUSAL.to_owned()));
        let actual = (
            run(good, plan),
            run("{not json", plan),
            crate::test_support::block_on(service.state("c"))
                .map(|s| s.is_empty())
                .ok(),
            run(good, todokit_app::CallOptions::default()),
            profile()
                .find(UpdatePlan::NAME)
                .map(|t| t.metadata().refused_in.iter().collect::<Vec<_>>()),
        );
        let expected = (
            refused.clone(),
            refused,
            Some(true),
            Some((false, PLAN_UPDATED.to_owned())),
            Some(vec![HostMode::Plan]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let cases = [
            (
                "accepted",
                r#"{"explanation":"Split the fix in two","plan":[{"step":"Read code","status":"completed"},{"step":"Patch the parser","status":"in_progress"}]}"#,
            ),
            ("refused", r#"{"plan":[{"step":"a","status":"done","extra":1}]}"#),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = call(args).result;
                insta::assert_snapshot!(format!("result__codex__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__codex__{name}"), result.details.value());
            }
        });
    }

    #[test]
    fn the_explanation_is_stored_for_viewers_and_each_call_replaces_it() {
        let service = crate::test_support::memory_service(NAME);
        let explained =
            r#"{"explanation":"Tests first","plan":[{"step":"Run the tests","status":"in_progress"}]}"#;
        let plain = r#"{"plan":[{"step":"Run the tests","status":"completed"}]}"#;
        let read = |args: &str| {
            crate::test_support::block_on(service.call("c", UpdatePlan::NAME, args))
                .map(|r| r.is_error)
                .ok();
            crate::test_support::block_on(service.state("c"))
                .map(|s| (s.explanation, s.profile))
                .ok()
        };
        let actual = (read(explained), read(plain));
        let expected = (
            Some((Some("Tests first".to_owned()), Some(NAME.to_owned()))),
            Some((None, Some(NAME.to_owned()))),
        );
        assert_eq!(actual, expected);
    }
}
