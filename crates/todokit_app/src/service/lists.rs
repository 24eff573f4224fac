//! Reading a conversation's list, resuming it, and taking the notices
//! waiting for the model.

use todokit_domain::{Notice, Phase, TodoState, drop_finished};

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::tool::ToolResult;

impl TodoWriteService {
    /// The stored list of `conversation`, exactly as stored.
    pub async fn state(&self, conversation: &str) -> Result<TodoState, ServiceError> {
        Ok(self.store.load(conversation).await?)
    }

    /// The list of `conversation` as a user should see it now: under the
    /// profile's lifecycle, finished tasks past their delay are gone.
    pub async fn view(&self, conversation: &str) -> Result<TodoState, ServiceError> {
        let stored = self.store.load(conversation).await?;
        Ok(self.profile.settle(&stored, self.clock.now()).into_owned())
    }

    /// `stored` as the profile that last wrote it shows it now (a `pi` list
    /// without what pi clears), and that profile: this service's own for a
    /// list that does not say or names a profile its catalog does not know
    /// (see [`TodoWriteService::with_catalog`]). What a viewer of any
    /// conversation shows, whatever profile the viewer itself serves.
    pub fn as_written(&self, stored: &TodoState) -> (crate::profile::Profile, TodoState) {
        let profile = stored
            .profile
            .as_deref()
            .and_then(|name| self.profile_named(name))
            .unwrap_or_else(|| self.profile.clone());
        let shown = profile.settle(stored, self.clock.now()).into_owned();
        (profile, shown)
    }

    /// `conversation`'s list as the profile that last wrote it shows it
    /// now, with that profile ([`TodoWriteService::as_written`]); when the
    /// store cannot be read, this service's own profile and the error.
    /// What a viewer (`watch`, the board) shows.
    pub async fn view_as_written(
        &self,
        conversation: &str,
    ) -> (crate::profile::Profile, Result<TodoState, ServiceError>) {
        match self.state(conversation).await {
            Ok(stored) => {
                let (profile, shown) = self.as_written(&stored);
                (profile, Ok(shown))
            }
            Err(error) => (self.profile.clone(), Err(error)),
        }
    }

    /// Restores `conversation` when a host resumes it: when nothing is
    /// stored, rebuilds the list from the newest successful tool result in
    /// `transcript` that carries phases; then, where the profile says so,
    /// drops completed and abandoned tasks. Commits what changed and
    /// returns the list.
    pub async fn resume(
        &self,
        conversation: &str,
        transcript: &[ToolResult],
    ) -> Result<TodoState, ServiceError> {
        let drop = self.profile.lifecycle().drop_finished_on_resume;
        self.transact(conversation, |state, _| {
            let mut next = state.clone();
            if state.version == 0
                && state.phases.is_empty()
                && let Some(phases) = phases_from_transcript(transcript)
            {
                next.phases = phases;
            }
            if drop {
                next = drop_finished(&next);
            }
            let changed = next != *state;
            Ok::<_, ServiceError>((changed.then(|| next.clone()), next))
        })
        .await
    }

    /// Takes the notices waiting for the model (user edits), oldest first,
    /// and clears them.
    pub async fn take_notices(&self, conversation: &str) -> Result<Vec<Notice>, ServiceError> {
        self.transact(conversation, |state, _| {
            if state.notices.is_empty() {
                return Ok::<_, ServiceError>((None, Vec::new()));
            }
            let mut next = state.clone();
            let notices = std::mem::take(&mut next.notices);
            Ok((Some(next), notices))
        })
        .await
    }
}

/// The phases in the newest successful result that carries them.
fn phases_from_transcript(transcript: &[ToolResult]) -> Option<Vec<Phase>> {
    transcript
        .iter()
        .rev()
        .filter(|r| !r.is_error)
        .find_map(|r| serde_json::from_value(r.details.value().get_mut("phases")?.take()).ok())
}
