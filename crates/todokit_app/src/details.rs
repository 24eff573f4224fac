//! The structured details of a tool result: JSON serialized once from
//! typed values and kept as text, so the success path never builds a
//! `serde_json::Value` tree that would only be written out again. Details
//! of a call through the service are written when first read: a host that
//! never looks at them does not pay for them.

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;
use todokit_domain::TodoState;

/// Structured details of one call for a UI or a log, as serialized JSON.
///
/// Serializing a [`crate::tool::ToolResult`] with `serde_json` embeds the text as
/// it is; [`Details::value`] parses it when a host wants to look inside.
/// The details of a call made through [`crate::service::TodoWriteService`] are
/// written the first time anything reads them (and then kept); clones
/// share that one writing.
#[derive(Clone)]
pub struct Details(Kept);

/// How the details are held.
#[derive(Clone)]
enum Kept {
    /// Already written.
    Written(Box<RawValue>),
    /// Written on first read, from the lists the call saw.
    Deferred(Arc<Deferred>),
}

/// Details still to be written, and the text once they are.
struct Deferred {
    text: OnceLock<Box<RawValue>>,
    /// Taken by the one writing, so the lists are let go once written.
    source: Mutex<Option<Source>>,
}

/// What deferred details are written from: the list before the call, the
/// list it left (bound by the service once committed) and the writer.
struct Source {
    before: Arc<TodoState>,
    after: Option<Arc<TodoState>>,
    write: Writer,
}

/// Writes details from the lists before and after a call.
type Writer = Box<dyn FnOnce(&TodoState, &TodoState) -> Details + Send>;

impl Details {
    /// Serializes `value` once. A value that cannot be written as JSON (a
    /// map with non-string keys, say) gives `null`: details never fail a call.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Self {
        match serde_json::value::to_raw_value(value) {
            Ok(raw) => Self(Kept::Written(raw)),
            Err(_) => Self::null(),
        }
    }

    /// `null`: no details.
    pub fn null() -> Self {
        Self(Kept::Written(null_raw()))
    }

    /// Details that `write` gives from the list before the call (`before`)
    /// and the list after it, written when first read. The service binds
    /// the list after with [`Details::bind_after`] once it has committed it;
    /// details never bound are written with `before` on both sides, as for
    /// a call that changed nothing.
    pub(crate) fn deferred(
        before: Arc<TodoState>,
        write: impl FnOnce(&TodoState, &TodoState) -> Details + Send + 'static,
    ) -> Self {
        Self(Kept::Deferred(Arc::new(Deferred {
            text: OnceLock::new(),
            source: Mutex::new(Some(Source {
                before,
                after: None,
                write: Box::new(write),
            })),
        })))
    }

    /// Gives deferred details the list the call left; no effect on details
    /// already written. A host that runs tools through
    /// [`crate::tool::CallContext::shared`] calls it with the list it
    /// committed (or the list before, when the call committed nothing).
    pub fn bind_after(&self, after: &Arc<TodoState>) {
        if let Kept::Deferred(deferred) = &self.0
            && let Some(source) = deferred.lock_source().as_mut()
        {
            source.after = Some(Arc::clone(after));
        }
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.as_raw().get()
    }

    /// The JSON text as a raw value, to embed in a larger message as it is.
    pub fn as_raw(&self) -> &RawValue {
        match &self.0 {
            Kept::Written(raw) => raw,
            Kept::Deferred(deferred) => deferred.text.get_or_init(|| match deferred.lock_source().take() {
                Some(Source { before, after, write }) => {
                    let after = after.as_deref().unwrap_or(&before);
                    write(&before, after).into_raw()
                }
                // The source is taken only inside this initializer, which
                // runs once; `null` keeps even the impossible case panic-free.
                None => null_raw(),
            }),
        }
    }

    /// The written text, owned.
    fn into_raw(self) -> Box<RawValue> {
        match self.0 {
            Kept::Written(raw) => raw,
            deferred @ Kept::Deferred(_) => Self(deferred).as_raw().to_owned(),
        }
    }

    /// The details parsed into a JSON value (`null` if the text were ever
    /// not JSON, which [`Details::of`] rules out).
    pub fn value(&self) -> Value {
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }
}

impl Deferred {
    /// The source, also after a panic elsewhere while it was held (taking it
    /// out cannot leave it half-changed).
    fn lock_source(&self) -> std::sync::MutexGuard<'_, Option<Source>> {
        self.source.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// `null` as a raw value.
fn null_raw() -> Box<RawValue> {
    // `null` is valid JSON, so this cannot fail; the fallback keeps it free
    // of panics all the same.
    RawValue::from_string("null".to_owned()).unwrap_or_else(|_| Box::<RawValue>::default())
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
        self.as_raw().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Details {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(|raw| Self(Kept::Written(raw)))
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

    /// Deferred details that write the tasks' contents before and after,
    /// counting how often they are written.
    fn counted(before: &Arc<TodoState>, writes: &Arc<std::sync::atomic::AtomicUsize>) -> Details {
        let writes = Arc::clone(writes);
        Details::deferred(Arc::clone(before), move |before, after| {
            writes.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let contents = |s: &TodoState| s.tasks().map(|t| t.content.clone()).collect::<Vec<_>>();
            Details::of(&(contents(before), contents(after)))
        })
    }

    fn list(contents: &[&str]) -> Arc<TodoState> {
        Arc::new(TodoState::flat(
            contents.iter().map(|c| todokit_domain::Todo::new(*c)).collect(),
        ))
    }

    #[test]
    fn deferred_details_are_written_once_from_the_bound_lists_and_let_them_go() {
        let (before, after) = (list(&["a"]), list(&["a", "b"]));
        let writes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let fixture = counted(&before, &writes);
        fixture.bind_after(&after);
        let copy = fixture.clone();
        let texts = (fixture.as_str().to_owned(), copy.as_str().to_owned());
        // Binding once written changes nothing.
        fixture.bind_after(&before);
        let actual = (
            texts,
            fixture.as_str().to_owned(),
            writes.load(std::sync::atomic::Ordering::SeqCst),
            Arc::strong_count(&before),
            Arc::strong_count(&after),
        );
        let text = r#"[["a"],["a","b"]]"#.to_owned();
        let expected = ((text.clone(), text.clone()), text, 1, 1, 1);
        assert_eq!(actual, expected);
    }

    #[test]
    fn deferred_details_never_bound_show_the_list_unchanged() {
        let before = list(&["a"]);
        let writes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let fixture = counted(&before, &writes);
        let actual = (fixture.value(), serde_json::to_string(&fixture).unwrap());
        let expected = (serde_json::json!([["a"], ["a"]]), r#"[["a"],["a"]]"#.to_owned());
        assert_eq!(actual, expected);
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
