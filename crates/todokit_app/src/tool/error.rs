//! Why a call was refused, and the result the model reads for it.

use serde::Serialize;
use thiserror::Error;
use todokit_domain::TodoError;

use super::result::ToolResult;
use crate::arguments::ArgumentError;
use crate::details::Details;

/// Why a call was refused. Nothing was stored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments could not be decoded: one entry per problem.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Arguments(Vec<ArgumentError>),
    /// The arguments decoded but the list they describe breaks a rule.
    #[error(transparent)]
    Rejected(#[from] TodoError),
}

impl From<ArgumentError> for ToolError {
    fn from(error: ArgumentError) -> Self {
        ToolError::Arguments(vec![error])
    }
}

impl ToolError {
    /// A call refused in the dialect's own words: `message` about `field`
    /// (`todos`, `tasks[2].task_id`), inside the common refusal layout.
    pub fn refused(field: impl Into<String>, message: impl Into<String>) -> Self {
        ToolError::Rejected(TodoError::Refused {
            field: field.into(),
            message: message.into(),
        })
    }

    /// Each problem as (field, message).
    pub fn problems(&self) -> Vec<(String, String)> {
        match self {
            ToolError::Arguments(list) => list
                .iter()
                .map(|e| (e.field().to_owned(), e.to_string()))
                .collect(),
            ToolError::Rejected(e) => e.problems(),
        }
    }

    fn omitted(&self) -> usize {
        match self {
            ToolError::Arguments(_) => 0,
            ToolError::Rejected(e) => e.omitted(),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            ToolError::Arguments(_) => "invalid_arguments",
            ToolError::Rejected(_) => "rejected",
        }
    }

    /// The result the model gets for this error from tool `tool`: every
    /// problem on its own line, and a plain statement that nothing changed.
    pub fn into_result(self, tool: &str) -> ToolResult {
        let problems = self.problems();
        let mut content = format!("{tool} was not applied; the stored list is unchanged.\n");
        for (_, message) in &problems {
            content.push_str("- ");
            content.push_str(message);
            content.push('\n');
        }
        let omitted = self.omitted();
        if omitted > 0 {
            content.push_str(&format!("- ... and {omitted} more problems of the same kinds\n"));
        }
        content.push_str(&format!("Fix the arguments and call {tool} again."));
        let details = Details::of(&ErrorDetails {
            error: ErrorBody {
                kind: self.kind(),
                problems: problems
                    .iter()
                    .map(|(field, message)| Problem { field, message })
                    .collect(),
                omitted,
            },
        });
        ToolResult {
            is_error: true,
            content,
            details,
        }
    }
}

/// The details of a refused call.
#[derive(Serialize)]
struct ErrorDetails<'a> {
    error: ErrorBody<'a>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    kind: &'static str,
    problems: Vec<Problem<'a>>,
    omitted: usize,
}

#[derive(Serialize)]
struct Problem<'a> {
    field: &'a str,
    message: &'a str,
}
