//! Wire enums: the status (and other) spellings of each profile's format,
//! decoded with errors that list the allowed values, and their schema with
//! the extra spellings a profile forgives listed under `x-aliases`.

use serde::de::{self, Deserializer, Visitor};
use todokit_domain::{Priority, Status};

/// The stored status, for [`crate::status_words!`] in crates that do not
/// name the domain crate.
#[doc(hidden)]
pub use todokit_domain::Status as __Status;

/// A string enum of a wire format.
pub trait WireEnum: Sized + Copy + 'static {
    /// Every canonical spelling with the value it stands for.
    const SPELLINGS: &'static [(&'static str, Self)];

    /// The canonical spelling of this value.
    fn as_str(self) -> &'static str;
}

/// Decodes a [`WireEnum`] from one of its canonical spellings, with errors
/// that list them whatever arrived (serde's derived decoder says "expected
/// string or map" for a number, which tells a model nothing).
pub fn deserialize_wire_enum<'de, D: Deserializer<'de>, T: WireEnum>(deserializer: D) -> Result<T, D::Error> {
    struct Expect<T>(std::marker::PhantomData<T>);

    impl<T: WireEnum> Visitor<'_> for Expect<T> {
        type Value = T;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("one of ")?;
            for (i, (name, _)) in T::SPELLINGS.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "`{name}`")?;
            }
            Ok(())
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::SPELLINGS
                .iter()
                .find(|(name, _)| *name == v)
                .map(|(_, value)| *value)
                .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }

    deserializer.deserialize_str(Expect(std::marker::PhantomData))
}

/// Declares a wire enum: the type, its spellings, serde both ways, and a
/// JSON Schema of `{type: string, enum: [...]}` plus `x-aliases` for the
/// extra spellings the decoding layer maps onto canonical ones.
#[macro_export]
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $spelling:literal ),+ $(,)?
        }
        aliases { $( $alias:literal => $target:ident ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::wire::WireEnum for $name {
            const SPELLINGS: &'static [(&'static str, Self)] = &[ $( ($spelling, $name::$variant) ),+ ];

            fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $spelling ),+
                }
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($crate::wire::WireEnum::as_str(*self))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::wire::deserialize_wire_enum(deserializer)
            }
        }

        impl ::schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let mut schema = ::schemars::json_schema!({
                    "type": "string",
                    "enum": [ $( $spelling ),+ ]
                });
                let aliases: ::serde_json::Map<String, ::serde_json::Value> = [
                    $( ($alias.to_owned(), ::serde_json::Value::from($crate::wire::WireEnum::as_str($name::$target))) ),*
                ]
                .into_iter()
                .collect();
                if !aliases.is_empty() {
                    schema.insert($crate::ALIASES_KEY.to_owned(), ::serde_json::Value::Object(aliases));
                }
                schema
            }
        }
    };
}

/// A dialect's status words: a [`WireEnum`] whose every spelling stands
/// for one stored [`Status`]. Declared with [`crate::status_words!`], which
/// states the table once and derives both directions from it.
pub trait StatusWords: WireEnum + PartialEq {
    /// Each word with the stored status it stands for, in the order the
    /// dialect lists them. A status several words stand for is written as
    /// the first of them.
    const STATUSES: &'static [(Self, Status)];

    /// The stored status this word stands for.
    fn status(self) -> Status {
        Self::STATUSES
            .iter()
            .find(|(word, _)| *word == self)
            .map_or(Status::Pending, |(_, status)| *status)
    }

    /// The word a stored status is written as: its own word, else the word
    /// of its [nearest common status](Status::nearest_common).
    fn word(status: Status) -> Self {
        let own = |wanted: Status| Self::STATUSES.iter().find(|(_, s)| *s == wanted).map(|(w, _)| *w);
        own(status)
            .or_else(|| status.nearest_common().and_then(own))
            // `status_words!` refuses at compile time a table that leaves a
            // status without a word, so this is never reached.
            .unwrap_or(Self::STATUSES[0].0)
    }
}

/// Whether a status table gives every stored status a word, itself or
/// through its nearest common status. Evaluated at compile time by
/// [`crate::status_words!`].
#[doc(hidden)]
pub const fn covers_every_status(table: &[Status]) -> bool {
    let mut s = 0;
    while s < Status::ALL.len() {
        let status = Status::ALL[s];
        let fallback = match status.nearest_common() {
            Some(common) => common as u8,
            None => status as u8,
        };
        let mut found = false;
        let mut i = 0;
        while i < table.len() {
            if table[i] as u8 == status as u8 || table[i] as u8 == fallback {
                found = true;
            }
            i += 1;
        }
        if !found {
            return false;
        }
        s += 1;
    }
    true
}

