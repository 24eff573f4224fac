//! todokit: todo-list tools for LLM agents.
//!
//! One state model (phases of tasks with status, notes, priority and active
//! form) served through *profiles*, each speaking the tool shape one agent's
//! models already know. This crate wires the defaults together: pick a
//! profile, a store and a clock, and get a [`TodoWriteService`] that runs tool
//! calls.
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use todokit::Todokit;
//!
//! let service = Todokit::builder()
//!     .profile("claude-code")?
//!     .store_dir("/tmp/todokit-example")
//!     .build()?;
//! let result = service
//!     .call(
//!         "conversation-1",
//!         "TodoWrite",
//!         r#"{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"}]}"#,
//!     )
//!     .await?;
//! assert!(!result.is_error);
//! # Ok(()) }
//! ```
//!
//! # The agent loop
//!
//! `docs/embedding.md` (every block of it a doc test) walks through a host
//! loop; in short:
//!
//! 1. Wire a [`TodoWriteService`] once with [`Todokit::builder`].
//! 2. Send [`TodoWriteService::definitions`] with each request and the
//!    profile's [`Profile::system_prompt`] in the system prompt.
//! 3. Keep one [`TurnPolicy`] per conversation: [`TurnPolicy::before_request`],
//!    [`TurnPolicy::on_tool_results`] and [`TurnPolicy::on_turn_end`] say what
//!    to add to the next request ([`Injection`]) or whether the turn may end
//!    ([`TurnEnd`]); [`TurnPolicy::on_compaction`] puts the list back after a
//!    context compaction, and [`TurnPolicy::context`] restates it before
//!    every request for a profile whose agent does (Goose).
//! 4. Run the model's todo calls with [`TodoWriteService::call`]; a bad
//!    payload is a [`ToolResult`] with `is_error`, not an `Err`.
//! 5. Show the list: [`TodoWriteService::conversations`] and the live feed
//!    [`TodoWriteService::subscribe`]; the user's own edits go through
//!    [`EditList::edit`].

use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;

#[cfg(feature = "acp")]
pub mod acp;
#[cfg(feature = "rig")]
pub mod rig;

/// The application layer a host or a dialect author reaches: the service,
/// tools and their results, profiles and their schemas, the turn policy.
/// Named item by item, so what is public can grow without breaking a host
/// (`todokit_app` itself is not part of the API).
pub mod app {
    /// What a dialect author imports (see `docs/your-own-dialect.md`).
    pub use todokit_app::prelude;
    /// The tool definitions each provider expects.
    pub use todokit_app::schema;
    /// The agent-loop policy: reminders and when a turn may end.
    pub use todokit_app::turn;
    pub use todokit_app::{
        ARRAY_SLACK, ArgumentError, CallContext, CallOptions, CallRecord, Catalog, Checked, Clock,
        CommandTool, Commands, CompiledSchema, ConnectionUse, ConversationContext, ConversationSummary,
        DEFAULT_NAG_AFTER_ROUNDS, DEFAULT_NAG_TEXT, DecodedInput, Details, EditRequest, Enforcement,
        ExampleCall, HostMode, ITEM_TEXT_BYTES, ImportError, Injection, Leniency, Lifecycle,
        MAX_COMMIT_ATTEMPTS, ManualClock, MarkdownCodec, ModeSet, Outcome, Pin, Placement, Profile,
        ROOT_FIELD, RefusedIn, ReminderKind, Replay, RoundCall, SUBSCRIBE_POLL_INTERVAL, SchemaTarget,
        ServiceError, SizeLimits, StoreError, StoredConversation, Subscription, TodoWriteService, Tool,
        ToolError, ToolMetadata, ToolOperation, ToolResult, TurnConfig, TurnCounters, TurnEnd, TurnPolicy,
        TypedTool, Upstream, UserAction, UserEdit, UserEditError, VALUES_PER_ITEM, Wake, WatchGuard,
        end_of_turn_reminder, replay, stale_list_reminder, user_edit_reminder,
    };
    /// Every profile todokit ships (the `todokit_dialects` crate).
    pub use todokit_dialects as profiles;
}

/// Not part of the API: what todokit's own MCP server, command and fuzz
/// targets share with the library (the JSON scanners the size gate runs
/// on a message's text before any tree is built, and the reading of a
/// call's arguments). They may change in any release.
#[doc(hidden)]
pub mod internal {
    pub use todokit_app::{json_kind, json_string_end, json_values_over, parse_arguments};
}

/// The state model: lists, tasks, statuses, limits and the errors a model
/// can act on. Named item by item (`todokit_domain` itself is not part of
/// the API).
pub mod domain {
    pub use todokit_domain::{
        CONVERSATION_ID_RULE, ConversationIdError, MAX_CONVERSATION_ID_BYTES, RESERVED_ID_CHAR,
        check_conversation_id,
    };
    pub use todokit_domain::{
        FieldNames, InProgressPolicy, ItemPath, Limits, ListRules, ListSummary, MAX_LISTED_POSITIONS,
        MAX_QUOTED_CHARS, MAX_REPORTED_VIOLATIONS, Notice, NoticeKind, OutlineEntry, Phase, Priority, Status,
        StatusCounts, Timestamp, Todo, TodoError, TodoField, TodoPatch, TodoState, Transition, UtcTime,
        Violation, Violations, clip, diff, list_some, outline, progress_line,
    };
}

