//! Wire types that several profiles share.

use schemars::JsonSchema;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use todokit_domain::Status;

/// A string enum of a wire format. Decoding one through
/// [`deserialize_wire_enum`] names the allowed spellings in every error,
/// whatever arrived (serde's derived decoder says "expected string or map"
/// for a number, which tells a model nothing).
pub trait WireEnum: Sized + Copy + 'static {
    /// Every spelling accepted, with the value it stands for.
    const SPELLINGS: &'static [(&'static str, Self)];
}

/// Decodes a [`WireEnum`] from a string, with errors that list the allowed
/// values.
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

/// The three statuses most agents' todo tools know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
}

impl WireEnum for TriStatus {
    const SPELLINGS: &'static [(&'static str, Self)] = &[
        ("pending", TriStatus::Pending),
        ("in_progress", TriStatus::InProgress),
        ("completed", TriStatus::Completed),
    ];
}

impl<'de> Deserialize<'de> for TriStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_wire_enum(deserializer)
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
    fn every_spelling_decodes_to_its_value() {
        let fixture = TriStatus::SPELLINGS;
        let actual: Vec<TriStatus> = fixture
            .iter()
            .map(|(name, _)| TriStatus::deserialize(serde_json::json!(name)).unwrap())
            .collect();
        let expected: Vec<TriStatus> = fixture.iter().map(|(_, v)| *v).collect();
        assert_eq!(actual, expected);
    }
}
