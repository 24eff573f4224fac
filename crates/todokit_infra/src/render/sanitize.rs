//! Making model-written text inert on a terminal.

use std::borrow::Cow;

/// `text` with every character that could steer a terminal replaced by a
/// visible stand-in: C0 controls (including ESC, BEL, CR and LF) by their
/// Unicode control pictures (`␛`, `␇`, `␍`, `␊`), DEL by `␡`, and C1
/// controls, bidirectional overrides and invisible format characters by a
/// `\u{…}` escape. Text without any of them is returned as it is.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(steers_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            c if steers_terminal(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// True for a character that could steer a terminal or hide text from
/// the person reading it: controls, bidirectional overrides and invisible
/// format characters.
pub fn steers_terminal(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2069}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn ordinary_text_is_borrowed_untouched() {
        let fixture = "Ünïcode, emoji 🦀 and `code`";
        let actual = sanitize(fixture);
        let expected: Cow<'_, str> = Cow::Borrowed(fixture);
        assert_eq!((matches!(actual, Cow::Borrowed(_)), actual), (true, expected));
    }

    #[test]
    fn controls_become_visible_and_inert() {
        let fixture = "a\u{1b}[2Jb\u{7}\r\n\t\u{7f}\u{9b}31m\u{202e}rtl\u{200b}";
        let actual = sanitize(fixture).into_owned();
        let expected = "a␛[2Jb␇␍␊␉␡\\u{9b}31m\\u{202e}rtl\\u{200b}";
        assert_eq!(actual, expected);
    }
}