/// The stores, the renderers and the markdown codec. Named item by item
/// (`todokit_infra` itself is not part of the API).
pub mod infra {
    /// The list as oh-my-pi's markdown: `export`, `import`.
    pub use todokit_infra::markdown;
    pub use todokit_infra::render::render;
    pub use todokit_infra::{Format, JsonFileStore, MemoryStore, PiMarkdown, SystemClock};
    /// The list as text for a terminal, markdown or plain; making model
    /// text inert.
    pub mod render {
        pub use todokit_infra::render::{
            AnsiOptions, Format, Glyphs, render, render_ansi, render_markdown, render_plain, sanitize,
            status_styles, steers_terminal,
        };
    }
    /// The stores and their constants.
    pub mod store {
        pub use todokit_infra::store::{
            ABANDONED_AFTER, DEFAULT_READY_CONVERSATIONS, FILE_FORMAT, FOLDER_POLL_INTERVAL, JsonFileStore,
            LAST_FILE_MAX_BYTES, MAX_FILE_WORKERS, MAX_NAMESPACE_BYTES, MAX_SLUG_CHARS, MemoryStore,
            NAMESPACE_SEPARATOR, NamespacedStore, SWEEP_EVERY_SAVES, SWEEP_INTERVAL, is_namespace,
        };
        #[cfg(feature = "postgres")]
        pub use todokit_infra::store::{
            DEFAULT_CONNECT_TIMEOUT, DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT, LISTEN_HEARTBEAT,
            MIGRATION_TIMEOUT, NOTIFY_CHANNEL, PRUNE_BATCH, PostgresStore, SCHEMA_VERSION, tokio_postgres,
        };
    }
}

/// The trait of [`Subscription`], so a host can poll it without naming
/// `futures_core` itself.
pub use futures_core::Stream;
pub use todokit_app::turn::{
    CallRecord, Enforcement, Injection, Placement, ReminderKind, TurnConfig, TurnCounters, TurnEnd,
    TurnPolicy,
};
pub use todokit_app::turn_driver::{Delivery, TurnDriver};
pub use todokit_app::{
    CallOptions, Checked, Clock, ConnectionUse, ConversationContext, ConversationSummary, HostMode,
    ManualClock, Pin, Profile, Pruned, RoundCall, SUBSCRIBE_POLL_INTERVAL, SchemaTarget, ServiceError,
    StoreError, StoredConversation, Subscription, TodoWriteService, ToolResult, Upstream, UserAction,
    UserEdit, UserEditError, Wake, WatchGuard, end_of_turn_reminder,
};
/// Every profile todokit ships: one module per dialect, the registry, and
/// lookup by name (the `todokit_dialects` crate).
pub use todokit_dialects as profiles;
pub use todokit_domain::turn::{TURN_KEY_SUFFIX, TurnRecord, turn_key};
pub use todokit_domain::{ListSummary, Phase, Priority, Status, StatusCounts, Todo, TodoState};
pub use todokit_infra::{Format, JsonFileStore, MemoryStore, SystemClock, render};

/// Hand edits with the markdown the reminder shows the model already
/// chosen (oh-my-pi's checklist, [`infra::PiMarkdown`]), so a host's
/// `/todo done 3` is one call: `service.edit(conversation, action)`.
pub trait EditList {
    /// Applies the user's `action` to `conversation` and queues the
    /// reminder that tells the model; `None` when the list was already so.
    fn edit(
        &self,
        conversation: &str,
        action: UserAction,
    ) -> impl std::future::Future<Output = Result<Option<UserEdit>, UserEditError>> + Send;
}

impl EditList for TodoWriteService {
    fn edit(
        &self,
        conversation: &str,
        action: UserAction,
    ) -> impl std::future::Future<Output = Result<Option<UserEdit>, UserEditError>> + Send {
        self.user_edit(conversation, action, &todokit_infra::PiMarkdown)
    }
}

pub use todokit_infra::store::{
    OpenError, OpenOptions, STORE_ENV, StoreLocation, default_store_dir, open_store,
};

/// Why a service could not be put together.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// No profile has that name.
    #[error("unknown profile {name:?}; the profiles are: {}", available.join(", "))]
    UnknownProfile {
        /// The name asked for.
        name: String,
        /// The names there are.
        available: Vec<&'static str>,
    },
    /// The store could not be opened: none named and no default folder, a
    /// database in a build without its store, or a URL that cannot be
    /// read ([`open_store`]).
    #[error(transparent)]
    Store(#[from] OpenError),
}

