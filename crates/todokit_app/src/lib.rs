//! The application layer of todokit: the service that runs one tool call
//! against a conversation store ([`TodoWriteService`]) and formats what
//! the model reads back ([`ToolOperation`]), the tools' schemas for each
//! target, the agent-loop policy and turn driver, the end-of-turn
//! reminder, and the API a profile is written in ([`prelude`]); the
//! profiles themselves are `todokit_dialects`'.
//!
//! It depends on the domain crate and on two traits it defines for the
//! outside world, [`ConversationContext`] and [`Clock`]; the infra crate
//! implements them.

mod arguments;
pub mod checklist_text;
mod clock;
mod compaction;
mod context;
mod details;
mod list_writer;
mod operation;
pub mod prelude;
mod profile;
mod python_spelling;
mod reminder;
mod replay;
pub mod schema;
mod service;
mod tool;
pub mod turn;
pub mod turn_driver;
pub mod wire;

/// The schema keyword for a wire enum's forgiven spellings; named by
/// [`wire_enum!`] in the crates that invoke it.
#[doc(hidden)]
pub use arguments::ALIASES_KEY;
pub use arguments::{
    ARRAY_SLACK, ArgumentError, CompiledSchema, ITEM_TEXT_BYTES, Leniency, ROOT_FIELD, SizeLimits,
    VALUES_PER_ITEM, case_variant, json_kind, json_string_end, json_values_over, parse_arguments,
};
pub use clock::{Clock, ManualClock};
pub use context::{
    ConnectionUse, ConversationContext, Pruned, StoreError, StoredConversation, Wake, WatchGuard,
};
pub use details::Details;
pub use list_writer::{
    Counts, ListTool, ListWriter, WriterTool, current_details, id_or_position, items_json, list_details,
    read_list, replace_with, todo_with_id, write_list,
};
pub use operation::ToolOperation;
pub use profile::{
    Checked, DEFAULT_NAG_AFTER_ROUNDS, DEFAULT_NAG_TEXT, ExampleCall, Lifecycle, Pin, Profile, Upstream,
};
pub use reminder::{end_of_turn_reminder, stale_list_reminder};
pub use replay::{Replay, replay};
pub use schema::SchemaTarget;
pub use service::{
    Catalog, ConversationSummary, EditRequest, ImportError, MAX_COMMIT_ATTEMPTS, MarkdownCodec, RoundCall,
    SUBSCRIBE_POLL_INTERVAL, ServiceError, Subscription, TodoWriteService, UserAction, UserEdit,
    UserEditError, user_edit_reminder,
};
pub use tool::{
    CallContext, CallOptions, CommandTool, Commands, DecodedInput, HostMode, ModeSet, Outcome, RefusedIn,
    Tool, ToolError, ToolMetadata, ToolResult, TypedTool,
};
pub use turn::{
    CallRecord, Enforcement, Injection, Placement, ReminderKind, TurnConfig, TurnCounters, TurnEnd,
    TurnPolicy,
};

#[cfg(test)]
mod test_support;
