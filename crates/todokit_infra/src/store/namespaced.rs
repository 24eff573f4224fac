//! One tenant's part of a shared store: conversation `ID` is kept as
//! `NAMESPACE/ID` in the store underneath, and the prefix is taken off
//! again on everything that comes back (listings, errors), so two tenants
//! may name a conversation alike without meeting, and neither can name the
//! other's: every id it gives is put under its own prefix.
//!
//! A server that hands this view to someone it does not trust with its
//! own particulars can also veil the store's failures
//! ([`NamespacedStore::veiled`]): the tenant then reads what failed, not
//! where (no path, host, port, database or SQLSTATE), and the server keeps
//! the whole error under a reference the tenant's message carries.

use std::sync::Arc;

use async_trait::async_trait;
use todokit_app::{ConversationContext, Pruned, StoreError, StoredConversation, Wake, WatchGuard};
use todokit_domain::{Timestamp, TodoState};

/// The character between a namespace and a conversation id.
pub const NAMESPACE_SEPARATOR: char = '/';

/// The longest namespace.
pub const MAX_NAMESPACE_BYTES: usize = 32;

/// Whether `namespace` is one a tenant may have: 1 to
/// [`MAX_NAMESPACE_BYTES`] of `a-z 0-9 _ -`, so it never holds the
/// [`NAMESPACE_SEPARATOR`] that ends it in a stored id, nor anything two
/// systems would spell two ways.
pub fn is_namespace(namespace: &str) -> bool {
    (1..=MAX_NAMESPACE_BYTES).contains(&namespace.len())
        && namespace
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// What a veiled store does with a failure the tenant may not read in
/// full: keeps it (a log, say) and returns the reference the tenant's
/// message gives instead (`request r-1a2b3c4d`).
pub type Veil = Arc<dyn Fn(&StoreError) -> String + Send + Sync>;

/// A store that shows one namespace of another store.
#[derive(Clone)]
pub struct NamespacedStore {
    inner: Arc<dyn ConversationContext>,
    /// `NAMESPACE/`.
    prefix: String,
    /// When set, failures are told without their particulars.
    veil: Option<Veil>,
}

impl NamespacedStore {
    /// The `namespace` part of `inner`. The namespace is taken as given:
    /// the caller checks its form (the server admits `[a-z0-9_-]{1,32}`).
    pub fn new(inner: Arc<dyn ConversationContext>, namespace: &str) -> Self {
        Self {
            inner,
            prefix: format!("{namespace}{NAMESPACE_SEPARATOR}"),
            veil: None,
        }
    }

    /// This view, telling the store's failures without where they happened
    /// (paths, hosts, ports, databases, SQLSTATEs): `veil` gets each whole
    /// error first and returns the reference to give instead. Conflicts
    /// and unsupported operations say nothing of the store and pass as
    /// they are.
    pub fn veiled(mut self, veil: Veil) -> Self {
        self.veil = Some(veil);
        self
    }

    /// The id `conversation` has in the store underneath.
    pub fn stored_id(&self, conversation: &str) -> String {
        format!("{}{conversation}", self.prefix)
    }

    /// The tenant's id of a stored one, when it is in this namespace.
    fn local<'a>(&self, stored: &'a str) -> Option<&'a str> {
        stored.strip_prefix(&self.prefix)
    }

    /// `error` as the tenant should read it: ids without the prefix, and
    /// particulars veiled when the view is.
    fn local_error(&self, error: StoreError) -> StoreError {
        let error = self.unprefixed(error);
        let Some(veil) = &self.veil else {
            return error;
        };
        let hidden = |veil: &Veil, error: &StoreError| format!("the server's log has it as {}", veil(error));
        match &error {
            StoreError::Conflict { .. } | StoreError::Unsupported { .. } => error,
            StoreError::Io { action, .. } => StoreError::Io {
                action,
                location: "the store".to_owned(),
                error: std::io::Error::other(hidden(veil, &error)),
            },
            StoreError::Database { action, .. } => StoreError::Database {
                action,
                location: "the database".to_owned(),
                message: hidden(veil, &error),
                code: None,
            },
            StoreError::OutcomeUnknown { conversation, .. } => StoreError::OutcomeUnknown {
                conversation: conversation.clone(),
                location: "the store".to_owned(),
                reason: hidden(veil, &error),
            },
            StoreError::Corrupt { .. } => StoreError::Corrupt {
                location: "the store".to_owned(),
                reason: hidden(veil, &error),
            },
            // A kind of failure this view does not know yet is veiled whole.
            _ => StoreError::Io {
                action: "use",
                location: "the store".to_owned(),
                error: std::io::Error::other(hidden(veil, &error)),
            },
        }
    }

    /// `error` with ids without the prefix.
    fn unprefixed(&self, error: StoreError) -> StoreError {
        match error {
            StoreError::Conflict {
                conversation,
                expected,
                found,
            } => StoreError::Conflict {
                conversation: self.strip(conversation),
                expected,
                found,
            },
            StoreError::OutcomeUnknown {
                conversation,
                location,
                reason,
            } => StoreError::OutcomeUnknown {
                conversation: self.strip(conversation),
                location,
                reason,
            },
            other => other,
        }
    }

    fn strip(&self, conversation: String) -> String {
        match self.local(&conversation) {
            Some(local) => local.to_owned(),
            None => conversation,
        }
    }
}