/// Entry point for wiring a service.
#[derive(Debug, Clone, Copy)]
pub struct Todokit;

impl Todokit {
    /// A builder with the defaults: the `claude-code` profile, the JSON-file
    /// store in [`default_store_dir`], and the system clock.
    pub fn builder() -> Builder {
        Builder::default()
    }
}

/// Puts a [`TodoWriteService`] together; every part has a default.
#[derive(Default)]
pub struct Builder {
    profile: Option<Profile>,
    store: Option<Arc<dyn ConversationContext>>,
    location: Option<StoreLocation>,
    open_options: OpenOptions,
    clock: Option<Arc<dyn Clock>>,
}

impl Builder {
    /// Uses the profile called `name` with its default rules.
    pub fn profile(mut self, name: &str) -> Result<Self, SetupError> {
        let profile = profiles::by_name(name).ok_or_else(|| SetupError::UnknownProfile {
            name: name.to_owned(),
            available: profiles::names(),
        })?;
        self.profile = Some(profile);
        Ok(self)
    }

    /// Uses `profile` as it is (for example with changed rules).
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = Some(profile);
        self
    }

    /// Uses the store at `location` ([`StoreLocation::parse`] reads one
    /// from a `--store` text), opened by [`open_store`] when the service is
    /// built.
    pub fn location(mut self, location: StoreLocation) -> Self {
        self.location = Some(location);
        self
    }

    /// How the store at the [`location`](Self::location) is opened.
    pub fn open_options(mut self, options: OpenOptions) -> Self {
        self.open_options = options;
        self
    }

    /// Uses the JSON-file store in `dir`.
    pub fn store_dir(self, dir: impl Into<PathBuf>) -> Self {
        self.location(StoreLocation::Folder(dir.into()))
    }

    /// Keeps every list in this process's memory (lost when it exits):
    /// for tests, and for hosts that persist the transcript instead.
    pub fn memory_store(self) -> Self {
        self.location(StoreLocation::Memory)
    }

    /// Uses the PostgreSQL database `url` names (a pool of
    /// [`infra::store::PostgresStore`]'s default size; the first call
    /// connects and migrates). Needs a tokio runtime when calls run. A URL
    /// that cannot be read is refused here.
    #[cfg(feature = "postgres")]
    pub fn store_url(mut self, url: &str) -> Result<Self, SetupError> {
        self.store = Some(open_store(
            &StoreLocation::Database(url.to_owned()),
            &self.open_options,
        )?);
        Ok(self)
    }

    /// Uses `store` instead of a store at a location.
    pub fn store(mut self, store: impl ConversationContext + 'static) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// Uses `clock` instead of the system clock.
    pub fn clock(mut self, clock: impl Clock + 'static) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// The service: over the store given, else the one at the location
    /// given, else the default ([`StoreLocation::or_default`]).
    pub fn build(self) -> Result<TodoWriteService, SetupError> {
        let profile = match self.profile {
            Some(p) => p,
            None => profiles::by_name(profiles::DEFAULT).ok_or_else(|| SetupError::UnknownProfile {
                name: profiles::DEFAULT.to_owned(),
                available: profiles::names(),
            })?,
        };
        let store = match self.store {
            Some(store) => store,
            None => open_store(&StoreLocation::or_default(self.location)?, &self.open_options)?,
        };
        let clock = self.clock.unwrap_or_else(|| Arc::new(SystemClock));
        Ok(TodoWriteService::new(profile, store, clock).with_catalog(profiles::by_name))
    }
}

impl std::fmt::Debug for Builder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("profile", &self.profile)
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[tokio::test]
    async fn the_builder_wires_a_working_service() {
        let service = Todokit::builder()
            .profile("forge")
            .unwrap()
            .store(MemoryStore::new())
            .clock(ManualClock::new(5))
            .build()
            .unwrap();
        let result = service
            .call(
                "c",
                "todo_write",
                r#"{"todos":[{"id":"1","content":"a","status":"in_progress"}]}"#,
            )
            .await
            .unwrap();
        let actual = (result.is_error, service.state("c").await.unwrap());
        let expected = (
            false,
            TodoState::flat(vec![
                Todo::new("a")
                    .id("1")
                    .status(Status::InProgress)
                    .created_at(5u64)
                    .status_changed_at(5u64),
            ])
            .version(1u64)
            .profile("forge"),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_profile_names_the_known_ones() {
        let actual = Todokit::builder()
            .profile("nope")
            .map(|_| ())
            .map_err(|e| e.to_string());
        let expected = Err(format!(
            "unknown profile \"nope\"; the profiles are: {}",
            profiles::names().join(", ")
        ));
        assert_eq!(actual, expected);
    }
}

/// Compiles the README's Rust example as a doc test, so it cannot rot.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Runs every Rust block of `docs/embedding.md` as a doc test.
#[doc = include_str!("../../../docs/embedding.md")]
#[cfg(doctest)]
pub struct EmbeddingDoctests;
