//! The escapes of the extension lines: `\\` a backslash, `\n` a line
//! break, `\r` a carriage return, `\t` a tab, `\s` a space and `\u{hex}`
//! any other character at the start or end of a text (where editors strip
//! whitespace), any control character, and any character that could steer
//! a terminal or hide text ([`steers_terminal`]).

use std::fmt::Write;

use crate::render::steers_terminal;

/// `text` on one line, safe from editors that trim.
pub fn escape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let lead = chars.iter().take_while(|c| c.is_whitespace()).count();
    let trail = chars.len() - chars.iter().rev().take_while(|c| c.is_whitespace()).count();
    let mut out = String::with_capacity(text.len());
    for (i, c) in chars.iter().copied().enumerate() {
        let edge = i < lead || i >= trail.max(lead);
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' ' if edge => out.push_str("\\s"),
            // Invisible and direction-changing characters too, so an export
            // printed on a terminal shows every one of them.
            c if c.is_control() || steers_terminal(c) || (edge && c.is_whitespace()) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// The text an [`escape`]d line stands for.
pub fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('s') => out.push(' '),
            Some('#') => out.push('#'),
            Some('u') => {
                let rest = chars.as_str();
                let decoded =
                    rest.strip_prefix('{')
                        .and_then(|r| r.split_once('}'))
                        .and_then(|(hex, tail)| {
                            Some((char::from_u32(u32::from_str_radix(hex, 16).ok()?)?, tail))
                        });
                let Some((c, tail)) = decoded else {
                    return Err("`\\u` must be followed by `{hex}` naming a character".to_owned());
                };
                out.push(c);
                chars = tail.chars();
            }
            Some(other) => {
                return Err(format!(
                    "unknown escape `\\{other}`: write `\\\\` for a backslash"
                ));
            }
            None => {
                return Err("a line cannot end with a single `\\`: write `\\\\` for a backslash".to_owned());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    #[test]
    fn escapes_name_what_a_line_cannot_hold() {
        let fixture = " a\\b\tc\n\u{7}d ";
        let actual = escape(fixture);
        let expected = "\\sa\\\\b\\tc\\n\\u{7}d\\s";
        assert_eq!(actual, expected);
    }

    proptest! {
        #[test]
        fn escaping_round_trips_any_text(fixture in any::<String>()) {
            let escaped = escape(&fixture);
            prop_assert!(!escaped.contains('\n') && escaped.trim() == escaped);
            prop_assert_eq!(unescape(&escaped), Ok(fixture));
        }
    }
}
