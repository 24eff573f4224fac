//! [`TodoWriteService`]: a profile's tool calls over an injected store and
//! clock. What it does lives in the modules beside this one, one job each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use super::alarms::Alarms;
use super::error::ServiceError;
use crate::clock::Clock;
use crate::context::ConversationContext;
use crate::profile::Profile;

/// How a service finds the profile a stored list names (see
/// [`TodoWriteService::with_catalog`]).
pub type Catalog = Arc<dyn Fn(&str) -> Option<Profile> + Send + Sync>;

/// One async lock per conversation, for exclusive tools. Entries whose
/// lock nobody holds or waits for are dropped as new ones are made.
type ConversationLocks = Arc<Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>>;

/// Runs a profile's tool calls over an injected store and clock.
#[derive(Clone)]
pub struct TodoWriteService {
    pub(super) profile: Profile,
    pub(super) store: Arc<dyn ConversationContext>,
    pub(super) clock: Arc<dyn Clock>,
    locks: ConversationLocks,
    pub(super) alarms: Arc<Alarms>,
    pub(super) catalog: Option<Catalog>,
}

impl TodoWriteService {
    /// A service for `profile` over `store`, telling time by `clock`.
    pub fn new(profile: Profile, store: Arc<dyn ConversationContext>, clock: Arc<dyn Clock>) -> Self {
        Self {
            profile,
            store,
            clock,
            locks: ConversationLocks::default(),
            alarms: Arc::default(),
            catalog: None,
        }
    }

    /// This service, finding the profile that wrote a stored list through
    /// `catalog` (usually the dialects' `by_name`), so that
    /// [`TodoWriteService::as_written`] shows a list as its writer does.
    /// Without one, only this service's own profile is known by name.
    pub fn with_catalog(mut self, catalog: impl Fn(&str) -> Option<Profile> + Send + Sync + 'static) -> Self {
        self.catalog = Some(Arc::new(catalog));
        self
    }

    /// A service like this one (profile, clock, catalog) over `store`,
    /// usually a wrapper around this one's own (one that counts commits
    /// for a server's metrics, say). It is a new service: its feeds and
    /// exclusive-call locks are its own.
    pub fn with_store(&self, store: Arc<dyn ConversationContext>) -> Self {
        Self {
            profile: self.profile.clone(),
            store,
            clock: Arc::clone(&self.clock),
            locks: ConversationLocks::default(),
            alarms: Arc::default(),
            catalog: self.catalog.clone(),
        }
    }

    /// The profile called `name`: this service's own, else the catalog's.
    pub fn profile_named(&self, name: &str) -> Option<Profile> {
        if name == self.profile.name() {
            return Some(self.profile.clone());
        }
        self.catalog.as_ref().and_then(|catalog| catalog(name))
    }

    /// Waits for, then holds, the lock that serializes exclusive calls on
    /// `conversation` within this service (and its clones).
    pub(super) async fn exclusive(&self, conversation: &str) -> tokio::sync::OwnedMutexGuard<()> {
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

    pub(super) fn unknown(&self, tool: &str) -> ServiceError {
        ServiceError::UnknownTool {
            profile: self.profile.name(),
            tool: tool.to_owned(),
            available: self.profile.tool_names(),
        }
    }
}

impl std::fmt::Debug for TodoWriteService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TodoWriteService")
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}
