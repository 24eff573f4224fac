//! A conversation's file: what it holds (its format, the conversation's
//! id, the list, and fields this build does not know, kept through
//! writes), and how one read is checked before it is trusted.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use todokit_app::StoreError;
use todokit_domain::TodoState;

use super::FILE_FORMAT;

/// What one file holds. The id is kept inside so that a hashed file name can
/// be checked against the conversation that asked for it.
#[derive(Debug, Deserialize)]
pub(super) struct StoredFile {
    pub(super) format: u32,
    pub(super) conversation: String,
    pub(super) state: TodoState,
    /// Top-level fields this build does not know, written back as found.
    #[serde(flatten)]
    pub(super) foreign: Map<String, Value>,
}

/// [`StoredFile`] as written, borrowing the list it writes.
#[derive(Serialize)]
pub(super) struct StoredFileOut<'a> {
    pub(super) format: u32,
    pub(super) conversation: &'a str,
    pub(super) state: &'a TodoState,
    #[serde(flatten, serialize_with = "file_foreign")]
    pub(super) foreign: &'a Map<String, Value>,
}

/// A file's top-level foreign fields without those named like the file's
/// own (`format`, `conversation`, `state`), which would be written twice.
fn file_foreign<S: serde::Serializer>(map: &&Map<String, Value>, serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut out = serializer.serialize_map(None)?;
    for (key, value) in map
        .iter()
        .filter(|(key, _)| !matches!(key.as_str(), "format" | "conversation" | "state"))
    {
        out.serialize_entry(key, value)?;
    }
    out.end()
}

/// The one field read when a file does not parse: which layout it has.
#[derive(Deserialize)]
struct FormatHeader {
    format: Option<u32>,
}

/// A stored file's contents, checked: its format is this build's (first,
/// so a newer file is refused as newer, not as a shape this build happens
/// not to know) and its shape is one this build reads whole.
pub(super) fn decode_file(path: &Path, bytes: &[u8]) -> Result<StoredFile, StoreError> {
    // One parse for a good file; the header is read on its own only to say
    // why a file was refused, with the same precedence as before: the
    // format first, then the shape.
    // Text checked as UTF-8 in one pass is parsed without checking each
    // string again; bytes that are not UTF-8 go to `from_slice`, which
    // says where they go wrong.
    let whole = match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str::<StoredFile>(text),
        Err(_) => serde_json::from_slice::<StoredFile>(bytes),
    };
    if let Ok(stored) = &whole
        && stored.format == FILE_FORMAT
    {
        return whole.map_err(|e| corrupt(path, format!("not a todokit list: {e}")));
    }
    let header: FormatHeader =
        serde_json::from_slice(bytes).map_err(|e| corrupt(path, format!("not a todokit list: {e}")))?;
    if header.format != Some(FILE_FORMAT) {
        let format = header
            .format
            .map_or("no file format".to_owned(), |f| format!("file format {f}"));
        return Err(corrupt(
            path,
            format!("{format} is not the format {FILE_FORMAT} this todokit reads"),
        ));
    }
    whole.map_err(|e| corrupt(path, format!("not a todokit list: {e}")))
}

/// [`decode_file`], and the file holds `conversation` (a hashed file name
/// is checked against the id inside).
pub(super) fn check_file(conversation: &str, path: &Path, bytes: &[u8]) -> Result<StoredFile, StoreError> {
    let stored = decode_file(path, bytes)?;
    if stored.conversation != conversation {
        return Err(corrupt(
            path,
            format!(
                "it holds conversation {:?}, not the one asked for",
                todokit_domain::clip(&stored.conversation)
            ),
        ));
    }
    Ok(stored)
}

pub(super) fn corrupt(path: &Path, reason: String) -> StoreError {
    StoreError::Corrupt {
        location: path.display().to_string(),
        reason,
    }
}
