//! The service that runs one tool call: decode, validate, apply, store with
//! compare-and-swap on the version, and format the result. The same
//! commit loop serves user edits, resume and taking notices.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use serde_json::Value;
use thiserror::Error;
use todokit_domain::{Notice, Phase, Timestamp, TodoState, drop_finished};

use crate::subscription::{Alarms, ring_all};
use crate::{
    CallContext, Clock, ConversationContext, DecodedInput, Profile, StoreError, Tool, ToolError, ToolResult,
    parse_arguments,
};

/// How often a call is re-run against a fresh load when another writer
/// committed in between, before the service gives up.
pub const MAX_COMMIT_ATTEMPTS: usize = 64;

/// Why a call could not be processed at all. A bad payload is not one of
/// these: it is a [`ToolResult`] with `is_error` set.
#[derive(Debug, Error)]
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
    /// The store failed; nothing was written.
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

/// A call's arguments, made ready before the first load.
enum Prepared<'t> {
    /// Parsed, repaired and checked.
    Checked(Value),
    /// Decoded straight from well-formed text (kept for a retry).
    Decoded {
        input: Option<DecodedInput>,
        text: &'t str,
    },
}

/// One async lock per conversation, for exclusive tools. Entries whose
/// lock nobody holds or waits for are dropped as new ones are made.
type ConversationLocks = Arc<Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>>;

/// Runs a profile's tool calls over an injected store and clock.
#[derive(Clone)]
pub struct TodoWriteService {
    profile: Profile,
    store: Arc<dyn ConversationContext>,
    clock: Arc<dyn Clock>,
    locks: ConversationLocks,
    alarms: Alarms,
}

impl TodoWriteService {
    /// A service for `profile` over `store`, telling time by `clock`.
    pub fn new(profile: Profile, store: Arc<dyn ConversationContext>, clock: Arc<dyn Clock>) -> Self {
        Self {
            profile,
            store,
            clock,
            locks: ConversationLocks::default(),
            alarms: Alarms::default(),
        }
    }

    /// The live feeds of each conversation, rung on every commit.
    pub(crate) fn alarms(&self) -> &Alarms {
        &self.alarms
    }

    /// Waits for, then holds, the lock that serializes exclusive calls on
    /// `conversation` within this service (and its clones).
    async fn exclusive(&self, conversation: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            // A panic elsewhere while holding this map cannot leave it in a
            // state worse than a missing entry, so a poisoned map is used as is.
            let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
            locks.retain(|_, weak| weak.strong_count() > 0);
            match locks.get(conversation).and_then(Weak::upgrade) {
                Some(lock) => lock,
                None => {
                    let lock = Arc::new(tokio::sync::Mutex::new(()));
                    locks.insert(conversation.to_owned(), Arc::downgrade(&lock));
                    lock
                }
            }
        };
        lock.lock_owned().await
    }

    /// The profile whose tools it runs.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The store it uses.
    pub fn store(&self) -> &Arc<dyn ConversationContext> {
        &self.store
    }

    /// The clock it tells time by.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// Runs `tool` with the argument text a model sent. Malformed text is a
    /// tool error (`is_error: true`), not a failure of the call.
    pub async fn call(&self, conversation: &str, tool: &str, args: &str) -> Result<ToolResult, ServiceError> {
        let found = self.profile.find(tool).ok_or_else(|| self.unknown(tool))?;
        // Well-formed text goes straight into the typed input; anything
        // else takes the parsing, repairing and checking path below.
        if let Some(input) = self.profile.decode_well_formed(found.name(), args) {
            let prepared = Prepared::Decoded {
                input: Some(input),
                text: args,
            };
            return self.run(conversation, found, prepared).await;
        }
        match parse_arguments(args) {
            Ok(value) => self.call_owned(conversation, tool, value).await,
            Err(e) => Ok(ToolError::from(e).into_result(found.name())),
        }
    }

    /// Runs `tool` with arguments already parsed as JSON.
    pub async fn call_value(
        &self,
        conversation: &str,
        tool: &str,
        args: &Value,
    ) -> Result<ToolResult, ServiceError> {
        self.call_owned(conversation, tool, args.clone()).await
    }

    async fn call_owned(
        &self,
        conversation: &str,
        tool: &str,
        args: Value,
    ) -> Result<ToolResult, ServiceError> {
        let tool = self.profile.find(tool).ok_or_else(|| self.unknown(tool))?;
        // The arguments do not depend on the stored state: check them once,
        // before any load, and not again on a retry.
        match self.profile.repair_and_check_args(tool.name(), args) {
            Ok(args) => self.run(conversation, tool, Prepared::Checked(args)).await,
            Err(error) => Ok(error.into_result(tool.name())),
        }
    }

    /// Runs `tool` on arguments made ready, committing what it changes.
    async fn run(
        &self,
        conversation: &str,
        tool: &dyn Tool,
        mut prepared: Prepared<'_>,
    ) -> Result<ToolResult, ServiceError> {
        let durable = self.store.is_durable();
        let rules = *self.profile.rules();
        let profile_name = self.profile.name();
        // Other processes are kept in line by the store's compare-and-swap;
        // within this one, exclusive tools also wait their turn.
        let _turn = match tool.metadata().exclusive {
            true => Some(self.exclusive(conversation).await),
            false => None,
        };
        let (result, before, committed) = self
            .commit_loop(conversation, |state, now| {
                let ctx = CallContext::shared(state, now, &rules).durable(durable);
                let outcome = match &mut prepared {
                    Prepared::Checked(args) => tool.call(args, &ctx),
                    // The decoded input is used up by the first attempt; a retry
                    // after a conflict decodes the text again.
                    Prepared::Decoded { input, text } => match input.take() {
                        Some(input) => tool.call_decoded(input, &ctx),
                        None => self
                            .profile
                            .run_text(tool.name(), text, &ctx)
                            .unwrap_or_else(|| tool.call(&Value::Null, &ctx)),
                    },
                };
                // Viewers show a list the way the agent that wrote it does.
                let commit = outcome.commit.map(|state| state.profile(profile_name));
                Ok::<_, ServiceError>((commit, outcome.result))
            })
            .await?;
        // Details deferred by the tool are written from the list as
        // committed (or, when nothing was, as it stood), if a host reads them.
        result.details.bind_after(committed.as_ref().unwrap_or(&before));
        Ok(result)
    }

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
    async fn commit_loop<T, E: From<ServiceError>>(
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
            // A version at its maximum cannot move on; wrapping to 0 would
            // make every other writer's compare-and-swap lie.
            let Some(version) = stored.version.checked_add(1) else {
                return Err(ServiceError::VersionExhausted {
                    conversation: conversation.to_owned(),
                }
                .into());
            };
            next.version = version;
            let next = Arc::new(next);
            match self
                .store
                .save_shared(conversation, stored.version, Arc::clone(&next))
                .await
            {
                Ok(()) => {
                    ring_all(&self.alarms, conversation);
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

    fn unknown(&self, tool: &str) -> ServiceError {
        ServiceError::UnknownTool {
            profile: self.profile.name(),
            tool: tool.to_owned(),
            available: self.profile.tool_names(),
        }
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

impl std::fmt::Debug for TodoWriteService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TodoWriteService")
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}
