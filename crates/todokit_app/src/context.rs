//! The conversation store: where each conversation's list lives between
//! calls. The service depends on this trait only; infra provides memory,
//! JSON-file and PostgreSQL implementations.

use std::collections::HashSet;
use std::sync::Arc;

use async_trait::async_trait;
use thiserror::Error;
use todokit_domain::turn::{is_turn_key, record_owner, turn_key};
use todokit_domain::{ListSummary, Timestamp, TodoState};

/// Why a store could not load or save a list.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum StoreError {
    /// Someone else committed first; reload and try again.
    #[error(
        "conversation {conversation:?} changed while this call ran \
         (expected version {expected}, found {found})"
    )]
    Conflict {
        /// The conversation.
        conversation: String,
        /// The version the writer started from.
        expected: u64,
        /// The version now stored.
        found: u64,
    },
    /// Reading or writing failed.
    // The message already carries the underlying error, so it is not also
    // exposed as a source (error reporters would print it twice).
    #[error("could not {action} {location}: {error}")]
    Io {
        /// What was being done ("read", "write", "lock", ...).
        action: &'static str,
        /// Where (a path, a table, ...).
        location: String,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The database refused an operation or could not be reached. The
    /// message carries every cause the driver gave (its own top line is
    /// often only "db error"), so it is not also exposed as a source.
    #[error("could not {action} {location}: {message}{}", code.as_ref().map(|c| format!(" (SQLSTATE {c})")).unwrap_or_default())]
    Database {
        /// What was being done ("read from", "write to", "connect to", ...).
        action: &'static str,
        /// Which database.
        location: String,
        /// What the driver and the server said, causes included.
        message: String,
        /// The SQLSTATE code the server answered with (`40001` a
        /// serialization failure, `53300` too many connections, `57014` a
        /// statement cancelled by its timeout, ...), when it answered: for a
        /// host that retries some and reports others.
        code: Option<String>,
    },
    /// A write was sent but its answer was lost (the connection dropped
    /// after the commit may have been made), and reading the list back did
    /// not tell whether it landed. It may be stored: read the list before
    /// making the change again.
    #[error(
        "could not tell whether the change to conversation {conversation:?} was stored at {location} ({reason}); \
         read the list back before making it again"
    )]
    OutcomeUnknown {
        /// The conversation.
        conversation: String,
        /// Where (a database, ...).
        location: String,
        /// What went wrong with the write, and with reading it back.
        reason: String,
    },
    /// The store cannot do this at all (a host's own store that does not
    /// implement an optional method).
    #[error("this store cannot {operation}")]
    Unsupported {
        /// What was asked ("list its conversations", ...).
        operation: &'static str,
    },
    /// What is stored cannot be understood. It is left exactly as it is.
    #[error(
        "the stored list at {location} cannot be read ({reason}); it was left untouched: \
         repair or remove it"
    )]
    Corrupt {
        /// Where.
        location: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// What a store calls when a watched conversation may have changed.
pub type Wake = std::sync::Arc<dyn Fn() + Send + Sync>;

/// Keeps a [`ConversationContext::watch`] registered; dropping it ends the
/// watch.
pub struct WatchGuard(#[allow(dead_code)] Box<dyn std::any::Any + Send + Sync>);

impl WatchGuard {
    /// A guard that ends its watch when `inner` is dropped.
    pub fn new(inner: impl std::any::Any + Send + Sync) -> Self {
        Self(Box::new(inner))
    }
}

impl std::fmt::Debug for WatchGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WatchGuard")
    }
}

/// Loads and saves each conversation's list, with compare-and-swap on the
/// version so that concurrent writers never lose an update.
#[async_trait]
pub trait ConversationContext: Send + Sync {
    /// The stored list of `conversation`; an empty list at version 0 when
    /// nothing is stored yet.
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError>;

    /// Stores `state` for `conversation` if the stored version is still
    /// `expected`, else fails with [`StoreError::Conflict`] and stores
    /// nothing. A successful save is durable when the store is.
    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError>;

