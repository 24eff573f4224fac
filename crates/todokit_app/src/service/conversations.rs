//! What a host shows beside the conversation: the tool definitions to send
//! the model, and every stored conversation with how far along it is.

use serde::Serialize;
use serde_json::Value;
use todokit_domain::turn::is_turn_key;
use todokit_domain::{StatusCounts, Timestamp};

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::schema::{SchemaTarget, definitions};

/// One stored conversation as [`TodoWriteService::conversations`] lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ConversationSummary {
    /// The conversation's id, as calls name it.
    pub id: String,
    /// When it last changed (milliseconds since the Unix epoch), where the
    /// store knows.
    pub changed_at: Option<Timestamp>,
    /// Its stored version (0 when it could not be read).
    pub version: u64,
    /// How many tasks are in each status.
    pub counts: StatusCounts,
    /// What the task in progress shows (its active form, else its text).
    pub in_progress: Option<String>,
    /// The profile whose tools last changed it, where it was recorded.
    pub profile: Option<String>,
    /// Why the stored list cannot be read, when it cannot.
    pub problem: Option<String>,
}

impl TodoWriteService {
    /// The profile's tool definitions in the JSON shape `target` expects,
    /// ready to send with a request.
    pub fn definitions(&self, target: SchemaTarget) -> Value {
        definitions(self.profile(), target)
    }

    /// Calls `wake` whenever any conversation of the store may have
    /// changed (a commit through this service or, where the store can
    /// tell, by anyone), while the returned guard lives; `None` when the
    /// store cannot tell (an overview then looks again on a timer). One
    /// such watch can serve every overview a host shows.
    pub fn watch_conversations(&self, wake: crate::context::Wake) -> Option<crate::context::WatchGuard> {
        self.store().watch_all(wake)
    }

    /// Every conversation in the store, most recently changed first (ones
    /// whose time the store does not know last, then by id). A list that
    /// cannot be read is listed with its `problem`.
    pub async fn conversations(&self) -> Result<Vec<ConversationSummary>, ServiceError> {
        let stored = self.store().conversations().await?;
        let mut summaries: Vec<ConversationSummary> = stored
            .into_iter()
            // A conversation's turn record is stored beside it, not listed.
            .filter(|conversation| !is_turn_key(&conversation.id))
            .map(|conversation| match conversation.summary {
                Ok(summary) => ConversationSummary {
                    id: conversation.id,
                    changed_at: conversation.changed_at,
                    version: summary.version,
                    counts: summary.counts,
                    in_progress: summary.in_progress,
                    profile: summary.profile,
                    problem: None,
                },
                Err(error) => ConversationSummary {
                    id: conversation.id,
                    changed_at: conversation.changed_at,
                    version: 0,
                    counts: StatusCounts::default(),
                    in_progress: None,
                    profile: None,
                    problem: Some(error.to_string()),
                },
            })
            .collect();
        summaries.sort_by(|a, b| b.changed_at.cmp(&a.changed_at).then_with(|| a.id.cmp(&b.id)));
        Ok(summaries)
    }
}
