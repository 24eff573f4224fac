//! What an agent loop keeps of a conversation between its hooks: the turn
//! record. It is stored beside the list, in the same store under its own
//! key ([`turn_key`]), so a second process, or the same one after a
//! restart, carries on the same turn; it is changed only by the turn
//! driver, and the words it holds are made elsewhere.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// At most this many injections wait in a record for the next request; an
/// older one gives way to a newer (a host that never asks for them does not
/// make the record grow).
pub const MAX_PENDING_INJECTIONS: usize = 32;

/// At most this many call ids of the last round are remembered, each of at
/// most [`MAX_TOLD_ID_BYTES`]; a longer id is not remembered.
pub const MAX_TOLD_IDS: usize = 256;

/// See [`MAX_TOLD_IDS`].
pub const MAX_TOLD_ID_BYTES: usize = 256;

/// What follows a conversation's id in the key its [`TurnRecord`] is
/// stored under, beside the list in the same store: a control character no
/// host types, then `turn`.
pub const TURN_KEY_SUFFIX: &str = "\u{1}turn";

/// The key `conversation`'s turn record is stored under.
pub fn turn_key(conversation: &str) -> String {
    format!("{conversation}{TURN_KEY_SUFFIX}")
}

/// Whether a stored conversation id is a turn record's key (listings leave
/// those out).
pub fn is_turn_key(id: &str) -> bool {
    id.ends_with(TURN_KEY_SUFFIX)
}

/// The conversation whose turn record is stored under `id`, when `id` is a
/// record's key ([`turn_key`] undone).
pub fn record_owner(id: &str) -> Option<&str> {
    id.strip_suffix(TURN_KEY_SUFFIX)
}

/// What happens when the model wants to end its turn with open items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Enforcement {
    /// Nothing: the turn ends.
    Off,
    /// The turn ends and the user is warned that items are still open.
    #[default]
    Soft,
    /// The host keeps looping with a reminder for the model, up to the
    /// maximum number of reminders per user prompt.
    Strict,
}

/// Where an injection goes in the host's next request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Appended to the message that carries the tool results just run.
    AfterToolResults,
    /// As a message of its own before the next request (hidden from the
    /// user where the host can hide it).
    BeforeRequest,
}

/// Why an injection is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReminderKind {
    /// Rounds went by without a todo call.
    Nag,
    /// The last todo call failed.
    StaleList,
    /// The user changed the list by hand.
    UserEdit,
    /// The model tried to stop with open items.
    EndOfTurn,
    /// The host compacted the conversation; the list goes into what is left.
    Compaction,
    /// The list as the profile restates it before every request.
    Context,
}

/// Text for the model, and where it goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(into)]
pub struct Injection {
    /// Where.
    pub placement: Placement,
    /// Why.
    pub kind: ReminderKind,
    /// The text: todokit's own reminders wrapped in `<system-reminder>`
    /// tags, a profile's own words (Hermes' compaction block, Goose's
    /// restated todo) as its agent sends them.
    pub text: String,
}

/// The turn policy's memory of the conversation, serializable so it can be
/// kept with the conversation (or rebuilt from a transcript).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct TurnCounters {
    /// Tool rounds since the last todo call.
    pub rounds_since_todo: usize,
    /// End-of-turn reminders sent since the last user prompt.
    pub end_of_turn_reminders: usize,
    /// The open items when the last end-of-turn reminder was sent.
    pub last_open_set: Option<Vec<String>>,
    /// The todo tool whose last call failed, until the reminder is sent.
    pub stale_tool: Option<String>,
}

/// One conversation's agent-loop state, as the turn driver stores it with
/// the list.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct TurnRecord {
    /// The policy's counters.
    #[serde(default)]
    pub counters: TurnCounters,
    /// What waits for the next model request, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Injection>,
    /// How strict the end of a turn is for this conversation, once a host
    /// said so; `None` for the driver's own setting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_of_turn: Option<Enforcement>,
    /// The ids of the calls of the last round the driver was told of, so a
    /// host that hands over every call it sees is not counted twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub told: Vec<String>,
}

impl TurnRecord {
    /// Queues `injections` for the next request, keeping at most
    /// [`MAX_PENDING_INJECTIONS`] (the oldest give way).
    pub fn queue(&mut self, injections: impl IntoIterator<Item = Injection>) {
        self.pending.extend(injections);
        let over = self.pending.len().saturating_sub(MAX_PENDING_INJECTIONS);
        self.pending.drain(..over);
    }

    /// Remembers `ids` as the last round's, within the bounds.
    pub fn remember_round<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) {
        self.told = ids
            .into_iter()
            .filter(|id| id.len() <= MAX_TOLD_ID_BYTES)
            .take(MAX_TOLD_IDS)
            .map(str::to_owned)
            .collect();
    }

    /// Whether the call `id` was in the last round told.
    pub fn was_told(&self, id: &str) -> bool {
        self.told.iter().any(|told| told == id)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    fn nag(n: usize) -> Injection {
        Injection {
            placement: Placement::AfterToolResults,
            kind: ReminderKind::Nag,
            text: format!("nag {n}"),
        }
    }

    #[test]
    fn a_queue_never_holds_more_than_its_bound_and_keeps_the_newest() {
        let mut record = TurnRecord::default();
        record.queue((0..MAX_PENDING_INJECTIONS + 5).map(nag));
        let actual = (record.pending.len(), record.pending[0].text.clone());
        let expected = (MAX_PENDING_INJECTIONS, "nag 5".to_owned());
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_round_is_remembered_within_its_bounds() {
        let long = "x".repeat(MAX_TOLD_ID_BYTES + 1);
        let mut record = TurnRecord::default();
        record.remember_round(["a", long.as_str(), "b"]);
        let actual = (record.was_told("a"), record.was_told(&long), record.told.len());
        let expected = (true, false, 2);
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_record_reads_back_from_an_empty_object() {
        let actual: TurnRecord = serde_json::from_str("{}").unwrap();
        let expected = TurnRecord::default();
        assert_eq!(actual, expected);
    }
}
