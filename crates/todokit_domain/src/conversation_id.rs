//! What a conversation id may be when a client names it: the one check
//! every surface (the MCP server's `_meta`, header and query, the board's
//! paths, resource URIs, the command line) runs, with one set of words.
//! Stores take any id; the ids a client may name leave out U+0001, which
//! todokit keeps for keys of its own (a conversation's turn record is
//! stored under its id followed by [`crate::turn::TURN_KEY_SUFFIX`]).

/// The longest conversation id a client may name, in bytes.
pub const MAX_CONVERSATION_ID_BYTES: usize = 4096;

/// The character no client id may hold: todokit's own keys carry it.
pub const RESERVED_ID_CHAR: char = '\u{1}';

/// Why a client's conversation id was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversationIdError {
    /// The id is empty.
    #[error("this one is empty")]
    Empty,
    /// The id is longer than [`MAX_CONVERSATION_ID_BYTES`].
    #[error("this one is {0} bytes")]
    TooLong(usize),
    /// The id holds [`RESERVED_ID_CHAR`].
    #[error("this one holds U+0001 at byte {0}")]
    Reserved(usize),
}

/// What a refusal says an id must be, after the place it came from.
pub const CONVERSATION_ID_RULE: &str =
    "must name a conversation in 1 to 4096 bytes of UTF-8 text without U+0001";

/// Checks a conversation id a client named: 1 to
/// [`MAX_CONVERSATION_ID_BYTES`] bytes, no [`RESERVED_ID_CHAR`].
pub fn check_conversation_id(id: &str) -> Result<(), ConversationIdError> {
    if id.is_empty() {
        return Err(ConversationIdError::Empty);
    }
    if id.len() > MAX_CONVERSATION_ID_BYTES {
        return Err(ConversationIdError::TooLong(id.len()));
    }
    match id.find(RESERVED_ID_CHAR) {
        Some(at) => Err(ConversationIdError::Reserved(at)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_client_id_is_one_to_4096_bytes_without_u0001() {
        let long = "a".repeat(MAX_CONVERSATION_ID_BYTES + 1);
        let fixture = ["c1", "", long.as_str(), "c1\u{1}turn", "x\u{1}", "café/1"];
        let actual: Vec<Result<(), String>> = fixture
            .iter()
            .map(|id| check_conversation_id(id).map_err(|e| e.to_string()))
            .collect();
        let expected = vec![
            Ok(()),
            Err("this one is empty".to_owned()),
            Err("this one is 4097 bytes".to_owned()),
            Err("this one holds U+0001 at byte 2".to_owned()),
            Err("this one holds U+0001 at byte 1".to_owned()),
            Ok(()),
        ];
        assert_eq!(actual, expected);
        assert_eq!(
            CONVERSATION_ID_RULE.contains(&MAX_CONVERSATION_ID_BYTES.to_string()),
            true
        );
    }
}