/// Declares a dialect's status words: a [`wire_enum!`] whose variants each
/// name the stored [`Status`] they stand for (`Cancelled = "cancelled" =>
/// Abandoned`). Decoding, encoding, the schema's enum, the allowed-values
/// error and the forgiven spellings all come from this one table; a table
/// that leaves a stored status without a word does not compile.
#[macro_export]
macro_rules! status_words {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $spelling:literal => $status:ident ),+ $(,)?
        }
        aliases { $( $alias:literal => $target:ident ),* $(,)? }
    ) => {
        $crate::wire_enum! {
            $(#[$meta])*
            pub enum $name {
                $( $(#[$vmeta])* $variant = $spelling ),+
            }
            aliases { $( $alias => $target ),* }
        }

        impl $crate::wire::StatusWords for $name {
            const STATUSES: &'static [(Self, $crate::wire::__Status)] =
                &[ $( ($name::$variant, $crate::wire::__Status::$status) ),+ ];
        }

        const _: () = assert!(
            $crate::wire::covers_every_status(&[ $( $crate::wire::__Status::$status ),+ ]),
            concat!("every stored status needs a word in ", stringify!($name)),
        );

        impl From<$name> for $crate::wire::__Status {
            fn from(word: $name) -> Self {
                $crate::wire::StatusWords::status(word)
            }
        }

        impl From<$crate::wire::__Status> for $name {
            fn from(status: $crate::wire::__Status) -> Self {
                $crate::wire::StatusWords::word(status)
            }
        }
    };
}

status_words! {
    /// The three statuses most agents' todo tools know. A list written
    /// through a richer profile shows blocked tasks as pending and
    /// abandoned ones as completed (they need no more work).
    pub enum TriStatus {
        /// Not started.
        Pending = "pending" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Done.
        Completed = "completed" => Completed,
    }
    aliases {}
}

status_words! {
    /// The common three statuses and `cancelled` (opencode's, Gemini CLI's
    /// before it had `blocked`, Cursor's).
    pub enum CancellableStatus {
        /// Not started.
        Pending = "pending" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Done.
        Completed = "completed" => Completed,
        /// No longer needed.
        Cancelled = "cancelled" => Abandoned,
    }
    aliases { "done" => Completed, "canceled" => Cancelled, "abandoned" => Cancelled, "dropped" => Cancelled }
}

/// The arguments of a tool that replaces the whole list and takes nothing
/// else: `{todos: [...]}`, as most agents' writers take it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
pub struct WholeList<T> {
    /// The complete, updated list. It replaces the stored one.
    pub todos: Vec<T>,
}

/// The arguments of a tool that takes none (a reader): `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, schemars::JsonSchema)]
pub struct NoArguments {}

wire_enum! {
    /// How urgent an item is, in the profiles that track it.
    pub enum WirePriority {
        /// Do first.
        High = "high",
        /// The usual.
        Medium = "medium",
        /// Can wait.
        Low = "low",
    }
    aliases {}
}

impl From<WirePriority> for Priority {
    fn from(priority: WirePriority) -> Self {
        match priority {
            WirePriority::High => Priority::High,
            WirePriority::Medium => Priority::Medium,
            WirePriority::Low => Priority::Low,
        }
    }
}

impl From<Priority> for WirePriority {
    fn from(priority: Priority) -> Self {
        match priority {
            Priority::High => WirePriority::High,
            Priority::Medium => WirePriority::Medium,
            Priority::Low => WirePriority::Low,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde::Deserialize;

    wire_enum! {
        /// A test enum with an alias.
        pub enum Sample {
            /// One.
            One = "one",
            /// Two.
            Two = "two",
        }
        aliases { "uno" => One }
    }

    #[test]
    fn every_stored_status_maps_to_the_nearest_of_three() {
        let fixture = Status::ALL;
        let actual: Vec<TriStatus> = fixture.into_iter().map(TriStatus::from).collect();
        let expected = vec![
            TriStatus::Pending,
            TriStatus::InProgress,
            TriStatus::Pending,
            TriStatus::Completed,
            TriStatus::Completed,
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn decoding_errors_list_the_allowed_values_whatever_arrived() {
        let fixture = [
            serde_json::json!("done"),
            serde_json::json!(3),
            serde_json::json!(null),
        ];
        let actual: Vec<String> = fixture
            .iter()
            .map(|v| {
                TriStatus::deserialize(v)
                    .map(|_| String::new())
                    .unwrap_or_else(|e| e.to_string())
            })
            .collect();
        let expected = vec![
            "invalid value: string \"done\", expected one of `pending`, `in_progress`, `completed`"
                .to_owned(),
            "invalid type: integer `3`, expected one of `pending`, `in_progress`, `completed`".to_owned(),
            "invalid type: null, expected one of `pending`, `in_progress`, `completed`".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn spellings_round_trip_through_serde() {
        let fixture = TriStatus::SPELLINGS;
        let actual: Vec<TriStatus> = fixture
            .iter()
            .map(|(_, v)| serde_json::from_value(serde_json::to_value(v).unwrap()).unwrap())
            .collect();
        let expected: Vec<TriStatus> = fixture.iter().map(|(_, v)| *v).collect();
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_schema_lists_canonical_spellings_and_aliases_apart() {
        let actual = serde_json::to_value(schemars::schema_for!(Sample)).unwrap();
        let expected = serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Sample",
            "type": "string",
            "enum": ["one", "two"],
            "x-aliases": {"uno": "one"}
        });
        assert_eq!(actual, expected);
    }
}

crate::wire_enum! {
    /// The two commands of a tool that either shows the list or replaces
    /// it (Kimi Code's `TodoList`, Mistral Vibe's `todo`).
    pub enum ReadWrite {
        /// Show the stored list.
        Read = "read",
        /// Replace the stored list.
        Write = "write",
    }
    aliases {}
}
