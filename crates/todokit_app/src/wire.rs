//! Wire enums: the status (and other) spellings of each profile's format,
//! decoded with errors that list the allowed values, and their schema with
//! the extra spellings a profile forgives listed under `x-aliases`.

use serde::de::{self, Deserializer, Visitor};
use todokit_domain::{Priority, Status};

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

wire_enum! {
    /// The three statuses most agents' todo tools know.
    pub enum TriStatus {
        /// Not started.
        Pending = "pending",
        /// Being worked on.
        InProgress = "in_progress",
        /// Done.
        Completed = "completed",
    }
    aliases {}
}

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

impl From<TriStatus> for Status {
    fn from(status: TriStatus) -> Self {
        match status {
            TriStatus::Pending => Status::Pending,
            TriStatus::InProgress => Status::InProgress,
            TriStatus::Completed => Status::Completed,
        }
    }
}

impl From<Status> for TriStatus {
    /// The closest of the three for a stored status: a list written through
    /// a richer profile shows blocked tasks as pending and abandoned ones as
    /// completed (they need no more work).
    fn from(status: Status) -> Self {
        match status {
            Status::Pending | Status::Blocked => TriStatus::Pending,
            Status::InProgress => TriStatus::InProgress,
            Status::Completed | Status::Abandoned => TriStatus::Completed,
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
