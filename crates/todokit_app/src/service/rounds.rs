//! Running the todo calls of one model turn together, so a dialect that
//! allows a tool only once per turn (deepagents' `write_todos`) can refuse
//! every call of a turn that holds several, as its original does.

use serde::Serialize;

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::{Details, ToolResult};

/// One tool call of a model turn, as the host received it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundCall<'a> {
    /// The tool the model called.
    pub tool: &'a str,
    /// Its argument text, as the model sent it.
    pub arguments: &'a str,
}

impl<'a> RoundCall<'a> {
    /// A call of `tool` with `arguments`.
    pub fn new(tool: &'a str, arguments: &'a str) -> Self {
        Self { tool, arguments }
    }
}

#[derive(Serialize)]
struct RoundRefusal<'a> {
    error: RoundRefusalBody<'a>,
}

#[derive(Serialize)]
struct RoundRefusalBody<'a> {
    kind: &'static str,
    tool: &'a str,
    calls_in_round: usize,
}

impl TodoWriteService {
    /// Runs the todo-tool calls of one model turn, in the order given, and
    /// answers each. A tool the profile allows only once per round
    /// ([`crate::Profile::with_once_per_round`]) that appears more than
    /// once gets the profile's refusal, as an error, for every one of its
    /// calls, and none of them runs; the other calls run as
    /// [`TodoWriteService::call`] runs them. A tool the profile lacks is an
    /// error for the whole round, before anything runs.
    pub async fn call_round(
        &self,
        conversation: &str,
        calls: &[RoundCall<'_>],
    ) -> Result<Vec<ToolResult>, ServiceError> {
        if let Some(unknown) = calls.iter().find(|c| self.profile.find(c.tool).is_none()) {
            return Err(self.unknown(unknown.tool));
        }
        let count = |tool: &str| calls.iter().filter(|c| c.tool == tool).count();
        let mut results = Vec::with_capacity(calls.len());
        for call in calls {
            let refusal = self
                .profile
                .round_refusal(call.tool)
                .filter(|_| count(call.tool) > 1);
            results.push(match refusal {
                Some(text) => ToolResult {
                    is_error: true,
                    content: text.to_owned(),
                    details: Details::of(&RoundRefusal {
                        error: RoundRefusalBody {
                            kind: "once_per_round",
                            tool: call.tool,
                            calls_in_round: count(call.tool),
                        },
                    }),
                },
                None => self.call(conversation, call.tool, call.arguments).await?,
            });
        }
        Ok(results)
    }
}
