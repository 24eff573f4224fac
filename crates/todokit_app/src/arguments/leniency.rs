//! Which slips in a model's arguments a profile accepts, and the schema
//! extensions that steer the repairs.

use derive_setters::Setters;

/// The schema extension that lists an enum's extra spellings.
pub const ALIASES_KEY: &str = "x-aliases";
/// The schema extension that marks a field holding an id (or ids).
pub const ID_KEY: &str = "x-id";
/// The schema extension that lists a string's allowed values where the
/// model is told them in words rather than by an `enum` (see
/// [`crate::schema::told_values`]); read as `enum` is.
pub const VALUES_KEY: &str = "x-values";
/// The schema extension that marks an object whose unknown keys are
/// refused although its schema does not say so (see
/// [`crate::schema::silently_closed`]); read as `additionalProperties:
/// false` is.
pub const CLOSED_KEY: &str = "x-closed";

/// Field names that models use for a task's text in one tool or another; a
/// missing one of these next to a present one earns a hint.
pub(super) const TEXT_SYNONYMS: [&str; 8] = [
    "content",
    "text",
    "subject",
    "title",
    "description",
    "step",
    "task",
    "name",
];

/// Which unambiguous slips a profile accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Setters)]
pub struct Leniency {
    /// An array or object sent as a string that holds its JSON.
    pub json_in_strings: bool,
    /// `snake_case` where the schema says `camelCase`, and the reverse.
    pub key_case: bool,
    /// An integer where an id string is expected.
    pub numeric_ids: bool,
    /// An enum value in another case, or with `-` or a space for `_`.
    pub enum_spelling: bool,
    /// A key that an object the schema closes (`additionalProperties:
    /// false`) does not list: left out rather than refused. For a profile
    /// whose upstream closes its schema while a client adds keys of its
    /// own to the calls it relays (Gemini CLI's `wait_for_previous`).
    pub unknown_keys: bool,
}

impl Leniency {
    /// Accepts nothing beyond the schema (aliases a type declares still apply).
    pub const NONE: Leniency = Leniency {
        json_in_strings: false,
        key_case: false,
        numeric_ids: false,
        enum_spelling: false,
        unknown_keys: false,
    };

    /// What most profiles accept: JSON in strings, either key case, numeric
    /// ids. Enum values must still be spelled as listed.
    pub const STANDARD: Leniency = Leniency {
        json_in_strings: true,
        key_case: true,
        numeric_ids: true,
        enum_spelling: false,
        unknown_keys: false,
    };
}
