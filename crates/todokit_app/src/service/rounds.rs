//! Running the todo calls of one model turn together, so a dialect that
//! allows a tool only once per turn (deepagents' `write_todos`) can refuse
//! every call of a turn that holds several, as its original does.

use serde::Serialize;

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::details::Details;
use crate::tool::{CallOptions, ToolResult};

/// One tool call of a model turn, as the host received it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundCall<'a> {
    /// The tool the model called.
    pub tool: &'a str,
    /// Its argument text, as the model sent it.
    pub arguments: &'a str,
    /// The answer the host already has for this call (its arguments could
    /// not even be read as text): the call still counts in the round, and
    /// gets this answer in its place unless the round refuses it.
    pub answered: Option<&'a ToolResult>,
}

impl<'a> RoundCall<'a> {
    /// A call of `tool` with `arguments`.
    pub fn new(tool: &'a str, arguments: &'a str) -> Self {
        Self {
            tool,
            arguments,
            answered: None,
        }
    }

    /// A call of `tool` the host answered itself with `answer` (arguments
    /// that are not text); it keeps its place and counts in the round.
    pub fn answered(tool: &'a str, answer: &'a ToolResult) -> Self {
        Self {
            tool,
            arguments: "",
            answered: Some(answer),
        }
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
    /// ([`crate::profile::Profile::with_once_per_round`]) that appears more than
    /// once gets the profile's refusal, as an error, for every one of its
    /// calls, and none of them runs; the other calls run as
    /// [`TodoWriteService::call`] runs them. A tool the profile lacks is an
    /// error for the whole round, before anything runs. A call that fails
    /// (the store) ends the round: when calls ran before it, the error is
    /// [`ServiceError::RoundInterrupted`], which carries their results.
    pub async fn call_round(
        &self,
        conversation: &str,
        calls: &[RoundCall<'_>],
    ) -> Result<Vec<ToolResult>, ServiceError> {
        self.call_round_with(conversation, calls, CallOptions::default())
            .await
    }

    /// [`TodoWriteService::call_round`] as the host's `options` say: each
    /// call runs as [`TodoWriteService::call_with`] runs it.
    pub async fn call_round_with(
        &self,
        conversation: &str,
        calls: &[RoundCall<'_>],
        options: CallOptions,
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
            results.push(match (refusal, call.answered) {
                (Some(text), _) => ToolResult {
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
                (None, Some(answer)) => answer.clone(),
                (None, None) => match self
                    .call_with(conversation, call.tool, call.arguments, options)
                    .await
                {
                    Ok(result) => result,
                    // Nothing before this call is lost: what it stored
                    // stays stored, so its answer goes back with the error.
                    Err(error) if !results.is_empty() => {
                        return Err(ServiceError::RoundInterrupted {
                            index: results.len(),
                            answered: results,
                            source: Box::new(error),
                        });
                    }
                    Err(error) => return Err(error),
                },
            });
        }
        Ok(results)
    }
}