    /// [`ConversationContext::load`], shared: a store that keeps lists in
    /// memory hands out its own copy instead of cloning it. The default
    /// wraps what `load` returns.
    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        self.load(conversation).await.map(Arc::new)
    }

    /// [`ConversationContext::save`], with the state shared: a store that
    /// keeps lists in memory keeps this one instead of cloning it (the
    /// service also keeps it, to write the call's details from). The
    /// default saves by reference.
    async fn save_shared(
        &self,
        conversation: &str,
        expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        self.save(conversation, expected, &state).await
    }

    /// True when a saved list survives the process (a file, a database).
    fn is_durable(&self) -> bool;

    /// Reaches what the store stands on before the first call needs it (a
    /// database's connection and schema), so a front end can say at once
    /// that the store cannot be reached. The default has nothing to reach.
    async fn ready(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Every stored conversation with its [`ListSummary`], in no
    /// particular order. One that cannot be read is listed with its error,
    /// not left out. A store keeps each summary when it commits, so this
    /// reads no list that has not changed since. The default says the
    /// store cannot list (for hosts' own stores written before this method
    /// existed).
    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        Err(StoreError::Unsupported {
            operation: "list its conversations",
        })
    }

    /// The stored conversations whose id starts with `prefix`, as
    /// [`ConversationContext::conversations`] lists them (ids whole, prefix
    /// included). A store that can select them by key range (a database)
    /// overrides this; the default filters the full listing.
    async fn conversations_under(&self, prefix: &str) -> Result<Vec<StoredConversation>, StoreError> {
        let mut listed = self.conversations().await?;
        listed.retain(|conversation| conversation.id.starts_with(prefix));
        Ok(listed)
    }

    /// Removes `conversation`'s stored list and the turn record kept beside
    /// it (under [`turn_key`]) in one step, leaving nothing of either
    /// behind: no reader sees the one gone and the other still there, and
    /// a record made from the list as it was
    /// ([`ConversationContext::save_record`]) cannot land after. With
    /// `changed_before`, only when the list last changed before that time
    /// (milliseconds since the Unix epoch; a record with no list, by its
    /// own time), checked as it is removed, so a list written meanwhile is
    /// kept whole. True when anything was removed, false when nothing was
    /// stored (or it changed since). Its watches and the store-wide ones
    /// are woken; a feed then reads the empty list at version 0, as for a
    /// conversation never written. The default says the store cannot (for
    /// hosts' own stores written before this method existed).
    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        let _ = (conversation, changed_before);
        Err(StoreError::Unsupported {
            operation: "forget conversations",
        })
    }

    /// Every conversation whose id starts with `prefix` and that last
    /// changed before `changed_before`, removed as
    /// [`ConversationContext::forget`] removes one (its turn record with
    /// it; each checked again as it goes, so one written meanwhile is
    /// kept), or with `dry_run` only named. A turn record whose list is
    /// gone goes when it is idle itself, and is not named. A conversation
    /// whose time the store does not know is kept. One that cannot be
    /// removed is reported in [`Pruned::failed`] and the prune goes on
    /// past it; an error means the store could not be listed at all. The
    /// default lists them ([`ConversationContext::conversations_under`])
    /// and forgets each; a store that can remove a batch in one statement
    /// overrides it.
    async fn prune(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        let listed = self.conversations_under(prefix).await?;
        let lists: HashSet<&str> = listed
            .iter()
            .map(|c| c.id.as_str())
            .filter(|id| !is_turn_key(id))
            .collect();
        let mut pruned = Pruned::default();
        for conversation in &listed {
            let id = conversation.id.as_str();
            let owner = record_owner(id);
            let record = owner.is_some();
            let idle = conversation.changed_at.is_some_and(|at| at < changed_before);
            // A record goes with its list, never before it.
            if !idle || owner.is_some_and(|list| lists.contains(list)) {
                continue;
            }
            if dry_run {
                if !record {
                    pruned.forgotten.push(id.to_owned());
                }
                continue;
            }
            match self.forget(id, Some(changed_before)).await {
                Ok(true) if !record => pruned.forgotten.push(id.to_owned()),
                Ok(_) => {}
                Err(error) => pruned.failed.push((id.to_owned(), error)),
            }
        }
        Ok(pruned)
    }

    /// Stores `record` as `conversation`'s turn record (under
    /// [`turn_key`]) when the record's stored version is still `expected`
    /// and the list's is still `list_version` (0: no list), else fails
    /// with [`StoreError::Conflict`] (naming the list when it moved) and
    /// stores nothing: a turn driver's record follows the list it was
    /// made from, and one made from a list since forgotten never lands.
    /// The default checks the list, then saves: not one step, so a forget
    /// between the two can be outlived; a store that can check and write
    /// at once (under one lock, in one statement) overrides it.
    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let found = self.load_shared(conversation).await?.version;
        if found != list_version {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected: list_version,
                found,
            });
        }
        self.save_shared(&turn_key(conversation), expected, record).await
    }

    /// How the store's pool of connections stands now, for a host's
    /// metrics; `None` for a store that pools none (the default).
    fn connections(&self) -> Option<ConnectionUse> {
        None
    }

    /// Calls `wake` whenever `conversation` may have been committed by
    /// another writer (another process, another machine), for as long as
    /// the returned guard lives; `None` when this store cannot tell, and a
    /// live feed then checks it on a timer instead. A wake may be spurious;
    /// the feed reloads and compares versions.
    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        let _ = (conversation, wake);
        None
    }

    /// Calls `wake` whenever any conversation may have been committed or
    /// added, by any writer, for as long as the returned guard lives;
    /// `None` when this store cannot tell. One watch serves every listener
    /// of the store (an overview of all conversations), so it costs the
    /// same for one listener as for many. A wake may be spurious.
    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        let _ = wake;
        None
    }
}

/// What [`ConversationContext::prune`] did.
#[derive(Debug, Default)]
pub struct Pruned {
    /// The conversations removed (on a dry run, that would be), in no
    /// particular order; turn records are not named.
    pub forgotten: Vec<String>,
    /// The conversations that could not be removed, each with why; the
    /// prune went on past them.
    pub failed: Vec<(String, StoreError)>,
}

/// One conversation as a store lists it.
#[derive(Debug)]
pub struct StoredConversation {
    /// The conversation's id.
    pub id: String,
    /// When it last changed (milliseconds since the Unix epoch), where the
    /// store knows.
    pub changed_at: Option<Timestamp>,
    /// Its list's summary, or why the list cannot be read.
    pub summary: Result<ListSummary, StoreError>,
}

/// How a store's pool of connections stands
/// ([`ConversationContext::connections`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConnectionUse {
    /// Connections open now, in use or idle.
    pub open: usize,
    /// Open connections nobody uses now.
    pub idle: usize,
    /// The most the pool opens.
    pub max: usize,
    /// Callers waiting for a connection.
    pub waiting: usize,
}
