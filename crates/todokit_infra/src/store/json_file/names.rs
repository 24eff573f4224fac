//! File names for conversation ids: readable where the id allows it,
//! collision-free always, and the names earlier builds used (so their files
//! are found and moved to the new name).
//!
//! - An id of at most [`MAX_SLUG_CHARS`] lower-case ASCII letters, digits,
//!   `-` and `_` is its own name: `c-default`.
//! - Any other id is a readable slug of it (lower-cased letters and digits
//!   of any script, every run of anything else one `-`, at most
//!   [`MAX_SLUG_CHARS`] characters), a `~`, and 16 hex digits of the id's
//!   SHA-256: `Ünïcode space` is `c-ünïcode-space~3f…`. Plain names have no
//!   `~`, so the two kinds never meet; two ids that differ only in case,
//!   in Unicode normalization or in a stripped character differ in the hash,
//!   so even a case- or normalization-insensitive file system keeps them
//!   apart. The id is stored inside the file too and checked on every read,
//!   so a crafted hash collision is refused, never mixed up.
//! - The `c-` prefix keeps `CON` and the other Windows device names harmless.

use sha2::{Digest, Sha256};

/// The longest slug kept in a file name (in characters), so that names stay
/// well under the 255 bytes file systems allow.
pub const MAX_SLUG_CHARS: usize = 48;

/// Hex digits of the id's SHA-256 in a slugged name.
const HASH_DIGITS: usize = 16;

/// The longest encoding earlier builds used as a name as it was.
const LEGACY_MAX_STEM: usize = 160;

/// The file name (without extension) of `conversation`.
pub fn file_stem(conversation: &str) -> String {
    if conversation.len() <= MAX_SLUG_CHARS && conversation.bytes().all(is_plain) {
        return format!("c-{conversation}");
    }
    let mut slug = String::new();
    for c in conversation.chars().flat_map(char::to_lowercase) {
        if slug.chars().count() >= MAX_SLUG_CHARS {
            break;
        }
        match c {
            c if c.is_alphanumeric() || c == '_' => slug.push(c),
            _ if slug.is_empty() || slug.ends_with('-') => {}
            _ => slug.push('-'),
        }
    }
    let slug = slug.trim_end_matches('-');
    let hash = hex(&Sha256::digest(conversation.as_bytes()));
    format!("c-{slug}~{}", &hash[..HASH_DIGITS])
}

/// The id whose file name is `stem`, when that name is a plain id's (so
/// a file that cannot be read is still listed under its conversation).
pub fn plain_id(stem: &str) -> Option<&str> {
    let id = stem.strip_prefix("c-")?;
    (id.len() <= MAX_SLUG_CHARS && id.bytes().all(is_plain)).then_some(id)
}

/// The name builds before this one gave `conversation`: plain bytes as
/// they are, every other byte `%XX`, and `h-` with the whole SHA-256 when
/// that grew past 160 characters.
pub fn legacy_file_stem(conversation: &str) -> String {
    let mut encoded = String::with_capacity(conversation.len() + 2);
    encoded.push_str("c-");
    for byte in conversation.bytes() {
        if is_plain(byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
        if encoded.len() > LEGACY_MAX_STEM {
            return format!("h-{}", hex(&Sha256::digest(conversation.as_bytes())));
        }
    }
    encoded
}

fn is_plain(byte: u8) -> bool {
    byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-' || byte == b'_'
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn hashed(id: &str, slug: &str) -> String {
        format!("c-{slug}~{}", &hex(&Sha256::digest(id.as_bytes()))[..HASH_DIGITS])
    }

    #[test]
    fn ordinary_ids_read_as_themselves_and_others_as_a_slug_and_a_hash() {
        let fixture = [
            "default",
            "my-project_2",
            "",
            "Ünïcode space",
            "../../etc/x",
            "CON",
            "a/b",
            "日本語 テスト",
        ];
        let actual: Vec<String> = fixture.iter().map(|id| file_stem(id)).collect();
        let expected = vec![
            "c-default".to_owned(),
            "c-my-project_2".to_owned(),
            "c-".to_owned(),
            hashed("Ünïcode space", "ünïcode-space"),
            hashed("../../etc/x", "etc-x"),
            hashed("CON", "con"),
            hashed("a/b", "a-b"),
            hashed("日本語 テスト", "日本語-テスト"),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn ids_that_differ_only_in_case_or_normalization_get_different_names() {
        let fixture = [
            "Release",
            "release",
            "RELEASE",
            "caf\u{e9}",
            "cafe\u{301}",
            "a b",
            "a\tb",
            "a-b",
        ];
        let names: Vec<String> = fixture.iter().map(|id| file_stem(id)).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), fixture.len(), "{names:?}");
    }

    #[test]
    fn names_stay_short_and_hold_no_separator_or_control() {
        let long = "Ä".repeat(10_000);
        let hostile = "..\\..\\x\u{0}\u{1b}[2J\u{202e}/.json";
        let actual: Vec<(bool, bool)> = [long.as_str(), hostile]
            .iter()
            .map(|id| {
                let name = file_stem(id);
                let clean = !name
                    .chars()
                    .any(|c| c.is_control() || matches!(c, '/' | '\\' | '.' | '\u{202e}'));
                (name.len() <= 2 + MAX_SLUG_CHARS * 4 + 1 + HASH_DIGITS, clean)
            })
            .collect();
        assert_eq!(actual, vec![(true, true), (true, true)]);
    }

    #[test]
    fn a_plain_name_gives_back_its_id_and_no_other_name_does() {
        let stems = [
            "c-default",
            "c-a_b-1",
            "c-ünïcode~3f00",
            "c-Upper",
            "h-00ff",
            "default",
            "c-",
        ];
        let actual: Vec<Option<&str>> = stems.iter().map(|stem| plain_id(stem)).collect();
        let expected = vec![Some("default"), Some("a_b-1"), None, None, None, None, Some("")];
        assert_eq!(actual, expected);
    }

    #[test]
    fn legacy_names_are_the_percent_encoding_earlier_builds_wrote() {
        let fixture = ["default", "../../etc/x", "CON", "", "%41", "é"];
        let actual: Vec<String> = fixture.iter().map(|id| legacy_file_stem(id)).collect();
        let expected = vec![
            "c-default",
            "c-%2E%2E%2F%2E%2E%2Fetc%2Fx",
            "c-%43%4F%4E",
            "c-",
            "c-%2541",
            "c-%C3%A9",
        ];
        assert_eq!(actual, expected);
    }
}
