//! Why a call could not be processed at all.

use thiserror::Error;

use crate::context::StoreError;
use crate::tool::ToolResult;

/// Why a call could not be processed at all. A bad payload is not one of
/// these: it is a [`crate::tool::ToolResult`] with `is_error` set.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ServiceError {
    /// The profile has no tool by that name.
    #[error("profile {profile:?} has no tool {tool:?}; its tools are: {}", available.join(", "))]
    UnknownTool {
        /// The profile.
        profile: &'static str,
        /// The name asked for.
        tool: String,
        /// What it has.
        available: Vec<&'static str>,
    },
    /// The store failed; nothing was written, except for
    /// [`StoreError::OutcomeUnknown`], where the change may have been.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored version is at its maximum, so no change can be committed.
    #[error(
        "conversation {conversation:?} is at the highest version a list can have; \
         its stored state was written by something other than todokit: repair or remove it"
    )]
    VersionExhausted {
        /// The conversation.
        conversation: String,
    },
    /// A call of a round ([`crate::service::TodoWriteService::call_round`]) failed
    /// after the calls before it had run: their results are here, since
    /// what they stored stays stored, and the calls after it did not run.
    #[error(
        "call {index} of the round failed after the {} call(s) before it were answered (their results \
         are kept in this error; the calls after it did not run): {source}",
        answered.len()
    )]
    RoundInterrupted {
        /// The position in the round of the call that failed (from 0).
        index: usize,
        /// The results of the calls before it, in order.
        answered: Vec<ToolResult>,
        /// Why the call failed.
        #[source]
        source: Box<ServiceError>,
    },
    /// Other writers kept committing first.
    #[error(
        "gave up after {attempts} attempts: conversation {conversation:?} kept changing underneath this call"
    )]
    Contention {
        /// The conversation.
        conversation: String,
        /// How many times the call was tried.
        attempts: usize,
    },
}
