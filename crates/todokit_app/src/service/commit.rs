//! The commit loop every change goes through: load, settle under the
//! profile's lifecycle, change, compare-and-swap, ring the feeds; on a
//! conflict, again.

use std::borrow::Cow;
use std::sync::Arc;

use todokit_domain::{Timestamp, TodoState};

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::context::StoreError;

/// How often a call is re-run against a fresh load when another writer
/// committed in between, before the service gives up.
pub const MAX_COMMIT_ATTEMPTS: usize = 64;

impl TodoWriteService {
    /// Runs `change` on the current list of `conversation` (as it stands
    /// now under the profile's lifecycle) and commits the state it returns,
    /// if any, with compare-and-swap; on a conflict, reloads and runs it
    /// again. The closure must be a pure function of its inputs.
    pub async fn transact<T, E: From<ServiceError>>(
        &self,
        conversation: &str,
        mut change: impl FnMut(&TodoState, Timestamp) -> Result<(Option<TodoState>, T), E>,
    ) -> Result<T, E> {
        self.commit_loop(conversation, |state, now| change(state, now))
            .await
            .map(|(value, _, _)| value)
    }

    /// [`TodoWriteService::transact`], giving `change` the current list
    /// shared and returning, beside its value, the list it saw and the list
    /// committed (if any).
    pub(super) async fn commit_loop<T, E: From<ServiceError>>(
        &self,
        conversation: &str,
        mut change: impl FnMut(&Arc<TodoState>, Timestamp) -> Result<(Option<TodoState>, T), E>,
    ) -> Result<(T, Arc<TodoState>, Option<Arc<TodoState>>), E> {
        for _ in 0..MAX_COMMIT_ATTEMPTS {
            let stored = self
                .store
                .load_shared(conversation)
                .await
                .map_err(ServiceError::from)?;
            let now = self.clock.now();
            let current = match self.profile.settle(&stored, now) {
                Cow::Borrowed(_) => Arc::clone(&stored),
                Cow::Owned(settled) => Arc::new(settled),
            };
            let (next, value) = change(&current, now)?;
            let Some(mut next) = next else {
                return Ok((value, current, None));
            };
            next.version = next_version(conversation, stored.version)?;
            // Whatever the change did, a stored parent always holds.
            next.drop_broken_parents();
            let next = Arc::new(next);
            match self
                .store
                .save_shared(conversation, stored.version, Arc::clone(&next))
                .await
            {
                Ok(()) => {
                    self.alarms.ring(conversation);
                    return Ok((value, current, Some(next)));
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(ServiceError::from(e).into()),
            }
        }
        Err(ServiceError::Contention {
            conversation: conversation.to_owned(),
            attempts: MAX_COMMIT_ATTEMPTS,
        }
        .into())
    }

    /// Runs `change` on `conversation`'s turn record as stored and commits
    /// the record it returns, if any, while the list is still at
    /// `list_version` ([`crate::context::ConversationContext::save_record`]).
    /// `None` when the list or the record moved meanwhile: the caller reads
    /// the list again and retries, so no record is made from a list that
    /// is gone.
    pub(crate) async fn commit_record<T>(
        &self,
        conversation: &str,
        list_version: u64,
        change: impl FnOnce(&TodoState) -> (Option<TodoState>, T),
    ) -> Result<Option<T>, ServiceError> {
        let key = todokit_domain::turn::turn_key(conversation);
        let stored = self.store.load_shared(&key).await?;
        let (next, value) = change(&stored);
        let Some(mut next) = next else {
            return Ok(Some(value));
        };
        next.version = next_version(conversation, stored.version)?;
        match self
            .store
            .save_record(conversation, list_version, stored.version, Arc::new(next))
            .await
        {
            Ok(()) => {
                self.alarms.ring(&key);
                Ok(Some(value))
            }
            Err(StoreError::Conflict { .. }) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }
}

/// The version after `stored`. One at its maximum cannot move on: wrapping
/// to 0 would make every other writer's compare-and-swap lie.
fn next_version(conversation: &str, stored: u64) -> Result<u64, ServiceError> {
    stored
        .checked_add(1)
        .ok_or_else(|| ServiceError::VersionExhausted {
            conversation: conversation.to_owned(),
        })
}
