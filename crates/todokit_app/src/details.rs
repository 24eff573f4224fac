//! The structured details of a tool result: JSON serialized once from
//! typed values and kept as text, so the success path never builds a
//! `serde_json::Value` tree that would only be written out again.

use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// Structured details of one call for a UI or a log, as serialized JSON.
///
/// Serializing a [`crate::ToolResult`] with `serde_json` embeds the text as
/// it is; [`Details::value`] parses it when a host wants to look inside.
#[derive(Clone)]
pub struct Details(Box<RawValue>);

impl Details {
    /// Serializes `value` once. A value that cannot be written as JSON (a
    /// map with non-string keys, say) gives `null`: details never fail a call.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Self {
        match serde_json::value::to_raw_value(value) {
            Ok(raw) => Self(raw),
            Err(_) => Self::null(),
        }
    }

    /// `null`: no details.
    pub fn null() -> Self {
        // `null` is valid JSON, so this cannot fail; the fallback keeps it
        // free of panics all the same.
        Self(RawValue::from_string("null".to_owned()).unwrap_or_else(|_| Box::<RawValue>::default()))
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The JSON text as a raw value, to embed in a larger message as it is.
    pub fn as_raw(&self) -> &RawValue {
        &self.0
    }

    /// The details parsed into a JSON value (`null` if the text were ever
    /// not JSON, which [`Details::of`] rules out).
    pub fn value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }
}

impl Default for Details {
    fn default() -> Self {
        Self::null()
    }
}

impl PartialEq for Details {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl fmt::Debug for Details {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Details {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Details {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(Self)
    }
}

impl JsonSchema for Details {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Details".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"description": "Any JSON: the call's structured details."})
    }
}

/// Serializes the items an iterator yields as a JSON array without
/// collecting them first.
pub(crate) struct SeqOf<F>(pub F);

impl<F, I, T> Serialize for SeqOf<F>
where
    F: Fn() -> I,
    I: Iterator<Item = T>,
    T: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[derive(Serialize)]
    struct Sample<'a> {
        name: &'a str,
        items: SeqOf<fn() -> std::ops::Range<u8>>,
    }

    #[test]
    fn typed_values_are_written_once_and_read_back_as_json() {
        let fixture = Details::of(&Sample {
            name: "a",
            items: SeqOf(|| 1..3),
        });
        let actual = (fixture.as_str().to_owned(), fixture.value());
        let expected = (
            r#"{"name":"a","items":[1,2]}"#.to_owned(),
            serde_json::json!({"name": "a", "items": [1, 2]}),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn details_embed_verbatim_in_a_result_and_parse_back() {
        let fixture = Details::of(&serde_json::json!({"k": [true]}));
        let text = serde_json::to_string(&fixture).unwrap();
        let actual: Details = serde_json::from_str(&text).unwrap();
        let expected = fixture;
        assert_eq!((text.as_str(), actual), (r#"{"k":[true]}"#, expected));
    }

    #[test]
    fn unserializable_values_give_null_instead_of_failing() {
        let mut fixture = std::collections::BTreeMap::new();
        fixture.insert(vec![1u8], 2u8);
        let actual = Details::of(&fixture).value();
        let expected = Value::Null;
        assert_eq!(actual, expected);
    }
}