impl std::fmt::Debug for NamespacedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamespacedStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl ConversationContext for NamespacedStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        let stored = self.stored_id(conversation);
        self.inner.load(&stored).await.map_err(|e| self.local_error(e))
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        let stored = self.stored_id(conversation);
        self.inner
            .save(&stored, expected, state)
            .await
            .map_err(|e| self.local_error(e))
    }

    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        let stored = self.stored_id(conversation);
        self.inner
            .load_shared(&stored)
            .await
            .map_err(|e| self.local_error(e))
    }

    async fn save_shared(
        &self,
        conversation: &str,
        expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let stored = self.stored_id(conversation);
        self.inner
            .save_shared(&stored, expected, state)
            .await
            .map_err(|e| self.local_error(e))
    }

    fn is_durable(&self) -> bool {
        self.inner.is_durable()
    }

    async fn ready(&self) -> Result<(), StoreError> {
        self.inner.ready().await.map_err(|e| self.local_error(e))
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        let listed = self
            .inner
            .conversations_under(&self.prefix)
            .await
            .map_err(|e| self.local_error(e))?;
        Ok(listed
            .into_iter()
            .filter_map(|mut conversation| {
                conversation.id = self.local(&conversation.id)?.to_owned();
                conversation.summary = conversation.summary.map_err(|e| self.local_error(e));
                Some(conversation)
            })
            .collect())
    }

    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        self.inner
            .forget(&self.stored_id(conversation), changed_before)
            .await
            .map_err(|e| self.local_error(e))
    }

    /// Prunes under `NAMESPACE/prefix` only: a tenant names nothing of
    /// another namespace, whatever its prefix.
    async fn prune(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        let pruned = self
            .inner
            .prune(&self.stored_id(prefix), changed_before, dry_run)
            .await
            .map_err(|e| self.local_error(e))?;
        Ok(Pruned {
            forgotten: pruned
                .forgotten
                .iter()
                .filter_map(|id| self.local(id).map(str::to_owned))
                .collect(),
            failed: pruned
                .failed
                .into_iter()
                .filter_map(|(id, error)| Some((self.local(&id)?.to_owned(), self.local_error(error))))
                .collect(),
        })
    }

    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        self.inner
            .save_record(&self.stored_id(conversation), list_version, expected, record)
            .await
            .map_err(|e| self.local_error(e))
    }

    fn connections(&self) -> Option<todokit_app::ConnectionUse> {
        self.inner.connections()
    }

    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        self.inner.watch(&self.stored_id(conversation), wake)
    }

    /// Wakes on a commit in any namespace of the store underneath: a wake
    /// may be spurious, and the listener reads only this namespace.
    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        self.inner.watch_all(wake)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use todokit_domain::Todo;

    use super::*;
    use crate::store::MemoryStore;

    fn listed_ids(listed: Vec<StoredConversation>) -> Vec<String> {
        let mut ids: Vec<String> = listed.into_iter().map(|c| c.id).collect();
        ids.sort();
        ids
    }

    /// A list of one task at version 1 (what a first save stores).
    fn one_todo(content: &str) -> TodoState {
        let mut state = TodoState::flat(vec![Todo::new(content)]);
        state.version = 1;
        state
    }

    #[tokio::test]
    async fn two_namespaces_share_names_without_meeting() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(Arc::clone(&shared), "acme");
        let initech = NamespacedStore::new(Arc::clone(&shared), "initech");
        acme.save("default", 0, &one_todo("acme's")).await.unwrap();
        initech.save("default", 0, &one_todo("initech's")).await.unwrap();
        shared
            .save("plain", 0, &one_todo("the operator's"))
            .await
            .unwrap();

        let actual = (
            acme.load("default")
                .await
                .unwrap()
                .tasks()
                .map(|t| t.content.clone())
                .collect::<String>(),
            initech
                .load("default")
                .await
                .unwrap()
                .tasks()
                .map(|t| t.content.clone())
                .collect::<String>(),
            listed_ids(acme.conversations().await.unwrap()),
            listed_ids(shared.conversations().await.unwrap()),
        );
        let expected = (
            "acme's".to_owned(),
            "initech's".to_owned(),
            vec!["default".to_owned()],
            vec![
                "acme/default".to_owned(),
                "initech/default".to_owned(),
                "plain".to_owned(),
            ],
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_tenant_cannot_climb_out_of_its_namespace() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(Arc::clone(&shared), "acme");
        let initech = NamespacedStore::new(Arc::clone(&shared), "initech");
        initech.save("secret", 0, &one_todo("initech's")).await.unwrap();

        // Naming the other's stored id, or a path up, stays inside acme.
        let actual = (
            acme.load("initech/secret").await.unwrap().version,
            acme.load("../initech/secret").await.unwrap().version,
            listed_ids(shared.conversations_under("acme/").await.unwrap()),
        );
        let expected = (0, 0, Vec::<String>::new());
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_conflict_names_the_tenants_own_id() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(shared, "acme");
        acme.save("default", 0, &one_todo("first")).await.unwrap();

        let actual = acme
            .save("default", 0, &one_todo("second"))
            .await
            .map_err(|e| e.to_string());
        let expected = Err(
            "conversation \"default\" changed while this call ran (expected version 0, found 1)".to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_veiled_view_tells_what_failed_but_not_where() {
        let dir = tempfile::tempdir().expect("temp dir");
        let files = crate::store::JsonFileStore::new(dir.path().join("store"));
        let shared: Arc<dyn ConversationContext> = Arc::new(files);
        let kept = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = Arc::clone(&kept);
        let veil: Veil = Arc::new(move |error: &StoreError| {
            log.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(error.to_string());
            "request r-1".to_owned()
        });
        let acme = NamespacedStore::new(Arc::clone(&shared), "acme").veiled(veil);
        acme.save("plan", 0, &one_todo("first")).await.unwrap();
        // Break the stored file behind the store's back.
        let stored = std::fs::read_dir(dir.path().join("store"))
            .unwrap()
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|path| path.extension().is_some_and(|e| e == "json"))
            .expect("a stored file");
        std::fs::write(&stored, "{ not json").unwrap();
        let told = acme.load("plan").await.map(|_| ()).map_err(|e| e.to_string());
        let kept = kept.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let place = dir.path().display().to_string();
        let actual = (
            told.clone(),
            told.as_ref().err().is_some_and(|text| text.contains(&place)),
            kept.len() == 1 && kept[0].contains(&place),
        );
        let expected = (
            Err("the stored list at the store cannot be read (the server's log has it as request r-1); it was left \
                 untouched: repair or remove it"
                .to_owned()),
            false,
            true,
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_tenant_forgets_and_prunes_only_its_own_conversations() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(Arc::clone(&shared), "acme");
        let initech = NamespacedStore::new(Arc::clone(&shared), "initech");
        for store in [&acme, &initech] {
            store.save("plan", 0, &one_todo("x")).await.expect("saved");
        }
        shared.save("acme-plan", 0, &one_todo("x")).await.expect("saved");
        let later = crate::clock::now_millis() + 1;
        let climbed = (
            acme.forget("../initech/plan", None).await.ok(),
            acme.forget("/initech/plan", None).await.ok(),
        );
        let pruned = acme.prune("", later, false).await.ok().map(|p| p.forgotten);
        let actual = (
            climbed,
            pruned,
            listed_ids(shared.conversations().await.expect("listed")),
        );
        let expected = (
            (Some(false), Some(false)),
            Some(vec!["plan".to_owned()]),
            vec!["acme-plan".to_owned(), "initech/plan".to_owned()],
        );
        assert_eq!(actual, expected);
    }
}
