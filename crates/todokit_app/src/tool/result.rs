//! What one call returns to the host.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::details::Details;

/// What one call returns to the host: whether it failed, the text the model
/// sees, and structured details for UIs and logs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolResult {
    /// True when the call was refused or partly failed.
    pub is_error: bool,
    /// The text the model reads.
    pub content: String,
    /// Structured details: for a list tool, the list before and after
    /// (`previous`, `current`), the `transitions` and the profile's own
    /// fields; for a refused call, the `error`. A call through the service
    /// writes them when they are first read.
    pub details: Details,
}

impl ToolResult {
    /// A successful result.
    pub fn ok(content: impl Into<String>, details: Details) -> Self {
        Self {
            is_error: false,
            content: content.into(),
            details,
        }
    }
}
