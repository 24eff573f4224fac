//! Python's spellings of values, for dialects whose tools answer with what
//! Python prints (LangChain's middleware, Mistral Vibe, Hermes): `repr` of
//! a `str`, and `json.dumps` with its default separators.

/// `text` as Python's `repr` of a `str` writes it: in single quotes, or
/// double quotes when it holds a single quote and no double one; `\\`,
/// the quote, `\n`, `\r`, `\t` escaped; other characters Python does not
/// print as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
pub fn python_repr(out: &mut String, text: &str) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let code = c as u32;
                let escaped = match code {
                    0..=0xff => format!("\\x{code:02x}"),
                    0x100..=0xffff => format!("\\u{code:04x}"),
                    _ => format!("\\U{code:08x}"),
                };
                out.push_str(&escaped);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Whether Python's `str.isprintable` holds for `c`, for the characters
/// models send: controls, separators other than the space, and the
/// invisible format characters are not printable.
fn printable(c: char) -> bool {
    !(c.is_control()
        || matches!(
            c,
            '\u{a0}'
                | '\u{ad}'
                | '\u{1680}'
                | '\u{2000}'..='\u{200f}'
                | '\u{2028}'..='\u{202f}'
                | '\u{205f}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{3000}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{e000}'..='\u{f8ff}'
        ))
}

/// `value` as Python's `json.dumps(value, ensure_ascii=False)` writes it:
/// `", "` between items and `": "` after keys, text other than `"`, `\\`
/// and control characters left as it is.
pub fn python_json<T: serde::Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut writer = serde_json::Serializer::with_formatter(&mut out, SpacedFormatter);
    // Writing to a Vec cannot fail, and the values written here are plain
    // data (no maps with non-string keys).
    if value.serialize(&mut writer).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's compact output with Python's default separators.
struct SpacedFormatter;

impl serde_json::ser::Formatter for SpacedFormatter {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn repr(text: &str) -> String {
        let mut out = String::new();
        python_repr(&mut out, text);
        out
    }

    // Python's repr of a str: single quotes unless the text holds a single
    // quote and no double one; backslash, the quote, \n, \r, \t escaped;
    // other unprintable characters as \xNN / \uNNNN; printable non-ASCII
    // kept as is.
    #[test]
    fn strings_are_written_as_pythons_repr_writes_them() {
        let fixture = [
            "plain",
            "it's",
            "say \"hi\"",
            "it's \"x\"",
            "a\\b\nc\td\r",
            "é ✓ 🚀",
            "nb\u{a0}sp zw\u{200b}",
            "\u{7}",
        ];
        let actual: Vec<String> = fixture.iter().map(|t| repr(t)).collect();
        let expected = vec![
            "'plain'",
            "\"it's\"",
            "'say \"hi\"'",
            "'it\\'s \"x\"'",
            "'a\\\\b\\nc\\td\\r'",
            "'é ✓ 🚀'",
            "'nb\\xa0sp zw\\u200b'",
            "'\\x07'",
        ];
        assert_eq!(actual, expected);
    }

    // json.dumps(..., ensure_ascii=False): ", " and ": " separators; quote,
    // backslash and control characters escaped (\n, \u0001), the rest as is.
    #[test]
    fn json_is_written_as_python_dumps_it() {
        let fixture = serde_json::json!({"a": [1, "é\n\u{1}\"", null], "b": {}});
        let actual = python_json(&fixture);
        let expected = r#"{"a": [1, "é\n\u0001\"", null], "b": {}}"#;
        assert_eq!(actual, expected);
    }
}
